"""Kalyanakrishnan's proof walked through on a real run, as data.

Every run-time lemma of :mod:`pla_proof.proof.statements` is instantiated with the
numbers the monitor measured at each update (``Run.steps[i].values``) and evaluated
by the lemma's own compiled relation (:func:`pla_proof.tracing.instantiate`); the
final step of the theorem, its corollaries (angle, dual form, bias, unit ball) and
the separation of the returned ``w`` follow, as the numbers of :attr:`Explanation.facts`.
:func:`explain` makes the run and composes it; :func:`explain_run` composes a
converged run already made.  :mod:`pla_proof.render.explanation` writes the result
as text or a Markdown hand-out.

>>> from pla_proof import explain, load
>>> ex = explain(load("orthonormal:3"))
>>> ex.status, ex.facts["k"], ex.facts["bound"], ex.ok
('converged', 3, Fraction(3, 1), True)
>>> [s.lemma.id for s in ex.summary()][:3]
['DEF_TRIGGER', 'A1_j', 'A2_j']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from .errors import InputError
from .tracing import Instance, Progress, exact_value, instantiate, settle

if TYPE_CHECKING:
    from .data import Dataset
    from .monitor import Comparator
    from .proof.runtime import RunLemma
    from .trainer import Run

__all__ = [
    "CriterionCheck",
    "DecisionRule",
    "Explanation",
    "LemmaSummary",
    "explain",
    "explain_run",
]

#: facts that are counts or indices (JSON integers); every other number is exact
_COUNTS = frozenset({"k", "alpha", "alpha_sum", "worst_point"})


@dataclass(frozen=True)
class LemmaSummary:
    """One run-time lemma over the whole run: whether it held at every update, its
    smallest slack and the update ``k`` where that occurred."""

    lemma: RunLemma
    held: bool
    slack: Any
    k: int


@dataclass(frozen=True)
class CriterionCheck:
    """A criterion a source states for the data (``weights·x > threshold``), checked
    exactly as a comparator ``u``: its certificate and the margins ``y_i (u·x_i)``."""

    source: str
    weights: tuple[Fraction, ...]
    threshold: Fraction
    u: list[Fraction]
    certificate: Any
    margins: list[Any]


@dataclass(frozen=True)
class DecisionRule:
    """The returned ``w`` as a decision rule in the data's own terms: the feature
    names, the weights and constant (``w·x + offset > 0``), the labels' names, and
    every criterion a source states for the data, checked."""

    names: tuple[str, ...]
    w: tuple[Any, ...]
    offset: Fraction
    positive: str
    negative: str
    criteria: list[CriterionCheck]


@dataclass
class Explanation:
    """A run and, when it converged, every lemma instantiated on every update
    (``steps``: ``(k, j, checks)``), the end lemmas on the returned ``w`` (``end``) and
    the numbers of the theorem's final step and corollaries (``facts``)."""

    data: Dataset
    run: Run
    strict: bool
    steps: list[tuple[int, int, list[Instance]]] = field(default_factory=list)
    end: list[Instance] = field(default_factory=list)
    facts: dict[str, Any] = field(default_factory=dict)

    @property
    def status(self) -> str:
        """The run's status: converged, violation, budget_exhausted or not_separable."""
        return self.run.status

    @property
    def ok(self) -> bool:
        """Whether every instance, at every update and at the end, holds."""
        return all(c.holds for _, _, checks in self.steps for c in checks) and all(
            c.holds for c in self.end
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.run.status,
            "data": {
                "name": self.data.name,
                "n": self.data.n,
                "d": self.data.d,
                "bias": self.data.bias.describe() if self.data.bias else None,
            },
            "rule": self.run.rule,
            "strict": self.strict,
            "updates": self.run.updates,
            "steps": [
                {"k": k, "j": j + 1, "checks": [c.to_json() for c in checks]}
                for k, j, checks in self.steps
            ],
            "end": [c.to_json() for c in self.end],
            "facts": {key: v if key in _COUNTS else _jsonable(v) for key, v in self.facts.items()},
        }

    def summary(self) -> list[LemmaSummary]:
        """Per run-time lemma: held everywhere, smallest slack and where it occurred."""
        from .proof.runtime import RUNTIME_LEMMAS

        out = []
        for idx, lem in enumerate(RUNTIME_LEMMAS):
            inst = [(k, checks[idx]) for k, _, checks in self.steps]
            k_min, tight = min(inst, key=lambda p: p[1].slack)
            out.append(LemmaSummary(lem, all(c.holds for _, c in inst), tight.slack, k_min))
        return out

    def symbols(self) -> list[tuple[str, str, str]]:
        """(text, LaTeX, meaning) of every symbol the statements use, plus γ and R."""
        from .proof.runtime import END_LEMMAS, RUNTIME_LEMMAS
        from .proof.symbols import SYMBOLS

        names: list[str] = []
        for lem in (*RUNTIME_LEMMAS, *END_LEMMAS):
            for name in lem.symbols(self.strict):
                if name not in names:
                    names.append(name)
        names += [n for n in ("gamma", "R") if n not in names]
        source = self.facts["u_source"]
        out = [("u", "u", f"the comparator: a separating vector of any length (here {source})")]
        out += [(SYMBOLS[n].text, SYMBOLS[n].latex, SYMBOLS[n].meaning) for n in names]
        return out

    def decision_rule(self) -> DecisionRule:
        """The returned ``w`` in the data's own terms, with every criterion a source
        states for the data checked exactly."""
        from .data.builtins import describe

        data, run = self.data, self.run
        named = describe(data.name, data.original_d)
        names = named.features or tuple(f"x{i + 1}" for i in range(data.original_d))
        if data.bias is not None:
            w, b = data.bias.split(run.w)
            sign = -1 if data.bias.name == "minus-one" else 1
            offset = sign * Fraction(b)
        else:
            w, offset = tuple(run.w), Fraction(0)
        pos, neg = named.labels
        criteria = [_criterion(data, c) for c in named.criteria]
        return DecisionRule(tuple(names), tuple(w), offset, pos, neg, criteria)


def _criterion(data: Dataset, crit: Any) -> CriterionCheck:
    from .geometry.certify import certify
    from .numbers import dot

    u = [*crit.weights, -crit.threshold / data.bias.c] if data.bias else list(crit.weights)
    cert = certify(data, u)
    margins = [yi * dot(cert.w, x) for x, yi in zip(data.X, data.y, strict=True)]
    return CriterionCheck(crit.source, tuple(crit.weights), crit.threshold, u, cert, margins)


def _jsonable(v: Any) -> Any:
    if isinstance(v, list | tuple):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {k: _jsonable(x) for k, x in v.items()}
    return exact_value(v)


def explain_run(data: Dataset, run: Run) -> Explanation:
    """Instantiate every lemma on every update of a converged, monitored run.

    >>> from pla_proof import load, train
    >>> explain_run(load("orthonormal:2"), train(load("orthonormal:2"), comparator=None))
    Traceback (most recent call last):
    ...
    pla_proof.errors.InputError: the run has no comparator to instantiate the lemmas with
    """
    from .proof.runtime import END_LEMMAS, RUNTIME_LEMMAS

    comp = run.comparator
    if comp is None:
        raise InputError("the run has no comparator to instantiate the lemmas with")
    strict = comp.strict
    steps = [
        (s.k, s.j, [instantiate(lem, s.values, strict) for lem in RUNTIME_LEMMAS])
        for s in run.steps
    ]
    margins = _margins(data, run.w)
    m = min(margins)
    end = [instantiate(lem, {"m": m}, strict) for lem in END_LEMMAS]
    facts = _facts(data, run, comp, margins)
    if data.bias is not None:
        facts["bias"] = _bias_facts(data, run)
    return Explanation(data, run, strict, steps, end, facts)


def _margins(data: Dataset, w: Sequence[Any]) -> list[Any]:
    """The returned w's margins y_i w.x_i (the end lemmas take their minimum m)."""
    from .numbers import dot

    return [yi * dot(w, x) for x, yi in zip(data.X, data.y, strict=True)]


def _facts(data: Dataset, run: Run, comp: Comparator, margins: list[Any]) -> dict[str, Any]:
    """The numbers of the theorem's final step and its corollaries, on this run."""
    m = min(margins)
    last = run.steps[-1].values
    k = run.updates
    g, R2, uu = comp.gamma, comp.radius_squared, comp.uu
    pu1, n1 = Fraction(last["pu1"]), Fraction(last["n1"])  # type: ignore[arg-type]
    return {
        "k": k,
        "g": g,
        "R2": R2,
        "uu": uu,
        "u": list(comp.u),
        "u_source": comp.source,
        "w": list(run.w),
        "u_dot_w": pu1,
        "w_norm2": n1,
        "k2g2": k * k * g * g,
        "pu1_squared": pu1 * pu1,
        "uu_n1": uu * n1,
        "uu_kR2": uu * k * R2,
        "kg2": k * g * g,
        "R2uu": R2 * uu,
        "bound": comp.bound,
        "bound_slack": comp.bound - k,
        "gamma_unit_squared": g * g / uu,
        "min_margin": m,
        "worst_point": margins.index(m) + 1,
        "cos2": pu1 * pu1 / (uu * n1),
        "cos2_bound": k * g * g / (uu * R2),
        "alpha": list(run.alpha),
        "alpha_sum": sum(run.alpha),
        "dual_w": _dual(data, run.alpha),
    }


def _bias_facts(data: Dataset, run: Run) -> dict[str, Any]:
    """The bias convention's w and b, and the radius with and without the bias."""
    assert data.bias is not None
    w, b = data.bias.split(run.w)
    raw = data.without_bias()
    return {
        "convention": data.bias.describe(),
        "w": list(w),
        "b": b,
        "c": data.bias.c,
        "R2_raw": raw.radius_squared,
        "R2_hat": data.radius_squared,
        "c2": data.bias.c**2,
    }


def _dual(data: Dataset, alpha: list[int]) -> list[Fraction]:
    out = [Fraction(0)] * data.d
    for a, x, yi in zip(alpha, data.X, data.y, strict=True):
        for c in range(data.d):
            out[c] += a * yi * x[c]
    return out


def explain(
    data: Dataset,
    *,
    rule: str = "cyclic",
    seed: int = 0,
    budget: int | None = None,
    comparator: Comparator | Sequence[Any] | str | None = "final",
    strict: bool = False,
    gamma: Any = None,
    progress: Progress = None,
) -> Explanation:
    """Run the Perceptron on ``data`` (as :func:`pla_proof.train`), settle a run
    without a conclusion (:func:`pla_proof.tracing.settle`) and, when it converged,
    instantiate every lemma on it (:func:`explain_run`).  A run that did not converge
    is returned with no steps and no facts: its ``status`` says why.

    >>> from pla_proof import load
    >>> ex = explain(load("xor"))
    >>> ex.status, ex.steps, ex.run.certificate is not None
    ('not_separable', [], True)
    """
    from .trainer import train

    result = train(
        data,
        rule=rule,
        seed=seed,
        budget=budget,
        comparator=comparator,
        strict=strict,
        gamma=gamma,
    )
    settle(data, result, progress)
    if result.status != "converged":
        comp = result.comparator
        return Explanation(data, result, comp.strict if comp is not None else strict)
    return explain_run(data, result)
