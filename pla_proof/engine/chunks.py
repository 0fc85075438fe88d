"""The measuring half of every monitored run: the trainer's and a variant's alike.

The driver decides a run's updates and hands them on chunk by chunk; :class:`Chunks`
measures each chunk against the comparator ``u`` -- exact arrays while the numbers are
small enough, residues modulo primes filtered by enclosures beyond that, enclosures of
the ideal run in float mode -- carrying the weights (exact and float) from one chunk to
the next.  What judges the measures is the caller's: the monitor's lemmas for
``train()``, the claim's evaluation for a variant's run.

>>> from fractions import Fraction
>>> from pla_proof.data import from_arrays
>>> from pla_proof.engine.drive import drive, prepare
>>> from pla_proof.engine.rule import CLASSIC
>>> data = from_arrays([[1, 0], [0, 1]], [1, -1])
>>> world = prepare(data, CLASSIC, "exact")
>>> measured = []
>>> chunks = Chunks(world, [Fraction(1), Fraction(-1)])
>>> def on_chunk(k0, choices, visits):
...     measured.append(chunks(k0, choices))
>>> dec = drive(data, CLASSIC, on_chunk=on_chunk, world=world)
>>> [int(v) for v in measured[0]["k"].values()]
[1, 2]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from .enclosures import Interval
from .measure import (
    ResidueMeasures,
    enclosures,
    exact_measures,
    float_vector,
    last_weights,
    replay_float_from,
    uses_residues,
)
from .world import World

__all__ = ["Chunks", "scale_trigger"]


class Chunks:
    """Measures the chunks of one run on ``world`` against the comparator ``u``, from
    the weights ``start`` (default 0); ``trigger_factors``: the step factors ``a_j``
    a float-mode trigger value is scaled by (a rule with a learning rate or per-point
    factors: its trigger is judged as ``a_j y w.x``); ``scratch``: an exact chunk's
    tables come from :mod:`.scratch`, for a caller that calls the measures'
    ``release()`` once it has judged them (the trainer's monitor does)."""

    def __init__(
        self,
        world: World,
        u: Sequence[Fraction],
        *,
        start: Sequence[Any] | None = None,
        trigger_factors: np.ndarray | None = None,
        scratch: bool = False,
    ) -> None:
        self.world = world
        self.scratch = scratch
        self.V = list(world.scales.V0)
        d = world.data.d
        if start is None or not any(start):
            self.W, self.E = np.zeros(d), np.zeros(d)
        else:
            self.W, self.E = float_vector(start)
        fu = [v if type(v) is Fraction else Fraction(v) for v in u]
        self.su = math.lcm(*(v.denominator for v in fu)) if fu else 1
        self.U = [v.numerator * (self.su // v.denominator) for v in fu]
        self.u_f, self.e_u = float_vector(fu)
        self.trigger_factors = trigger_factors

    def __call__(self, k0: int, choices: np.ndarray) -> Any:
        """The measures of updates ``k0 + 1 ..`` (one per entry of ``choices``)."""
        world = self.world
        m: Any
        if world.mode == "exact" and not uses_residues(world, len(choices)):
            m = exact_measures(world, choices, k0, self.V, self.U, self.su)
            self.V = last_weights(world, choices, self.V)
            if uses_residues(world):  # the float weights stay in step for later enclosures
                W, E = replay_float_from(world, self.W, self.E, choices)
                if len(choices):
                    self.W, self.E = W[-1].copy(), E[-1].copy()
            return m
        exact = world.mode == "exact"
        scratch = exact and self.scratch  # (the tables are scratch until m.release())
        m, self.W, self.E = enclosures(
            world, choices, k0, self.W, self.E, self.u_f, self.e_u, scratch=scratch
        )
        if exact:  # the enclosures filter the exact decisions
            m = ResidueMeasures(
                world, choices, k0, self.V, self.U, self.su, intervals=m, scratch=scratch
            )
            self.V = m.last_weights()
        elif self.trigger_factors is not None:
            m["t"] = scale_trigger(m["t"], self.trigger_factors[np.asarray(choices, np.int64)])
        return m


def scale_trigger(t: Interval, factors: np.ndarray) -> Interval:
    """``a_j t`` for positive step factors ``a_j`` (rounded outward)."""
    with np.errstate(over="ignore", invalid="ignore"):
        lo = np.nextafter(np.where(factors >= 0, t.lo * factors, t.hi * factors), -np.inf)
        hi = np.nextafter(np.where(factors >= 0, t.hi * factors, t.lo * factors), np.inf)
    return Interval(lo, hi)
