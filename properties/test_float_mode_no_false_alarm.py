"""Float mode raises no false alarm: every run exact arithmetic accepts, float mode accepts.

The float monitor encloses each measurement in a rigorous rounding-error interval and
reports a violation only when a statement fails for every value in the enclosures; on
float data it must therefore never flag a run whose exact twin holds, including data
whose float sums round (large coordinates, mixed binary exponents).
"""

from __future__ import annotations

from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st

from pla_proof.strategies import (
    SeparableCase,
    edge_case_datasets,
    separable_datasets,
    update_orders,
)
from pla_proof.trainer import train

from ._support import CORE, MAX_BOUND, PINNED, SEEDS, min_margin

FLOAT_CASES = st.one_of(
    separable_datasets(max_n=12, max_d=5, kind="float", margin=None, max_bound=MAX_BOUND),
    separable_datasets(
        max_n=12, max_d=5, max_coord=2**30, kind="float", margin=None, max_bound=MAX_BOUND
    ),
    edge_case_datasets(max_n=8, max_d=5, kind="float", max_bound=MAX_BOUND),
)


@CORE
@given(case=FLOAT_CASES, order=update_orders(), seed=SEEDS)
@example(case=PINNED["maxviol:1/10"], order="maxviol", seed=0)
@example(case=PINNED["near hyperplane"], order="cyclic", seed=0)
def test_float_mode_accepts_every_run_exact_arithmetic_accepts(
    case: SeparableCase, order: Any, seed: int
) -> None:
    exact = train(case.data, rule=order, seed=seed, comparator=case.u)
    assert exact.status == "converged" and exact.violation is None
    fl = train(case.data, rule=order, seed=seed, comparator=case.u, mode="float")
    assert fl.violation is None, fl.violation.describe()
    assert fl.status == "converged", fl.status
    assert min_margin(fl.w, case.data) > 0  # the float weights separate, checked exactly
