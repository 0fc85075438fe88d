"""``pla-proof explain [DATA]``: Kalyanakrishnan's proof walked through on a real run.

Every run-time lemma is instantiated with the numbers the monitor measured at each
update and evaluated by the lemma's own compiled relation; the slack of each
inequality is shown.  The final step of the theorem, its corollaries (angle, dual
form, bias, unit ball) and the separation of the returned ``w`` follow.  Plain text
by default; ``--markdown`` writes a hand-out.  Non-separable data end with a clear
statement and exit 3.

The walk-through is :func:`pla_proof.explanation.explain`'s; its text, Markdown and
JSON are :mod:`pla_proof.render.explanation`'s.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from ..explanation import Explanation, explain_run
from ..render.explanation import explanation_json, render_markdown, render_text, result_text
from ..tracing import Instance, instantiate
from .common import (
    add_data_arguments,
    add_run_arguments,
    choose_comparator,
    emit_json,
    load_data,
    progress,
)

if TYPE_CHECKING:
    from ..data import Dataset
    from ..trainer import Run

__all__ = [
    "EXIT",
    "Explanation",
    "Instance",
    "add_arguments",
    "explain_run",
    "instantiate",
    "render_markdown",
    "render_text",
    "run",
]

EXIT = {"converged": 0, "violation": 1, "budget_exhausted": 3, "not_separable": 3}


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_data_arguments(p, data_required=False)
    add_run_arguments(p)
    p.add_argument(
        "--steps",
        type=int,
        default=10,
        metavar="N",
        help="show at most N updates in detail (default 10): the first and the last ones; "
        "the summary covers every update",
    )
    p.add_argument("--markdown", action="store_true", help="write a Markdown hand-out")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    p.add_argument(
        "--html",
        metavar="FILE",
        help="write the lecture page: one self-contained HTML file stepping through the run",
    )
    p.add_argument(
        "--figures",
        metavar="DIR",
        help="write every figure that applies (PNG) into DIR (needs the plot extra)",
    )


def run(args: argparse.Namespace) -> int:
    if args.steps < 0:
        raise InputError(f"--steps must be >= 0, got {args.steps}")
    data = load_data(args)
    from ..explanation import explain  # after the data: bad input is refused before SymPy loads

    comp, note = choose_comparator(args, data)
    ex = explain(
        data,
        rule=args.rule,
        seed=args.seed,
        budget=args.budget,
        comparator=comp,
        strict=args.strict,
        gamma=args.gamma,
        progress=progress,
    )
    out = sys.stdout if args.output is None else _open(args.output)
    try:
        return _emit(args, ex, out, note)
    finally:
        if out is not sys.stdout:
            out.close()


def _emit(args: argparse.Namespace, ex: Explanation, out: Any, note: str | None = None) -> int:
    """Write the explanation (or why there is none) and the extras; the exit code.
    ``note``: why the comparator is the final w, not u* (first in the text, a key in JSON)."""
    if note is not None and not args.json:
        print(note, file=out)
    if ex.status != "converged":
        if args.json:
            emit_json({**explanation_json(ex), "comparator_note": note}, out)
        else:
            print(result_text(ex), file=out)
        if ex.status == "not_separable":
            for path in _write_extras(args, ex.data, ex.run).values():
                print(f"wrote {path}", file=sys.stderr)
        return EXIT[ex.status]
    written = _write_extras(args, ex.data, ex.run)
    if args.json:
        emit_json({**explanation_json(ex), "comparator_note": note}, out)
    elif args.markdown:
        base = os.path.dirname(os.path.abspath(args.output)) if args.output else os.getcwd()
        print(render_markdown(ex, args.steps, figures=written, base=base), file=out)
    elif written and args.output is None:
        for path in written.values():
            print(f"wrote {path}", file=out)
    else:
        print(render_text(ex, args.steps), file=out)
    return 0 if ex.ok else 1


def _write_extras(args: argparse.Namespace, data: Dataset, result: Run) -> dict[str, str]:
    """The page (``--html``) and the figures (``--figures``): what was written, by name."""
    written: dict[str, str] = {}
    if args.figures:
        from ..render import figures

        figures.require_matplotlib()
        try:
            os.makedirs(args.figures, exist_ok=True)
        except OSError as exc:
            raise InputError(f"{args.figures}: cannot create ({exc.strerror})") from None
        kinds = figures.applicable(data)
        if result.status != "converged":  # only the updates can be drawn: no margin, no bound
            kinds = tuple(k for k in kinds if k == "hyperplane")
        for kind in kinds:
            path = os.path.join(args.figures, f"{kind}.png")
            written[kind] = figures.write(kind, data, result, path, seed=args.seed)
    if args.html:
        from ..render.page import render_page

        page = render_page(data, result, command=_command(args))
        try:
            with open(args.html, "w", encoding="utf-8") as fh:
                fh.write(page)
        except OSError as exc:
            raise InputError(f"{args.html}: cannot write ({exc.strerror})") from None
        written["page"] = args.html
    return written


def _command(args: argparse.Namespace) -> str:
    parts = ["pla-proof explain", args.data]
    if args.rule != "cyclic":
        parts.append(f"--rule {args.rule}")
    if args.rule == "random":
        parts.append(f"--seed {args.seed}")
    if args.strict:
        parts.append("--strict")
    return " ".join(parts)


def _open(path: str) -> Any:
    try:
        return open(path, "w", encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{path}: cannot write ({exc.strerror})") from None
