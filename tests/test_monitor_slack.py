"""The slack a search aims at: 0 at an inequality's edge, negative exactly where the
run refutes it, the same whether the run is checked exactly or in floats."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from pla_proof.monitor.slack import tightest
from pla_proof.variants import resolve
from pla_proof.variants.catalog.bugs import BUGS
from pla_proof.variants.checking import run_case
from pla_proof.variants.protocol import Order, orthonormal_cases
from pla_proof.variants.protocol.variant import Case


def test_the_slack_is_scale_free_and_signed() -> None:
    a, b = np.array([1, 2, 3]), np.array([2, 2, 4])
    assert tightest(a, "<=", b) == 0.0
    assert tightest(1000 * a, "<=", 1000 * b) == 0.0
    assert tightest(np.array([3]), "<=", np.array([2])) == pytest.approx(-1 / 3)
    assert tightest(np.array([3]), ">=", np.array([2])) == pytest.approx(1 / 3)
    assert tightest(np.array([0]), "<", np.array([0])) == 0.0
    assert tightest(a, "==", a) is None


def test_huge_integers_keep_their_ratio() -> None:
    big = np.array([3 * 10**500, 10**500], dtype=object)
    assert tightest(big, "<=", big * 2) == pytest.approx(0.5)


def test_the_classic_run_on_orthonormal_points_sits_on_every_edge() -> None:
    """Orthonormal points with u = their sum make every inequality of the proof an
    equality: the tightest slack of each is 0."""
    case = orthonormal_cases([3])[0]
    rec, res = run_case(resolve("classic"), case, Order("cyclic"), aim=True)
    assert not any(res.values())
    for prop in ("G1", "G2", "P_k", "Q_k", "L4", "T"):
        assert rec.tightest[prop] == 0.0, (prop, rec.tightest)


@pytest.mark.parametrize(
    ("bug", "refuted"),
    [("doubled-update", {"G1", "Q_k"}), ("bound-minus-one", {"T"}), ("plus-x", None)],
)
def test_a_refuted_inequality_has_a_negative_slack_and_only_it(
    bug: str, refuted: set[str] | None
) -> None:
    v = BUGS[bug].variant()
    shown = 0
    for case in v.examples():  # (its fixed examples: some show the bug, some do not)
        rec, res = run_case(v, case, Order("cyclic"), aim=True)
        failed = {p for p, f in res.items() if f is not None}
        negative = {p for p, s in rec.tightest.items() if s < 0}
        assert negative == failed & set(rec.tightest), (case, negative, failed)
        if failed:
            shown += 1
            assert refuted is None or refuted <= failed
    assert shown, "no fixed example shows the bug"


def test_exact_and_float_runs_give_the_same_heading() -> None:
    case = Case(
        tuple((Fraction(a), Fraction(b)) for a, b in [(3, 1), (1, 4), (-2, -5), (-4, -1)]),
        (1, 1, -1, -1),
        (Fraction(1), Fraction(1)),
        Fraction(4),
        {},
    )
    exact, _ = run_case(resolve("classic"), case, Order("cyclic"), aim=True)
    fl, _ = run_case(resolve("classic"), case, Order("cyclic"), mode="float", aim=True)
    assert exact.tightest.keys() == fl.tightest.keys()
    for prop, s in exact.tightest.items():
        assert fl.tightest[prop] == pytest.approx(s, abs=1e-9), prop


def test_no_slack_is_kept_unless_a_search_aims() -> None:
    rec, _ = run_case(resolve("classic"), orthonormal_cases([2])[0], Order("cyclic"))
    assert set(rec.tightest) <= {"SEP"}
