"""``pla-proof certify DATA WEIGHTS``: validate an external separator exactly.

WEIGHTS is a file or comma-separated numbers: one entry per coordinate trained
on, including the bias coordinate when the data carry one (``--bias``).  Every
check is exact (decimals are read as the rationals they denote).

Exit codes: 0 the weights separate every point strictly; 1 they do not (the first
misclassified point is reported); 2 bad input (unreadable weights, wrong length).

The check is :func:`pla_proof.geometry.certify`'s; its text and JSON are
:mod:`pla_proof.render.certify`'s.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from ..render.certify import certification_json, certification_text
from .common import (
    add_coq_certificate_argument,
    add_data_arguments,
    check_coq_path,
    emit_json,
    load_data,
    read_vector,
    write_coq_certificate,
)

if TYPE_CHECKING:
    from ..data import Dataset
    from ..geometry import Certification


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_data_arguments(p)
    p.add_argument(
        "weights",
        metavar="WEIGHTS",
        help="weight vector: a file or comma-separated numbers (bias coordinate last, if any)",
    )
    add_coq_certificate_argument(p, "the weights (they separate; the bound they imply)")


def run(args: argparse.Namespace) -> int:
    if args.coq_certificate:
        check_coq_path(args.coq_certificate)
    w = read_vector(args.weights, what="weights")  # before the data: no numpy needed yet
    data = load_data(args)
    from ..geometry import certify  # after the input is read: bad input is refused fast

    c = certify(data, w)
    if args.json:
        emit_json(to_json(c, data))
    else:
        print_certification(c, data)
    if args.coq_certificate:
        if c.separates:
            from ..proof.certificate import separator_certificate

            bias = data.bias.c if data.bias is not None else None
            text = separator_certificate(data.X, data.y, c.w, name=data.name, bias=bias)
            write_coq_certificate(args.coq_certificate, text)
        else:
            print(
                "pla-proof certify: no Coq certificate written: the weights do not separate",
                file=sys.stderr,
            )
    return 0 if c.separates else 1


def to_json(c: Certification, data: Dataset) -> dict[str, Any]:
    """The verdict as one JSON object (:func:`pla_proof.render.certify.certification_json`)."""
    return certification_json(c, data)


def print_certification(c: Certification, data: Dataset) -> None:
    """Print the verdict (:func:`pla_proof.render.certify.certification_text`)."""
    print(certification_text(c, data))
