"""``pla-proof verify``: check every obligation of the proof and print the blueprint.

Exit 0 only when every obligation is proved (1 otherwise).  ``--json`` prints
``{"all_proved": bool, "obligations": [{"id", "statement", "depends_on",
"checker", "status", "seconds", ...}, ...], ...}``.
"""

from __future__ import annotations

import argparse
import fnmatch

from ..errors import InputError
from .common import emit_json


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


def run(args: argparse.Namespace) -> int:
    from ..proof.blueprint import check_all
    from ..proof.obligations import all_obligations

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
    if args.json:
        emit_json(blueprint.to_json())
    else:
        print(blueprint.render(details=not args.brief))
    return 0 if blueprint.all_proved else 1
