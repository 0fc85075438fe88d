"""What a check reports: every property of the claim with its first shrunk
counterexample (:class:`CheckReport`, :class:`PropertyResult`, :class:`Counterexample`)
and what one shard of a search found (:class:`ShardResult`).

>>> property_order("G1") < property_order("T") < property_order("MY_OWN")
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ...errors import OutsideDomain
from ..protocol.claim import Failure
from ..protocol.variant import Case, Order, Record, Variant
from .slow import AT_DEADLINE

__all__ = [
    "GENERIC_PROPERTIES",
    "HARNESS_PROPERTIES",
    "MAX_SKIPPED_SHARE",
    "SKIP_REASONS_KEPT",
    "CheckReport",
    "Counterexample",
    "PropertyResult",
    "ShardResult",
    "failure_order",
    "keep_reason",
    "property_order",
    "statement_of",
]

#: id -> (lemma it instantiates, statement)
GENERIC_PROPERTIES: dict[str, tuple[str, str]] = {
    "RUNS": ("harness", "the variant runs on every valid case (no exception)"),
    "ENDS": ("harness", "every run finishes: an update at least every --run-seconds"),
    "G1": ("generic lemma G1 (classic: L6)", "growth |w_{k+1}|^2 - |w_k|^2 <= C at every update"),
    "G2": ("generic lemma G2 (classic: L2)", "progress u.w_{k+1} - u.w_k >= g at every update"),
    "P_k": ("P_G (classic: L3)", "u.w_{k+1} >= u.w_1 + k g after k updates"),
    "Q_k": ("Q_G (classic: L7)", "|w_{k+1}|^2 <= |w_1|^2 + k C after k updates"),
    "L4": ("L4", "Cauchy-Schwarz (u.w)^2 <= |u|^2 |w|^2"),
    "T": ("T_G (classic: T)", "number of updates k within the claimed bound"),
    "SEP": ("SEP", "the returned predictor separates every point strictly"),
    "SEP0": ("the DSC 255 handout", "the returned (w, b) predicts every label, with sign(0) = +1"),
    "SEP0N": (
        "a 0/1 perceptron's stopping rule",
        "the returned (w, b) predicts every label, with sign(0) = -1",
    ),
}
#: The checker's own properties (a run that raises, a run that does not end).
HARNESS_PROPERTIES = ("RUNS", "ENDS")


@dataclass
class Counterexample:
    case: Case
    order: Order
    record: Record
    failure: Failure
    explicit: bool = False  # a fixed example (not found by the search)
    shard: int = 0
    shrunk: bool = True  # False: the run ended its worker process (not run again to shrink)

    def size(self) -> tuple[int, int, int, int]:
        return (self.case.n, self.case.d, self.record.updates, self.shard)


@dataclass
class PropertyResult:
    id: str
    statement: str
    lemma: str
    counterexample: Counterexample | None = None
    #: distinct causes beyond the first (other exceptions of RUNS, found by Hypothesis)
    others: list[Counterexample] = field(default_factory=list)
    runs: int = 0  # runs on which the property was evaluated

    @property
    def ok(self) -> bool:
        return self.counterexample is None


#: A check is a verdict only when at most this share of its cases was skipped (outside
#: the variant's domain): a search that skips more checked too little to pass.
MAX_SKIPPED_SHARE = Fraction(1, 10)
#: How many distinct reasons for skipped cases a report keeps (the first ones met).
SKIP_REASONS_KEPT = 3


@dataclass
class CheckReport:
    """A search's outcome.  Its verdict (:attr:`status`) is ``"fail"`` when a property
    has a counterexample, ``"inconclusive"`` when time ran out -- runs interrupted by the
    per-run time limit before their bound (slow, not wrong: :attr:`slow_reasons`), or the
    check's own time limit (:attr:`stopped`) -- ``"unchecked"`` when the search checked
    too little to pass (no run, more than :data:`MAX_SKIPPED_SHARE` of the cases skipped,
    or a claimed property that no run evaluated: :attr:`unchecked` says which), else
    ``"pass"``; :attr:`ok` is True only for ``"pass"``."""

    variant: str
    examples: int
    seed: int
    properties: list[PropertyResult] = field(default_factory=list)
    runs: int = 0
    inconclusive: int = 0
    caught_by: str | None = None  # with ``first_only``: the first property refuted
    mode: str = "exact"
    max_missed: float = 0.0
    undecided: int = 0
    seconds: float = 0.0  # search time, summed over the shards (whatever ran them)
    skipped: int = 0  # cases outside the domain (float mode: not separable after rounding)
    #: the first distinct reasons cases were skipped, with how many each
    skip_reasons: dict[str, int] = field(default_factory=dict)
    #: runs the per-run time limit interrupted before their bound (slow, not wrong)
    slow: int = 0
    #: the first distinct reasons of those runs, with how many each
    slow_reasons: dict[str, int] = field(default_factory=dict)
    #: the search ended at the check's time limit (``--time-limit``) before it was done
    stopped: bool = False
    #: with ``--backend crosshair``: what its rounds ran and found (:mod:`.symbolic`)
    symbolic: dict[str, int] = field(default_factory=dict)
    #: with ``--scheduler``: the scheduler, its workers (at most at once), and the
    #: parts of the search that ran again after their worker was lost (:mod:`.cluster`)
    cluster: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.status == "pass"

    @property
    def status(self) -> str:
        if self.failed:
            return "fail"
        if self.slow or self.stopped or self.undecided_runs:
            return "inconclusive"
        return "unchecked" if self.unchecked else "pass"

    @property
    def undecided_runs(self) -> bool:
        """Runs were made and none reached a verdict: each stopped at the safety cap
        before its bound (a pass would rest on nothing)."""
        return self.runs > 0 and self.inconclusive >= self.runs

    @property
    def inconclusive_reasons(self) -> list[str]:
        """Why the search is inconclusive (empty when it is not): time ran out, or no
        run reached a verdict."""
        why = []
        if self.undecided_runs:
            why.append(
                f"no run reached a verdict: all {self.runs} run(s) stopped at the safety cap "
                "before their bound"
                + (f" ({self.skipped} case(s) skipped)" if self.skipped else "")
            )
        if self.stopped:
            why.append(
                f"the check's time limit ended the search after {self.runs} run(s) "
                "(raise it with --time-limit)"
            )
        for reason, count in self.slow_reasons.items():
            why.append(f"{count} run(s): {reason}" if count > 1 else reason)
        return why

    @property
    def unchecked(self) -> list[str]:
        """Why the search is no verdict (empty when it is one)."""
        why = []
        tried = self.runs + self.skipped
        if self.runs == 0:
            why.append(
                f"no run was checked ({self.skipped} case(s) skipped)"
                if self.skipped
                else "no run was checked"
            )
        elif self.skipped > MAX_SKIPPED_SHARE * tried:
            why.append(
                f"{self.skipped} of {tried} cases were skipped (more than "
                f"{MAX_SKIPPED_SHARE.numerator}/{MAX_SKIPPED_SHARE.denominator})"
            )
        never = [p.id for p in self.properties if p.ok and p.runs == 0]
        if never and self.runs:
            why.append("no run evaluated " + ", ".join(never))
        return why

    @property
    def failed(self) -> list[PropertyResult]:
        return [p for p in self.properties if not p.ok]

    def result(self, prop: str) -> PropertyResult:
        for p in self.properties:
            if p.id == prop:
                return p
        raise KeyError(prop)


def keep_reason(reasons: dict[str, int], reason: str, count: int = 1) -> None:
    """Count ``reason`` among the first :data:`SKIP_REASONS_KEPT` distinct reasons."""
    if reason in reasons or len(reasons) < SKIP_REASONS_KEPT:
        reasons[reason] = reasons.get(reason, 0) + count


PROPERTY_ORDER = list(GENERIC_PROPERTIES)


def property_order(prop: str) -> tuple[int, str]:
    return (PROPERTY_ORDER.index(prop) if prop in PROPERTY_ORDER else len(PROPERTY_ORDER), prop)


def failure_order(variant: Variant, f: Failure | None, prop: str) -> tuple[float, int, str]:
    """Order failures in time: the harness's own, preconditions, then by update index,
    then end-of-run properties; ties by the proof's order."""
    if prop in HARNESS_PROPERTIES:
        k: float = -2
    elif prop in variant.preconditions:
        k = -1
    elif f is not None and f.k is not None:
        k = f.k
    else:
        k = float("inf")
    return (k, *property_order(prop))


def statement_of(variant: Variant, prop: str) -> tuple[str, str]:
    if prop in GENERIC_PROPERTIES:
        lem, text = GENERIC_PROPERTIES[prop]
        return text, lem
    extra: dict[str, str] = getattr(variant, "extra_properties", {})
    return extra.get(prop, prop), "variant"


@dataclass
class ShardResult:
    """What one shard of a search found (picklable: sent back by worker processes)."""

    found: dict[str, list[Counterexample]] = field(default_factory=dict)
    seen: set[str] = field(default_factory=set)
    evaluated: dict[str, int] = field(default_factory=dict)
    runs: int = 0
    inconclusive: int = 0
    skipped: int = 0
    skip_reasons: dict[str, int] = field(default_factory=dict)
    timeouts: int = 0
    max_missed: float = 0.0
    undecided: int = 0
    caught_by: str | None = None
    seconds: float = 0.0  # time this shard searched
    slow: int = 0  # runs out of time before their bound (slow, not wrong)
    slow_reasons: dict[str, int] = field(default_factory=dict)
    stopped: bool = False  # the check's time limit ended the shard
    #: (from a worker) what users' code printed: its first lines, how many were dropped,
    #: its last lines (:meth:`pla_proof.userprints.PrefixedLines.take`)
    prints: tuple[tuple[str, ...], int, tuple[str, ...]] | None = None
    #: the symbolic backend's round: its runs, and its counterexamples replayed on plain
    #: values (``replayed``: the property failed again; ``dropped``: it did not)
    symbolic: dict[str, int] = field(default_factory=dict)

    def note(self, rec: Record, res: dict[str, Failure | None]) -> None:
        if rec.inconclusive:
            if rec.inconclusive.startswith(AT_DEADLINE):
                self.stopped = True  # (the run is not counted: it was cut off, not slow)
            else:
                self.slow += 1
                keep_reason(self.slow_reasons, rec.inconclusive)
                if self.timeouts:  # after a loop that never ends: one more time-out of it
                    self.timeouts += 1
            return
        self.runs += 1
        self.seen.update(res)
        for p in rec.evaluated or res:
            self.evaluated[p] = self.evaluated.get(p, 0) + 1
        if not rec.complete:
            self.inconclusive += 1

    def skip(self, exc: OutsideDomain) -> None:
        """A case outside the variant's domain."""
        self.skipped += 1
        keep_reason(self.skip_reasons, str(exc).strip().splitlines()[0] if str(exc) else "-")
