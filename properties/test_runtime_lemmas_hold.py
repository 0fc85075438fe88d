"""Every run-time statement of the proof holds at every update, in any order.

The monitor evaluates the proof's own relations (DEF_TRIGGER, A1_j, A2_j, L1..L7, T)
on the measured vectors of each update and SEP on the returned weights; a run with
any failure ends with ``status == "violation"``.  The comparator is the generator's
``u`` (known by construction), the final ``w`` of the run, or any positive
combination of the two.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import event, example, given, note, target
from hypothesis import strategies as st

from pla_proof.strategies import SeparableCase, separable_datasets, update_orders
from pla_proof.trainer import RULES, Run, train

from ._support import CASES, CORE, FEW, PINNED, SEEDS, again, min_margin


def check_runtime_lemmas(
    case: SeparableCase, order: Any, seed: int, trainer: Any = train, **options: Any
) -> Run:
    """The property itself (``trainer`` is replaceable to show that it can fail)."""
    run: Run = trainer(case.data, rule=order, seed=seed, comparator=case.u, **options)
    note(f"status={run.status} updates={run.updates} bound={case.bound} choices={run.choices[:30]}")
    event(f"data: {case.data.name}")
    event(f"order: {order if isinstance(order, str) else 'hypothesis chooser'}")
    event("updates: " + ("1" if run.updates <= 1 else "2-9" if run.updates < 10 else ">= 10"))
    # Random separable data are mostly easy (one update); steer toward long runs.
    target(float(run.updates), label="updates")
    assert run.violation is None, run.violation.describe()
    assert run.status == "converged", run.status
    assert len(run.steps) == run.updates
    return run


def _pin(name: str, order: str = "cyclic") -> example:
    return example(case=PINNED[name], order=order, seed=0)


@CORE
@given(case=CASES, order=update_orders(), seed=SEEDS)
@_pin("single point, d = 1")
@_pin("single negative point", "maxviol")
@_pin("orthonormal:3", "random")
@_pin("maxviol:1/10", "maxviol")
@_pin("students (Lin's slides, bias)")
@_pin("duplicates", "first")
@_pin("one label")
@_pin("near hyperplane", "maxviol")
@_pin("far point", "random")
@_pin("subspace")
@_pin("tiny rational margin", "first")
def test_every_runtime_lemma_holds_at_every_update(
    case: SeparableCase, order: Any, seed: int
) -> None:
    check_runtime_lemmas(case, order, seed)


@FEW
@given(
    case=separable_datasets(
        min_n=50, max_n=300, min_d=1, max_d=12, kind=None, margin=None, max_bound=4000
    ),
    order=st.sampled_from(RULES),
    seed=SEEDS,
)
def test_every_runtime_lemma_holds_on_data_sets_of_hundreds_of_points(
    case: SeparableCase, order: str, seed: int
) -> None:
    check_runtime_lemmas(case, order, seed)


@given(
    case=CASES,
    order=update_orders(),
    seed=SEEDS,
    a=st.fractions(min_value=Fraction(1, 100), max_value=100),
    b=st.fractions(min_value=Fraction(1, 100), max_value=100),
    shrink=st.fractions(min_value=Fraction(1, 1000), max_value=1),
)
@example(
    case=PINNED["orthonormal:3"],
    order="cyclic",
    seed=0,
    a=Fraction(1),
    b=Fraction(1),
    shrink=Fraction(1),
)
def test_every_runtime_lemma_holds_for_every_separating_comparator(
    case: SeparableCase, order: Any, seed: int, a: Fraction, b: Fraction, shrink: Fraction
) -> None:
    """Not only the generator's u: also the returned w (the trainer's ``"final"`` mode and
    w itself), ``a u + b w`` (a positive combination of separators separates), and any
    margin ``gamma`` at or below the comparator's own."""
    first = check_runtime_lemmas(case, order, seed)
    w = first.w
    assert min_margin(w, case.data) > 0
    final = train(case.data, rule=again(order), seed=seed, comparator="final")
    assert final.comparator is not None and final.comparator.source == "final w"
    assert (final.status, final.violation, final.choices) == ("converged", None, first.choices)
    combos = {
        "w": w,
        "a u + b w": tuple(a * p + b * q for p, q in zip(case.u, w, strict=True)),
    }
    for name, v in combos.items():
        g = min_margin(v, case.data) * shrink
        run = train(case.data, rule=again(order), seed=seed, comparator=v, gamma=g)
        assert run.violation is None, f"{name}: {run.violation.describe()}"
        assert (run.status, run.choices) == ("converged", first.choices), name
        assert run.updates * g**2 <= case.data.radius_squared * sum(c * c for c in v), name
