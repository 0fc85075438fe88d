"""Exact integers by residues: arithmetic, signs, read-back, and what they refuse."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from pla_proof.data import from_arrays
from pla_proof.engine.drive import drive
from pla_proof.engine.measure import ResidueMeasures, enclosures, exact_measures, float_vector
from pla_proof.engine.residues import Residues, primes, primes_for
from pla_proof.monitor.core import Monitor, make_comparator
from pla_proof.monitor.relations import Exact
from pla_proof.proof.statements import RUNTIME_LEMMAS

BIG = st.integers(-(2**300), 2**300)


def test_the_primes_are_distinct_primes_below_2_26() -> None:
    ps = primes(40)
    assert len(set(ps)) == 40 and all(sympy.isprime(p) and p < 2**26 for p in ps)
    assert ps == sorted(ps, reverse=True)


@given(st.integers(0, 2**600))
def test_primes_for_is_the_least_count_whose_product_exceeds_twice_the_bound(b: int) -> None:
    P = primes_for(b)
    assert int(np.prod([sympy.Integer(p) for p in primes(P)])) > 2 * b
    if P > 1:
        assert int(np.prod([sympy.Integer(p) for p in primes(P - 1)])) <= 2 * b


@given(st.lists(st.tuples(BIG, BIG, BIG), min_size=1, max_size=8))
def test_arithmetic_signs_and_integers_agree_with_python_integers(
    rows: list[tuple[int, int, int]],
) -> None:
    a_, b_, c_ = (np.array([r[i] for r in rows], dtype=object) for i in range(3))
    bound = 2**300
    P = primes_for(bound * bound + bound)
    a, b, c = (Residues.of(v, 1, bound, P=P) for v in (a_, b_, c_))
    got = a * b + (-c)
    want = [x * y - z for x, y, z in zip(a_, b_, c_, strict=True)]
    assert got.integers(np.arange(len(rows))) == want
    assert got.signs().tolist() == [(w > 0) - (w < 0) for w in want]
    assert got.is_zero().tolist() == [w == 0 for w in want]
    mixed = a * Exact.const(3) + Exact.const(-2)  # constants mix in as Exact values
    assert mixed.integers(np.arange(len(rows))) == [3 * x - 2 for x in a_]


@pytest.mark.parametrize("P", [1, 2, 3, 5])
def test_signs_at_the_edges_of_what_the_primes_determine(P: int) -> None:
    half = (int(np.prod([sympy.Integer(p) for p in primes(P)])) - 1) // 2
    vals = [half, -half, half - 1, -half + 1, 1, -1, 0]
    got = Residues.of(np.array(vals, dtype=object), 1, half, P=P).signs().tolist()
    assert got == [(v > 0) - (v < 0) for v in vals]


def test_too_few_primes_are_refused_rather_than_read_wrongly() -> None:
    x = Residues.of(np.array([2**80, -(2**80)]), 1, 2**80, P=2)  # two primes: 52 bits
    with pytest.raises(ValueError, match="cannot determine"):
        x.signs()
    with pytest.raises(ValueError, match="cannot determine"):
        x.integers([0])


def _gauss(n: int, d: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    u = rng.standard_normal(d)
    X = rng.standard_normal((4 * n, d)) * 10.0 ** rng.integers(-3, 4, size=(1, d))
    keep = np.abs(X @ u) > 0.01 * np.abs(X) @ np.abs(u)
    X = X[keep][:n]
    return X, np.where(X @ u > 0, 1, -1), u


@pytest.mark.parametrize("d", [3, 1100])  # 1100 > 1024: the sums are reduced on the way
def test_residue_measures_equal_the_python_integer_measures(d: int) -> None:
    X, y, _ = _gauss(40, d, d)
    data = from_arrays(X, y)
    dec = drive(data, budget=300)
    V0 = list(dec.world.scales.V0)
    U = [(-1) ** c * (3**c + 10**40) for c in range(d)]
    got = ResidueMeasures(dec.world, dec.choices, 0, V0, U, 7)
    ref = exact_measures(dec.world, dec.choices, 0, V0, U, 7)
    assert dec.updates > 1
    for name in ref:
        assert got[name].values() == ref[name].values(), name


def _checked(data: object, comp_u: list[float], corrupt: str | None) -> list[tuple[str, int]]:
    comp = make_comparator(data, comp_u)  # type: ignore[arg-type]
    dec = drive(data, budget=300)  # type: ignore[arg-type]
    world = dec.world
    U, su = comp.integers()
    consts = {"g": comp.gamma, "R2": comp.radius_squared, "uu": comp.uu}
    m = ResidueMeasures(world, dec.choices, 0, list(world.scales.V0), U, su)
    if corrupt is not None:  # one integer of the vocabulary one too large at update 3
        R = m.residues(primes_for(m.bounds[corrupt].bound * 4))[corrupt].R
        R[:, 2] = (R[:, 2] + 1) % np.array(primes(R.shape[0]))
    mon = Monitor(RUNTIME_LEMMAS, consts, strict=False)
    return [(f.lemma.id, f.index) for f in mon.failures(m)]


def test_the_monitor_on_residues_accepts_a_correct_run_and_rejects_a_wrong_quantity() -> None:
    X, y, u = _gauss(60, 4, 4)
    data = from_arrays(X, y)
    assert _checked(data, list(u), None) == []
    assert ("L5", 2) in _checked(data, list(u), "n1")  # |w_{k+1}|^2 off by one unit
    assert ("L1", 2) in _checked(data, list(u), "pu")  # u.w_k off by one unit


def _filtered(n: int, d: int, seed: int, budget: int) -> tuple[Any, ...]:
    """A run on Gaussian floats, its comparator (and as integers), and its chunk's
    enclosures: ``(comp, dec, world, U, su, iv)``."""
    X, y, u = _gauss(n, d, seed)
    data = from_arrays(X, y)
    comp = make_comparator(data, list(u))
    dec = drive(data, budget=budget)
    U, su = comp.integers()
    uf, eu = float_vector(list(comp.u))
    iv, _, _ = enclosures(dec.world, dec.choices, 0, np.zeros(d), np.zeros(d), uf, eu)
    return comp, dec, dec.world, U, su, iv


def test_enclosures_decide_most_inequalities_and_residues_the_rest() -> None:
    comp, dec, world, U, su, iv = _filtered(200, 4, 3, 300)
    assert dec.status == "converged" and dec.updates > 50
    m = ResidueMeasures(world, dec.choices, 0, list(world.scales.V0), U, su, intervals=iv)
    mon = Monitor(RUNTIME_LEMMAS, {"g": comp.gamma, "R2": comp.radius_squared, "uu": comp.uu},
                  strict=False)  # fmt: skip
    assert mon.failures(m) == []
    # a margin assumed equal to the largest y u.x of the run: A1 and L2 hold with
    # equality there (no enclosure can show it) and fail elsewhere; the residues decide
    ref_m = exact_measures(world, dec.choices, 0, list(world.scales.V0), U, su)
    g = max(ref_m["yux"].values())
    bad = Monitor(RUNTIME_LEMMAS, {"g": g, "R2": comp.radius_squared, "uu": comp.uu},
                  strict=False)  # fmt: skip
    found = {f.lemma.id: (f.index, f.lhs, f.rhs) for f in bad.failures(m)}
    assert found == {f.lemma.id: (f.index, f.lhs, f.rhs) for f in bad.failures(ref_m)}
    assert {"A1_j", "L2"} <= set(found)


def test_the_theorems_relation_is_decided_on_enclosures_and_exactly_where_they_cannot() -> None:
    """T (k g^2 <= R^2 |u|^2) reads only the constants and k: the enclosures settle it
    on most updates; the ones they cannot settle -- a margin assumed so that the bound
    is an integer the run passes -- are decided exactly, with the exact path's finding."""
    comp, dec, world, U, su, iv = _filtered(200, 4, 3, 300)
    m = ResidueMeasures(world, dec.choices, 0, list(world.scales.V0), U, su, intervals=iv)
    ref_m = exact_measures(world, dec.choices, 0, list(world.scales.V0), U, su)
    K = dec.updates
    assert K > 20
    for bound in (K // 2, K // 3):  # the bound R^2 |u|^2 / g^2 = bound exactly
        g = comp.gamma
        consts = {"g": g, "R2": g**2 * bound / comp.uu, "uu": comp.uu}
        mon = Monitor(RUNTIME_LEMMAS, consts, strict=False)
        found = {f.lemma.id: (f.index, f.lhs, f.rhs) for f in mon.failures(m)}
        assert found["T"][0] == bound  # update bound + 1 is the first past it
        assert found == {f.lemma.id: (f.index, f.lhs, f.rhs) for f in mon.failures(ref_m)}


@pytest.mark.parametrize("threshold", [0, 3000, 10**9])
def test_a_run_is_monitored_the_same_whichever_chunks_use_residues(
    threshold: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Small chunks are measured with Python integers, large ones by residues (the
    float weights stay in step across the switch): the same steps, exactly, and the
    same verdict (threshold 3000: the first chunk of 256 x 6 by Python integers, the
    later ones by residues)."""
    from pla_proof import train, trainer
    from pla_proof.engine import drive, measure

    monkeypatch.setattr(drive, "CHUNK_MIN", 256)  # chunks of 256, 512, ...
    monkeypatch.setattr(drive, "CHUNK_ENTRIES", 256)
    rng = np.random.default_rng(4)
    u = rng.standard_normal(6)
    X = rng.standard_normal((1500, 6))
    X = X[np.abs(X @ u) > 0.01 * np.linalg.norm(u)][:800]
    data = from_arrays(X, np.where(X @ u > 0, 1, -1))
    ref = train(data, comparator=list(u))
    assert ref.status == "converged" and ref.updates > 600
    monkeypatch.setattr(measure, "RESIDUE_MIN", threshold)
    by_residues: list[int] = []
    made = measure.ResidueMeasures.__init__

    def spy(self: measure.ResidueMeasures, *args: Any, **kwargs: Any) -> None:
        made(self, *args, **kwargs)
        by_residues.append(self.K)

    chunks: list[int] = []
    check = trainer._Checker.__call__

    def seen(self: Any, k0: int, choices: np.ndarray, visits: np.ndarray) -> int | None:
        chunks.append(len(choices))
        return check(self, k0, choices, visits)

    monkeypatch.setattr(measure.ResidueMeasures, "__init__", spy)
    monkeypatch.setattr(trainer._Checker, "__call__", seen)
    run = train(data, comparator=list(u))
    assert len(chunks) >= 2 and chunks[0] == 256
    assert by_residues == [K for K in chunks if K * data.d >= threshold]
    assert run.status == ref.status and run.choices == ref.choices
    assert [s.values for s in run.steps] == [s.values for s in ref.steps]


def test_residues_held_as_int32_multiply_in_64_bits() -> None:
    """A chunk's measured block holds its residues as int32; a product of two of them
    (52 bits) is made in int64, so the report of a value read from them is exact."""
    ps = primes(4)  # (enough for the squares, below 2^92)
    A = np.array([2**40 + 12345, -(2**45) + 7, 3])
    wide = Residues.of(A, 1, 2**46, P=4)
    narrow = Residues(wide.R.astype(np.int32), 1, 2**46)
    assert narrow.R.dtype == np.int32 and int(narrow.R.max()) > 2**25  # products overflow int32
    got = (narrow * narrow).integers([0, 1, 2])
    assert [g % p for g in got for p in ps] == [(int(a) ** 2) % p for a in A for p in ps]
    assert (narrow * narrow).R.tolist() == (wide * wide).R.tolist()


def test_the_enclosures_bound_the_residues_tighter_and_still_soundly() -> None:
    """With enclosures, each quantity's magnitude bound (which sets how many primes
    decide it) comes from them when smaller: still at least every exact value."""
    _comp, dec, world, U, su, iv = _filtered(300, 6, 5, 2000)
    V0 = list(world.scales.V0)
    loose = ResidueMeasures(world, dec.choices, 0, V0, U, su)
    tight = ResidueMeasures(world, dec.choices, 0, V0, U, su, intervals=iv)
    ref = exact_measures(world, dec.choices, 0, V0, U, su)
    assert tight.bounds["n1"].bound < loose.bounds["n1"].bound
    for name, e in ref.items():
        if name in tight.bounds:
            assert tight.bounds[name].D == e.D
            assert max(abs(int(a)) for a in np.atleast_1d(e.A)) <= tight.bounds[name].bound
            assert tight.bounds[name].bound <= loose.bounds[name].bound
            assert tight[name].values() == e.values()


def test_the_filtered_path_rejects_a_wrong_quantity_the_enclosures_cannot_see() -> None:
    """With the enclosures filtering (the path of a large exact run on floats), a
    quantity one unit off at one update -- far below any enclosure's width -- is still
    refused: the equalities are decided on the residues at every update."""
    comp, dec, world, U, su, iv = _filtered(200, 4, 3, 300)
    consts = {"g": comp.gamma, "R2": comp.radius_squared, "uu": comp.uu}
    for name, lemma in (("pu1", "L1"), ("n1", "L5")):
        m = ResidueMeasures(world, dec.choices, 0, list(world.scales.V0), U, su, intervals=iv)
        R = m.residues(primes_for(m.bounds[name].bound * 4))[name].R
        R[:, 2] = (R[:, 2] + 1) % np.array(primes(R.shape[0]))
        found = Monitor(RUNTIME_LEMMAS, consts, strict=False).first(m)
        assert found is not None and (found.lemma.id, found.index) == (lemma, 2)


def test_a_margin_too_large_by_less_than_the_float_error_stops_the_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A comparator whose margin exceeds the data's by a relative 2^-70 (the enclosures
    are about 2^-50 wide): A1 fails exactly at the first update on the point that
    attains the margin.  The enclosures leave that update open, the residues decide
    it, and ``train`` stops there -- the filter never lets an undecided row pass."""
    from fractions import Fraction

    from pla_proof import train
    from pla_proof.monitor import relations
    from pla_proof.monitor.core import Comparator

    rng = np.random.default_rng(11)
    u = rng.standard_normal(10)
    X = rng.standard_normal((2000, 10))
    X = X[np.abs(X @ u) > 0.01 * np.linalg.norm(u)][:1000]
    data = from_arrays(X, np.where(X @ u > 0, 1, -1))
    good = make_comparator(data, list(u))
    ok = train(data, comparator=good)
    assert ok.status == "converged" and ok.updates * data.d > 2048  # residues, filtered
    _low, i = data.min_margin(good.u)
    first = ok.choices.index(i) + 1  # the first update on the point attaining the margin
    bad = Comparator(good.u, good.gamma * (1 + Fraction(1, 2**70)), False, good.radius_squared)
    verdicts: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    plain = relations.Relation.on_enclosures

    def spy(self: Any, values: Any, K: int) -> tuple[np.ndarray, np.ndarray]:
        out = plain(self, values, K)
        verdicts[self.lemma.id] = (out[0].copy(), out[1].copy())  # (the monitor fills them)
        return out

    monkeypatch.setattr(relations.Relation, "on_enclosures", spy)
    run = train(data, comparator=bad)
    assert run.status == "violation" and run.violation is not None
    assert (run.violation.lemma, run.violation.k) == ("A1_j", first)
    failed, unsettled = verdicts["A1_j"]
    assert unsettled[first - 1] and not failed[first - 1]  # the enclosures could not tell
    lhs, rhs = run.violation.lhs, run.violation.rhs
    assert isinstance(lhs, Fraction) and isinstance(rhs, Fraction)
    assert (lhs, rhs) == (good.gamma, bad.gamma)  # y u.x = the true margin < the one assumed
