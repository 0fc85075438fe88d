"""A claim's constants are any exact rational (issue 30, item 7): an ``int`` bound (the
floor of the theorem's bound), a ``Fraction``, a numpy integer; a float is refused in
one line that says what to write instead."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from checking import budget

from pla_proof.variants import Claim, LinearVariant, search
from pla_proof.variants.checking import run_case
from pla_proof.variants.protocol import Order, orthonormal_cases


class _Classic(LinearVariant):
    """The classic rule; the bound written by ``bound_of`` (a user's own arithmetic)."""

    name = "classic-own-bound"

    def __init__(self, bound_of: Any) -> None:
        self.bound_of = bound_of

    def triggers(self, w, x, y):  # type: ignore[no-untyped-def]
        return y * sum(a * b for a, b in zip(w, x, strict=True)) <= 0

    def step(self, w, x, y):  # type: ignore[no-untyped-def]
        return [y * v for v in x]

    def claim(self, case):  # type: ignore[no-untyped-def]
        return Claim(bound=self.bound_of(case), uu=case.uu)


def _floor(case: Any) -> int:
    R2, uu, gamma = case.radius_squared, case.uu, case.gamma
    return R2 * uu // gamma**2  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    "bound_of",
    [
        _floor,
        lambda c: Fraction(c.radius_squared * c.uu, c.gamma**2),
        # (np.int64 while the bound fits in it: the mixed-scale data's bounds, ~1e24, do not)
        lambda c: np.int64(_floor(c)) if _floor(c) < 2**63 else _floor(c),
        lambda c: (int(_floor(c)), 1),
    ],
    ids=["int", "Fraction", "np.int64", "pair"],
)
def test_a_rational_bound_passes(bound_of: Any) -> None:
    v = _Classic(bound_of)
    rec, res = run_case(v, orthonormal_cases([3])[0], Order("cyclic"))
    assert rec.updates == 3
    assert {p: f for p, f in res.items() if f is not None} == {}
    report = search(v, **budget(10))
    assert report.ok, [
        p.counterexample.failure.describe() for p in report.failed if p.counterexample
    ]


def test_a_wrong_int_bound_still_fails_T() -> None:
    v = _Classic(lambda c: _floor(c) - 1 if _floor(c) >= 1 else 0)
    _, res = run_case(v, orthonormal_cases([3])[0], Order("cyclic"))
    assert res["T"] is not None and res["RUNS"] is None


def test_numpy_integer_constants_are_ints() -> None:
    c = Claim(C=np.int32(4), g=np.int64(1), uu=np.uint8(1), pu0=np.int16(0))
    assert (c.C, c.g, c.uu) == (4, 1, 1) and all(type(v) is int for v in (c.C, c.g, c.uu))


def test_a_float_constant_says_what_to_write() -> None:
    with pytest.raises(
        TypeError, match=r"Claim\(bound=2\.5\): a float is not exact.*Fraction\(5, 2\)"
    ):
        Claim(bound=2.5)
    v = _Classic(lambda c: float(_floor(c)))
    _, res = run_case(v, orthonormal_cases([3])[0], Order("cyclic"))
    f = res["RUNS"]
    assert f is not None
    assert "a float is not exact; write an int or a Fraction (3, or" in f.message
    assert "\n" not in f.message and "test_variants_protocol_claim.py" in f.message
