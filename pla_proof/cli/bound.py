"""``pla-proof bound DATA``: the optimal margin, the tight bound, and what the rules do.

Exit codes: 0 the bound was computed and every run stayed within it (each run is
monitored against u* at every update); 1 a run violated an invariant, or the
solver's answer failed its exact check (solver error); 2 bad input; 3 the data are
not separable (a verified Gordan certificate is printed) or a run hit ``--budget``.

The numbers are :func:`pla_proof.bounds.tight_bound`'s; their text and JSON are
:mod:`pla_proof.render.bounds`'s.
"""

from __future__ import annotations

import argparse
import sys

from ..errors import InputError
from ..render.bounds import bound_json, bound_text
from .common import add_data_arguments, emit_json, load_data, progress

DEFAULT_BUDGET = 10_000


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_data_arguments(p)
    p.add_argument(
        "--seeds",
        type=int,
        default=3,
        help="number of seeds for the random rule (default 3: seeds 0, 1, 2)",
    )
    p.add_argument(
        "--budget",
        type=int,
        default=DEFAULT_BUDGET,
        help=f"maximum updates per run (default {DEFAULT_BUDGET})",
    )
    p.add_argument(
        "--no-runs", action="store_true", help="only the geometry: do not train with each rule"
    )


def run(args: argparse.Namespace) -> int:
    if args.seeds < 0:
        raise InputError(f"--seeds must be >= 0, got {args.seeds}")
    if args.budget < 0:
        raise InputError(f"--budget must be >= 0, got {args.budget}")
    data = load_data(args)
    from ..bounds import tight_bound
    from ..errors import SolverError

    try:
        tb = tight_bound(
            data, seeds=args.seeds, budget=args.budget, runs=not args.no_runs, progress=progress
        )
    except SolverError as exc:
        print(f"pla-proof bound: solver error: {exc}", file=sys.stderr)
        return 1
    if args.json:
        emit_json(bound_json(tb))
    else:
        print(bound_text(tb))
    if not tb.separable:
        return 3
    if any(r.status == "violation" for r in tb.runs):
        return 1
    if any(r.status == "budget_exhausted" for r in tb.runs):
        return 3
    return 0
