"""Seeded bugs: realistic mistakes in Perceptron variants, each expected to be caught
by one specific property of the harness with a small counterexample.

Check one with ``pla-proof check bug:NAME`` (exit 1 expected).

>>> BUGS["plus-x"].expected
'G2'
>>> from pla_proof.variants.checking import search
>>> search(BUGS["plus-x"].variant(), examples=10, shrink_runs=30).result("G2").ok
False
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from ...numbers import dot, norm2
from ..protocol.variant import Case, Claim, Order, PassVariant, Record, Variant
from .averaged import Averaged
from .bias import BiasAugment, augmented
from .classic import Classic
from .kernel import Dual, Kernel, PolynomialKernel
from .margin import Margin
from .multiclass import Multiclass
from .pocket import Pocket
from .seed004 import Seed004Listing
from .start import NonzeroStart

__all__ = ["BUGS", "NEEDLES", "SeededBug"]


@dataclass(frozen=True)
class SeededBug:
    """A broken variant, the property expected to catch it, and the largest
    counterexample (number of points) the tests accept."""

    name: str
    mistake: str
    factory: Callable[[], Variant]
    expected: str
    max_points: int
    #: a needle (shows only near the edge of one inequality): the correct variant it
    #: breaks, and a case on which it fails the expected property and the twin does not
    twin: str = ""
    witness: Callable[[], Case] | None = None

    def variant(self) -> Variant:
        return self.factory()


class PlusX(Classic):
    name: ClassVar[str] = "bug:plus-x"
    classic_dynamics: ClassVar[bool] = False

    def step(self, w: Sequence[Any], x: Sequence[Any], y: int) -> Sequence[Any]:
        return list(x)  # forgot the label


class StrictTrigger(Classic):
    name: ClassVar[str] = "bug:strict-trigger"
    classic_dynamics: ClassVar[bool] = False

    def triggers(self, w: Sequence[Any], x: Sequence[Any], y: int) -> bool:
        return self.score(w, x, y) < 0  # type: ignore[no-any-return]  # never fires at w = 0


class Doubled(Classic):
    name: ClassVar[str] = "bug:doubled-update"
    classic_dynamics: ClassVar[bool] = False

    def step(self, w: Sequence[Any], x: Sequence[Any], y: int) -> Sequence[Any]:
        return [2 * y * v for v in x]  # but the claim stays (R^2, gamma)


class WrongBiasSign(BiasAugment):
    """Decision ``w.x + b`` (augment with c) but the bias moves ``b <- b - y c``."""

    name: ClassVar[str] = "bug:bias-wrong-sign"
    classic_dynamics: ClassVar[bool] = False

    def step(self, w: Sequence[Any], x: Sequence[Any], y: int) -> Sequence[Any]:
        return [*(y * v for v in x[:-1]), -y * x[-1]]


class PositiveOnly(Classic):
    name: ClassVar[str] = "bug:positive-only"
    classic_dynamics: ClassVar[bool] = False

    def triggers(self, w: Sequence[Any], x: Sequence[Any], y: int) -> bool:
        return y == 1 and bool(self.score(w, x, y) <= 0)


class _Counting(Classic):
    """A classic variant whose step knows which update it makes (1, 2, ...)."""

    def run(self, case: Case, order: Order) -> Record:
        self._k = 0
        return super().run(case, order)

    def _next_update(self) -> int:
        self._k += 1
        return self._k


class SkipFirst(_Counting):
    """The update counter advances but the first update is not applied (``if k > 1``)."""

    name: ClassVar[str] = "bug:skip-first-update"
    classic_dynamics: ClassVar[bool] = False

    def step(self, w: Sequence[Any], x: Sequence[Any], y: int) -> Sequence[Any]:
        if self._next_update() == 1:
            return [0 * v for v in x]
        return [y * v for v in x]


class BoundMinusOne(Classic):
    name: ClassVar[str] = "bug:bound-minus-one"

    def claim(self, case: Case) -> Claim:
        return Claim(
            C=case.radius_squared,
            g=case.gamma,
            uu=case.uu,
            bound=case.radius_squared * case.uu / case.gamma**2 - 1,
        )


class RadiusBeforeAugmentation(BiasAugment):
    """Claims ``R^2`` of the raw points, forgetting the bias coordinate's ``c^2``."""

    name: ClassVar[str] = "bug:radius-before-augmentation"

    def claim(self, case: Case) -> Claim:
        aug = augmented(case, self.c(case))
        raw_R2 = case.radius_squared
        return Claim(C=raw_R2, g=aug.gamma, uu=aug.uu)


class OneEpoch(PassVariant):
    """Classic updates, but training stops after one pass whatever errors remain."""

    name: ClassVar[str] = "bug:one-epoch"
    max_epochs: ClassVar[int | None] = 1


class MarginClassicBound(Margin):
    """The margin perceptron (tau > 0) claiming the classic ``(eta^2 R^2, eta gamma)``."""

    name: ClassVar[str] = "bug:margin-classic-bound"

    def claim(self, case: Case) -> Claim:
        eta = Fraction(case.params["eta"])
        return Claim(C=eta * eta * case.radius_squared, g=eta * case.gamma, uu=case.uu)


class NotPSDKernel(PolynomialKernel):
    """``K(x, x') = x.x' - 1``: a "polynomial kernel" with a negative offset."""

    name: ClassVar[str] = "bug:kernel-not-psd"
    c: ClassVar[Fraction] = Fraction(-1)
    degree: ClassVar[int] = 1

    def kernel(self) -> Kernel:
        def K(a: tuple[Fraction, ...], b: tuple[Fraction, ...]) -> Fraction:
            return Fraction(dot(a, b)) - 1

        return K


class AveragedSeparates(Averaged):
    """Claims that the averaged output ``a = sum c_j w_j`` separates the training set."""

    name: ClassVar[str] = "bug:averaged-separates"

    def run(self, case: Case, order: Order) -> Record:
        rec = super().run(case, order)
        rec.end["m"], rec.end["j"] = rec.end["averaged_m"], rec.end["averaged_j"]
        return rec


class Seed004Strict(Seed004Listing):
    """The DSC 255 handout's listing claiming the theorem's strict separation."""

    name: ClassVar[str] = "bug:seed004-strict"
    end_claim: ClassVar[str] = "SEP"


class PocketNoRatchet(Pocket):
    """Gallant's pocket *without* the ratchet, claiming the ratchet property."""

    name: ClassVar[str] = "bug:pocket-no-ratchet"
    ratchet: ClassVar[bool] = False


def _wrap(v: Any, bits: int) -> Any:
    """``v`` wrapped into the signed ``bits``-bit range (two's complement)."""
    half = 2 ** (bits - 1)
    return (v + half) % (2 * half) - half


class IntegerWeights(Classic):
    """Weights kept in an integer array: every new weight is truncated to an integer
    (``w = np.zeros(d, dtype=int); w[:] = w + y * x``) -- invisible on integer data."""

    name: ClassVar[str] = "bug:integer-weights"
    classic_dynamics: ClassVar[bool] = False

    def step(self, w: Sequence[Any], x: Sequence[Any], y: int) -> Sequence[Any]:
        return [math.trunc(a + y * v) - a for a, v in zip(w, x, strict=True)]


class Int32Weights(Classic):
    """Weights in an int32 array: a weight beyond 2^31 wraps around."""

    name: ClassVar[str] = "bug:int32-weights"
    classic_dynamics: ClassVar[bool] = False

    def step(self, w: Sequence[Any], x: Sequence[Any], y: int) -> Sequence[Any]:
        return [_wrap(a + y * v, 32) - a for a, v in zip(w, x, strict=True)]


class Int64Score(Classic):
    """The trigger ``y w.x`` accumulated in int64 (it wraps beyond 2^63; exact below)."""

    name: ClassVar[str] = "bug:int64-score"
    classic_dynamics: ClassVar[bool] = False

    def score(self, w: Sequence[Any], x: Sequence[Any], y: int) -> Any:
        s = Fraction(0)
        for a, v in zip(w, x, strict=True):
            s = _wrap(s + a * v, 64)
        return y * s


class MaxIter(Classic):
    """A hard-coded ``max_iter = 100`` updates: stops early on data that need more."""

    name: ClassVar[str] = "bug:max-iter-100"
    classic_dynamics: ClassVar[bool] = False

    def budget(self, case: Case) -> tuple[int, bool]:
        b, _ = super().budget(case)
        return min(b, 100), True


class DroppedTail(Classic):
    """A dot product unrolled by 4 that forgets the remainder loop when d > 4."""

    name: ClassVar[str] = "bug:unrolled-dot"
    classic_dynamics: ClassVar[bool] = False

    def score(self, w: Sequence[Any], x: Sequence[Any], y: int) -> Any:
        d = len(x)
        upto = d if d <= 4 else d - d % 4
        return y * sum((w[c] * x[c] for c in range(upto)), Fraction(0))


class MulticlassClassicConstant(Multiclass):
    """Multiclass claiming the binary constant ``R^2`` (forgetting ``|z|^2 = 2|x|^2``)."""

    name: ClassVar[str] = "bug:multiclass-binary-constant"
    growth_factor: ClassVar[int] = 1


class GramCache(Dual):
    """The dual form with a Gram-row cache of 10 slots indexed by ``i % 10`` whose tag
    is never checked: from the 11th point on, a row is another point's row."""

    name: ClassVar[str] = "bug:kernel-cache-11th"

    def gram(self, case: Case) -> list[list[Any]]:
        exact = super().gram(case)
        slots: dict[int, list[Any]] = {}
        rows = []
        for i in range(case.n):
            if i % 10 not in slots:  # filled once, by the first point of the slot
                slots[i % 10] = exact[i]
            rows.append(slots[i % 10])
        return rows


class StopsAt90(Classic):
    """Training stops as soon as 90% of the training points are classified right (an
    "accuracy >= 0.9" early stop): only data of ten points or more show it."""

    name: ClassVar[str] = "bug:stops-at-90-percent"
    classic_dynamics: ClassVar[bool] = False
    #: the training accuracy at which it stops
    accuracy: ClassVar[Fraction] = Fraction(9, 10)

    def run(self, case: Case, order: Order) -> Record:
        self._points = list(zip(case.X, case.y, strict=True))
        self._seen: tuple[Any, bool] = (None, False)
        return super().run(case, order)

    def _accurate(self, w: Sequence[Any]) -> bool:
        key = tuple(w)
        if self._seen[0] != key:
            right = sum(1 for a, b in self._points if b * dot(w, a) > 0)
            self._seen = (key, right >= self.accuracy * len(self._points))
        return self._seen[1]

    def triggers(self, w: Sequence[Any], x: Sequence[Any], y: int) -> bool:
        if self._accurate(w):
            return False
        return bool(self.score(w, x, y) <= 0)


class RateDecayAfter500(_Counting):
    """A learning rate ``eta_k = 500/k`` from the 501st update on, while the claim stays
    the classic ``(R^2, gamma)``: only runs of more than 500 updates show it."""

    name: ClassVar[str] = "bug:rate-decay-after-500"
    classic_dynamics: ClassVar[bool] = False

    def step(self, w: Sequence[Any], x: Sequence[Any], y: int) -> Sequence[Any]:
        k = self._next_update()
        eta = Fraction(1) if k <= 500 else Fraction(500, k)
        return [eta * y * v for v in x]


class EpochsAsVisits(PassVariant):
    """An epoch budget of 1000 counted in visits (one per point looked at) instead of
    passes: the loop stops after ``1000 // n`` passes, whatever errors remain -- only
    runs that need more than 1000 visits (many points, or many passes) show it."""

    name: ClassVar[str] = "bug:epochs-as-visits"
    epochs: ClassVar[int] = 1000

    def run(self, case: Case, order: Order) -> Record:
        self.max_epochs = max(1, self.epochs // max(1, case.n))  # type: ignore[misc]
        return super().run(case, order)


class StartZeroBound(NonzeroStart):
    """A nonzero start ``w_0`` whose claim keeps the zero-start bound ``R^2/gamma^2``
    (forgetting ``2 (|w_0| - u.w_0)/gamma``): a start pointing away from ``u`` shows it."""

    name: ClassVar[str] = "bug:start-zero-bound"

    def claim(self, case: Case) -> Claim:
        w0 = case.params["w0"]
        R2, uu, g = case.radius_squared, case.uu, case.gamma
        pu0, n0 = Fraction(dot(case.u, w0)), Fraction(norm2(w0))
        return Claim(C=R2, g=g, uu=uu, pu0=pu0, n0=n0, bound=R2 * uu / (g * g))


# --- needles: bugs that show only near the edge of one inequality (issue 39) ----------------


class TieNegativeAfterFirst(_Counting):
    """A score of exactly 0 counts as "right" for a negative label once the weights have
    moved (``predict(0) = -1``, but the first update still fires at ``w = 0``): the run
    ends with a negative point on the separator, which only a tie at its last pass shows."""

    name: ClassVar[str] = "bug:tie-negative-after-first"
    classic_dynamics: ClassVar[bool] = False

    def run(self, case: Case, order: Order) -> Record:
        self._moved = False
        return super().run(case, order)

    def triggers(self, w: Sequence[Any], x: Sequence[Any], y: int) -> bool:
        s = self.score(w, x, y)
        if self._moved and y < 0 and s == 0:
            return False
        return bool(s <= 0)

    def step(self, w: Sequence[Any], x: Sequence[Any], y: int) -> Sequence[Any]:
        self._moved = True
        return [y * v for v in x]


class CeilMinusOne(Classic):
    """The largest number of updates claimed as ``ceil(B) - 1`` (as if the theorem said
    ``k < B``): one too few only when ``B = R^2 |u|^2 / gamma^2`` is an integer and a run
    reaches it."""

    name: ClassVar[str] = "bug:ceil-minus-one"

    def claim(self, case: Case) -> Claim:
        B = case.radius_squared * case.uu / case.gamma**2
        ceil = -((-B.numerator) // B.denominator)
        return Claim(C=case.radius_squared, g=case.gamma, uu=case.uu, bound=Fraction(ceil - 1))

    def examples(self) -> Sequence[Case]:
        return []  # (its own fixed cases: none -- the generated data must find it)


class RoundedMemo(Classic):
    """The trigger's verdict memoised on the score rounded to 6 decimals: two scores
    that round alike (a tiny negative one after a tiny positive one) share a verdict."""

    name: ClassVar[str] = "bug:rounded-memo"
    classic_dynamics: ClassVar[bool] = False

    def run(self, case: Case, order: Order) -> Record:
        self._memo: dict[float, bool] = {}
        return super().run(case, order)

    def triggers(self, w: Sequence[Any], x: Sequence[Any], y: int) -> bool:
        s = self.score(w, x, y)
        key = round(float(s), 6)
        if s != 0 and key in self._memo:
            return self._memo[key]
        verdict = bool(s <= 0)
        if s != 0:
            self._memo[key] = verdict
        return verdict


class MarginThreshold(Classic):
    """Updates while ``y w.x <= R^2/1000`` (a tolerance "to be safe") while claiming the
    classic constants: G1 breaks only at an update on a correctly classified point when
    ``|w|^2`` is at its bound ``k R^2``."""

    name: ClassVar[str] = "bug:margin-threshold"
    classic_dynamics: ClassVar[bool] = False

    def run(self, case: Case, order: Order) -> Record:
        self._tol = case.radius_squared / 1000
        return super().run(case, order)

    def triggers(self, w: Sequence[Any], x: Sequence[Any], y: int) -> bool:
        return bool(self.score(w, x, y) <= self._tol)


class StopsAt95(StopsAt90):
    """Training stops once 95% of the training points are classified right: only data
    of twenty points or more, with one mistake left at that moment, show it."""

    name: ClassVar[str] = "bug:stops-at-95-percent"
    accuracy: ClassVar[Fraction] = Fraction(19, 20)


class IscloseStop(Classic):
    """Training stops at the first update that leaves every weight ``math.isclose`` to
    what it was (its default: ``|change| <= 1e-9 |w|``), a "converged" test: only a point
    some 10^9 times shorter than the weights, still misclassified after its update,
    shows it."""

    name: ClassVar[str] = "bug:isclose-stop"
    classic_dynamics: ClassVar[bool] = False
    #: math.isclose's default tolerances (rel_tol, abs_tol), exact
    rtol: ClassVar[Fraction] = Fraction(1, 10**9)
    atol: ClassVar[Fraction] = Fraction(0)

    def run(self, case: Case, order: Order) -> Record:
        self._stopped = False
        return super().run(case, order)

    def triggers(self, w: Sequence[Any], x: Sequence[Any], y: int) -> bool:
        return not self._stopped and bool(self.score(w, x, y) <= 0)

    def step(self, w: Sequence[Any], x: Sequence[Any], y: int) -> Sequence[Any]:
        change = [y * v for v in x]
        self._stopped = all(
            abs(c) <= self.atol + self.rtol * abs(v) for c, v in zip(change, w, strict=True)
        )
        return change


def _case(X: Sequence[Sequence[Any]], y: Sequence[int], u: Sequence[Any]) -> Case:
    """A witness: the points, labels and comparator (its margin computed)."""
    pts = tuple(tuple(Fraction(v) for v in x) for x in X)
    g = min(yi * dot(u, x) for x, yi in zip(pts, y, strict=True))
    return Case(pts, tuple(y), tuple(Fraction(v) for v in u), Fraction(g), {})


_ALL = [
    SeededBug("plus-x", "update w += x instead of w += y x", PlusX, "G2", 1),
    SeededBug(
        "strict-trigger", "trigger y w.x < 0: never moves from w = 0", StrictTrigger, "SEP", 1
    ),
    SeededBug("doubled-update", "update 2 y x while claiming (R^2, gamma)", Doubled, "G1", 1),
    SeededBug(
        "bias-wrong-sign",
        "bias added with the wrong sign (b -= y with decision w.x + b)",
        WrongBiasSign,
        "G2",
        1,
    ),
    SeededBug("positive-only", "updates only on positive labels", PositiveOnly, "SEP", 1),
    SeededBug(
        "skip-first-update",
        "off-by-one: the first update is counted but not applied",
        SkipFirst,
        "G2",
        1,
    ),
    SeededBug(
        "bound-minus-one", "bound claimed one smaller than R^2/gamma^2", BoundMinusOne, "T", 1
    ),
    SeededBug(
        "radius-before-augmentation",
        "R taken before the bias augmentation",
        RadiusBeforeAugmentation,
        "G1",
        1,
    ),
    SeededBug("one-epoch", "stops after one epoch with errors left", OneEpoch, "SEP", 3),
    SeededBug(
        "margin-classic-bound",
        "margin perceptron (tau > 0) claiming the classic constants",
        MarginClassicBound,
        "G1",
        2,  # one point shows it (2 updates); the defaults' shrink stops at two
    ),
    SeededBug(
        "kernel-not-psd", "kernel K = x.x' - 1 is not positive semidefinite", NotPSDKernel, "PSD", 2
    ),
    SeededBug(
        "averaged-separates",
        "averaged perceptron claiming its output separates",
        AveragedSeparates,
        "SEP",
        3,
    ),
    SeededBug(
        "seed004-strict",
        "the DSC 255 handout's listing (sign(0) = +1) claiming strict separation",
        Seed004Strict,
        "SEP",
        1,
    ),
    SeededBug(
        "pocket-no-ratchet",
        "pocket without ratchet claiming the ratchet property",
        PocketNoRatchet,
        "RATCHET",
        5,
    ),
    SeededBug(
        "integer-weights",
        "weights kept in an integer array (truncated): only non-integer data show it",
        IntegerWeights,
        "G2",
        1,
    ),
    SeededBug(
        "int32-weights",
        "weights in an int32 array (wrap beyond 2^31): only large coordinates show it",
        Int32Weights,
        "G2",
        1,
    ),
    SeededBug(
        "int64-score",
        "y w.x accumulated in int64 (wraps beyond 2^63): only huge coordinates show it",
        Int64Score,
        "G1",
        2,
    ),
    SeededBug(
        "max-iter-100",
        "a hard-coded max_iter of 100 updates: only runs that need more show it",
        MaxIter,
        "SEP",
        4,
    ),
    SeededBug(
        "unrolled-dot",
        "dot product unrolled by 4 without the remainder loop: only d > 4 shows it",
        DroppedTail,
        "G1",
        3,
    ),
    SeededBug(
        "multiclass-binary-constant",
        "multiclass claiming growth R^2 instead of 2R^2",
        MulticlassClassicConstant,
        "G1",
        1,
    ),
    SeededBug(
        "kernel-cache-11th",
        "a Gram-row cache of 10 slots (i % 10, tag never checked): wrong from the 11th point",
        GramCache,
        "EQ",
        20,
    ),
    SeededBug(
        "stops-at-90-percent",
        "training stops at 90% training accuracy: only ten points or more show it",
        StopsAt90,
        "SEP",
        20,
    ),
    SeededBug(
        "rate-decay-after-500",
        "a learning rate 500/k from the 501st update on, claiming (R^2, gamma)",
        RateDecayAfter500,
        "G2",
        20,
    ),
    SeededBug(
        "epochs-as-visits",
        "an epoch budget of 1000 counted in visits instead of passes",
        EpochsAsVisits,
        "SEP",
        20,
    ),
    SeededBug(
        "start-zero-bound",
        "a nonzero start claiming the zero-start bound R^2/gamma^2",
        StartZeroBound,
        "T",
        3,
    ),
    SeededBug(
        "tie-negative-after-first",
        "a negative point at a score of exactly 0 taken as right once the weights moved",
        TieNegativeAfterFirst,
        "SEP",
        20,
        "classic",
        lambda: _case([(-1, 0), (1, 1)], [-1, -1], (1, -2)),
    ),
    SeededBug(
        "ceil-minus-one",
        "the bound claimed as ceil(B) - 1: one too few when B is an integer",
        CeilMinusOne,
        "T",
        20,
        "classic",
        lambda: _case([(-20,)], [-1], (1,)),
    ),
    SeededBug(
        "rounded-memo",
        "the trigger's verdict memoised on the score rounded to 6 decimals",
        RoundedMemo,
        "G1",
        20,
        "classic",
        lambda: _case(
            [(Fraction(-1, 1000), 0), (Fraction(1, 10000), Fraction(1, 10000))], [-1, -1], (1, -2)
        ),
    ),
    SeededBug(
        "margin-threshold",
        "updates while y w.x <= R^2/1000, claiming the classic constants",
        MarginThreshold,
        "G1",
        20,
        "classic",
        lambda: _case([(0, 0, 0, -6, -6), (0, 0, 0, 24, 23)], [-1, -1], (0, 0, 0, -174, 180)),
    ),
    SeededBug(
        "stops-at-95-percent",
        "training stops at 95% training accuracy: only twenty points or more show it",
        StopsAt95,
        "SEP",
        30,
        "classic",
        lambda: _case([(1, 0)] * 19 + [(-1, 1)], [1] * 20, (1, 3)),
    ),
    SeededBug(
        "isclose-stop",
        "training stops at an update that leaves every weight math.isclose to before",
        IscloseStop,
        "SEP",
        20,
        "classic",
        lambda: _case(
            [(1, 1), (Fraction(7, 10**11), -Fraction(7, 10**11) - Fraction(15, 10**21))],
            [1, 1],
            (1 + Fraction(14, 10**11), 1 - Fraction(14, 10**11) - Fraction(30, 10**21)),
        ),
    ),
]

for _b in _ALL:
    _b.factory.summary = f"seeded bug: {_b.mistake}"  # type: ignore[attr-defined]

#: name -> seeded bug
BUGS: dict[str, SeededBug] = {b.name: b for b in _ALL}
#: the needles: bugs that show only near the edge of one inequality (with a twin)
NEEDLES: list[str] = [b.name for b in _ALL if b.twin]


def kill_table(examples: int | None = None, seed: int = 0, jobs: int = 1) -> list[dict[str, Any]]:
    """Run every seeded bug through the harness at ``pla-proof check``'s settings
    (first shrunk counterexample only):
    ``[{bug, mistake, expected, caught_by, points, updates, failure}]``."""
    from ..checking.search import search
    from ..checking.shard import DEFAULT_EXAMPLES

    examples = DEFAULT_EXAMPLES if examples is None else examples
    rows = []
    for b in _ALL:
        rep = search(b.variant(), examples=examples, seed=seed, first_only=True, jobs=jobs)
        ce = rep.result(rep.caught_by).counterexample if rep.caught_by else None
        rows.append(
            {
                "bug": b.name,
                "mistake": b.mistake,
                "expected": b.expected,
                "caught_by": rep.caught_by,
                "points": None if ce is None else ce.case.n,
                "updates": None if ce is None else ce.record.updates,
                "failure": None if ce is None else ce.failure.describe(),
            }
        )
    return rows


def main() -> None:  # pragma: no cover - exercised by the docs' command
    """Print the kill table as Markdown:
    ``python -m pla_proof.variants.catalog.bugs [--examples N] [--seed S] [--jobs J]``."""
    import argparse

    ap = argparse.ArgumentParser(prog="python -m pla_proof.variants.catalog.bugs")
    ap.add_argument("--examples", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    print("| seeded bug | mistake | caught by | counterexample | first failure |")
    print("|---|---|---|---|---|")
    for r in kill_table(args.examples, args.seed, args.jobs):
        ok = "" if r["caught_by"] == r["expected"] else f" (expected {r['expected']})"
        print(
            f"| `bug:{r['bug']}` | {r['mistake']} | {r['caught_by']}{ok} | "
            f"{r['points']} point(s), {r['updates']} update(s) | {r['failure']} |"
        )


if __name__ == "__main__":  # pragma: no cover
    main()
