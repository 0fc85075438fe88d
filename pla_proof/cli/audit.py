"""``pla-proof audit FILE.v [DATA]``: check a Coq certificate the way a reviewer would.

The file is compiled against this package's own library (never the copy written beside
it); each final theorem must state what a certificate of its kind states, on the data in
the file and the numbers they imply (recomputed here, exactly); ``Print Assumptions``
of each must be closed or exactly the documented axioms; and with DATA, the certificate
must be about those data.  The check is :func:`pla_proof.proof.audit.audit`'s.

Exit codes: 0 accepted; 1 rejected (the reason in one line); 2 bad input (no such
file, no ``coqc``, unreadable DATA).
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Any

from .common import add_data_arguments, emit_json, load_data


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "certificate",
        metavar="FILE.v",
        help="a certificate written by trace or certify --coq-certificate",
    )
    add_data_arguments(p, data_required=False)
    p.set_defaults(data=None)
    for action in p._actions:  # DATA is optional here, with no default data set
        if action.dest == "data":
            action.help = (
                "the data the certificate must be about: a .csv/.npz file or a built-in, "
                "read as trace reads it (default: only the data written in the file)"
            )
    p.add_argument(
        "--coq-seconds",
        type=float,
        default=600.0,
        metavar="SECONDS",
        help="time limit of each coqc run (default 600)",
    )


def run(args: argparse.Namespace) -> int:
    from ..proof.audit import audit
    from ..render.audit import audit_json, audit_text

    given: tuple[list[list[Fraction]], list[int], Fraction] | None = None
    if args.data is not None:
        data = load_data(args)
        c = Fraction(data.bias.c) if data.bias is not None else Fraction(0)
        rows = [[Fraction(v) for v in (x[:-1] if data.bias is not None else x)] for x in data.X]
        given = (rows, [int(v) for v in data.y], c)
    result = audit(args.certificate, data=given, timeout=args.coq_seconds)
    if args.json:
        emit_json(audit_json(result))
    else:
        print(audit_text(result))
    return 0 if result.ok else 1


def to_json(result: Any) -> dict[str, Any]:
    """The verdict as one JSON object (:func:`pla_proof.render.audit.audit_json`)."""
    from ..render.audit import audit_json

    return audit_json(result)
