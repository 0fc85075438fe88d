"""``pla-proof trace DATA``: a monitored run, one row per update.

The run is :func:`pla_proof.tracing.trace`'s; its text and JSON are
:mod:`pla_proof.render.trace`'s.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from ..render.trace import trace_json, trace_text
from .common import (
    add_coq_certificate_argument,
    add_data_arguments,
    add_run_arguments,
    check_coq_path,
    choose_comparator,
    emit_json,
    load_data,
    progress,
    write_coq_certificate,
)

if TYPE_CHECKING:
    from ..data import Dataset
    from ..tracing import Trace
    from ..trainer import Run

EXIT = {"converged": 0, "violation": 1, "budget_exhausted": 3, "not_separable": 3}


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_data_arguments(p)
    add_run_arguments(p)
    p.add_argument(
        "--mode", choices=["exact", "float"], default="exact", help="number mode (default exact)"
    )
    p.add_argument(
        "--replay", metavar="J1,J2,...", help="replay a recorded order of 1-based point indices"
    )
    add_coq_certificate_argument(p, "the run (its choices, the final w, the comparator)")


def run(args: argparse.Namespace) -> int:
    if args.coq_certificate:
        check_coq_path(args.coq_certificate)
    data = load_data(args)
    from ..tracing import ReplayError, trace  # after the data: bad input is refused first

    comp, note = choose_comparator(args, data)
    order = _order(args.replay) if args.replay else None
    try:
        t = trace(
            data,
            rule=args.rule,
            seed=args.seed,
            budget=args.budget,
            comparator=comp,
            strict=args.strict,
            gamma=args.gamma,
            mode=args.mode,
            replay=order,
            progress=progress,
        )
    except ReplayError as exc:
        raise ReplayError(f"--replay: {exc}") from None
    progress("writing the output")
    if args.json:
        emit_json({**trace_json(t), "comparator_note": note})
    else:
        print(_with_note(trace_text(t), note))
    if args.coq_certificate:
        _certificate(args.coq_certificate, t)
    return EXIT[t.status]


def _with_note(text: str, note: str | None) -> str:
    """The text with ``note`` (why the comparator is not u*) after its first line."""
    if note is None:
        return text
    first, _, rest = text.partition("\n")
    return f"{first}\n{note}\n{rest}" if rest else f"{first}\n{note}"


def _order(spec: str) -> list[int]:
    """``--replay``'s 1-based point indices, as 0-based ones."""
    from ..errors import InputError

    try:
        return [int(v) - 1 for v in spec.replace(",", " ").split()]
    except ValueError:
        raise InputError("--replay needs comma-separated 1-based point indices") from None


def _certificate(path: str, t: Trace) -> None:
    """The run's Coq certificate (a run that separated the data, in exact mode)."""
    text = t.coq_certificate()
    if text is None:
        r = t.run
        print(
            f"pla-proof trace: no Coq certificate written: the run {r.status.replace('_', ' ')}"
            + (" (float mode)" if r.mode != "exact" else ""),
            file=sys.stderr,
        )
        return
    write_coq_certificate(path, text)


def run_to_json(r: Run, data: Dataset) -> dict[str, Any]:
    """The run as one JSON object (:func:`pla_proof.render.trace.trace_json`)."""
    from ..tracing import Trace

    return trace_json(Trace.of(data, r))


def print_run(r: Run, data: Dataset) -> None:
    """The run as text (:func:`pla_proof.render.trace.trace_text`), on stdout."""
    from ..tracing import Trace

    print(trace_text(Trace.of(data, r)))
