"""Checking variants named as ``pla-proof check`` names them: what the command computes.

:func:`check_specs` resolves the named variants (built-in names, ``bug:NAME``, a user's
``module:attribute`` or ``FILE.py:NAME``, ``fit(X, y)`` classes), replays the stored
counterexamples of a shared database, searches every variant (or runs a campaign),
proves the claims of declared rules meanwhile, and saves each failure's counterexample
(files and database).  :func:`replay_counterexample` runs a saved counterexample again;
:func:`variant_listing` lists the built-in variants and the seeded bugs.  Their text and
JSON are :mod:`pla_proof.render.check`'s.

>>> from pla_proof.checks import Specs, check_specs
>>> outcome = check_specs(Specs(["classic"]), examples=10, jobs=1)
>>> outcome.ok, [c.report.variant for c in outcome.checked]
(True, ['classic'])
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import InputError
from .tracing import Progress

if TYPE_CHECKING:
    from .testing.database import CounterexampleStore
    from .variants.catalog.bugs import SeededBug
    from .variants.checking import CheckReport, Failure
    from .variants.checking.report import ShardResult
    from .variants.diagnosis import Diagnosis
    from .variants.protocol.variant import Case, Order, Record, Variant
    from .variants.proving.instances import ClaimProof

__all__ = [
    "CheckOutcome",
    "CheckedVariant",
    "DatabaseNote",
    "Listing",
    "Replay",
    "Specs",
    "check_specs",
    "record_found",
    "replay_counterexample",
    "variant_listing",
]


@dataclass(frozen=True)
class Specs:
    """What is checked: variants by name (``all``: every built-in one too) and ``fit(X,
    y)`` classes by ``MODULE:FACTORY``, read with the given ``weights``, ``bias`` and
    ``epochs`` (each found on probe fits when ``None``)."""

    names: Sequence[str] = ()
    all: bool = False
    fit: Sequence[str] = ()
    weights: str | None = None
    bias: str | None = None
    epochs: int | None = None
    output: str | None = None
    #: ``--param NAME=VALUE``: parameters given to each ``--fit`` class or function
    params: Mapping[str, Any] = field(default_factory=dict)

    def resolve(self, limit: float = 5.0) -> list[tuple[str, Variant]]:
        """Each spec with its variant (a user's hooks called under the per-run ``limit``)."""
        from .variants.catalog.registry import BUILTIN, resolve

        specs = list(self.names or [])
        if self.all:
            specs += [n for n in BUILTIN if n not in specs]
        out = [(s, resolve(s)) for s in specs]
        reading: dict[str, Any] = {
            "weights": self.weights,
            "bias": self.bias,
            "epochs": self.epochs,
            "output": self.output,
        }
        if not self.fit and (self.params or any(v is not None for v in reading.values())):
            given = ", ".join(f"--{k}" for k, v in reading.items() if v is not None)
            given = ", ".join(filter(None, [given, "--param" if self.params else ""]))
            raise InputError(f"{given} only apply to --fit MODULE:FACTORY")
        if self.epochs is not None and self.epochs < 1:
            raise InputError(f"--epochs must be a positive integer, got {self.epochs}")
        for spec in self.fit:
            from .variants.estimators.estimator import Estimator, resolve_factory

            factory = resolve_factory(spec, limit, self.params)
            try:
                est = Estimator(factory, name=spec, limit=limit, **reading)
            except InputError as exc:
                raise InputError(f"--fit {spec}: {exc}") from None
            out.append((f"fit:{spec}", est))
        return out


@dataclass(frozen=True)
class DatabaseNote:
    """What a variant's check did with the shared database: ``where`` it is, how many
    stored counterexamples ran first, how many new ones it recorded."""

    where: str
    replayed: int
    recorded: int


@dataclass(frozen=True)
class CheckedVariant:
    """One variant's check: its search's report, its claim's proof, the files of each
    failing property's counterexample (by property), and the database's note."""

    spec: str
    variant: Variant
    report: CheckReport
    proof: ClaimProof
    saved: dict[str, dict[str, Any]] = field(default_factory=dict)
    database: DatabaseNote | None = None
    #: each failing property's diagnosis (:func:`pla_proof.variants.diagnosis.diagnose`)
    diagnoses: dict[str, Diagnosis] = field(default_factory=dict)


@dataclass(frozen=True)
class CheckOutcome:
    """Every variant's check, in the order they were named, and the statements of the
    generic properties (by property) the reports refer to."""

    checked: list[CheckedVariant]
    generic: dict[str, str] = field(default_factory=dict)
    #: the check's time limit came before any variant could be checked: what it was doing
    unfinished: str = ""

    @property
    def reports(self) -> list[CheckReport]:
        return [c.report for c in self.checked]

    @property
    def ok(self) -> bool:
        return not self.unfinished and all(c.report.ok for c in self.checked)


def check_specs(
    specs: Specs,
    *,
    examples: int | None = None,
    seed: int = 0,
    mode: str | None = None,
    jobs: int | None = None,
    minutes: float | None = None,
    limit: float = 5.0,
    shrink_runs: int | None = None,
    database: str | None = None,
    read_only: bool = False,
    out: str = "counterexamples",
    coq: bool = False,
    progress: Progress = None,
    time_limit: float | None = None,
    backend: str = "hypothesis",
    scheduler: str | None = None,
) -> CheckOutcome:
    """Check every variant of ``specs``: one search each (a campaign of ``minutes``),
    each in its own ``mode`` unless one is given, the stored counterexamples of the
    ``database`` (else ``$PLA_PROOF_DATABASE``) first, the claims proved meanwhile (Coq
    too with ``coq``); each failure's counterexample saved in ``out`` and recorded.
    ``time_limit``: seconds the searches may take in all; a search still going then
    stops and reports what it did (verdict ``inconclusive`` unless a property failed).
    ``backend``: ``"crosshair"`` adds a round drawn by CrossHair to each search.
    ``scheduler``: a Dask scheduler's address (else ``$PLA_PROOF_SCHEDULER``): each
    part of each search runs as a task on its workers (:mod:`.variants.checking.cluster`)."""
    from .variants.boundary import check_deadline
    from .variants.checking.symbolic import missing

    why = missing(backend)
    if why is not None:
        raise InputError(why)

    with check_deadline(time_limit):
        variants = _resolve(specs, limit)
        if isinstance(variants, str):
            return CheckOutcome([], unfinished=variants)
        return _check(variants, specs, examples, seed, mode, jobs, minutes, limit, shrink_runs,
                      database, read_only, out, coq, progress, backend, scheduler)  # fmt: skip


def _resolve(specs: Specs, limit: float) -> list[tuple[str, Variant]] | str:
    """The variants of ``specs``, or what was being done when the check's time ran out
    (reading a ``fit(X, y)`` class takes probe fits)."""
    from .variants.boundary import RunTimeout, past_deadline, time_limit

    if specs.fit or any(":" in n and not n.startswith("bug:") for n in specs.names):
        from .variants.checking.workers import start_clean_workers

        start_clean_workers()  # users' code runs next: their workers' server boots meanwhile
    try:
        with time_limit(None, deadline=True):
            return specs.resolve(limit)
    except (RunTimeout, InputError):
        if not past_deadline():
            raise
    what = ", ".join([*specs.names, *(f"--fit {f}" for f in specs.fit)]) or "the variants"
    return f"the check's time limit came while reading {what} (its probe fits): no run was made"


def _check(
    variants: list[tuple[str, Variant]],
    specs: Specs,
    examples: int | None,
    seed: int,
    mode: str | None,
    jobs: int | None,
    minutes: float | None,
    limit: float,
    shrink_runs: int | None,
    database: str | None,
    read_only: bool,
    out: str,
    coq: bool,
    progress: Progress,
    backend: str = "hypothesis",
    scheduler: str | None = None,
) -> CheckOutcome:
    from .variants.checking.drawing import declarations

    for _, v in variants:  # its parameters and assumes (that they can hold): before any search
        declarations(v, limit)
    modes = [mode or _mode(v) for _, v in variants]
    store = _store(database, read_only)
    pairs = zip(variants, modes, strict=True)
    extra = [_stored(store, v, m, limit) for (_, v), m in pairs]
    from .variants.checking.shard import DEFAULT_EXAMPLES

    if examples is None:
        examples = DEFAULT_EXAMPLES
    how: dict[str, Any] = dict(examples=examples, seed=seed, mode=modes, limit=limit)
    how.update(jobs=jobs, minutes=minutes, shrink_runs=shrink_runs, coq=coq, backend=backend)
    how["cluster"] = _cluster(scheduler, database, read_only, variants)
    reports, proofs = _search(variants, extra, how, progress)
    checked = []
    for (spec, variant), report, replayed, proof in zip(
        variants, reports, extra, proofs, strict=True
    ):
        saved = _save(spec, variant, report, out, store)
        # "proved" only when the search ran a case that met every assumption
        proof = proof.exercised(report.runs, report.skipped, report.skip_reasons)
        note = None
        if store is not None:
            from .testing.database import describe

            note = DatabaseNote(describe(store.db), len(replayed), len(saved))
        checked.append(
            CheckedVariant(spec, variant, report, proof, saved, note, _diagnoses(variant, report))
        )
    from .variants.checking import GENERIC_PROPERTIES

    return CheckOutcome(checked, {k: v[1] for k, v in GENERIC_PROPERTIES.items()})


def _cluster(
    scheduler: str | None,
    database: str | None,
    read_only: bool,
    variants: list[tuple[str, Variant]],
) -> Any:
    """The Dask cluster the searches run on (``scheduler``, else ``$PLA_PROOF_SCHEDULER``;
    None: this machine's processes), with the shared database its workers record in (a
    Redis server every host reaches; a folder stays this machine's: recorded here)."""
    from .testing.database import ENV_DATABASE
    from .variants.checking.cluster import ENV_SCHEDULER, Cluster

    address = scheduler or os.environ.get(ENV_SCHEDULER) or None
    if address is None:
        return None
    url = database or os.environ.get(ENV_DATABASE) or None
    shared = url if url is not None and url.partition(":")[0] in ("redis", "rediss") else None
    specs = tuple(spec for spec, _ in variants)
    return Cluster(address, None if read_only else shared, specs, record_found)


def record_found(url: str, name: str, spec: str, mode: str, found: ShardResult) -> None:
    """(On a cluster's worker) the counterexamples one part of a search found, recorded
    in the shared database as soon as they are found."""
    from .testing.database import CounterexampleStore, open_database
    from .variants.checking.files import fact_of

    store = CounterexampleStore(open_database(url))
    for prop, counterexamples in found.found.items():
        for ce in counterexamples:
            store.record(name, fact_of(spec, prop, ce, mode))


def _diagnoses(variant: Variant, report: CheckReport) -> dict[str, Diagnosis]:
    """A diagnosis of each failing property's counterexample (one per distinct
    counterexample; none for the harness's own RUNS and ENDS, whose exception or stall
    is already the cause), the users' prints kept off standard output."""
    from dataclasses import replace

    from .variants.boundary.calls import quiet_output
    from .variants.checking import HARNESS_PROPERTIES
    from .variants.diagnosis import diagnose

    out: dict[str, Diagnosis] = {}
    done: dict[tuple[str, str], Diagnosis] = {}
    for p in report.failed:
        ce = p.counterexample
        if ce is None or p.id in HARNESS_PROPERTIES:
            continue
        key = (repr((ce.case.X, ce.case.y, ce.case.u)), ce.order.describe())
        if key not in done:
            with quiet_output():
                done[key] = diagnose(variant, ce)
            out[p.id] = replace(done[key], prop=p.id)
        else:  # the same counterexample: its time is counted once
            out[p.id] = replace(done[key], prop=p.id, seconds=0.0)
    return out


def _search(
    variants: list[tuple[str, Variant]],
    extra: list[list[tuple[Case, Order]]],
    how: dict[str, Any],
    progress: Progress,
) -> tuple[list[CheckReport], list[ClaimProof]]:
    """One search per variant (or a campaign of ``minutes``), the claims proved
    meanwhile."""
    from .variants.checking.search import default_jobs, run_searches

    minutes, coq = how.pop("minutes"), how.pop("coq")
    how["jobs"] = how["jobs"] or default_jobs()
    how["extra_cases"] = extra
    if how["shrink_runs"] is None:
        del how["shrink_runs"]
    proofs: list[ClaimProof] = []

    def prove() -> None:  # while the workers search: the proofs cost no wall time
        from .variants.proving.instances import prove_claim

        proofs.extend(prove_claim(v, coq=coq, limit=how["limit"]) for _, v in variants)

    if minutes is not None:
        from .variants.checking.campaign import campaign

        reports = campaign([v for _, v in variants], minutes=minutes, **how)
        prove()
    else:
        reports = run_searches([v for _, v in variants], progress=progress, meanwhile=prove, **how)
    return reports, proofs


def _save(
    spec: str, variant: Variant, report: CheckReport, out: str, store: CounterexampleStore | None
) -> dict[str, dict[str, Any]]:
    """Save each failing property's counterexample (files, database): its files by
    property."""
    from .variants.checking.files import save_counterexample

    saved: dict[str, dict[str, Any]] = {}
    for p in report.failed:
        assert p.counterexample is not None
        saved[p.id] = save_counterexample(
            spec, variant, p.id, p.counterexample, out, mode=report.mode
        )
        if store is not None:
            store.record(variant.name, _fact(saved[p.id]))
    return saved


def _mode(variant: Variant) -> str:
    """The variant's own mode: float for a float implementation (an estimator), else
    exact (``mode`` overrides it for every variant)."""
    return str(getattr(variant, "default_mode", "exact"))


def _store(database: str | None, read_only: bool) -> CounterexampleStore | None:
    """The shared counterexample database: ``database`` or the ``PLA_PROOF_DATABASE``
    environment variable (``None`` without either)."""
    from .testing.database import (
        ENV_DATABASE,
        ENV_READONLY,
        CounterexampleStore,
        open_database,
    )

    url = database or os.environ.get(ENV_DATABASE) or None
    readonly = read_only or os.environ.get(ENV_READONLY, "") not in ("", "0")
    if url is None:
        if read_only:
            raise InputError("--read-only needs --database URL")
        return None
    return CounterexampleStore(open_database(url, readonly=readonly))


def _stored(
    store: CounterexampleStore | None, variant: Variant, mode: str, limit: float
) -> list[tuple[Case, Order]]:
    """The variant's stored counterexamples that still fail, replayed before anything
    is generated; a fact that no longer fails (the variant was fixed) is forgotten."""
    if store is None:
        return []
    from .variants.checking import run_case
    from .variants.checking.files import case_from_json, order_from_json

    out = []
    for fact in store.facts(variant.name):
        try:
            case, order = case_from_json(fact["case"]), order_from_json(fact["order"])
            _, res = run_case(variant, case, order, mode=mode, limit=limit)
        except (InputError, KeyError, TypeError, ValueError):
            continue  # another version's fact, or outside this variant's domain now
        if any(f is not None for f in res.values()):
            out.append((case, order))
        else:
            store.forget(variant.name, fact)
    return out


def _fact(saved: dict[str, Any]) -> dict[str, Any]:
    """The JSON document ``out`` holds: the fact the database stores."""
    import json

    with open(saved["json"], encoding="utf-8") as fh:
        doc: dict[str, Any] = json.load(fh)
    return doc


# --- a saved counterexample run again --------------------------------------------------------


@dataclass(frozen=True)
class Replay:
    """A saved counterexample (``file``) run again with the variant of ``spec``: the
    record of the run and each property's failure (``None`` when it holds)."""

    spec: str
    file: str
    mode: str
    case: Case
    order: Order
    record: Record
    results: dict[str, Failure | None]

    @property
    def failures(self) -> list[Failure]:
        return [f for f in self.results.values() if f is not None]

    @property
    def ok(self) -> bool:
        return not self.failures


def replay_counterexample(
    specs: Specs, path: str, *, mode: str | None = None, limit: float = 5.0
) -> Replay:
    """Run the counterexample saved in ``path`` again with the one variant of ``specs``,
    in ``mode`` (default: the mode it failed in)."""
    from .variants.checking import property_order, run_case
    from .variants.checking.files import load_counterexample

    variants = specs.resolve(limit)
    if len(variants) != 1:
        raise InputError("--replay takes one VARIANT")
    spec, variant = variants[0]
    case, order, meta = load_counterexample(path)
    mode = mode or str(meta.get("mode") or _mode(variant))
    if mode not in ("exact", "float"):
        raise InputError(f"{path}: unknown mode {mode!r} (exact or float)")
    rec, res0 = run_case(variant, case, order, mode=mode, limit=limit)
    res = dict(sorted(res0.items(), key=lambda kv: property_order(kv[0])))
    return Replay(spec, path, mode, case, order, rec, res)


# --- the built-in variants and the seeded bugs -----------------------------------------------


@dataclass(frozen=True)
class Listing:
    """The built-in variants as ``(name, summary, finding)`` (``finding``: its claim is
    known to fail) and the seeded bugs."""

    variants: list[tuple[str, str, bool]]
    bugs: list[SeededBug]


def variant_listing() -> Listing:
    """Every built-in variant (one that cannot load says why) and every seeded bug."""
    from .variants.catalog.bugs import BUGS
    from .variants.catalog.registry import BUILTIN, FINDINGS, resolve

    rows = []
    for name in BUILTIN:
        try:
            summary = resolve(name).summary
        except InputError as exc:
            summary = f"(unavailable: {exc})"
        rows.append((name, summary, name in FINDINGS))
    return Listing(rows, list(BUGS.values()))
