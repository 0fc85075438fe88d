"""One measuring pipeline for every monitored run (pla_proof.engine.chunks): the trainer's
and a variant's runs are measured by it, exact and float modes agree, and a float trigger
is scaled by the rule's step factors."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from pla_proof.data import from_arrays
from pla_proof.engine.chunks import Chunks, scale_trigger
from pla_proof.engine.drive import drive, prepare
from pla_proof.engine.enclosures import Interval
from pla_proof.engine.rule import CLASSIC

X = [[1, 0], [0, 1], [2, 1], [2, -1]]
Y = [1, -1, 1, 1]
U = [Fraction(1), Fraction(-1)]


def measured(mode: str, **kw: Any) -> dict[str, Any]:
    data = from_arrays(X, Y)
    world = prepare(data, CLASSIC, mode)
    chunks = Chunks(world, U, **kw)
    got: list[Any] = []
    drive(
        data, CLASSIC, mode=mode, on_chunk=lambda k0, c, v: got.append(chunks(k0, c)), world=world
    )
    return dict(got[0])


def _exact(v: Any) -> list[Fraction]:
    return list(v.values())


def test_the_float_enclosures_contain_the_exact_measures() -> None:
    exact, floats = measured("exact"), measured("float")
    for name in ("n0", "n1", "pu", "pu1", "t"):
        lo, hi = np.atleast_1d(floats[name].lo), np.atleast_1d(floats[name].hi)
        for a, b, v in zip(lo, hi, _exact(exact[name]), strict=True):
            assert Fraction(a) <= v <= Fraction(b), (name, a, v, b)


def test_the_enclosures_would_miss_a_wrong_value() -> None:
    """The containment above can fail: a value off by one is outside its enclosure."""
    floats = measured("float")
    lo, hi = np.atleast_1d(floats["n1"].lo), np.atleast_1d(floats["n1"].hi)
    wrong = [v + 1 for v in _exact(measured("exact")["n1"])]
    assert not all(Fraction(a) <= v <= Fraction(b) for a, b, v in zip(lo, hi, wrong, strict=True))


def test_a_float_trigger_is_scaled_by_the_step_factors() -> None:
    plain = measured("float")["t"]
    doubled = measured("float", trigger_factors=np.full(len(X), 2.0))["t"]
    assert np.all(doubled.lo <= 2 * plain.lo) and np.all(2 * plain.hi <= doubled.hi)
    t = scale_trigger(Interval(np.array([1.0]), np.array([1.0])), np.array([3.0]))
    assert t.lo[0] < 3.0 < t.hi[0]


def test_the_trainer_and_a_variant_measure_alike() -> None:
    from pla_proof.trainer import train
    from pla_proof.variants import Order, resolve
    from pla_proof.variants.protocol import Case

    data = from_arrays(X, Y)
    run = train(data, comparator=U)
    case = Case(
        tuple(tuple(Fraction(v) for v in x) for x in X), tuple(Y), tuple(U), Fraction(1), {}, "t"
    )
    rec = resolve("classic").run(case, Order("cyclic"))
    assert rec.updates == run.updates
    assert [s.values["n1"] for s in run.steps] == [m.n1 for m in rec.measured()]
