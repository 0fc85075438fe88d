"""A monitored run, update by update: what ``pla-proof trace`` shows, as data.

:func:`trace` runs the Perceptron (optionally replaying a recorded order of points),
settles a run that ran out of budget on data that are not separable with an exact
Gordan certificate (:func:`settle`), and returns a :class:`Trace`: the run, the
weights after each update and, in exact mode with a comparator, every run-time lemma
of the proof instantiated on the numbers measured at that update (:class:`Instance`,
made by :func:`instantiate`).

>>> from pla_proof import load, trace
>>> t = trace(load("orthonormal:3"))
>>> t.run.status, len(t.steps), t.steps[0].w
('converged', 3, (Fraction(1, 1), Fraction(0, 1), Fraction(0, 1)))
>>> all(c.holds for s in t.steps for c in s.checks)
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any

from .errors import InputError

if TYPE_CHECKING:
    from .data import Dataset
    from .monitor import Comparator
    from .proof.runtime import RunLemma
    from .proof.statements import Lemma
    from .trainer import Certificate, Chooser, Run

__all__ = [
    "Instance",
    "ReplayError",
    "Trace",
    "TraceStep",
    "instantiate",
    "replay_rule",
    "settle",
    "stuck_certificate",
    "trace",
]

#: what a long step reports to (a progress line); ``None``: nothing
Progress = Callable[[str], None] | None


# --- one lemma on one update's numbers --------------------------------------------------


@dataclass(frozen=True)
class Instance:
    """One lemma evaluated on one update's numbers."""

    lemma: str
    title: str
    statement: str
    lhs: Any
    op: str
    rhs: Any
    holds: bool

    @property
    def slack(self) -> Any:
        """How much room the relation left (0 for an identity that holds)."""
        if self.op in ("<=", "<"):
            return self.rhs - self.lhs
        if self.op in (">=", ">"):
            return self.lhs - self.rhs
        return self.lhs - self.rhs

    def to_json(self) -> dict[str, Any]:
        return {
            "lemma": self.lemma,
            "statement": self.statement,
            "lhs": exact_value(self.lhs),
            "op": self.op,
            "rhs": exact_value(self.rhs),
            "slack": exact_value(self.slack),
            "holds": self.holds,
        }


def exact_value(v: Any) -> Any:
    """An exact number as a ``Fraction`` (an interval of float mode stays an interval).

    >>> exact_value(3), exact_value(True)
    (Fraction(3, 1), True)
    """
    return Fraction(v) if isinstance(v, int | Fraction) and not isinstance(v, bool) else v


def lemma_text(lem: Any, strict: bool) -> str:
    """A lemma in the proof's notation: generated for the run-time lemmas (no SymPy)."""
    if hasattr(type(lem), "notation"):
        out: str = lem.notation(strict)
        return out
    from .proof import notation

    return notation.text(lem, strict)


def lemma_latex(lem: Any, strict: bool) -> str:
    """A lemma in LaTeX: generated for the run-time lemmas (no SymPy)."""
    if hasattr(type(lem), "notation"):
        out: str = lem.latex(strict)
        return out
    from .proof import notation

    return notation.latex(lem, strict)


def instantiate(lem: Lemma | RunLemma, values: dict[str, Any], strict: bool) -> Instance:
    """Evaluate ``lem``'s own compiled relation on measured values.

    >>> from pla_proof.proof.runtime import lemma
    >>> c = instantiate(lemma("L7"), {"n0": 0, "n1": 1, "R2": 2, "k": 1}, False)
    >>> c.holds, c.slack
    (True, 1)
    """
    from .proof.runtime import compare

    lhs_fn, op, rhs_fn = lem.evaluator(strict=strict)
    lhs = lhs_fn(**{n: values[n] for n in lhs_fn.__pla_args__})  # type: ignore[attr-defined]
    rhs = rhs_fn(**{n: values[n] for n in rhs_fn.__pla_args__})  # type: ignore[attr-defined]
    return Instance(lem.id, lem.title, lemma_text(lem, strict), lhs, op, rhs, compare(lhs, op, rhs))


# --- settling a run without a conclusion -------------------------------------------------


def stuck_certificate(data: Dataset, progress: Progress = None) -> Certificate | None:
    """A verified Gordan certificate when the data are not separable, else ``None``:
    asked of the geometry layer when a run ends without a conclusion (its exact
    check is cheap next to the run that just ran out of budget)."""
    from .errors import SolverError
    from .geometry import separability
    from .trainer import Certificate

    if progress is not None:
        progress("checking separability exactly")
    try:
        res = separability(data)
    except SolverError:
        return None
    if isinstance(res, Certificate) and res.verify(data):
        return res
    return None


def settle(data: Dataset, run: Run, progress: Progress = None) -> Run:
    """``run``, with an exhausted budget turned into ``not_separable`` when the exact
    separability check finds a certificate (``run`` is changed in place)."""
    if run.status == "budget_exhausted":
        cert = stuck_certificate(data, progress)
        if cert is not None:
            run.status, run.certificate = "not_separable", cert
    return run


# --- replaying a recorded order ----------------------------------------------------------


class ReplayError(InputError):
    """A replayed order picks a point that is not misclassified at that update."""


def replay_rule(order: Sequence[int]) -> Chooser:
    """A selection rule that picks the 0-based points of ``order`` in turn (then the
    first violator), refusing a point that is not a violator.

    >>> pick = replay_rule([2, 0])
    >>> pick([0, 2], 1), pick([0], 2), pick([1], 3)
    (2, 0, 1)
    """

    def rule(violators: list[int], k: int) -> int:
        if k - 1 >= len(order):
            return violators[0]
        j = order[k - 1]
        if j not in violators:
            raise ReplayError(f"point {j + 1} is not a violator at update {k}")
        return j

    return rule


# --- the trace ---------------------------------------------------------------------------


@dataclass(frozen=True)
class TraceStep:
    """One update: ``k`` (1-based), the point ``j`` (0-based), the run vocabulary
    measured (``values``), ``w`` after it (``None`` when the record carries no data)."""

    k: int
    j: int
    values: dict[str, Any]
    w: tuple[Fraction, ...] | None
    strict: bool = False
    checked: bool = False

    @cached_property
    def checks(self) -> list[Instance]:
        """Every run-time lemma instantiated on this update (exact mode with a
        comparator; else empty)."""
        if not self.checked:
            return []
        from .proof.runtime import RUNTIME_LEMMAS

        return [instantiate(lem, self.values, self.strict) for lem in RUNTIME_LEMMAS]


@dataclass
class Trace:
    """A monitored run with its data, one :class:`TraceStep` per update."""

    data: Dataset
    run: Run
    steps: list[TraceStep]

    @classmethod
    def of(cls, data: Dataset, run: Run) -> Trace:
        """The trace of a run already made on ``data``."""
        comp = run.comparator
        checked = run.mode == "exact" and comp is not None
        strict = comp.strict if comp is not None else False
        steps = [
            TraceStep(s.k, s.j, s.values, w, strict, checked)
            for s, w in zip(run.steps, _path(run), strict=False)
        ]
        return cls(data, run, steps)

    @property
    def status(self) -> str:
        return self.run.status

    def coq_certificate(self) -> str | None:
        """The run's Coq certificate: its choices, the final w and the comparator, for a
        run in exact mode that separated the data; the Gordan certificate that no
        separator exists, for data found not separable; else ``None``."""
        r = self.run
        bias = self.data.bias.c if self.data.bias is not None else None
        if r.status == "not_separable" and r.certificate is not None:
            from .proof.certificate import gordan_certificate

            alpha = r.certificate.alpha
            return gordan_certificate(
                self.data.X, self.data.y, alpha, name=self.data.name, bias=bias
            )
        if r.status != "converged" or r.mode != "exact":
            return None
        from .proof.certificate import run_certificate

        u = r.comparator.u if r.comparator is not None else r.w
        return run_certificate(
            self.data.X,
            self.data.y,
            r.choices,
            r.w,
            u,
            name=self.data.name,
            bias=bias,
            cyclic=r.rule == "cyclic",  # computed by the algorithm's Fixpoint; else replayed
        )


def _path(r: Run) -> list[tuple[Fraction, ...] | None]:
    """w_{k+1} after each update (``None`` where the record carries no data)."""
    try:
        return list(r.w_path()[1:])
    except ValueError:
        return [None] * len(r.steps)


def trace(
    data: Dataset,
    *,
    rule: str = "cyclic",
    seed: int = 0,
    budget: int | None = None,
    comparator: Comparator | Sequence[Any] | str | None = "final",
    strict: bool = False,
    gamma: Any = None,
    mode: str = "exact",
    replay: Sequence[int] | None = None,
    progress: Progress = None,
) -> Trace:
    """Run the Perceptron on ``data`` (as :func:`pla_proof.train`), or replay the
    0-based points of ``replay`` (its rule is then ``"replay"``), and settle a run
    without a conclusion; the run, update by update.

    >>> from pla_proof import load
    >>> trace(load("orthonormal:3"), replay=[4])
    Traceback (most recent call last):
    ...
    pla_proof.tracing.ReplayError: point 5 is not a violator at update 1
    """
    from .trainer import train

    chooser: str | Chooser = rule if replay is None else replay_rule(replay)
    result = train(
        data,
        rule=chooser,
        seed=seed,
        budget=budget,
        comparator=comparator,
        strict=strict,
        gamma=gamma,
        mode=mode,
    )
    if replay is not None:
        result.rule = "replay"
    return Trace.of(data, settle(data, result, progress))
