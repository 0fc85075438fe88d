"""``pla-proof verify``: check every obligation of the proof and print the blueprint.

Exit 0 only when every obligation is proved and exported to Coq (with ``--coq``: compiled
by it), every hypothesis is discharged (the chain) and the small runs agree; 1
otherwise.  ``--json`` prints ``{"ok": bool, "all_proved": bool, "obligations": [{"id",
"statement", "depends_on", "checker", "status", "seconds", "hypotheses", "checkers",
...}, ...], "chain": ..., "small_runs": ..., ...}``.

The check is :func:`pla_proof.proof.verification.verify_proof`'s; its text and JSON are
the blueprint's own (:class:`pla_proof.proof.blueprint.Blueprint`), its graph
:mod:`pla_proof.proof.graph`'s.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import InputError
from .common import emit_json


def __getattr__(name: str) -> Any:
    """``all_obligations``, ``check_all`` and ``add_coq_opinion``, imported on first use:
    building the parser stays fast."""
    value: Any
    if name == "add_coq_opinion":
        from ..proof import verification

        value = verification.add_coq_opinion
    elif name == "all_obligations":
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
    this = sys.modules[__name__]  # the obligations through __getattr__ (tests may patch them)
    if not args.timeout > 0:
        raise InputError(f"--timeout must be > 0 seconds, got {args.timeout}")
    from ..proof.coqc import start_coqc
    from ..proof.verification import verify_proof

    # coqc first, on the text the last run compiled (this run's, unless the proof changed)
    started = start_coqc() if args.coq and not args.only else None
    try:
        blueprint = verify_proof(
            this.all_obligations(),
            only=args.only,
            timeout=args.timeout,
            coq=args.coq,
            started=started,
        )
    finally:
        if started is not None:
            started.stop()
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
