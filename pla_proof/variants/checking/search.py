"""The search: :func:`search` checks one variant's claim; :func:`run_searches` runs the
shards of one or several variants' searches on every core, in worker processes.

A search is split into a fixed number of independent, seeded *shards*
(:func:`~pla_proof.variants.checking.shard.search_shard`); the report merges them in a fixed
order, so the verdict, the failing properties and the shrunk counterexamples are the
same whether the shards run one after another (``jobs=1``) or on ``jobs`` processes (on
one machine, a shard whose shrink has stalled stops once another holds smaller
counterexamples, :mod:`~pla_proof.variants.checking.board`: the report keeps the other's,
as it would have unless the stopped shard would later have gone smaller still, or its
final counterexample would have failed a property no other case of the search fails).
Workers are forked while this process has run none of users' code (the parent's imports
and compiled loops are inherited), else clean ones run each unit
(:mod:`~pla_proof.variants.checking.workers`: users' variants run there whatever the
jobs); the units of costly variants start first (:func:`cost_rank`).

>>> from pla_proof.variants.catalog.registry import resolve
>>> [r.ok for r in run_searches([resolve("classic")], examples=10, jobs=1)]
[True]
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from typing import Any

from ...errors import InputError
from ..boundary.limits import DEFAULT_TIME_LIMIT
from ..boundary.loading import users_modules
from ..protocol.variant import Case, Order, Variant
from .cluster import Cluster
from .drawing import declarations, strategy_of
from .report import CheckReport, ShardResult
from .shard import (
    DEFAULT_EXAMPLES,
    DEFAULT_SHARDS,
    DEFAULT_SHRINK_RUNS,
    merge,
    shard_examples,
)
from .symbolic import missing
from .workers import is_users, run_unit, run_units

__all__ = ["cost_rank", "default_jobs", "run_searches", "search"]


def default_jobs() -> int:
    """The machine's cores (those this process may use)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def cost_rank(variant: Variant) -> int:
    """Which units start first on several processes (higher first; a fixed rank, so
    nothing depends on timing): 2 for an estimator (each run is an external library's
    ``fit``), 1 for a variant with its own Python loop (the per-step path, kernels,
    pocket, multiclass), 0 for a declared linear rule on the compiled loop.  Starting
    the costly units first keeps one process from finishing them alone at the end.

    >>> from pla_proof.variants.catalog.registry import resolve
    >>> [cost_rank(resolve(n)) for n in ("classic", "dual", "pocket")]
    [0, 1, 1]
    """
    from ..protocol.variant import LinearVariant

    # an Estimator exists only once its module is imported: no need to import it here
    estimators = sys.modules.get("pla_proof.variants.estimators.estimator")
    if estimators is not None and isinstance(variant, estimators.Estimator):
        return 2
    if isinstance(variant, LinearVariant) and not variant.written_in_python():
        return 0
    return 1


def run_searches(
    variants: Sequence[Variant],
    *,
    examples: int = DEFAULT_EXAMPLES,
    seed: int = 0,
    extra_cases: Sequence[Sequence[tuple[Case, Order]]] | None = None,
    first_only: bool = False,
    mode: str | Sequence[str] = "exact",
    limit: float | None = DEFAULT_TIME_LIMIT,
    shards: int = DEFAULT_SHARDS,
    jobs: int = 1,
    progress: Callable[[str], None] | None = None,
    done: Callable[[int, CheckReport], None] | None = None,
    shrink_runs: int | None = DEFAULT_SHRINK_RUNS,
    meanwhile: Callable[[], None] | None = None,
    backend: str = "hypothesis",
    cluster: Cluster | None = None,
) -> list[CheckReport]:
    """Search every variant (``shards`` units each) on ``jobs`` processes, or as tasks
    on a Dask ``cluster``; one report per variant, in order.  ``mode``: one for all, or
    one per variant.  ``done(i, report)`` is called as each variant completes.
    ``meanwhile()`` runs in this process while the workers search (after they are
    forked; before the search with one job)."""
    from ..protocol.hooks import check_hooks

    for v in variants:
        check_hooks(v)  # a hook the protocol would silently ignore: refused, naming it
        strategy_of(v, limit)  # cases() and orders() are strategies: else exit 2, naming them
        declarations(v, limit)  # so are its parameters and assumes
    modes = [mode] * len(variants) if isinstance(mode, str) else list(mode)
    why = missing(backend)
    if why is not None:
        raise InputError(why)
    settings = dict(
        seed=seed, first_only=first_only, limit=limit, shrink_runs=shrink_runs,
        progress=progress if jobs == 1 else None, backend=backend,
    )  # fmt: skip
    tasks, owner = _tasks(variants, modes, extra_cases, examples, shards, settings)
    merged = _Merger(variants, modes, owner, shards, examples, seed, first_only, done)
    # users' code loaded here runs in clean workers, whatever the jobs (workers.py)
    users = bool(users_modules()) and any(is_users(v) for v in variants)
    # CrossHair patches the interpreter while it draws: its rounds run in worker
    # processes, never in this one (whatever the jobs)
    here = backend == "hypothesis"
    if cluster is not None:
        from .cluster import run_units_on_cluster

        order = sorted(range(len(tasks)), key=lambda t: -cost_rank(variants[owner[t]]))
        ran = run_units_on_cluster(tasks, order, cluster, owner, merged.finish, meanwhile, progress)
        for i, rep in enumerate(merged.reports):
            if rep is None:
                continue
            first = owner.index(i)
            rep.cluster = {
                "scheduler": cluster.address,
                "workers": ran.workers,
                "again": [
                    {"part": t - first + 1, "workers": ws}
                    for t, ws in sorted(ran.again.items())
                    if owner[t] == i
                ],
            }
    else:
        with tempfile.TemporaryDirectory(prefix="pla-proof-board-") as root:
            for t, (_, kw) in enumerate(tasks):  # one board per variant (board.py)
                kw["board"] = os.path.join(root, str(owner[t]))
                os.makedirs(kw["board"], exist_ok=True)
            if (jobs <= 1 or len(tasks) == 1) and not users and here:
                if meanwhile is not None:
                    meanwhile()
                for t, (v, kw) in enumerate(tasks):
                    merged.finish(t, run_unit(v, kw))
            else:
                ranks = [cost_rank(v) for v in variants]
                order = sorted(range(len(tasks)), key=lambda t: -ranks[owner[t]])
                run_units(tasks, order, jobs, merged.finish, meanwhile)
    return [r for r in merged.reports if r is not None]


def _tasks(
    variants: Sequence[Variant],
    modes: Sequence[str],
    extra_cases: Sequence[Sequence[tuple[Case, Order]]] | None,
    examples: int,
    shards: int,
    settings: dict[str, Any],
) -> tuple[list[tuple[Variant, dict[str, Any]]], list[int]]:
    """The units of work: ``shards`` per variant (the first also runs the fixed cases),
    and the variant each belongs to."""
    per = shard_examples(examples, shards)
    tasks: list[tuple[Variant, dict[str, Any]]] = []
    owner: list[int] = []
    for i, v in enumerate(variants):
        extra = list(extra_cases[i]) if extra_cases is not None else []
        for s in range(shards):
            kw = dict(settings, examples=per[s], shard=s, mode=modes[i])
            kw["extra"] = extra if s == 0 else None
            tasks.append((v, kw))
            owner.append(i)
    return tasks, owner


class _Merger:
    """Each variant's report, made as soon as its last shard is in."""

    def __init__(
        self,
        variants: Sequence[Variant],
        modes: Sequence[str],
        owner: list[int],
        shards: int,
        examples: int,
        seed: int,
        first_only: bool,
        done: Callable[[int, CheckReport], None] | None,
    ) -> None:
        self.variants, self.modes, self.owner = variants, modes, owner
        self.examples, self.seed, self.first_only, self.done = examples, seed, first_only, done
        self.results: list[ShardResult | None] = [None] * len(owner)
        self.left = [shards] * len(variants)
        self.reports: list[CheckReport | None] = [None] * len(variants)

    def finish(self, t: int, res: ShardResult) -> None:
        self.results[t] = res
        i = self.owner[t]
        self.left[i] -= 1
        if self.left[i]:
            return
        parts = [r for r, o in zip(self.results, self.owner, strict=True) if o == i]
        rep = merge(
            self.variants[i],
            [p for p in parts if p is not None],
            examples=self.examples,
            seed=self.seed,
            mode=self.modes[i],
            first_only=self.first_only,
        )
        self.reports[i] = rep
        if self.done is not None:
            self.done(i, rep)


def search(
    variant: Variant,
    *,
    examples: int = DEFAULT_EXAMPLES,
    seed: int = 0,
    extra_cases: Sequence[tuple[Case, Order]] = (),
    first_only: bool = False,
    progress: Callable[[str], None] | None = None,
    mode: str | None = None,
    limit: float | None = DEFAULT_TIME_LIMIT,
    shards: int = DEFAULT_SHARDS,
    jobs: int = 1,
    shrink_runs: int | None = DEFAULT_SHRINK_RUNS,
    backend: str = "hypothesis",
) -> CheckReport:
    """Check every property of ``variant``'s claim over fixed examples and
    Hypothesis-generated cases and orders; shrink a counterexample per failing property.

    ``examples``: generated examples per round, split over ``shards`` independent
    seeded searches; ``first_only``: stop after the first round and report the property
    that *catches* the variant (the first to fail on the smallest counterexample);
    ``mode``: ``"exact"`` or ``"float"`` (default: the variant's ``default_mode``,
    else exact; float: enclosures: a property fails only where it
    fails for every value the rounding allows); ``limit``: per-run time limit (s);
    ``jobs``: worker processes (the result does not depend on it); ``shrink_runs``:
    runs of the variant each round may spend shrinking a failure (``None``: no limit);
    ``backend``: ``"crosshair"`` adds a first round drawn by CrossHair (:mod:`.symbolic`)."""
    if mode is None:
        mode = str(getattr(variant, "default_mode", "exact"))
    if mode not in ("exact", "float"):
        raise InputError(f"mode must be 'exact' or 'float', got {mode!r}")
    [report] = run_searches(
        [variant],
        examples=examples,
        seed=seed,
        extra_cases=[list(extra_cases)],
        first_only=first_only,
        mode=mode,
        limit=limit,
        shards=shards,
        jobs=jobs,
        progress=progress,
        shrink_runs=shrink_runs,
        backend=backend,
    )
    return report
