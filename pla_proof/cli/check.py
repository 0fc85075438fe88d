"""``pla-proof check VARIANT``: property-check a Perceptron variant against its claim.

Runs the variant over fixed examples and Hypothesis-generated data and orders,
checks every property of its claim (G1, G2, P_k, Q_k, L4, T, SEP/SEP0 and the
variant's own), prints a pass/fail table, and saves each failing property's shrunk
counterexample (CSV + JSON) with the command that replays it.  Exit 0 when every
claim holds, 1 when one fails, 2 on bad input.
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from .common import emit_json, end_progress, fmt, terminal_progress

if TYPE_CHECKING:  # imported when the command runs: building the parser stays fast
    from ..variants.harness import CheckReport, Failure
    from ..variants.protocol import Record, Variant

DEFAULT_EXAMPLES = 200


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "variant",
        metavar="VARIANT",
        nargs="?",
        help="built-in name (see --list), bug:NAME, module:attribute or path/file.py:attribute",
    )
    p.add_argument(
        "--examples",
        type=int,
        default=DEFAULT_EXAMPLES,
        help=f"generated examples per search (default {DEFAULT_EXAMPLES})",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the search (default 0)")
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


def run(args: argparse.Namespace) -> int:
    if args.list:
        return _list(args)
    if not args.variant:
        raise InputError("give a VARIANT (or --list)")
    if args.examples < 1:
        raise InputError(f"--examples must be a positive integer, got {args.examples}")
    from ..variants.files import save_counterexample
    from ..variants.harness import search
    from ..variants.registry import resolve

    variant = resolve(args.variant)
    if args.replay:
        return _replay(args, variant)
    report = search(variant, examples=args.examples, seed=args.seed, progress=terminal_progress())
    end_progress()
    saved: dict[str, dict[str, Any]] = {}
    for p in report.failed:
        assert p.counterexample is not None
        saved[p.id] = save_counterexample(args.variant, variant, p.id, p.counterexample, args.out)
    if args.json:
        emit_json(report_to_json(report, variant, saved))
    else:
        print_report(report, variant, saved)
    return 0 if report.ok else 1


def _list(args: argparse.Namespace) -> int:
    from ..variants.bugs import BUGS

    rows = []
    from ..variants.registry import BUILTIN, FINDINGS, resolve

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


def _replay(args: argparse.Namespace, variant: Variant) -> int:
    from ..variants.files import load_counterexample
    from ..variants.harness import _sort_key, evaluate

    case, order, _meta = load_counterexample(args.replay)
    rec = variant.run(case, order)
    res = dict(sorted(evaluate(variant.claim(case), rec).items(), key=lambda kv: _sort_key(kv[0])))
    failures = [f for f in res.values() if f is not None]
    if args.json:
        emit_json(
            {
                "variant": args.variant,
                "file": args.replay,
                "order": order.describe(),
                "updates": len(rec.steps),
                "choices": [j + 1 for j in rec.choices],
                "ok": not failures,
                "properties": {p: (None if f is None else f.describe()) for p, f in res.items()},
            }
        )
    else:
        print(f"replay of {args.replay} with variant {args.variant} (order {order.describe()})")
        _print_case(case)
        _print_steps(rec)
        for p, f in res.items():
            print(f"  {p:8s} {'pass' if f is None else 'FAIL: ' + f.describe()}")
    return 1 if failures else 0


def _print_case(case: Any) -> None:
    print(
        f"  {case.n} point(s): "
        + "; ".join(
            f"({', '.join(fmt(v) for v in x)}) y={yi}" for x, yi in zip(case.X, case.y, strict=True)
        )
    )
    if any(case.u):
        print(
            f"  comparator u = ({', '.join(fmt(v) for v in case.u)})"
            + (f", params {dict(case.params)}" if case.params else "")
        )


def _print_steps(rec: Record, limit: int = 12) -> None:
    if not rec.steps:
        print("  no updates")
        return
    print(f"  {'k':>4} {'j':>4} {'trigger':>12} {'u.w':>12} {'|w|^2':>12}")
    for s in rec.steps[:limit]:
        print(f"  {s.k:>4} {s.j + 1:>4} {fmt(s.t):>12} {fmt(s.pu1):>12} {fmt(s.n1):>12}")
    if len(rec.steps) > limit:
        print(f"  ... {len(rec.steps) - limit} more updates")


_SHOWN = ("w", "b", "W", "alpha", "averaged", "pocket", "epochs", "n_iter")


def _short(v: Any) -> str:
    if isinstance(v, tuple | list):
        return "(" + ", ".join(_short(a) for a in v) + ")"
    return fmt(v)


def print_report(report: CheckReport, variant: Variant, saved: dict[str, dict[str, Any]]) -> None:
    print(
        f"variant {report.variant}: {variant.summary}"
        + (f" [{variant.source}]" if variant.source else "")
    )
    print(
        f"searched {report.examples} generated examples per property search (seed {report.seed}): "
        f"{report.runs} runs, {report.inconclusive} inconclusive (safety cap hit before the bound)"
    )
    print(f"{'property':10s} {'status':6s} {'instance of':32s} statement")
    for p in report.properties:
        print(f"{p.id:10s} {'pass' if p.ok else 'FAIL':6s} {p.lemma:32s} {p.statement}")
    for p in report.failed:
        ce = p.counterexample
        assert ce is not None
        files = saved[p.id]
        print()
        src = "fixed example" if ce.explicit else "shrunk counterexample"
        print(
            f"{p.id}: {src} with {ce.case.n} point(s), order {ce.order.describe()}, "
            f"{len(ce.record.steps)} update(s)"
        )
        print(f"  {ce.failure.describe()}")
        _print_case(ce.case)
        out = ", ".join(f"{k}={_short(v)}" for k, v in ce.record.output.items() if k in _SHOWN)
        if out:
            print(f"  returned: {out}")
        print(f"  saved {files['csv']} (+ {files['json']})")
        print(f"  replay: {files['check']}")
        if files.get("trace"):
            print(f"  trace:  {files['trace']}")
    print()
    if report.ok:
        print(f"all {len(report.properties)} properties of the claim hold")
    else:
        print(
            f"{len(report.failed)} of {len(report.properties)} properties FAIL: "
            + ", ".join(p.id for p in report.failed)
        )


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


def report_to_json(
    report: CheckReport, variant: Variant, saved: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    props = []
    for p in report.properties:
        entry: dict[str, Any] = {
            "id": p.id,
            "instance_of": p.lemma,
            "statement": p.statement,
            "status": "pass" if p.ok else "fail",
        }
        ce = p.counterexample
        if ce is not None:
            entry["counterexample"] = {
                "points": ce.case.n,
                "order": ce.order.describe(),
                "updates": len(ce.record.steps),
                "explicit": ce.explicit,
                "failure": _failure_json(ce.failure),
                **saved[p.id],
            }
        props.append(entry)
    return {
        "variant": report.variant,
        "summary": variant.summary,
        "ok": report.ok,
        "examples": report.examples,
        "seed": report.seed,
        "runs": report.runs,
        "inconclusive": report.inconclusive,
        "properties": props,
        "generic_properties": {k: v[1] for k, v in _generic().items()},
    }


def _generic() -> dict[str, Any]:
    from ..variants.harness import GENERIC_PROPERTIES

    return dict(GENERIC_PROPERTIES)
