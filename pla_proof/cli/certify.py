"""``pla-proof certify DATA WEIGHTS``: validate an external separator exactly.

WEIGHTS is a file or comma-separated numbers: one entry per coordinate trained
on, including the bias coordinate when the data carry one (``--bias``).  Every
check is exact (decimals are read as the rationals they denote).

Exit codes: 0 the weights separate every point strictly; 1 they do not (the first
misclassified point is reported); 2 bad input (unreadable weights, wrong length).
"""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from .common import (
    add_coq_certificate_argument,
    add_data_arguments,
    check_coq_path,
    emit_json,
    fmt,
    fmt_vector,
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

            text = separator_certificate(data.X, data.y, c.w, name=data.name)
            write_coq_certificate(args.coq_certificate, text)
        else:
            print(
                "pla-proof certify: no Coq certificate written: the weights do not separate",
                file=sys.stderr,
            )
    return 0 if c.separates else 1


def to_json(c: Certification, data: Dataset) -> dict[str, Any]:
    """The verdict as one JSON object (``docs/cli.md``: exact numbers as
    ``{"exact", "float"}``)."""
    return {
        "data": {
            "name": data.name,
            "n": data.n,
            "d": data.d,
            "bias": data.bias.describe() if data.bias else None,
        },
        "w": [Fraction(v) for v in c.w],
        "separates": c.separates,
        "margin": Fraction(c.margin),
        "worst_point": c.worst + 1,
        "ww": Fraction(c.ww),
        "R2": Fraction(c.radius_squared),
        "gamma2": None if c.gamma_squared is None else Fraction(c.gamma_squared),
        "bound": None if c.bound is None else Fraction(c.bound),
        "first_misclassified": None if c.first_misclassified is None else c.first_misclassified + 1,
        "first_misclassified_value": None if c.first_value is None else Fraction(c.first_value),
        "misclassified": c.misclassified,
    }


def print_certification(c: Certification, data: Dataset) -> None:
    bias = f", bias: {data.bias.describe()}" if data.bias else ""
    print(f"data {data.name}: n={data.n}, d={data.d}{bias}")
    w = fmt_vector(c.w)
    if c.separates:
        assert c.gamma_squared is not None and c.bound is not None
        print(f"w = {w} separates every point strictly (checked exactly)")
        print(
            f"  margin min_i y_i w.x_i = {fmt(c.margin)} (point {c.worst + 1}), "
            f"|w|^2 = {fmt(c.ww)}, unit margin^2 = {fmt(c.gamma_squared)}"
        )
        print(f"  implied bound R^2|w|^2/margin^2 = {fmt(c.bound)} (R^2 = {fmt(c.radius_squared)})")
    else:
        assert c.first_misclassified is not None
        j = c.first_misclassified
        print(
            f"w = {w} does NOT separate: point {j + 1} has y w.x = {fmt(c.first_value)} <= 0 "
            f"(first misclassified; {c.misclassified} of {data.n} points have y w.x <= 0)"
        )
        print(f"  smallest y_i w.x_i = {fmt(c.margin)} (point {c.worst + 1})")
