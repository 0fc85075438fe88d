"""Non-separable data (Gordan's alternative holds): a run never ends "converged".

Whatever the order, the budget or the arithmetic, a run on data with a Gordan
certificate ends ``not_separable`` (with a certificate of its own that verifies
exactly) or ``budget_exhausted``, after at most ``budget`` updates.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import event, example, given
from hypothesis import strategies as st

from pla_proof.data import load
from pla_proof.strategies import NonSeparableCase, non_separable_datasets, update_orders
from pla_proof.trainer import train

from ._support import CORE, SEEDS

CASES = non_separable_datasets(max_d=5, max_extra=6, kind=None)


def _xor() -> NonSeparableCase:
    data = load("xor")  # (x, 1): 00 and 11 negative, 10 and 01 positive
    return NonSeparableCase(data, (Fraction(1),) * 4, "xor")


@CORE
@given(
    case=CASES,
    order=update_orders(),
    seed=SEEDS,
    budget=st.integers(0, 300),
    mode=st.sampled_from(["exact", "float"]),
)
@example(case=_xor(), order="cyclic", seed=0, budget=300, mode="exact")
@example(case=_xor(), order="maxviol", seed=0, budget=0, mode="float")
def test_non_separable_data_never_converge_and_stop_within_the_budget(
    case: NonSeparableCase, order: Any, seed: int, budget: int, mode: str
) -> None:
    assert case.certificate().verify(case.data)  # the construction's own certificate
    run = train(case.data, rule=order, seed=seed, budget=budget, comparator=None, mode=mode)
    assert run.status in ("not_separable", "budget_exhausted"), run.status
    assert run.updates <= budget
    event(f"pattern: {case.pattern}, status: {run.status}")
    if run.status == "not_separable":
        assert run.certificate is not None and run.certificate.verify(case.data)
    # No comparator can be given either: none separates.
    assert run.violation is None
