"""A variant's claim as the proof's own lemmas, evaluated by the run-time monitor.

A :class:`~pla_proof.variants.protocol.variant.Claim` instantiates the generic lemma
(:data:`~pla_proof.proof.statements.GENERIC_LEMMAS`) with the variant's constants:
``C`` (growth), ``g`` (progress), ``uu = |u|^2``, and the start ``ps = u.w_1``,
``ns = |w_1|^2``.  Each property the harness reports is one lemma, evaluated by
:class:`~pla_proof.monitor.Monitor` on the quantities measured from the run's vectors:

========  ===========  =========================================================
property  lemma        relation at every update ``k`` (``w_k -> w_{k+1}``)
========  ===========  =========================================================
``G1``    ``G1``       ``n1 - n0 <= C``
``G2``    ``G2``       ``pu1 - pu >= g``
``P_k``   ``P_G``      ``pu1 >= ps + k g``
``Q_k``   ``Q_G``      ``n1 <= ns + k C``
``L4``    ``L4``       ``pu1^2 <= uu n1`` (Cauchy-Schwarz)
``T``     ``T_G``      ``(ps + k g)^2 <= uu (ns + k C)`` -- the lemma's own bound, from
                       the claimed start; or ``T_B``: ``k <= B`` for a bound ``B`` the
                       variant states itself (``Claim(bound=...)``)
========  ===========  =========================================================

``SEP``/``SEP0`` are decided at the end of the run (see :mod:`.harness`).

Exact runs give exact arrays (decided exactly); float runs give outward-rounded
enclosures, and a property fails only where it fails for every value the rounding
allows (``max_missed`` says by how much one could have failed unseen).  Measurements
whose values are not rational (the RBF kernel's exact exponential sums) are decided
one update at a time by the same lemma's compiled relation (:meth:`Lemma.holds`).

>>> from fractions import Fraction as F
>>> ev = Evaluation(Claim(C=F(1), g=F(1), uu=F(1)))
>>> sorted(ev.properties)
['G1', 'G2', 'L4', 'P_k', 'Q_k', 'T']
>>> import numpy as np
>>> from pla_proof.monitor.relations import Exact
>>> m = {n: Exact.of(np.array([v]), 1) for n, v in
...      [("k", 1), ("pu", 0), ("pu1", 1), ("n0", 0), ("n1", 4), ("t", 0)]}
>>> ev.feed(0, m, [0])
>>> ev.failures["G1"].describe()
'G1 fails at update k=1 (point 1): 4 <= 1 is false'
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ...interval import Interval as ScalarInterval
from ...monitor.core import Monitor, Violation
from ...monitor.relations import Exact
from ...proof.runtime import CLAIMED_BOUND, GENERIC_LEMMAS, RunLemma, lemma
from ...render import numbers

__all__ = ["LEMMA_OF", "Claim", "Evaluation", "Failure", "max_updates", "show"]

#: property id -> the lemma it evaluates
LEMMA_OF = {"G1": "G1", "G2": "G2", "P_k": "P_G", "Q_k": "Q_G", "L4": "L4", "T": "T_G"}
_PROPERTY_OF = {v: k for k, v in LEMMA_OF.items()}
_PROPERTY_OF["T_B"] = "T"

#: A bound the variant states itself: ``k <= B`` (``k < B`` under a strict margin).
T_B = CLAIMED_BOUND
_GENERIC = {lem.id: lem for lem in GENERIC_LEMMAS}


@dataclass(frozen=True)
class Claim:
    """What a variant claims on one case.

    ``C``/``g``: the generic lemma's constants (``None``: not claimed); ``uu``: ``|u|^2``
    for the Cauchy-Schwarz step and the bound; ``pu0``/``n0``: ``u.w_1`` and
    ``|w_1|^2`` of the start.  ``bound``: a maximum number of updates the variant states
    itself (default: the generic lemma's ``(ps + k g)^2 <= uu (ns + k C)``, which from
    ``w_1 = 0`` is ``k <= C uu / g^2``); ``strict`` makes the bound strict.
    ``end``: ``"SEP"`` (the returned predictor separates strictly), ``"SEP0"``
    (predicts every label, sign(0) = +1), ``"SEP0N"`` (predicts every label, sign(0) =
    -1) or ``None``.

    The constants are any exact rational: ``int`` (``R2 * uu // gamma**2``, the floor of
    the theorem's bound), ``Fraction`` or a numpy integer; a float is refused with one
    line saying what to write instead (a float constant would round the claim).

    >>> import numpy as np
    >>> Claim(bound=np.int64(7)).bound, type(Claim(bound=np.int64(7)).bound).__name__
    (7, 'int')
    >>> try:
    ...     Claim(C=1, g=0.5, uu=1)
    ... except TypeError as e:
    ...     print(str(e).split("; ")[1])
    write an int or a Fraction (Fraction(1, 2), or Fraction("0.5") for the decimal)
    """

    C: Any = None
    g: Any = None
    uu: Any = None
    pu0: Any = 0
    n0: Any = 0
    bound: Any = None
    strict: bool = False
    end: str | None = "SEP"

    def __post_init__(self) -> None:
        for name in ("C", "g", "uu", "pu0", "n0", "bound"):
            value = getattr(self, name)
            if isinstance(value, tuple):
                fixed: Any = tuple(_exact_constant(f"{name}[{i}]", v) for i, v in enumerate(value))
            else:
                fixed = _exact_constant(name, value)
            if fixed is not value:
                object.__setattr__(self, name, fixed)

    def bound_pair(self) -> tuple[Any, Any] | None:
        """The bound as ``(num, den)`` with ``k * den <= num`` (from ``w_1 = 0``, or a
        stated bound); ``None`` when neither applies."""
        if self.bound is not None:
            if isinstance(self.bound, tuple):
                return self.bound
            return (self.bound, 1)
        if self.C is not None and self.g is not None and self.uu is not None:
            if self.pu0 != 0 or self.n0 != 0:
                return None
            return (self.C * self.uu, self.g * self.g)
        return None


def _exact_constant(name: str, v: Any) -> Any:
    """A claim's constant as the evaluation takes it: a numpy integer as an ``int``; a
    float (Python's or numpy's) refused with what to write instead; anything else as
    it is (an int, a Fraction, an exact non-rational value such as the RBF kernel's)."""
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, float | np.floating):
        f = float(v)
        if not math.isfinite(f):
            raise TypeError(f"Claim({name}={f!r}): a constant must be a finite int or Fraction")
        q = Fraction(f)
        same = (
            str(q.numerator) if q.denominator == 1 else f"Fraction({q.numerator}, {q.denominator})"
        )
        raise TypeError(
            f"Claim({name}={f!r}): a float is not exact; write an int or a Fraction "
            f'({same}, or Fraction("{f!r}") for the decimal)'
        )
    return v


def _rational(v: Any) -> bool:
    return isinstance(v, int | Fraction) and not isinstance(v, bool)


def max_updates(claim: Claim) -> int | None:
    """The largest number of updates the claim allows (``None``: no bound claimed).

    >>> max_updates(Claim(C=Fraction(2), g=Fraction(1), uu=Fraction(1)))
    2
    >>> max_updates(Claim(C=Fraction(2), g=Fraction(1), uu=Fraction(1), strict=True))
    1
    >>> max_updates(Claim(C=Fraction(1), g=Fraction(1), uu=Fraction(1), pu0=Fraction(-2),
    ...                   n0=Fraction(4)))
    5
    """
    if claim.bound is not None:
        pair = claim.bound_pair()
        assert pair is not None
        num, den = pair
        if _rational(num) and _rational(den):
            if den <= 0:
                return 0
            q = Fraction(num) / Fraction(den)
            fl = q.numerator // q.denominator
            return max(0, fl - 1 if claim.strict and fl == q else fl)
        return _float_floor(num, den)
    C, g, uu = claim.C, claim.g, claim.uu
    if C is None or g is None or uu is None:
        return None
    ps, ns = claim.pu0, claim.n0
    if not all(_rational(v) for v in (C, g, uu, ps, ns)):
        if ps == 0 and ns == 0:
            return _float_floor(C * uu, g * g)
        return None
    C, g, uu, ps, ns = (Fraction(v) for v in (C, g, uu, ps, ns))
    if g <= 0:
        return None

    # ok(k): (ps + k g)^2 <= uu (ns + k C) (< when strict), in integers: both sides times
    # the positive denominators, (A + k B)^2 L against R (E + k F)
    A, B = ps.numerator * g.denominator, g.numerator * ps.denominator
    L = uu.denominator * ns.denominator * C.denominator
    E, F = ns.numerator * C.denominator, C.numerator * ns.denominator
    R = uu.numerator * (ps.denominator * g.denominator) ** 2
    strict = claim.strict

    def ok(k: int) -> bool:
        lhs, rhs = (A + k * B) ** 2 * L, R * (E + k * F)
        return lhs < rhs if strict else lhs <= rhs

    # (ps + k g)^2 - uu (ns + k C) is convex in k: past its vertex it only grows
    a, b = g * g, 2 * ps * g - uu * C
    lo = max(0, math.floor(-b / (2 * a)))
    if lo > 0 and not ok(lo):
        lo = 0
        if not ok(1):
            return 0
    hi = lo + 1
    while ok(hi):
        lo, hi = hi, 2 * hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(mid):
            lo = mid
        else:
            hi = mid
    return lo


def _float_floor(num: Any, den: Any) -> int:
    """A safe upper estimate of ``floor(num/den)`` for exact types that are not rational."""
    hi = getattr(num, "upper", lambda: float(num))()
    lo = getattr(den, "lower", lambda: float(den))()
    if lo <= 0:
        return 0
    return max(0, int(hi / lo) + 1)


def show(v: Any) -> str:
    """A value as the reports print it: exact rationals through
    :func:`pla_proof.render.numbers.show` (exact when short), enclosures as ``[lo, hi]``.

    >>> show(Fraction(-7, 3)), show(Fraction(10**20, 3))
    ('-7/3', '3.33333e+19')
    """
    if isinstance(v, ScalarInterval):
        return f"[{v.lo!r}, {v.hi!r}]"
    return numbers.show(v)


def _both(lhs: Any, rhs: Any) -> tuple[str, str]:
    """Both sides of a failed relation, exact when their short forms would look equal."""
    a, b = show(lhs), show(rhs)
    if a == b and all(isinstance(v, int | Fraction) for v in (lhs, rhs)):
        return numbers.exact(lhs), numbers.exact(rhs)
    return a, b


class Failure(Violation):
    """A property of the claim that failed on a run, with both sides' values: a
    :class:`~pla_proof.monitor.core.Violation` (the one failure type of every run), said
    in the claim's words.

    >>> f = Failure("G1", 1, 0, Fraction(4), "<=", Fraction(1))
    >>> f.prop, f.describe()
    ('G1', 'G1 fails at update k=1 (point 1): 4 <= 1 is false')
    """

    def __init__(
        self,
        prop: str,
        k: int | None,
        j: int | None,
        lhs: Any,
        op: str,
        rhs: Any,
        message: str = "",
    ) -> None:
        super().__init__(prop, "", "", k, j, lhs, op, rhs, message=message)

    def describe(self) -> str:
        where = ""
        if self.k is not None:
            where = f" at update k={self.k}"
            if self.j is not None:
                where += f" (point {self.j + 1})"
        elif self.j is not None:
            where = f" at point {self.j + 1}"
        if self.message:
            return f"{self.prop} fails{where}: {self.message}"
        lhs, rhs = _both(self.lhs, self.rhs)
        return f"{self.prop} fails{where}: {lhs} {self.op} {rhs} is false"


class Evaluation:
    """The claim's per-update properties on one run, fed chunk by chunk.

    ``stop(prop)`` says whether a failure of ``prop`` should end the run (the harness's
    search stops a run at the first failure of a property it still looks for).
    ``failures`` holds the first failure of each property; ``stop_at`` the number of
    updates to keep when a run was asked to stop.  ``aim``: also keep each inequality's
    smallest normalised slack (:meth:`tightest`), the heading of a search.
    """

    def __init__(
        self,
        claim: Claim,
        *,
        mode: str = "exact",
        stop: Callable[[str], bool] | None = None,
        aim: bool = False,
    ) -> None:
        self.claim = claim
        self.mode = mode
        self.stop = stop
        self.aim = aim
        C, g, uu = claim.C, claim.g, claim.uu
        lemmas: list[RunLemma] = []
        if C is not None:
            lemmas.append(_GENERIC["G1"])
        if g is not None:
            lemmas.append(_GENERIC["G2"])
            lemmas.append(_GENERIC["P_G"])
        if C is not None:
            lemmas.append(_GENERIC["Q_G"])
        if uu is not None:
            lemmas.append(lemma("L4"))
        bound: list[RunLemma] = []
        constants: dict[str, Any] = {"ps": claim.pu0, "ns": claim.n0}
        for name, v in (("C", C), ("g", g), ("uu", uu)):
            if v is not None:
                constants[name] = v
        if claim.bound is not None:
            pair = claim.bound_pair()
            assert pair is not None
            num, den = pair
            rational = _rational(num) and _rational(den)
            constants["B"] = Fraction(num) / Fraction(den) if rational else None
            if constants["B"] is None:
                constants["B_pair"] = pair
            bound.append(T_B)
        elif C is not None and g is not None and uu is not None:
            bound.append(_GENERIC["T_G"])
        self.lemmas = lemmas
        self.bound_lemmas = bound
        self.constants = constants
        self.properties: dict[str, None] = {_PROPERTY_OF[lem.id]: None for lem in lemmas + bound}
        self.failures: dict[str, Failure] = {}
        self.rational = all(_rational(v) for k, v in constants.items() if k != "B_pair") and (
            "B_pair" not in constants
        )
        self._monitors: list[Monitor] | None = None
        self.stop_at: int | None = None
        self.pending: list[Any] = []  # Measures not yet evaluated
        self.max_missed = 0.0
        self.undecided: list[tuple[str, int]] = []
        self.record: Any = None  # the Record this evaluation follows (set by the Record)
        #: ``time.monotonic()`` of the run's last update (the per-run time limit's clock)
        self.progressed = time.monotonic()
        #: True while the harness evaluates updates (its own work: never a stalled run)
        self.evaluating = False

    @contextlib.contextmanager
    def _busy(self) -> Iterator[None]:
        """The harness evaluating updates: progress throughout, and when it ends."""
        busy, self.evaluating = self.evaluating, True
        try:
            yield
        finally:
            self.evaluating = busy
            self.progressed = time.monotonic()

    def last_progress(self) -> float:
        """``time.monotonic()`` of the run's last sign of progress: now while the
        harness is evaluating the run's updates (on a loaded machine that can take longer
        than the per-run limit; it is not the variant standing still)."""
        return time.monotonic() if self.evaluating else self.progressed

    # --- exact/float arrays ------------------------------------------------------------------

    def _monitor_list(self) -> list[Monitor]:
        if self._monitors is None:
            consts = {k: Fraction(v) for k, v in self.constants.items()}
            self._monitors = [
                Monitor(self.lemmas, consts, strict=False, mode=self.mode, aim=self.aim),
                Monitor(
                    self.bound_lemmas,
                    consts,
                    strict=self.claim.strict,
                    mode=self.mode,
                    aim=self.aim,
                ),
            ]
        return self._monitors

    def tightest(self) -> dict[str, float]:
        """With ``aim``: each inequality property's smallest normalised slack over the
        updates evaluated (:mod:`~pla_proof.monitor.slack`), by property."""
        out: dict[str, float] = {}
        for mon in self._monitors or ():
            for lemma_id, s in mon.tightest.items():
                prop = _PROPERTY_OF[lemma_id]
                out[prop] = min(s, out.get(prop, s))
        return out

    def feed(self, k0: int, measures: dict[str, Any], choices: Sequence[int]) -> int | None:
        """Evaluate one chunk of updates ``k0 + 1 ..``; return the number of updates to
        keep when a property that ``stop`` names fails (the run should end there)."""
        if not self.rational:
            raise TypeError("non-rational constants: feed Measures with feed_steps()")
        with self._busy():
            return self._feed(k0, measures, choices)

    def _feed(self, k0: int, measures: dict[str, Any], choices: Sequence[int]) -> int | None:
        if "k" not in measures or len(choices) == 0:
            return None
        found = []
        for mon in self._monitor_list():
            for f in mon.failures(measures):
                found.append((f.index, f))
            self.max_missed = max(self.max_missed, mon.max_missed)
            self.undecided.extend(u for u in mon.undecided if u not in self.undecided)
        found.sort(key=lambda t: t[0])
        keep: int | None = None
        for i, f in found:
            if keep is not None and i >= keep - k0:
                break
            prop = _PROPERTY_OF[f.lemma.id]
            if prop in self.failures:
                continue
            self.failures[prop] = self._failure(
                prop, k0 + i + 1, int(choices[i]), f.lhs, f.op, f.rhs
            )
            if self.stop is not None and self.stop(prop) and keep is None:
                keep = k0 + i + 1
        if keep is not None:
            self.stop_at = keep
            for p in [p for p, f in self.failures.items() if f.k is not None and f.k > keep]:
                del self.failures[p]
        return keep

    def _failure(self, prop: str, k: int, j: int, lhs: Any, op: str, rhs: Any) -> Failure:
        if prop == "T":
            allowed = max_updates(self.claim)
            rel = "<" if self.claim.strict else "<="
            if allowed is not None:
                return Failure(
                    "T",
                    k,
                    j,
                    lhs,
                    op,
                    rhs,
                    f"k = {k} updates, but the claim allows {allowed}"
                    + (
                        ""
                        if self.claim.bound is not None
                        else f" ({show(lhs)} {rel} {show(rhs)} is false)"
                    ),
                )
        return Failure(prop, k, j, lhs, op, rhs)

    # --- Measures reported by a hand-written run ------------------------------------------------

    def feed_steps(self, steps: Sequence[Any]) -> int | None:
        """Evaluate :class:`~pla_proof.variants.protocol.variant.Measure` objects (exact values of
        any ordered ring); same return as :meth:`feed`."""
        if not steps:
            return None
        with self._busy():
            return self._feed_steps(steps)

    def _feed_steps(self, steps: Sequence[Any]) -> int | None:
        values = [(s.t, s.pu0, s.pu1, s.n0, s.n1) for s in steps]
        if self.rational and all(_rational(v) for row in values for v in row):
            names = ("t", "pu", "pu1", "n0", "n1")
            m = {"k": Exact.of(np.array([s.k for s in steps], dtype=np.int64), 1)}
            for c, name in enumerate(names):
                m[name] = exact_array([Fraction(row[c]) for row in values])
            return self._feed(steps[0].k - 1, m, [s.j for s in steps])
        return self._scalar(steps)

    def _scalar(self, steps: Sequence[Any]) -> int | None:
        consts = dict(self.constants)
        pair = consts.pop("B_pair", None)
        for s in steps:
            vals = {**consts, "k": s.k, "t": s.t, "pu": s.pu0, "pu1": s.pu1, "n0": s.n0, "n1": s.n1}
            checks = [(lem, False) for lem in self.lemmas]
            checks += [(lem, self.claim.strict) for lem in self.bound_lemmas]
            for lem, strict in checks:
                prop = _PROPERTY_OF[lem.id]
                if prop in self.failures:
                    continue
                if lem is T_B and pair is not None:
                    num, den = pair
                    ok = s.k * den < num if strict else s.k * den <= num
                    lhs, op, rhs = s.k * den, "<" if strict else "<=", num
                else:
                    ok = lem.holds(vals, strict=strict)
                    fl, op, fr = lem.evaluator(strict=strict)
                    lhs = fl(**{a: vals[a] for a in fl.__pla_args__})  # type: ignore[attr-defined]
                    rhs = fr(**{a: vals[a] for a in fr.__pla_args__})  # type: ignore[attr-defined]
                if not ok:
                    self.failures[prop] = self._failure(prop, s.k, s.j, lhs, op, rhs)
                    if self.stop is not None and self.stop(prop):
                        self.stop_at = int(s.k)
                        return int(s.k)
        return None


def exact_array(vals: Sequence[Fraction]) -> Exact:
    """Rationals as one exact array over their common denominator."""
    D = math.lcm(*(v.denominator for v in vals)) if vals else 1
    ints = [v.numerator * (D // v.denominator) for v in vals]
    if all(abs(i) < 2**62 for i in ints):
        return Exact.of(np.array(ints, dtype=np.int64), D)
    return Exact.of(np.array(ints, dtype=object), D)
