"""Float mode raises no false alarm: every run exact arithmetic accepts, float mode accepts.

The float monitor encloses each measurement in a rigorous rounding-error interval and
reports a violation only when a statement fails for every value in the enclosures; on
float data it must therefore never flag a run whose exact twin holds, including data
whose float sums round (large coordinates, mixed binary exponents).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st

from pla_proof.data import from_arrays
from pla_proof.strategies import (
    SeparableCase,
    edge_case_datasets,
    separable_datasets,
    update_orders,
)
from pla_proof.trainer import train

from ._support import CORE, FEW, MAX_BOUND, PINNED, SEEDS, min_margin

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


SCALES = st.sampled_from([-300, -200, -100, -30, -3, 0, 3, 30, 100, 200, 300])


@given(
    case=FLOAT_CASES,
    e=SCALES,
    f=SCALES,
    order=st.sampled_from(["cyclic", "first", "maxviol", "random"]),
    seed=SEEDS,
)
@example(case=PINNED["maxviol:1/10"], e=-300, f=300, order="maxviol", seed=0)
@example(case=PINNED["maxviol:1/10"], e=300, f=-300, order="maxviol", seed=0)
def test_no_false_alarm_at_any_scale_of_the_data_or_the_comparator(
    case: SeparableCase, e: int, f: int, order: str, seed: int
) -> None:
    """Data scaled by 10^e (rounded to float64: a decimal scale is not exact) and the
    comparator by 10^f, from 1e-300 to 1e300: float mode never reports a violation.
    Where an enclosure overflows it reports *undecided*, never "held"."""
    X = [[float(v) * 10.0**e for v in row] for row in case.data.X]
    if not all(math.isfinite(v) for row in X for v in row) or any(
        all(v == 0 for v in row) for row in X
    ):
        return  # the scaled data left float64 (overflow, or a point became 0)
    data = from_arrays(X, list(case.data.y), name="scaled")
    u = [Fraction(v) * Fraction(10) ** f for v in case.u]
    if min_margin(u, data) <= 0:
        return  # rounding the scaled data moved a point across the comparator's plane
    fl = train(data, rule=order, seed=seed, comparator=u, mode="float", budget=3000)
    assert fl.violation is None, fl.violation.describe()
    assert fl.status in ("converged", "undecided"), fl.status
    if fl.status == "undecided":
        assert fl.undecided and "cannot decide" in fl.notes[-1]


@FEW
@given(g=st.integers(2, 7), e=SCALES, f=SCALES)
def test_no_false_alarm_over_runs_of_thousands_of_updates(g: int, e: int, f: int) -> None:
    """Max-violation on (2^-g, 1/2), (2^-g, 1), (2^-g, -1) makes about 2^(2g-1) updates
    (8192 for g = 7), each adding rounding to the float weights."""
    gamma = 2.0**-g
    rows = [[gamma, 0.5], [gamma, 1.0], [gamma, -1.0]]
    X = [[v * 10.0**e for v in row] for row in rows]
    if not all(math.isfinite(v) and v != 0 for row in X for v in row):
        return
    data = from_arrays(X, [1, 1, 1], name="maxviol-scaled")
    u = [Fraction(10) ** f, 0]
    fl = train(data, rule="maxviol", comparator=u, mode="float", budget=10_000)
    assert fl.violation is None, fl.violation.describe()
    assert fl.status in ("converged", "undecided"), fl.status
