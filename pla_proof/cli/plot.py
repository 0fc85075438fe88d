"""``pla-proof plot DATA --kind K -o FILE``: one teaching figure (PNG, SVG or PDF).

Kinds: ``hyperplane`` (2-D data: the boundary after each update), ``sandwich``
(k·γ ≤ u·w_{k+1}/‖u‖ ≤ ‖w_{k+1}‖ ≤ √k·R against k), ``geometry`` (u*, the margin band,
R, the support points), ``margin-sweep`` (the course page's exercise) and ``orders``
(the DSC 255 handout, §6.2: update counts over random orders).  Needs matplotlib (``pip install
'pla_proof[plot]'``).  Exit 3 when the data are not separable or the budget runs out.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..render import figures
from .common import (
    add_data_arguments,
    add_run_arguments,
    comparator_from_args,
    emit_json,
    load_data,
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_data_arguments(p)
    add_run_arguments(p)
    p.add_argument("--kind", required=True, choices=figures.KINDS, help="which figure to draw")
    p.add_argument(
        "-o", "--output", required=True, metavar="FILE", help="the figure file: .png, .svg or .pdf"
    )
    p.add_argument(
        "--orders", type=int, default=200, metavar="N",
        help="orders: how many random orders (seeds SEED..SEED+N-1; default 200)",
    )  # fmt: skip
    p.add_argument(
        "--sweep", type=int, default=6, metavar="N",
        help="margin-sweep: the data and N-1 additions inside the margin (default 6)",
    )  # fmt: skip


def run(args: argparse.Namespace) -> int:
    figures.require_matplotlib()
    figures.format_of(args.output)
    data = load_data(args)
    from ..trainer import train  # after the data: bad input is refused before SymPy loads

    kind: str = args.kind
    if kind in ("hyperplane", "geometry") and figures.raw_dimension(data) > 2:
        figures.figure(kind, data)  # raises the one-line error naming the dimension
    result: Any = None
    if kind in ("hyperplane", "sandwich", "orders"):
        result = train(
            data,
            rule=args.rule,
            seed=args.seed,
            budget=args.budget,
            comparator=comparator_from_args(args, data),
            strict=args.strict,
            gamma=args.gamma,
        )
        if result.status == "violation" and result.violation is not None:
            print(f"{data.name}: a lemma FAILED: {result.violation.describe()}", file=sys.stderr)
            return 1
        if result.status != "converged" and kind != "hyperplane":
            print(_no_conclusion(data.name, result), file=sys.stderr)
            return 3
    elif kind in ("geometry", "margin-sweep"):
        from ..geometry import separability
        from ..trainer import Certificate

        if isinstance(separability(data), Certificate):
            print(f"{data.name}: not linearly separable: no margin to draw", file=sys.stderr)
            return 3
    path = figures.write(
        kind, data, result, args.output, orders=args.orders, sweep=args.sweep, seed=args.seed,
        budget=args.budget,
    )  # fmt: skip
    if args.json:
        emit_json({"kind": kind, "file": path, "data": data.name})
    else:
        print(f"wrote {path} ({kind}, {data.name})")
    if result is not None and result.status != "converged":
        print(_no_conclusion(data.name, result), file=sys.stderr)
        return 3
    return 0


def _no_conclusion(name: str, result: Any) -> str:
    if result.status == "not_separable":
        return (
            f"{name}: not linearly separable: the weights repeated after {result.updates} updates"
        )
    return f"{name}: the budget of {result.budget} updates ran out; raise --budget"
