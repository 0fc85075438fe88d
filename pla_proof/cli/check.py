"""``pla-proof check VARIANT``: property-check a Perceptron variant against its claim.

Runs the variant over fixed examples and Hypothesis-generated data and orders,
checks every property of its claim (G1, G2, P_k, Q_k, L4, T, SEP/SEP0 and the
variant's own), prints a pass/fail table, and saves each failing property's shrunk
counterexample (CSV + JSON) with the command that replays it.  Exit 0 when every
claim holds, 1 when one fails, 2 on bad input, 5 when the search checked too little to
pass (no run, more than a tenth of the cases skipped, or a claimed property that no run
evaluated): a check that ran nothing never passes.
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from .common import emit_json, end_progress, fmt, fmt_vector, terminal_progress

if TYPE_CHECKING:  # imported when the command runs: building the parser stays fast
    from ..testing.database import CounterexampleStore
    from ..variants.checking import CheckReport, Failure
    from ..variants.protocol.variant import Case, Order, Record, Variant
    from ..variants.proving.instances import ClaimProof

DEFAULT_EXAMPLES = 200


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "variant",
        metavar="VARIANT",
        nargs="*",
        default=[],
        help="built-in name (see --list), bug:NAME, module:attribute or path/file.py:attribute",
    )
    p.add_argument("--all", action="store_true", help="check every built-in variant")
    p.add_argument(
        "--fit",
        metavar="MODULE:FACTORY",
        action="append",
        default=[],
        help="check a fit(X, y) class or factory, read as it is written (its weights, bias, "
        "label coding, sign(0) and epoch budget, verified against its predict())",
    )
    p.add_argument(
        "--weights",
        metavar="ATTR",
        default=None,
        help="--fit: the attribute holding the fitted weights (default: found on probe fits "
        "and verified against predict(): coef_, w_, weights, w, theta, ...)",
    )
    p.add_argument(
        "--bias",
        metavar="WHERE",
        default=None,
        help="--fit: where the bias is: first or last (a coordinate of the weights), none, "
        "or an attribute (default: found and verified like the weights)",
    )
    p.add_argument(
        "--epochs",
        type=int,
        default=None,
        metavar="N",
        help="--fit: set the implementation's epoch budget (its n_iter, max_iter, n_iters, "
        "epochs, ... attribute) to N",
    )
    p.add_argument(
        "--examples",
        type=int,
        default=DEFAULT_EXAMPLES,
        help=f"generated examples per search round (default {DEFAULT_EXAMPLES})",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the search (default 0)")
    p.add_argument(
        "--mode",
        choices=("exact", "float"),
        default=None,
        help="exact (the default; float for --fit) or float: claims checked on "
        "outward-rounded enclosures",
    )
    p.add_argument(
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help="worker processes (default: the machine's cores); the report does not depend on it",
    )
    p.add_argument(
        "--minutes",
        type=float,
        default=None,
        metavar="M",
        help="search until this much time is spent (a campaign) instead of one search",
    )
    p.add_argument(
        "--run-seconds",
        type=float,
        default=5.0,
        metavar="S",
        help="per-run time limit: a run that makes no update for S seconds (or runs 10 S in "
        "all) fails ENDS (default 5; numba's compiling and loading do not count)",
    )
    p.add_argument(
        "--shrink-runs",
        type=int,
        default=None,
        metavar="N",
        help="runs of the variant a search round may spend shrinking a failure (default 1000)",
    )
    p.add_argument(
        "--database",
        metavar="URL",
        default=None,
        help="counterexample database shared between runs: a directory or redis://HOST:PORT/DB "
        "(default: $PLA_PROOF_DATABASE, else none); stored counterexamples run first",
    )
    p.add_argument(
        "--read-only",
        action="store_true",
        help="replay what the database holds but write nothing to it",
    )
    p.add_argument(
        "--out",
        default="counterexamples",
        help="directory for counterexample files (default ./counterexamples)",
    )
    p.add_argument(
        "--replay",
        metavar="FILE.json",
        help="run a saved counterexample again instead of searching",
    )
    p.add_argument("--list", action="store_true", help="list the built-in variants and seeded bugs")
    p.add_argument(
        "--coq",
        action="store_true",
        help="also have Coq's kernel prove the claim of a declarative rule (a corollary of "
        "the development's generic lemma, compiled with coqc: a few seconds); Z3 proves "
        "its obligations on every check",
    )


def _variants(args: argparse.Namespace) -> list[tuple[str, Variant]]:
    from ..variants.catalog.registry import BUILTIN, resolve

    specs = list(args.variant or [])
    if args.all:
        specs += [n for n in BUILTIN if n not in specs]
    out = [(s, resolve(s)) for s in specs]
    reading = {"weights": args.weights, "bias": args.bias, "epochs": args.epochs}
    if not args.fit and any(v is not None for v in reading.values()):
        given = ", ".join(f"--{k}" for k, v in reading.items() if v is not None)
        raise InputError(f"{given} only apply to --fit MODULE:FACTORY")
    if args.epochs is not None and args.epochs < 1:
        raise InputError(f"--epochs must be a positive integer, got {args.epochs}")
    for spec in args.fit:
        from ..variants.estimators.estimator import Estimator, resolve_factory

        factory = resolve_factory(spec)
        try:
            est = Estimator(factory, name=spec, **reading)
        except InputError as exc:
            raise InputError(f"--fit {spec}: {exc}") from None
        out.append((f"fit:{spec}", est))
    return out


def run(args: argparse.Namespace) -> int:
    if args.list:
        return _list(args)
    if not args.variant and not args.all and not args.fit:
        raise InputError("give a VARIANT (or --all, --fit MODULE:FACTORY, --list)")
    if args.examples < 1:
        raise InputError(f"--examples must be a positive integer, got {args.examples}")
    if args.jobs is not None and args.jobs < 1:
        raise InputError(f"--jobs must be a positive integer, got {args.jobs}")
    if args.minutes is not None and not args.minutes > 0:
        raise InputError(f"--minutes must be positive, got {args.minutes}")
    if args.shrink_runs is not None and args.shrink_runs < 0:
        raise InputError(f"--shrink-runs must be >= 0, got {args.shrink_runs}")
    if not args.run_seconds > 0:
        raise InputError(f"--run-seconds must be positive, got {args.run_seconds}")
    from ..variants.checking.files import save_counterexample

    if args.coq and not args.replay:
        import shutil

        if shutil.which("coqc") is None:
            raise InputError("coqc not found: install Coq (Debian package 'coq') for --coq")
    variants = _variants(args)
    if args.replay:
        if len(variants) != 1:
            raise InputError("--replay takes one VARIANT")
        return _replay(args, *variants[0])
    from ..variants.checking.search import default_jobs, run_searches

    jobs = args.jobs or default_jobs()
    modes = [args.mode or _mode(v) for _, v in variants]
    store = _store(args)
    pairs = zip(variants, modes, strict=True)
    extra = [_stored(store, v, m, args.run_seconds) for (_, v), m in pairs]
    progress = terminal_progress()
    how: dict[str, Any] = dict(
        examples=args.examples, seed=args.seed, mode=modes, limit=args.run_seconds, jobs=jobs
    )
    how["extra_cases"] = extra
    if args.shrink_runs is not None:
        how["shrink_runs"] = args.shrink_runs
    proofs: list[ClaimProof] = []

    def prove() -> None:  # while the workers search: the proofs cost no wall time
        from ..variants.proving.instances import prove_claim

        proofs.extend(prove_claim(v, coq=args.coq) for _, v in variants)

    if args.minutes is not None:
        from ..variants.checking.campaign import campaign

        reports = campaign([v for _, v in variants], minutes=args.minutes, **how)
        prove()
    else:
        reports = run_searches([v for _, v in variants], progress=progress, meanwhile=prove, **how)
    end_progress()
    docs = []
    for (spec, variant), report, replayed, proof in zip(
        variants, reports, extra, proofs, strict=True
    ):
        saved: dict[str, dict[str, Any]] = {}
        for p in report.failed:
            assert p.counterexample is not None
            saved[p.id] = save_counterexample(
                spec, variant, p.id, p.counterexample, args.out, mode=report.mode
            )
            if store is not None:
                store.record(variant.name, _fact(saved[p.id]))
        db = None
        if store is not None:
            from ..testing.database import describe

            db = {"where": describe(store.db), "replayed": len(replayed), "recorded": len(saved)}
        if args.json:
            doc = report_to_json(report, variant, saved, proof)
            if db is not None:
                doc["database"] = db
            docs.append(doc)
        else:
            print_report(report, variant, saved, proof)
            if db is not None:
                print(
                    f"database {db['where']}: {db['replayed']} stored counterexample(s) "
                    f"replayed first, {db['recorded']} recorded"
                )
            if len(variants) > 1:
                print()
    if args.json:
        emit_json(
            docs[0] if len(docs) == 1 else {"reports": docs, "ok": all(d["ok"] for d in docs)}
        )
    return exit_code(reports)


def exit_code(reports: list[CheckReport]) -> int:
    """1 when a property fails, else 5 when a search checked too little to pass (no run,
    too many cases skipped, a property no run evaluated), else 0."""
    from . import EXIT

    if any(r.failed for r in reports):
        return EXIT["failed"]
    if any(r.unchecked for r in reports):
        return EXIT["unchecked"]
    return EXIT["ok"]


def _mode(variant: Variant) -> str:
    """The variant's own mode: float for a float implementation (an estimator), else
    exact (``--mode`` overrides it for every variant)."""
    return str(getattr(variant, "default_mode", "exact"))


def _store(args: argparse.Namespace) -> CounterexampleStore | None:
    """The shared counterexample database: ``--database`` or the ``PLA_PROOF_DATABASE``
    environment variable (``None`` without either)."""
    import os

    from ..testing.database import (
        ENV_DATABASE,
        ENV_READONLY,
        CounterexampleStore,
        open_database,
    )

    url = args.database or os.environ.get(ENV_DATABASE) or None
    readonly = args.read_only or os.environ.get(ENV_READONLY, "") not in ("", "0")
    if url is None:
        if args.read_only:
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
    from ..variants.checking import run_case
    from ..variants.checking.files import case_from_json, order_from_json

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
    """The JSON document ``--out`` wrote: the fact the database stores."""
    import json

    with open(saved["json"], encoding="utf-8") as fh:
        doc: dict[str, Any] = json.load(fh)
    return doc


def _list(args: argparse.Namespace) -> int:
    from ..variants.catalog.bugs import BUGS

    rows = []
    from ..variants.catalog.registry import BUILTIN, FINDINGS, resolve

    for name in BUILTIN:
        try:
            v = resolve(name)
            rows.append((name, v.summary))
        except InputError as exc:
            rows.append((name, f"(unavailable: {exc})"))
    if args.json:
        emit_json(
            {
                "variants": [{"name": n, "summary": s} for n, s in rows],
                "bugs": [
                    {"name": f"bug:{b.name}", "mistake": b.mistake, "expected": b.expected}
                    for b in BUGS.values()
                ],
            }
        )
        return 0
    print("built-in variants:")
    for n, s in rows:
        note = " [finding: its claim fails]" if n in FINDINGS else ""
        print(f"  {n:20s} {s}{note}")
    print("seeded bugs (each should fail):")
    for b in BUGS.values():
        print(f"  bug:{b.name:28s} {b.mistake} [caught by {b.expected}]")
    return 0


def _replay(args: argparse.Namespace, spec: str, variant: Variant) -> int:
    from ..variants.checking import property_order, run_case
    from ..variants.checking.files import load_counterexample

    case, order, meta = load_counterexample(args.replay)
    mode = args.mode or str(meta.get("mode") or _mode(variant))
    if mode not in ("exact", "float"):
        raise InputError(f"{args.replay}: unknown mode {mode!r} (exact or float)")
    rec, res0 = run_case(variant, case, order, mode=mode, limit=args.run_seconds)
    res = dict(sorted(res0.items(), key=lambda kv: property_order(kv[0])))
    failures = [f for f in res.values() if f is not None]
    if args.json:
        emit_json(
            {
                "variant": spec,
                "file": args.replay,
                "mode": mode,
                "order": order.describe(),
                "updates": rec.updates,
                "choices": [j + 1 for j in rec.choices],
                "ok": not failures,
                "properties": {p: (None if f is None else f.describe()) for p, f in res.items()},
            }
        )
    else:
        print(
            f"replay of {args.replay} with variant {spec} (order {order.describe()}, {mode} mode)"
        )
        _print_case(case)
        _print_steps(rec)
        for p, f in res.items():
            print(f"  {p:8s} {'pass' if f is None else 'FAIL: ' + f.describe()}")
    return 1 if failures else 0


def _print_case(case: Any) -> None:
    print(
        f"  {case.n} point(s): "
        + "; ".join(f"{fmt_vector(x)} y={yi}" for x, yi in zip(case.X, case.y, strict=True))
    )
    if any(case.u):
        print(
            f"  comparator u = {fmt_vector(case.u)}"
            + (f", params {dict(case.params)}" if case.params else "")
        )


def _print_steps(rec: Record, limit: int = 12) -> None:
    steps = rec.measured()
    if not steps:
        print("  no updates")
        return
    print(f"  {'k':>4} {'j':>4} {'trigger':>12} {'u.w':>12} {'|w|^2':>12}")
    for s in steps[:limit]:
        print(f"  {s.k:>4} {s.j + 1:>4} {_val(s.t):>12} {_val(s.pu1):>12} {_val(s.n1):>12}")
    if len(steps) > limit:
        print(f"  ... {len(steps) - limit} more updates")


def _val(v: Any) -> str:
    return "" if v is None else fmt(v) if isinstance(v, int | Fraction) else str(v)


_SHOWN = ("w", "b", "W", "alpha", "averaged", "pocket", "epochs", "n_iter")


def _short(v: Any) -> str:
    if isinstance(v, tuple | list):
        return "(" + ", ".join(_short(a) for a in v) + ")"
    return fmt(v)


def print_report(
    report: CheckReport,
    variant: Variant,
    saved: dict[str, dict[str, Any]],
    proof: ClaimProof | None = None,
) -> None:
    print(
        f"variant {report.variant}: {variant.summary}"
        + (f" [{variant.source}]" if variant.source else "")
    )
    reading = getattr(variant, "reading", None)
    if reading is not None:
        print(f"read as: {reading.describe()}")
    print(
        f"searched {report.examples} generated examples per round (seed {report.seed}, "
        f"{report.mode} mode): {report.runs} runs ({fmt(round(report.seconds, 1))} s of search), "
        f"{report.inconclusive} inconclusive (safety cap hit before the bound)"
        + (f", {report.skipped} skipped (outside the domain)" if report.skipped else "")
    )
    for reason, count in report.skip_reasons.items():
        print(f"  skipped {count}: {reason}")
    if report.mode == "float":
        print(
            "float mode: each claim checked on outward-rounded enclosures; a failure is "
            f"certain, and at most {report.max_missed:.3g} could have been missed"
            + (f" ({report.undecided} undecided)" if report.undecided else "")
        )
    covered = proof.properties if proof is not None else ()
    print(
        f"{'property':10s} {'tested':6s} {'runs':>6s} {'proved':6s} {'instance of':32s} statement"
    )
    for p in report.properties:
        print(
            f"{p.id:10s} {'pass' if p.ok else 'FAIL':6s} {p.runs:>6d} "
            f"{'yes' if p.id in covered else '-':6s} {p.lemma:32s} {p.statement}"
        )
    if proof is not None:
        print(f"proof: {proof.describe()}")
    for p in report.failed:
        ce = p.counterexample
        assert ce is not None
        files = saved[p.id]
        print()
        src = "fixed example" if ce.explicit else "shrunk counterexample"
        print(
            f"{p.id}: {src} with {ce.case.n} point(s), order {ce.order.describe()}, "
            f"{ce.record.updates} update(s)"
        )
        for other in p.others:
            print(f"  another cause: {other.failure.describe()} ({other.case.n} point(s))")
        print(f"  {ce.failure.describe()}")
        _print_case(ce.case)
        out = ", ".join(f"{k}={_short(v)}" for k, v in ce.record.output.items() if k in _SHOWN)
        if out:
            refit = ce.record.output.get("refit")
            print(f"  returned{f' (refitted with {refit})' if refit else ''}: {out}")
        print(f"  saved {files['csv']} (+ {files['json']})")
        print(f"  replay: {files['check']}")
        if files.get("trace"):
            print(f"  trace:  {files['trace']}")
    print()
    if report.failed:
        print(
            f"{len(report.failed)} of {len(report.properties)} properties FAIL: "
            + ", ".join(p.id for p in report.failed)
        )
    elif report.unchecked:
        print("NOT CHECKED: " + "; ".join(report.unchecked) + " -- no verdict (exit 5)")
    else:
        tail = ""
        if proof is not None:
            tail = (
                f"; the claim is proved by {proof.provers()}"
                if proof.proved
                else "; the claim is tested, not proved"
            )
        print(f"all {len(report.properties)} properties of the claim hold{tail}")


def _failure_json(f: Failure) -> dict[str, Any]:
    return {
        "description": f.describe(),
        "k": f.k,
        "j": None if f.j is None else f.j + 1,
        "lhs": None if f.lhs is None else _exact(f.lhs),
        "op": f.op,
        "rhs": None if f.rhs is None else _exact(f.rhs),
    }


def _exact(v: Any) -> Any:
    return Fraction(v) if isinstance(v, int | Fraction) and not isinstance(v, bool) else v


def proof_to_json(proof: ClaimProof) -> dict[str, Any]:
    """The claim's proof as the ``proof`` member of a report."""
    rule = proof.rule
    return {
        "status": proof.status,
        "rule": None if rule is None else rule.rule_text(),
        "how": None if rule is None else rule.how,
        "C": None if rule is None else str(rule.C),
        "g": None if rule is None else str(rule.g),
        "reason": proof.reason,
        "description": proof.describe(),
        "obligations": [
            {"id": o.id, "statement": o.text, "z3": o.verdict.status, "detail": o.verdict.detail}
            for o in proof.obligations
        ],
        "coq": None
        if proof.coq is None
        else {"status": proof.coq, "seconds": proof.coq_seconds or 0.0},
        "properties": list(proof.properties),
    }


def report_to_json(
    report: CheckReport,
    variant: Variant,
    saved: dict[str, dict[str, Any]],
    proof: ClaimProof | None = None,
) -> dict[str, Any]:
    covered = proof.properties if proof is not None else ()
    props = []
    for p in report.properties:
        entry: dict[str, Any] = {
            "id": p.id,
            "instance_of": p.lemma,
            "statement": p.statement,
            "status": "fail" if not p.ok else "pass" if p.runs else "unchecked",
        }
        entry["runs"] = p.runs
        entry["proved"] = p.id in covered
        ce = p.counterexample
        if ce is not None:
            entry["counterexample"] = {
                "points": ce.case.n,
                "order": ce.order.describe(),
                "updates": ce.record.updates,
                "explicit": ce.explicit,
                "failure": _failure_json(ce.failure),
                **saved[p.id],
            }
            entry["other_causes"] = [
                {"points": o.case.n, "failure": _failure_json(o.failure)} for o in p.others
            ]
        props.append(entry)
    doc: dict[str, Any] = {
        "variant": report.variant,
        "summary": variant.summary,
        "ok": report.ok,
        "verdict": report.status,
        "unchecked": report.unchecked,
        "mode": report.mode,
        "examples": report.examples,
        "seed": report.seed,
        "runs": report.runs,
        "inconclusive": report.inconclusive,
        "skipped": report.skipped,
        "skip_reasons": [{"reason": r, "count": c} for r, c in report.skip_reasons.items()],
        "seconds": report.seconds,
        "properties": props,
        "generic_properties": {k: v[1] for k, v in _generic().items()},
    }
    reading = getattr(variant, "reading", None)
    if reading is not None:
        doc["reading"] = reading.describe()
    if proof is not None:
        doc["proof"] = proof_to_json(proof)
    if report.mode == "float":
        doc["max_missed"] = report.max_missed
        doc["undecided"] = report.undecided
    return doc


def _generic() -> dict[str, Any]:
    from ..variants.checking import GENERIC_PROPERTIES

    return dict(GENERIC_PROPERTIES)
