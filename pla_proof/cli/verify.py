"""``pla-proof verify``: check every obligation of the proof and print the blueprint.

Exit 0 only when every obligation is proved and exported to Coq (with ``--coq``: compiled
by it), every hypothesis is discharged (the chain) and the small runs agree; 1
otherwise.  ``--json`` prints ``{"ok": bool, "all_proved": bool, "obligations": [{"id",
"statement", "depends_on", "checker", "status", "seconds", "hypotheses", "checkers",
...}, ...], "chain": ..., "small_runs": ..., ...}``.
"""

from __future__ import annotations

import argparse
import fnmatch
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from .common import emit_json

if TYPE_CHECKING:  # imported when the command runs: building the parser stays fast
    from ..proof.blueprint import Blueprint
    from ..proof.obligations import Obligation


def add_coq_opinion(
    blueprint: Blueprint,
    obligations: Sequence[Obligation],
    *,
    run: bool,
    development: bool = True,
) -> None:
    """Record Coq's opinion per obligation: compiled (``run``), else whether it exports;
    with ``development`` (every obligation selected), the hand-written theorems too."""
    from ..proof.coq import export, kernel_theorems, run_coqc

    if development:
        blueprint.kernel_theorems = kernel_theorems(ob.id for ob in obligations)
        blueprint.kernel = {t.name: "not run" for t in blueprint.kernel_theorems}
    if run:
        outcome = run_coqc(obligations, development=development)
        for oid, status in outcome.status.items():
            blueprint.agreement.setdefault(oid, {})["coq"] = status
        blueprint.kernel.update(outcome.theorems)
        return
    exported = export(obligations)
    for oid in exported.exported:
        blueprint.agreement.setdefault(oid, {})["coq"] = "not run (verify --coq)"
    for oid, why in exported.skipped.items():
        blueprint.agreement.setdefault(oid, {})["coq"] = f"not exported: {why}"


def __getattr__(name: str) -> Any:
    """``all_obligations`` and ``check_all``, imported on first use: building the
    parser stays fast."""
    value: Any
    if name == "all_obligations":
        from ..proof import obligations

        value = obligations.all_obligations
    elif name == "check_all":
        from ..proof import blueprint

        value = blueprint.check_all
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--only",
        metavar="PATTERN",
        action="append",
        help="check only obligations whose id or node matches PATTERN (shell-style, e.g. 'L3*'); "
        "repeatable",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="Z3 time limit per obligation (default 10); running out counts as not proved",
    )
    p.add_argument(
        "--brief", action="store_true", help="one line per obligation, without the statements"
    )
    p.add_argument(
        "--html", metavar="FILE", help="also write the blueprint as a self-contained graph page"
    )
    p.add_argument(
        "--dot",
        metavar="FILE",
        nargs="?",
        const="-",
        help="also write the graph as Graphviz text (to FILE, or stdout when no FILE is given)",
    )
    p.add_argument(
        "--coq",
        action="store_true",
        help="also compile every obligation with Coq (coqc), then the development built on "
        "them (the algorithm, its convergence, the generic lemma and the catalog's claims), "
        "and report which checkers agree and which theorems the kernel checked",
    )


def _write(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        raise InputError(f"cannot write {path}: {exc.strerror}") from exc


def run(args: argparse.Namespace) -> int:
    this = sys.modules[__name__]  # the heavy names through __getattr__ (tests may patch them)
    all_obligations, check_all = this.all_obligations, this.check_all
    if not args.timeout > 0:
        raise InputError(f"--timeout must be > 0 seconds, got {args.timeout}")
    obligations = all_obligations()
    if args.only:
        obligations = tuple(
            ob
            for ob in obligations
            if any(
                fnmatch.fnmatchcase(ob.id, p) or fnmatch.fnmatchcase(ob.node, p) for p in args.only
            )
        )
        if not obligations:
            raise InputError(f"--only {' '.join(args.only)}: no obligation matches")
    blueprint = check_all(
        obligations, timeout_ms=max(1, int(args.timeout * 1000)), partial=bool(args.only)
    )
    add_coq_opinion(blueprint, obligations, run=args.coq, development=not args.only)
    if args.html or args.dot:
        from ..proof.graph import graph, to_dot, to_html

        drawn = graph(blueprint)
        if args.html:
            _write(args.html, to_html(drawn))
        if args.dot and args.dot != "-":
            _write(args.dot, to_dot(drawn))
        elif args.dot == "-":
            print(to_dot(drawn), end="")
            return 0 if blueprint.ok else 1
    if args.json:
        emit_json(blueprint.to_json())
    else:
        print(blueprint.render(details=not args.brief))
    return 0 if blueprint.ok else 1
