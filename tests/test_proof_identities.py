"""The SymPy checker: general-d rewriting, small-d expansion, and wrong identities rejected."""

from __future__ import annotations

import sympy as sp

from pla_proof.proof.identities import (
    check_identity,
    check_instances,
    lagrange_sos,
    normal_form,
    peel_last,
    reduce_signs,
    unroll,
)
from pla_proof.proof.obligations import all_obligations
from pla_proof.proof.statements import U, W, X, d, i, vector_forms, vsum, y

V = vector_forms()


def test_progress_identity_in_general_d() -> None:
    assert check_identity(V["pu1"], V["pu"] + V["yux"]).status == "proved"


def test_norm_expansion_as_printed_in_seed_000() -> None:
    seed = V["n0"] + 2 * y * vsum(W[i] * X[i]) + y**2 * V["xx"]
    assert check_identity(V["n1"], seed).status == "proved"
    assert check_instances(V["n1"], seed, d, (1, 2, 3, 4)).status == "proved"


def test_wrong_cross_term_sign_is_rejected() -> None:
    wrong = V["n0"] - 2 * y * vsum(W[i] * X[i]) + y**2 * V["xx"]
    general = check_identity(V["n1"], wrong)
    assert general.status == "refuted"
    assert "nonzero" in general.detail  # a concrete counterexample, not just a residual
    assert check_instances(V["n1"], wrong, d, (1, 2, 3, 4)).status == "refuted"


def test_runtime_form_of_l5_needs_y_squared_equal_one() -> None:
    runtime = V["n0"] + 2 * V["t"] + V["xx"]
    assert check_identity(V["n1"], runtime, signs=("y",)).status == "proved"
    without = check_identity(V["n1"], runtime)  # y is any real: y^2 |x|^2 != |x|^2
    assert without.status == "refuted"


def test_progress_identity_with_a_wrong_sign_is_rejected() -> None:
    assert check_identity(V["pu1"], V["pu"] - V["yux"]).status == "refuted"


def test_normal_form_pulls_constants_out_and_merges_sums() -> None:
    a = sp.Symbol("a")
    expr = vsum(a * W[i] + X[i]) - a * vsum(W[i]) - vsum(X[i])
    assert normal_form(expr) == 0
    assert normal_form(vsum(sp.S(3))) == 3 * d


def test_reduce_signs() -> None:
    assert reduce_signs(y**4 * W[1] + y**3, ["y"]) == W[1] + y


def test_peel_last_and_unroll() -> None:
    assert peel_last(vsum(X[i], d + 1)) == vsum(X[i]) + X[d + 1]
    assert unroll(vsum(X[i] * W[i], 2)) == X[1] * W[1] + X[2] * W[2]


def test_sifting_a_kronecker_delta() -> None:
    n, j, p = sp.Symbol("n", integer=True, positive=True), sp.Symbol("j"), sp.Symbol("p")
    f = sp.IndexedBase("f")
    total = sp.Sum(sp.KroneckerDelta(p, j) * f[p], (p, 1, n))
    assert check_identity(total, f[j], sift=True, dims={n: (1, 2)}).status == "proved"
    wrong = check_identity(total, f[j] + 1, sift=True, dims={n: (1, 2)})
    assert wrong.status != "proved"


def test_lagrange_identity_for_small_d_and_a_wrong_one_rejected() -> None:
    for dim in (1, 2, 3, 4):
        a = [U[p] for p in range(1, dim + 1)]
        b = [W[p] for p in range(1, dim + 1)]
        aa = sum(v * v for v in a)
        bb = sum(v * v for v in b)
        ab = sum(p * q for p, q in zip(a, b, strict=True))
        assert sp.expand(aa * bb - ab**2 - lagrange_sos(a, b, dim)) == 0
    a, b = [U[1], U[2]], [W[1], W[2]]
    assert (
        sp.expand(
            (U[1] ** 2 + U[2] ** 2) * (W[1] ** 2 + W[2] ** 2)
            - (U[1] * W[1] + U[2] * W[2]) ** 2
            - (U[1] * W[2] + U[2] * W[1]) ** 2  # wrong sign inside the square
        )
        != 0
    )
    assert lagrange_sos(a, b, 2) == (U[1] * W[2] - U[2] * W[1]) ** 2


def test_every_sympy_obligation_is_proved_and_says_which_dimension() -> None:
    sympy_obs = [ob for ob in all_obligations() if ob.checker == "sympy"]
    scopes = {ob.scope for ob in sympy_obs}
    assert "general d" in scopes and "d = 1..4" in scopes and "general n" in scopes
    for ob in sympy_obs:
        assert ob.check().status == "proved", ob.id


def test_identity_lemmas_are_checked_in_general_and_small_d() -> None:
    by_id = {ob.id: ob for ob in all_obligations()}
    for lem in ("L1", "L5"):
        assert by_id[lem].scope == "general d"
        assert by_id[f"{lem}.d<=4"].scope == "d = 1..4"
