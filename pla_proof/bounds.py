"""The tight bound of a data set, and what each selection rule does against it.

:func:`tight_bound` computes the exact optimal margin through the origin (or a
verified Gordan certificate when the data are not separable), the affine margin on
the original coordinates when the data carry a bias coordinate, and runs every
selection rule, each update monitored against u* -- what ``pla-proof bound`` shows.

>>> from pla_proof import load, tight_bound
>>> tb = tight_bound(load("orthonormal:3"), seeds=1)
>>> tb.separable, tb.margin.bound, [(r.rule, r.updates, r.status) for r in tb.runs][:2]
(True, Fraction(3, 1), [('first', 3, 'converged'), ('cyclic', 3, 'converged')])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import InputError
from .tracing import Progress

if TYPE_CHECKING:
    from .data import Dataset
    from .geometry import AffineMargin, OptimalMargin
    from .trainer import Certificate

__all__ = ["DEFAULT_BUDGET", "RuleRun", "TightBound", "tight_bound"]

DEFAULT_BUDGET = 10_000


@dataclass(frozen=True)
class RuleRun:
    """One selection rule's run (``seed`` for the random rule), monitored against u*."""

    rule: str
    seed: int | None
    updates: int
    status: str
    violation: str | None

    def to_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "seed": self.seed,
            "updates": self.updates,
            "status": self.status,
            "violation": self.violation,
        }


@dataclass
class TightBound:
    """The data's separation (an :class:`~pla_proof.geometry.OptimalMargin`, or a
    :class:`~pla_proof.trainer.Certificate` that none exists), the affine margin (data
    with a bias coordinate: ``affine``, or why there is none: ``affine_note``) and the
    rules' runs."""

    data: Dataset
    separation: OptimalMargin | Certificate
    affine: AffineMargin | None = None
    affine_note: str = ""
    runs: list[RuleRun] = field(default_factory=list)

    @property
    def separable(self) -> bool:
        from .trainer import Certificate

        return not isinstance(self.separation, Certificate)

    @property
    def margin(self) -> OptimalMargin:
        """The optimal margin (data that are separable)."""
        from .geometry import OptimalMargin

        if not isinstance(self.separation, OptimalMargin):
            raise InputError(f"{self.data.name}: not separable: no optimal margin")
        return self.separation


def tight_bound(
    data: Dataset,
    *,
    seeds: int = 3,
    budget: int = DEFAULT_BUDGET,
    runs: bool = True,
    progress: Progress = None,
) -> TightBound:
    """The optimal margin and tight bound R²/γ*² of ``data`` (or a Gordan certificate),
    the affine margin with a bias, and (``runs``) every rule's run against u*, the
    random rule with seeds ``0 .. seeds - 1``, each capped at the bound (and ``budget``).
    A solver that fails raises :class:`~pla_proof.errors.SolverError`.

    >>> from pla_proof import load
    >>> tight_bound(load("orthonormal:2"), seeds=-1)
    Traceback (most recent call last):
    ...
    pla_proof.errors.InputError: seeds must be >= 0, got -1
    """
    if seeds < 0:
        raise InputError(f"seeds must be >= 0, got {seeds}")
    if budget < 0:
        raise InputError(f"budget must be >= 0, got {budget}")
    from .geometry import NotSeparable, OptimalMargin, affine_margin, separability

    if progress is not None:
        progress("computing the optimal margin")
    res = separability(data)
    affine: AffineMargin | None = None
    affine_note = ""
    if isinstance(res, OptimalMargin) and data.bias is not None:
        try:
            affine = affine_margin(data)
        except NotSeparable:  # cannot happen when the augmented data are separable
            affine_note = "the class hulls meet"
        if affine is None and not affine_note:
            affine_note = "unbounded (every label is the same)"
    out = TightBound(data, res, affine, affine_note)
    if isinstance(res, OptimalMargin) and runs:
        out.runs = _runs(data, res, seeds, budget, progress)
    return out


def _runs(
    data: Dataset, om: OptimalMargin, seeds: int, budget: int, progress: Progress
) -> list[RuleRun]:
    from .trainer import RULES, train

    comp = om.comparator(data)
    cap = min(budget, int(om.bound) + 1)  # the monitor reports any step beyond the bound
    out = []
    for rule in RULES:
        for seed in range(seeds) if rule == "random" else [None]:
            if progress is not None:
                progress(f"running rule {rule}" + ("" if seed is None else f", seed {seed}"))
            r = train(data, rule=rule, seed=seed or 0, budget=cap, comparator=comp)
            violation = r.violation.describe() if r.violation is not None else None
            out.append(RuleRun(rule, seed, r.updates, r.status, violation))
    return out
