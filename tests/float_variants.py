"""Float implementations for the float-mode tests: a correct one (random start, eta =
0.01, float64 arithmetic) and two broken ones (float32 weights, rounded weights)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import numpy as np
from hypothesis import strategies as st

from pla_proof.variants import Case, Claim, LinearVariant

ETA = 0.01


class FloatRate(LinearVariant):
    """y w.x <= 0 -> w += 0.01 y x in float64, from a random start."""

    name = "float-rate"

    def domain(self, base: Any) -> Any:
        def start(t: tuple[Case, int]) -> Case:
            c, seed = t
            rng = random.Random(seed)
            w0 = tuple(Fraction(rng.gauss(0.0, 0.01)) for _ in range(c.d))
            return Case(c.X, c.y, c.u, c.gamma, {"w0": w0}, c.name)

        return st.tuples(base, st.integers(0, 2**16)).map(start)

    def start(self, case: Case) -> list[Any]:
        return [float(v) for v in case.params["w0"]]

    def convert(self, w: Any) -> Any:
        return [float(a) for a in w]

    def score(self, w: Any, x: Any, y: int) -> Any:
        return y * float(np.dot(np.array(w, dtype=float), np.array([float(v) for v in x])))

    def step(self, w: Any, x: Any, y: int) -> Any:
        new = self.convert([a + ETA * y * float(v) for a, v in zip(w, x, strict=True)])
        return [b - a for a, b in zip(w, new, strict=True)]

    def claim(self, case: Case) -> Claim:
        eta = Fraction(ETA)
        w0 = [Fraction(float(v)) for v in case.params["w0"]]
        pu0 = sum((a * b for a, b in zip(case.u, w0, strict=True)), Fraction(0))
        n0 = sum((a * a for a in w0), Fraction(0))
        return Claim(
            C=eta * eta * case.radius_squared, g=eta * case.gamma, uu=case.uu, pu0=pu0, n0=n0
        )


class Float32Weights(FloatRate):
    """The same, with the weights stored as float32."""

    name = "float32-weights"

    def convert(self, w: Any) -> Any:
        return [float(np.float32(a)) for a in w]


class RoundedWeights(FloatRate):
    """The same, with the weights rounded to 6 decimals after every update."""

    name = "rounded-weights"

    def convert(self, w: Any) -> Any:
        return [round(a, 6) for a in w]
