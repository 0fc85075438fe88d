"""certify, the Freund-Schapire mistake bound and the running sandwich (exact checks)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from pla_proof.data import from_arrays, load
from pla_proof.errors import InputError
from pla_proof.geometry import (
    SandwichRow,
    certify,
    freund_schapire,
    mistake_bound_holds,
    one_pass,
    optimal_margin,
    running_sandwich,
)
from pla_proof.trainer import train

F = Fraction


def test_certify_separating_weights() -> None:
    c = certify(load("students"), [754, 754, -902, 754, 0, -35])
    assert c.separates and c.first_misclassified is None and c.misclassified == 0
    assert c.gamma_squared == optimal_margin(load("students")).gamma_squared
    assert c.bound == F(465429, 67825)


def test_certify_reports_the_first_misclassified_point() -> None:
    c = certify(load("orthonormal:4"), ["1", "1", "0.5", "-1"])
    # y = (+1, -1, +1, -1): margins 1, -1, 1/2, 1
    assert not c.separates
    assert c.first_misclassified == 1 and c.first_value == -1 and c.misclassified == 1
    assert c.margin == -1 and c.worst == 1 and c.bound is None and c.gamma_squared is None


def test_certify_boundary_point_is_not_separated() -> None:
    c = certify(from_arrays([[1, 0], [0, 1]], [1, 1]), [1, 0])
    assert not c.separates and c.first_misclassified == 1 and c.first_value == 0


def test_certify_zero_weights_and_wrong_length() -> None:
    c = certify(load("orthonormal:2"), [0, 0])
    assert not c.separates and c.first_misclassified == 0 and c.misclassified == 2
    with pytest.raises(InputError, match="3 entries but the data have 2"):
        certify(load("orthonormal:2"), [1, -1, 0])
    with pytest.raises(InputError, match="including the bias"):
        certify(load("students"), [1, 1, 1, 1, 1])
    with pytest.raises(InputError):
        certify(load("orthonormal:2"), ["nan", 1])


def test_certify_agrees_with_the_trainer() -> None:
    for name in ("students", "orthonormal:5", "maxviol:1/5"):
        data = load(name)
        for rule in ("first", "cyclic", "maxviol"):
            run = train(data, rule=rule)
            assert certify(data, run.w).separates == (run.status == "converged")
        # a run cut short does not separate, and certify says so
        short = train(data, budget=1)
        if short.status == "budget_exhausted":
            assert not certify(data, short.w).separates


def test_mistake_bound_comparison_is_exact_at_the_boundary() -> None:
    # ((sqrt(2) + sqrt(2)) / 1)^2 = 8
    assert mistake_bound_holds(8, 2, 1, 1, 2) and not mistake_bound_holds(9, 2, 1, 1, 2)
    # D = 0: the separable bound R^2 |u|^2 / g^2
    assert mistake_bound_holds(4, 1, 4, 1, 0) and not mistake_bound_holds(5, 1, 4, 1, 0)
    # an irrational bound: ((1 + sqrt(3)) / 1)^2 = 4 + 2 sqrt(3) = 7.46...
    assert mistake_bound_holds(7, 1, 1, 1, 3) and not mistake_bound_holds(8, 1, 1, 1, 3)
    with pytest.raises(InputError):
        mistake_bound_holds(1, 1, 1, 0, 1)


def test_freund_schapire_on_xor() -> None:
    fs = freund_schapire(load("xor"), [1, 1, -1], 1)
    assert (fs.mistakes, fs.deficiency_squared, fs.radius_squared, fs.uu) == (3, 6, 3, 3)
    assert fs.holds
    assert fs.bound_float == pytest.approx((3 + 6**0.5) ** 2)


def test_freund_schapire_input_errors() -> None:
    with pytest.raises(InputError):
        freund_schapire(load("xor"), [1, 1], 1)
    with pytest.raises(InputError):
        freund_schapire(load("xor"), [0, 0, 0], 1)
    with pytest.raises(InputError):
        freund_schapire(load("xor"), [1, 1, 1], 0)


def test_one_pass_counts_mistakes() -> None:
    m, w, made = one_pass(load("orthonormal:3"))
    assert m == 3 and made == [0, 1, 2] and w == (1, -1, 1)
    m2, _, _ = one_pass(load("orthonormal:3"), [0, 0, 0])
    assert m2 == 1
    with pytest.raises(InputError):
        one_pass(load("orthonormal:3"), [5])


def test_running_sandwich_holds_on_a_real_run() -> None:
    data = load("maxviol:1/10")
    om = optimal_margin(data)
    run = train(data, rule="maxviol")
    rows = running_sandwich(data, om.u, run.choices)
    assert len(rows) == run.updates and all(r.holds for r in rows)


def test_running_sandwich_rejects_updates_on_non_mistakes() -> None:
    data = from_arrays([[1, 0], [1, 1]], [1, 1])
    # updating on point 1 twice: |w_2|^2 = 4 > 2 R^2 = 4? R^2 = 2, so 4 <= 4 holds;
    # three times: |w_3|^2 = 9 > 3 * 2
    rows = running_sandwich(data, [1, 0], [0, 0, 0])
    assert rows[0].holds and not rows[2].upper and not rows[2].holds


def test_running_sandwich_needs_a_separator() -> None:
    data = load("orthonormal:2")
    rows = running_sandwich(data, [1, -1], [0, 1])
    assert all(r.holds for r in rows)
    with pytest.raises(InputError, match="does not separate"):
        running_sandwich(data, [1, 1], [0])


def test_sandwich_row_checks_each_inequality() -> None:
    ok = SandwichRow(k=2, kg=F(2), uw=F(2), uu=F(1), ww=F(4), kR2=F(4))
    assert ok.holds
    assert not replace(ok, kg=F(3)).lower
    assert not replace(ok, uw=F(3), ww=F(4)).cauchy_schwarz  # 9 > 1 * 4
    assert not replace(ok, ww=F(5)).upper
