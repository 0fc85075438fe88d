"""Helpers shared by the commands: data options, number formatting, JSON output."""

from __future__ import annotations

import argparse
import json
import os
import sys
from fractions import Fraction
from typing import Any

from ..data import Dataset, load
from ..errors import InputError
from ..interval import Interval
from ..numbers import to_fraction

__all__ = [
    "add_data_arguments",
    "emit_json",
    "exact_str",
    "fmt",
    "jnum",
    "load_data",
    "read_vector",
]


def add_data_arguments(p: argparse.ArgumentParser, *, data_required: bool = True) -> None:
    """DATA (file or built-in name), --bias, --labels."""
    if data_required:
        p.add_argument(
            "data",
            metavar="DATA",
            help="a .csv/.npz file or a built-in: students, orthonormal:N, xor, maxviol:G",
        )
    else:
        p.add_argument(
            "data",
            metavar="DATA",
            nargs="?",
            default="students",
            help="data set (default: students)",
        )
    p.add_argument(
        "--bias",
        default="default",
        help="bias convention: none, augment[:c] (x -> (x, c)), minus-one (seed 003), "
        "separate (seed 004); default: the built-in's own, none for files",
    )
    p.add_argument(
        "--labels",
        choices=["pm1", "01"],
        default="pm1",
        help="label coding in files (01 maps 0 to -1)",
    )


def add_run_arguments(p: argparse.ArgumentParser) -> None:
    """--rule, --seed, --comparator, --gamma, --strict, --budget: how a run is made and checked."""
    from ..trainer import RULES

    p.add_argument(
        "--rule", choices=RULES, default="cyclic", help="selection rule (default: cyclic)"
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the random rule (default 0)")
    p.add_argument(
        "--comparator",
        metavar="FILE|VALUES",
        help="separating vector u (file or comma-separated numbers); default: the exact optimal "
        "u* (tightest bound), else the returned w",
    )
    p.add_argument(
        "--gamma", help="margin gamma assumed for u (default: min_i y_i u.x_i; strict: half of it)"
    )
    p.add_argument(
        "--strict",
        action="store_true",
        help="seed 000's strict margin y u.x > gamma (bound k < R^2/gamma^2)",
    )
    p.add_argument(
        "--budget", type=int, default=None, help="maximum number of updates (default 10000)"
    )


def comparator_from_args(args: argparse.Namespace, data: Dataset) -> Any:
    """The comparator a run is checked against: ``--comparator`` if given, else the
    exact optimal u* (the tightest constants the theorem gives for these data), else
    ``"final"`` (the returned w) when the data are not separable or a solver fails --
    the trainer then reports the certificate or the exhausted budget."""
    from ..errors import SolverError
    from ..geometry import optimal_comparator
    from ..monitor import make_comparator

    if args.comparator is not None:
        u = read_vector(args.comparator, what="comparator")
        return make_comparator(data, u, strict=args.strict, gamma=args.gamma)
    try:
        comp = optimal_comparator(data, strict=args.strict, gamma=args.gamma)
    except SolverError:
        return "final"
    return "final" if comp is None else comp


def terminal_progress() -> Any:
    """A progress callback writing to stderr when it is a terminal, else ``None``."""
    if not sys.stderr.isatty():
        return None

    def show(message: str) -> None:
        sys.stderr.write("\r\033[K" + message[:120])
        sys.stderr.flush()

    return show


def end_progress() -> None:
    """Clear the progress line, if one was shown."""
    if sys.stderr.isatty():
        sys.stderr.write("\r\033[K")
        sys.stderr.flush()


def load_data(args: argparse.Namespace) -> Dataset:
    return load(args.data, labels=args.labels, bias=args.bias)


def read_vector(spec: str, *, what: str) -> list[Fraction]:
    """A vector from a file (numbers separated by commas/whitespace) or an inline list."""
    if os.path.exists(spec):
        if os.path.isdir(spec):
            raise InputError(f"{spec}: is a directory, not a {what} file")
        try:
            with open(spec, encoding="utf-8") as fh:
                text = fh.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(f"{spec}: cannot read {what} file ({exc})") from None
    elif not set(spec) <= set("0123456789+-./eE, \t"):
        raise InputError(
            f"{spec}: no such {what} file (or give the numbers inline, comma-separated)"
        )
    else:
        text = spec
    parts = [p for p in text.replace(",", " ").split() if not p.startswith("#")]
    if not parts:
        raise InputError(f"{what} is empty")
    return [to_fraction(p, what=f"{what} entry {i + 1}") for i, p in enumerate(parts)]


def exact_str(v: Any) -> str:
    if isinstance(v, Fraction):
        return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
    if isinstance(v, Interval):
        return f"[{v.lo!r}, {v.hi!r}]"
    return str(v)


def jnum(v: Any) -> Any:
    """A JSON number: an int when the value is an integer, else a float."""
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else float(v)
    if isinstance(v, Interval):
        return v.mid
    return v


def fmt(v: Any, width: int = 0) -> str:
    """Human formatting: exact for short rationals, else 6 significant digits."""
    if isinstance(v, Fraction):
        s = exact_str(v)
        if len(s) > 14:
            s = f"{float(v):.6g}"
    elif isinstance(v, Interval):
        s = f"{v.mid:.6g}"
    else:
        s = str(v)
    return s.rjust(width)


def emit_json(obj: dict[str, Any]) -> None:
    json.dump(obj, sys.stdout, indent=None, separators=(",", ":"))
    sys.stdout.write("\n")
