"""Time-budget campaigns of ``pla-proof check``: search until the time is spent.

A campaign repeats rounds (each one :func:`~pla_proof.variants.checking.search.run_searches`
call per variant, with a fresh seed) while a round as long as the last one still fits in
``minutes`` -- the time budget of :mod:`pla_proof.campaign`, which the property suite's
``campaign`` profile uses too.  The time
goes where progress is made: after each round a variant's weight grows when the round
refuted a new property or found a smaller counterexample, and shrinks when it found
nothing new; the next round gives each variant a number of shards proportional to its
weight (at least one).  Progress goes to stderr after every round, and the report
counts the examples run per property over the whole campaign.

>>> reports = campaign([], minutes=0.001)
>>> reports
[]
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ...campaign import Budget, run_rounds
from ..protocol.variant import Case, Order, Variant
from .cluster import Cluster
from .report import CheckReport, Counterexample, PropertyResult, keep_reason
from .search import run_searches
from .shard import DEFAULT_SHRINK_RUNS

__all__ = ["campaign"]


def _one(cluster: Cluster, i: int) -> Cluster:
    """The cluster of variant ``i``'s round (its spec alone)."""
    return replace(cluster, specs=cluster.specs[i : i + 1])


def _better(a: Counterexample | None, b: Counterexample | None) -> bool:
    return b is not None and (
        a is None or (b.explicit, *b.size()[:3]) < (a.explicit, *a.size()[:3])
    )


def _fold(into: CheckReport | None, rep: CheckReport) -> tuple[CheckReport, bool]:
    """Add a round's report to the campaign's; True when the round made progress."""
    if into is None:
        return rep, not rep.ok
    progress = False
    into.runs += rep.runs
    into.inconclusive += rep.inconclusive
    into.skipped += rep.skipped
    for reason, count in rep.skip_reasons.items():
        keep_reason(into.skip_reasons, reason, count)
    into.slow += rep.slow
    for reason, count in rep.slow_reasons.items():
        keep_reason(into.slow_reasons, reason, count)
    into.stopped = into.stopped or rep.stopped
    if rep.cluster:  # (each round's parts that ran again, one after the other)
        if not into.cluster:
            into.cluster = {**rep.cluster, "again": []}
        into.cluster["workers"] = max(into.cluster["workers"], rep.cluster["workers"])
        into.cluster["again"] = [*into.cluster["again"], *rep.cluster["again"]]
    into.max_missed = max(into.max_missed, rep.max_missed)
    into.undecided += rep.undecided
    have = {p.id: p for p in into.properties}
    for p in rep.properties:
        q = have.get(p.id)
        if q is None:
            q = PropertyResult(p.id, p.statement, p.lemma)
            into.properties.append(q)
            have[p.id] = q
        q.runs += p.runs
        if _better(q.counterexample, p.counterexample):
            progress = True
            q.counterexample = p.counterexample
    return into, progress


def campaign(
    variants: Sequence[Variant],
    *,
    minutes: float,
    examples: int = 100,
    seed: int = 0,
    mode: str | Sequence[str] = "exact",
    limit: float | None = 5.0,
    jobs: int = 1,
    extra_cases: Sequence[Sequence[tuple[Case, Order]]] | None = None,
    out: Any = None,
    shrink_runs: int | None = DEFAULT_SHRINK_RUNS,
    backend: str = "hypothesis",
    cluster: Cluster | None = None,
) -> list[CheckReport]:
    """Search ``variants`` for ``minutes``; one cumulative report per variant
    (``mode``: one for all, or one per variant; ``backend``: each round's, see
    :func:`~.search.run_searches`; ``cluster``: each round's units run as tasks on
    it)."""
    modes = [mode] * len(variants) if isinstance(mode, str) else list(mode)
    stream = out if out is not None else sys.stderr
    budget = Budget(60.0 * minutes, searches=1)
    t0 = budget.clock()
    totals: list[CheckReport | None] = [None] * len(variants)
    weight = [2.0] * len(variants)
    r = 0

    def one_round() -> None:
        nonlocal r
        for i, v in enumerate(variants):
            shards = max(1, round(weight[i]))
            [rep] = run_searches(
                [v],
                examples=examples,
                seed=seed + 1_000_003 * r,
                mode=modes[i],
                limit=limit,
                shards=shards,
                jobs=jobs,
                extra_cases=[extra_cases[i]] if extra_cases is not None and r == 0 else None,
                shrink_runs=shrink_runs,
                backend=backend,
                cluster=None if cluster is None else _one(cluster, i),
            )
            totals[i], progressed = _fold(totals[i], rep)
            weight[i] = min(8.0, weight[i] * 2) if progressed else max(1.0, weight[i] / 2)
            if budget.left() <= 0:
                break
        r += 1
        line = "; ".join(
            f"{v.name}: {tr.runs} runs, "
            + (", ".join(p.id for p in tr.failed) + " refuted" if tr.failed else "all hold")
            for v, tr in zip(variants, totals, strict=True)
            if tr is not None
        )
        print(f"[{budget.clock() - t0:7.1f} s, round {r}] {line}", file=stream, flush=True)

    if variants:
        run_rounds(one_round, budget, count=lambda: r, round_size=None)
    reports = [t for t in totals if t is not None]
    for rep in reports:
        rep.seconds = budget.clock() - t0
        rep.examples = examples
    print(
        "examples run per property: "
        + "; ".join(
            f"{rep.variant}: " + ", ".join(f"{p.id} {p.runs}" for p in rep.properties)
            for rep in reports
        ),
        file=stream,
        flush=True,
    )
    return reports
