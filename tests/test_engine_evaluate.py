"""The compiled evaluator of the monitor's relations: enclosures and residues."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from pla_proof.engine.residues import Residues, primes
from pla_proof.monitor.relations import Exact, Interval, Relation
from pla_proof.proof.runtime import tree_symbols
from pla_proof.proof.statements import GENERIC_LEMMAS, RUNTIME_LEMMAS, Lemma

LEMMAS = [(lem, strict) for lem in (*RUNTIME_LEMMAS, *GENERIC_LEMMAS) for strict in (False, True)]


def _tree(lem: Lemma, strict: bool) -> tuple[Any, Any]:
    from pla_proof.monitor.relations import _form

    lhs, _op, rhs = _form(lem, strict)
    return lhs, rhs


def _fold(e: Any, v: dict[str, Any], point: Any) -> Any:
    """The tree folded in the order the monitor folds it, with ``point`` for constants:
    Interval arithmetic (the definition the compiled code follows) or Fractions."""
    tag = e[0]
    if tag == "sym":
        return v[e[1]]
    if tag == "num":
        return point(Fraction(int(e[1]), int(e[2])))
    if tag in ("add", "mul"):
        out = _fold(e[1], v, point)
        for a in e[2:]:
            x = _fold(a, v, point)
            out = out + x if tag == "add" else out * x
        return out
    x = _fold(e[1], v, point)
    if isinstance(x, Interval) and int(e[2]) == 2:
        return x.square()
    out = x
    for _ in range(int(e[2]) - 1):
        out = out * x
    return out


def _random_enclosures(names: tuple[str, ...], K: int, seed: int) -> dict[str, Interval]:
    rng = np.random.default_rng(seed)
    out = {}
    for s, name in enumerate(names):
        if s == 0 and len(names) > 1:  # one symbol a single value, as the constants are
            a = float(rng.standard_normal() * 10)
            out[name] = Interval(a, a + abs(a) * 1e-9)
            continue
        lo = rng.standard_normal(K) * np.exp2(rng.integers(-40, 40, size=K))
        width = np.abs(rng.standard_normal(K)) * np.exp2(rng.integers(-60, 10, size=K))
        lo[rng.random(K) < 0.05] = 0.0
        hi = lo + width
        hi[rng.random(K) < 0.03] = np.inf
        lo[rng.random(K) < 0.03] = -np.inf
        lo[rng.random(K) < 0.02] = np.nan
        out[name] = Interval(lo, hi)
    return out


@pytest.mark.parametrize("lem, strict", LEMMAS, ids=[f"{a.id}-{b}" for a, b in LEMMAS])
def test_compiled_enclosures_are_the_interval_arithmetic_bit_for_bit(
    lem: Lemma, strict: bool
) -> None:
    rel = Relation.of(lem, strict=strict)
    lhs, rhs = _tree(lem, strict)
    for seed in range(3):
        values = _random_enclosures(rel.symbols, 200, seed)
        got_l, got_r = rel.interval(values)
        with np.errstate(all="ignore"):
            want_l, want_r = _fold(lhs, values, Interval.point), _fold(rhs, values, Interval.point)
        for got, want in ((got_l, want_l), (got_r, want_r)):
            for g, w in ((got.lo, want.lo), (got.hi, want.hi)):
                w = np.broadcast_to(np.asarray(w, dtype=float), (200,))
                np.testing.assert_array_equal(g, w)  # (NaN where NaN)


@pytest.mark.parametrize("lem, strict", LEMMAS[::3], ids=[f"{a.id}-{b}" for a, b in LEMMAS[::3]])
def test_the_enclosures_contain_the_exact_values(lem: Lemma, strict: bool) -> None:
    rel = Relation.of(lem, strict=strict)
    lhs, rhs = _tree(lem, strict)
    rng = np.random.default_rng(1)
    K = 50
    ends = {n: np.sort(rng.standard_normal((2, K)) * 100, axis=0) for n in rel.symbols}
    values = {n: Interval(e[0], e[1]) for n, e in ends.items()}
    got_l, got_r = rel.interval(values)
    for k in range(K):
        for _ in range(4):  # points inside the enclosures, exactly
            t = {}
            for n, e in ends.items():
                a, b = Fraction(float(e[0, k])), Fraction(float(e[1, k]))
                t[n] = a + Fraction(rng.random()) * (b - a)
            for tree, got in ((lhs, got_l), (rhs, got_r)):
                exact = _fold(tree, t, lambda q: q)
                assert Fraction(float(got.lo[k])) <= exact <= Fraction(float(got.hi[k]))


def test_on_enclosures_tells_certain_failure_from_an_open_case() -> None:
    from pla_proof.proof.statements import lemma

    rel = Relation.of(lemma("L7"), strict=False)  # n1 <= R2 k
    values = {
        "n1": Interval(np.array([1.0, 10.0, 5.0, 1.0]), np.array([1.5, 11.0, 7.0, np.inf])),
        "R2": Interval(2.0, 2.0),
        "k": Interval(np.array([1.0, 1.0, 3.0, 1.0]), np.array([1.0, 1.0, 3.0, 1.0])),
    }
    bad, unsettled = rel.on_enclosures(values, 4)
    # 1.5 <= 2 holds; 10 > 2 fails; [5, 7] <= 6 is open; an infinite end decides nothing
    assert bad.tolist() == [False, True, False, False]
    assert unsettled.tolist() == [False, False, True, True]


def _exact_values(rel: Relation, K: int, seed: int) -> dict[str, Exact]:
    rng = np.random.default_rng(seed)
    out = {}
    for s, name in enumerate(rel.symbols):
        D = [1, 3, 2**40, 7 * 2**20][int(rng.integers(0, 4))]
        if s == 0 and len(rel.symbols) > 1:
            out[name] = Exact.const(Fraction(int(rng.integers(-(2**50), 2**50)), D))
        else:
            A = rng.integers(-(2**60), 2**60, size=K)
            out[name] = Exact(A, D, int(np.abs(A).max()))
    return out


@pytest.mark.parametrize("lem, strict", LEMMAS, ids=[f"{a.id}-{b}" for a, b in LEMMAS])
def test_the_residue_programs_decide_as_exact_integers_do(lem: Lemma, strict: bool) -> None:
    rel = Relation.of(lem, strict=strict)
    K = 40
    values = _exact_values(rel, K, 7)
    if rel.op == "==":  # make the equality hold on some updates: solve for the left side
        lhs, rhs = _tree(lem, strict)
        if lhs[0] == "sym" and lhs[1] not in tree_symbols(rhs):
            r = rel.sides_exact(values)[1]
            A = np.array([int(a) for a in np.atleast_1d(r.A)], dtype=object)
            A[::2] += 1  # every other update off by 1/D
            values[lhs[1]] = Exact(A, r.D, int(max(abs(a) for a in A)))
    want = rel.exact(values)
    bounds = {n: Exact(v.bound, v.D, v.bound) for n, v in values.items()}
    P = rel.primes_needed(bounds)
    res = {
        n: Residues.of(v.A, v.D, v.bound, P=P) if isinstance(v.A, np.ndarray) else v
        for n, v in values.items()
    }
    got = rel.exact(res)
    assert got.tolist() == want.tolist()
    if rel.op == "==" and lhs[0] == "sym":
        assert not got[::2].any() and got[1::2].all()  # it rejects the updates made wrong
    cols = np.array([3, 0, 17])
    assert rel.exact(res, cols).tolist() == want[cols].tolist()


def test_a_residue_difference_is_the_exact_difference_modulo_each_prime() -> None:
    from pla_proof.proof.statements import lemma

    rel = Relation.of(lemma("L5"), strict=False)  # n1 == n0 + 2 t + xx
    values = _exact_values(rel, 30, 3)
    bounds = {n: Exact(v.bound, v.D, v.bound) for n, v in values.items()}
    P = rel.primes_needed(bounds)
    res = {n: Residues.of(v.A, v.D, v.bound, P=P) for n, v in values.items()}
    left, right = rel.sides_exact(values)
    g = math.gcd(left.D, right.D)
    diff = rel.programs.residue_difference(res, None, 1)
    for k in range(30):
        want = int(left.A[k]) * (right.D // g) - int(right.A[k]) * (left.D // g)
        assert diff.R[:, k].tolist() == [want % p for p in primes(P)]


def test_a_table_of_enclosures_shares_its_rows_and_takes_the_constants_as_values() -> None:
    from pla_proof.monitor.relations import Enclosures
    from pla_proof.proof.statements import lemma

    lo = np.array([[1.0, 10.0], [1.0, 1.0]])
    hi = np.array([[1.5, 11.0], [1.0, 1.0]])
    table = Enclosures(("n1", "k"), lo, hi, 2)
    full = table.with_scalars({"R2": Interval(2.0, 2.0)})
    assert np.shares_memory(full.lo, lo) and sorted(full) == ["R2", "k", "n1"]
    bad, _ = Relation.of(lemma("L7"), strict=False).on_enclosures(full, 2)  # n1 <= R2 k
    assert bad.tolist() == [False, True]
    full["n1"] = Interval(np.array([1.0, 1.0]), np.array([1.5, 1.5]))  # writes the row
    assert lo[0].tolist() == [1.0, 1.0]
    assert Relation.of(lemma("L7"), strict=False).on_enclosures(full, 2)[0].tolist() == [
        False,
        False,
    ]
    full["t"] = Interval(np.array([0.0, 1.0]), np.array([0.0, 1.0]))  # a new row: a copy
    assert "t" in full.rows and not np.shares_memory(full.lo, lo)
    with pytest.raises(KeyError):
        Relation.of(lemma("L6"), strict=False).on_enclosures(table, 2)  # n0 is not there
