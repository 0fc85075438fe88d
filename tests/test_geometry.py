"""Optimal margin, affine margin and Gordan certificates: exact answers and rejections."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from scipy.optimize import minimize

from pla_proof.data import from_arrays, load
from pla_proof.errors import InputError, SolverError
from pla_proof.geometry import (
    NotSeparable,
    OptimalMargin,
    affine_margin,
    gordan_certificate,
    optimal_comparator,
    optimal_margin,
    separability,
)
from pla_proof.geometry import margin as margin_mod
from pla_proof.geometry.linalg import EchelonBasis, nullspace, solve
from pla_proof.geometry.minnorm import nearest_points
from pla_proof.trainer import Certificate, train

F = Fraction

# --- exact linear algebra ----------------------------------------------------------------


def _det(m: list[list[Fraction]]) -> Fraction:
    n = len(m)
    total = F(0)
    for perm in itertools.permutations(range(n)):
        sign = 1
        for i in range(n):
            for j in range(i + 1, n):
                if perm[i] > perm[j]:
                    sign = -sign
        prod = F(sign)
        for i in range(n):
            prod *= m[i][perm[i]]
        total += prod
    return total


def test_solve_agrees_with_cramer_and_detects_singular_systems() -> None:
    rng = random.Random(3)
    singular = 0
    for _ in range(400):
        n = rng.randint(1, 4)
        m = [
            [F(rng.choice([0, 0, rng.randint(-3, 3)]), rng.randint(1, 3)) for _ in range(n)]
            for _ in range(n)
        ]
        b = [F(rng.randint(-4, 4)) for _ in range(n)]
        x = solve(m, b)
        det = _det(m)
        if det == 0:
            singular += 1
            assert x is None
        else:
            assert x is not None
            for i in range(n):  # Cramer's rule, independently
                mi = [[*row[:i], b[r], *row[i + 1 :]] for r, row in enumerate(m)]
                assert x[i] == _det(mi) / det
    assert singular > 10


def test_nullspace_and_echelon_basis() -> None:
    basis = nullspace([[1, 2, 3], [2, 4, 6]], 3)
    assert len(basis) == 2
    for v in basis:
        assert v[0] + 2 * v[1] + 3 * v[2] == 0
    assert nullspace([[1, 0], [0, 1]], 2) == []
    eb = EchelonBasis()
    assert eb.add([1, 1, 0]) and eb.add([0, 1, 1])
    assert not eb.add([1, 2, 1])  # the sum of the two
    assert not eb.add([0, 0, 0])
    assert eb.add([F(1, 3), 0, 0]) and len(eb) == 3


# --- the exact min-norm solver ------------------------------------------------------------


def test_nearest_point_of_a_segment_and_of_crossing_diagonals() -> None:
    r = nearest_points([(2, 0), (0, 2)])
    assert r.q == (F(1), F(1)) and sorted(r.weights.values()) == [F(1, 2), F(1, 2)]
    r = nearest_points([(0, 0), (2, 2)], [(2, 0), (0, 2)])
    assert r.q == (0, 0)


def test_cold_and_warm_starts_agree_exactly() -> None:
    rng = random.Random(11)
    for _ in range(100):
        d, n = rng.randint(1, 4), rng.randint(1, 9)
        A = [tuple(rng.randint(-4, 4) for _ in range(d)) for _ in range(n)]
        cold = nearest_points(A)
        warm = nearest_points(A, start=[(k, F(1, k + 1)) for k in range(n)])
        assert cold.q == warm.q


def test_iteration_cap_raises_solver_error() -> None:
    A = [(10, 0), (0, 10), (1, 1)]
    with pytest.raises(SolverError, match="did not converge"):
        nearest_points([A[0], A[1], (20, 20)], max_iter=0)
    assert nearest_points(A).q == (1, 1)


# --- the optimal margin -------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 5, 17, 60])
def test_orthonormal_gives_gamma_squared_1_over_n_and_bound_n(n: int) -> None:
    om = optimal_margin(load(f"orthonormal:{n}"))
    assert om.gamma_squared == F(1, n)
    assert om.bound == n
    assert om.u_integer == tuple(1 if i % 2 == 0 else -1 for i in range(n))
    assert om.verify(load(f"orthonormal:{n}"))


def test_students_tight_bound() -> None:
    data = load("students")
    om = optimal_margin(data)
    assert om.gamma_squared == F(67825, 929)
    assert om.radius_squared == 501
    assert om.bound == F(465429, 67825)
    assert om.u_integer == (754, 754, -902, 754, 0, -35)
    # every rule stays within it (the monitor checks every step against u*)
    for rule in ("first", "cyclic", "random", "maxviol"):
        run = train(data, rule=rule, comparator=om.comparator(data))
        assert run.status == "converged" and run.updates <= om.bound


def test_maxviol_margin_is_exact() -> None:
    om = optimal_margin(load("maxviol:1/10"))
    assert om.u == (F(1, 10), F(0)) and om.bound == 101


def test_optimal_margin_matches_an_independent_float_solver() -> None:
    rng = np.random.default_rng(5)
    for _ in range(6):
        d, n = int(rng.integers(2, 5)), int(rng.integers(3, 12))
        u = rng.integers(-3, 4, size=d)
        if not u.any():
            u[0] = 1
        X: np.ndarray = rng.integers(-6, 7, size=(n, d))
        y = np.where(X @ u > 0, 1, -1)
        X = X + (y[:, None] * u[None, :])  # push off the hyperplane: margin >= |u|^2
        data = from_arrays(X, y)
        om = optimal_margin(data)
        scale = float(np.abs(X).max())
        Z = y[:, None] * X / scale
        res = minimize(
            lambda lam, Z=Z: float(np.sum((Z.T @ lam) ** 2)),
            np.full(n, 1.0 / n),
            jac=lambda lam, Z=Z: 2 * Z @ (Z.T @ lam),
            method="SLSQP",
            bounds=[(0, 1)] * n,
            constraints=[{"type": "eq", "fun": lambda lam: lam.sum() - 1}],
            options={"ftol": 1e-15, "maxiter": 1000},
        )
        assert res.success, res.message
        found = res.fun * scale**2
        assert float(om.gamma_squared) == pytest.approx(found, rel=1e-5)
        assert float(om.gamma_squared) <= found * (1 + 1e-9)  # the exact optimum is never worse


def test_verify_rejects_wrong_answers() -> None:
    data = load("orthonormal:4")
    om = optimal_margin(data)
    assert om.verify(data)
    # a shorter u (not the hull point the weights give)
    assert not replace(om, u=tuple(v / 2 for v in om.u)).verify(data)
    # weights that do not sum to 1 / are negative
    assert not replace(om, weights=(F(1, 2), F(1, 2), F(0), F(0))).verify(data)
    assert not replace(om, weights=(F(1, 2), F(1, 2), F(1, 2), F(-1, 2))).verify(data)
    # a hull point that is not the nearest: optimality check fails
    bad_w = (F(1, 2), F(1, 6), F(1, 6), F(1, 6))
    p = tuple(w * yi * x[i] for i, (w, x, yi) in enumerate(zip(bad_w, data.X, data.y, strict=True)))
    assert not replace(om, u=p, weights=bad_w).verify(data)
    # wrong radius
    assert not replace(om, radius_squared=F(2)).verify(data)


def test_optimal_comparator_and_strict_gamma() -> None:
    data = load("orthonormal:3")
    comp = optimal_comparator(data)
    assert comp is not None and comp.source == "optimal u*" and comp.bound == 3
    strict = optimal_comparator(data, strict=True)
    assert strict is not None and strict.gamma == F(1, 6)
    assert optimal_comparator(load("xor")) is None


# --- certificates --------------------------------------------------------------------------


def test_xor_with_bias_gives_the_exact_lp_certificate() -> None:
    data = load("xor")
    cert = separability(data)
    assert isinstance(cert, Certificate) and cert.source == "lp"
    assert cert.alpha == (1, 1, 1, 1) and cert.verify(data)
    assert sum(a * yi for a, yi in zip(cert.alpha, data.y, strict=True)) == 0
    with pytest.raises(NotSeparable) as info:
        optimal_margin(data)
    assert info.value.certificate.verify(data)
    lp = gordan_certificate(data)
    assert lp is not None and lp.verify(data)


def test_zero_point_certificate_and_all_zero_data() -> None:
    data = from_arrays([[1, 2], [0, 0], [3, 1]], [1, 1, -1])
    cert = separability(data)
    assert isinstance(cert, Certificate)
    assert cert.source == "zero point" and cert.alpha == (0, 1, 0) and cert.verify(data)
    allzero = from_arrays([[0, 0], [0, 0]], [1, -1])
    cert = separability(allzero)
    assert isinstance(cert, Certificate) and cert.verify(allzero)


def test_cycle_and_lp_certificates_both_verify() -> None:
    rng = random.Random(2)
    checked = 0
    for _ in range(60):
        d, n = rng.randint(1, 3), rng.randint(2, 7)
        X = [[rng.randint(-3, 3) for _ in range(d)] for _ in range(n)]
        y = [rng.choice([-1, 1]) for _ in range(n)]
        data = from_arrays(X, y, bias="augment")
        run = train(data, rule="cyclic", budget=5000)
        res = separability(data)
        if run.status == "not_separable":
            assert run.certificate is not None and run.certificate.source == "cycle"
            assert run.certificate.verify(data)
            assert isinstance(res, Certificate) and res.verify(data)
            checked += 1
        elif run.status == "converged":
            assert isinstance(res, OptimalMargin) and run.updates <= res.bound
    assert checked >= 10


def test_certificate_verify_rejects_wrong_alphas() -> None:
    data = load("xor")
    assert not Certificate((F(1), F(1), F(1), F(0)), "lp").verify(data)
    assert not Certificate((F(0),) * 4, "lp").verify(data)
    assert not Certificate((F(2), F(2), F(2), F(-2)), "lp").verify(data)


def test_separable_answers_are_never_certificates_and_vice_versa() -> None:
    assert gordan_certificate(load("students")) is None
    assert isinstance(separability(load("students")), OptimalMargin)


def test_lp_failure_falls_back_to_the_exact_method(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(margin_mod, "_lp_alpha", lambda Zf: None)
    data = load("xor")
    cert = separability(data)
    assert isinstance(cert, Certificate) and cert.source == "min-norm" and cert.verify(data)
    assert gordan_certificate(data) is not None


def test_lp_garbage_is_not_trusted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(margin_mod, "_lp_alpha", lambda Zf: np.array([0.9, 0.05, 0.05, 0.0]))
    data = load("xor")
    cert = separability(data)
    assert isinstance(cert, Certificate) and cert.verify(data) and cert.source == "min-norm"


def test_numeric_solver_failure_still_gives_the_exact_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(margin_mod, "_ldp_weights", lambda Zf: None)
    assert optimal_margin(load("orthonormal:6")).bound == 6


def test_non_convergence_is_a_solver_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(margin_mod, "_ldp_weights", lambda Zf: None)
    with pytest.raises(SolverError):
        separability(load("orthonormal:6"), max_iter=0)


def test_bad_exact_answer_is_a_solver_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(OptimalMargin, "verify", lambda self, data: False)
    with pytest.raises(SolverError, match="exact optimality check"):
        separability(load("orthonormal:3"))


# --- the affine margin ------------------------------------------------------------------


def test_students_affine_margin_and_augmented_bound() -> None:
    data = load("students")
    am = affine_margin(data)
    assert am is not None and am.exact and am.verify(data)
    assert am.u == (10, 10, -5, 10, 0) and am.theta == F(-175, 2)
    assert am.gamma_squared == F(325, 4) and am.theta_squared_unit == F(1225, 52)
    assert am.radius_squared == 500 and am.c == 1
    assert am.augmented_bound == (500 + 1) * (1 + F(1225, 52)) / F(325, 4)
    assert am.augmented_bound >= optimal_margin(data).bound
    # a wrong offset is rejected
    assert not replace(am, theta=am.theta + 1).verify(data)
    assert not replace(am, u=tuple(F(v) for v in (10, 10, -5, 10, 1))).verify(data)


def test_affine_margin_edge_cases() -> None:
    with pytest.raises(InputError, match="bias"):
        affine_margin(load("orthonormal:3"))
    assert affine_margin(from_arrays([[1, 2], [3, 4]], [1, 1], bias="augment")) is None
    with pytest.raises(NotSeparable) as info:
        affine_margin(load("xor"))
    assert info.value.certificate.verify(load("xor"))


def test_affine_margin_of_one_dimensional_data() -> None:
    data = from_arrays([[0], [1], [3], [4]], [-1, -1, 1, 1], bias="augment:2")
    am = affine_margin(data)
    assert am is not None
    assert am.u == (2,) and am.theta == -4  # threshold at 2, margin 1 on the unit u
    assert am.gamma_squared == 1 and am.c == 2


def test_the_cold_start_on_small_data_agrees_with_the_scipy_warm_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # small data skip SciPy (its import costs more than the exact method takes): the
    # exact optimum is the same as the one the NNLS warm start reaches
    rng = random.Random(5)
    compared = 0
    for _ in range(40):
        d, n = rng.randint(1, 4), rng.randint(2, 9)
        X = [[rng.randint(-6, 6) for _ in range(d)] for _ in range(n)]
        u = [rng.randint(-3, 3) or 1 for _ in range(d)]
        y = [1 if sum(a * b for a, b in zip(x, u, strict=True)) >= 0 else -1 for x in X]
        data = from_arrays(X, y)
        assert margin_mod.starts_cold(data.n, data.d)
        cold = separability(data)
        with monkeypatch.context() as m:
            m.setattr(margin_mod, "COLD_START_SIZE", 0)
            warm = separability(data)
        assert type(cold) is type(warm)
        if isinstance(cold, OptimalMargin):
            assert isinstance(warm, OptimalMargin)
            assert cold.u == warm.u and cold.margin == warm.margin and cold.bound == warm.bound
            assert "cold start" in cold.method and "scipy" in warm.method
            compared += 1
        else:
            assert cold.verify(data) and warm.verify(data)
    assert compared >= 20


def test_the_start_follows_the_dimension(monkeypatch: pytest.MonkeyPatch) -> None:
    """2,000 x 12 starts cold (it takes less than importing SciPy), 100 x 50 warm (the
    cold start's cost grows with d^3): the same exact optimum either way."""
    rng = np.random.default_rng(1)
    for n, d, cold_start in ((2000, 12, True), (100, 50, False)):
        X = rng.integers(-50, 51, size=(n, d))
        X[:, 0] = np.where(X[:, 0] >= 0, X[:, 0] + 1, X[:, 0])
        data = from_arrays(X, np.sign(X[:, 0]))
        first = separability(data)
        assert isinstance(first, OptimalMargin)
        assert ("cold start" in first.method) is cold_start, first.method
        with monkeypatch.context() as m:  # the other start
            m.setattr(margin_mod, "COLD_START_SIZE", 10**9 if not cold_start else 0)
            m.setattr(margin_mod, "COLD_START_WORK", 10**18)
            other = separability(data)
        assert isinstance(other, OptimalMargin)
        assert ("cold start" in other.method) is not cold_start, other.method
        assert (first.u, first.margin, first.bound) == (other.u, other.margin, other.bound)
