"""Helpers shared by the commands: data and run options, vectors, output.

Numbers are shown by :mod:`pla_proof.render.numbers` and JSON is written by
:mod:`pla_proof.render.jsonout` (the names here are the commands' short hands for
them).  Nothing heavy is imported at module level: building a parser must stay
fast.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from fractions import Fraction
from typing import IO, TYPE_CHECKING, Any

from ..errors import InputError
from ..render.numbers import exact, show, vector
from ..render.trace import alpha_text

if TYPE_CHECKING:
    from ..data import Dataset

__all__ = [
    "EXACT_COMPARATOR_VALUES",
    "RULES",
    "add_data_arguments",
    "add_run_arguments",
    "alpha_text",
    "choose_comparator",
    "comparator_from_args",
    "elapsed",
    "emit_json",
    "end_progress",
    "exact_str",
    "fmt",
    "jnum",
    "load_data",
    "read_vector",
    "terminal_progress",
]

#: the selection rules (``pla_proof.trainer.RULES``, listed here so that building
#: the parser does not import the trainer; a test keeps the two equal)
RULES = ("first", "cyclic", "random", "maxviol")

_state: dict[str, Any] = {"command": "pla-proof", "args": None}

#: the default comparator is the exact optimal u* on data of at most this many values
#: (points x coordinates), else the run's own final w.  The exact max-margin solve grows
#: far faster than a run (measured on separable integer data: 1,000 x 200 in 25 s,
#: 5,000 x 200 in 36 s, 20,000 x 200 in 273 s, 200,000 x 200 past 600 s; 20,000 x 20 in
#: 3.5 s); the limit is the largest built-in, orthonormal:2000 (2000 x 2000, 36 s), so
#: every built-in keeps u*.  ``--optimal`` asks for u* whatever the size.
EXACT_COMPARATOR_VALUES = 4_000_000


def begin(command: str, args: argparse.Namespace) -> None:
    """Called by ``main`` before a command runs."""
    _state["command"] = command
    _state["args"] = args
    _state["started"] = time.monotonic()


def elapsed() -> float:
    """Seconds since the running command began."""
    return time.monotonic() - float(_state.get("started") or time.monotonic())


def end() -> None:
    _state["command"] = "pla-proof"
    _state["args"] = None


def add_data_arguments(p: argparse.ArgumentParser, *, data_required: bool = True) -> None:
    """DATA (file or built-in name), --bias, --labels, --delimiter."""
    help_data = (
        "a .csv/.npz file or a built-in: students, orthonormal:N, xor, maxviol:G "
        "(a file of that name wins; builtin:NAME always means the built-in)"
    )
    if data_required:
        p.add_argument("data", metavar="DATA", help=help_data)
    else:
        p.add_argument(
            "data",
            metavar="DATA",
            nargs="?",
            default="students",
            help=help_data + " (default: students)",
        )
    p.add_argument(
        "--bias",
        default="default",
        help="bias convention: none, augment[:c] (x -> (x, c)), minus-one (the perceptron "
        "course page), "
        "separate (the DSC 255 handout); default: the built-in's own, none for files",
    )
    p.add_argument(
        "--labels",
        default="pm1",
        metavar="CODING",
        help="labels in files: pm1 (-1/+1, default), 01 (0 means -1), or words, "
        "e.g. accept=1,decline=-1",
    )
    p.add_argument(
        "--delimiter",
        default="auto",
        metavar="SEP",
        help="CSV delimiter: auto (default: the one of comma, semicolon, tab in the "
        "first data line), comma, semicolon, tab, or the character",
    )


def add_coq_certificate_argument(p: argparse.ArgumentParser, what: str) -> None:
    """``--coq-certificate FILE.v``: a Coq file whose lemma checks ``what`` by computation."""
    p.add_argument(
        "--coq-certificate",
        metavar="FILE.v",
        help=f"also write a Coq certificate: the data and {what} as Coq terms over Q, with "
        "the convergence theorem applied to the data and the numbers checked by Coq's kernel, "
        "and beside it the library it needs, PlaPerceptron.v (compile with: coqc "
        "PlaPerceptron.v && coqc FILE.v)",
    )


def check_coq_path(spec: str) -> str:
    """The ``--coq-certificate`` path, refused before any work when it cannot be written."""
    from pathlib import Path

    path = Path(spec)
    if path.suffix != ".v":
        raise InputError(f"--coq-certificate {spec}: a Coq file name must end in .v")
    if not path.parent.is_dir():
        raise InputError(f"--coq-certificate {spec}: directory {path.parent} does not exist")
    if path.stem == "PlaPerceptron":
        raise InputError(f"--coq-certificate {spec}: that name is the library's, written beside it")
    return spec


def write_coq_certificate(spec: str, text: str) -> None:
    """Write a certificate and, beside it, the library it needs (``PlaPerceptron.v``); say
    where (stderr: the command's own output is unchanged)."""
    from pathlib import Path

    from ..proof.algorithm import LIBRARY, library_text

    path = Path(spec)
    library = path.parent / f"{LIBRARY}.v"
    try:
        path.write_text(text, encoding="utf-8")
        library.write_text(library_text(), encoding="utf-8")
    except OSError as exc:
        raise InputError(f"--coq-certificate {spec}: cannot write ({exc.strerror})") from exc
    print(
        f"wrote the Coq certificate {spec} and the library it needs, {library} (compile it "
        f"with: cd {path.parent} && coqc {LIBRARY}.v && coqc {path.name}; check its "
        f"statements and axioms with: pla-proof audit {spec})",
        file=sys.stderr,
    )


def add_run_arguments(p: argparse.ArgumentParser) -> None:
    """--rule, --seed, --comparator, --gamma, --strict, --budget: how a run is made and checked."""
    p.add_argument(
        "--rule", choices=RULES, default="cyclic", help="selection rule (default: cyclic)"
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the random rule (default 0)")
    p.add_argument(
        "--comparator",
        metavar="FILE|VALUES",
        help="separating vector u (file or comma-separated numbers); default: the exact optimal "
        f"u* (tightest bound) on data of up to {EXACT_COMPARATOR_VALUES:,} values (points x "
        "coordinates), else (or when not separable) the returned w",
    )
    p.add_argument(
        "--optimal",
        action="store_true",
        help="compute the exact optimal u* as the comparator whatever the size of the data "
        "(can take minutes on large data)",
    )
    p.add_argument(
        "--gamma", help="margin gamma assumed for u (default: min_i y_i u.x_i; strict: half of it)"
    )
    p.add_argument(
        "--strict",
        action="store_true",
        help="Kalyanakrishnan's strict margin y u.x > gamma (bound k < R^2/gamma^2)",
    )
    p.add_argument(
        "--budget", type=int, default=None, help="maximum number of updates (default 10000)"
    )


def comparator_from_args(args: argparse.Namespace, data: Dataset) -> Any:
    """The comparator a run is checked against (:func:`choose_comparator`); when the
    default falls back to the final w for the size of the data, say so on stderr."""
    comp, note = choose_comparator(args, data)
    if note is not None:
        print(f"pla-proof {_state['command']}: {note}", file=sys.stderr)
    return comp


def choose_comparator(args: argparse.Namespace, data: Dataset) -> tuple[Any, str | None]:
    """The comparator a run is checked against, and a note when the default was not u*.

    ``--comparator`` if given; else the exact optimal u* (the tightest constants the
    theorem gives for these data) when ``--optimal`` is given or the data have at most
    :data:`EXACT_COMPARATOR_VALUES` values; else ``"final"`` (the returned w, which
    gives a valid bound too) with a note saying why.  ``"final"`` also when the data
    are not separable or a solver fails -- the trainer then reports the certificate or
    the exhausted budget.
    """
    from ..errors import SolverError
    from ..monitor import make_comparator

    if args.budget is not None and args.budget < 0:
        raise InputError(f"--budget must be >= 0, got {args.budget}")
    optimal = getattr(args, "optimal", False)
    if args.comparator is not None:
        if optimal:
            raise InputError("--comparator and --optimal: give one of them")
        u = read_vector(args.comparator, what="comparator")
        return make_comparator(data, u, strict=args.strict, gamma=args.gamma), None
    values = data.n * data.d
    if not optimal and values > EXACT_COMPARATOR_VALUES:
        return "final", large_data_note(values)
    from ..geometry import optimal_comparator

    progress("computing the optimal comparator u*")
    try:
        comp = optimal_comparator(data, strict=args.strict, gamma=args.gamma)
    except SolverError:
        return "final", None
    return ("final" if comp is None else comp), None


def large_data_note(values: int) -> str:
    """Why the comparator is the run's final w: the data are too large for u* by default.

    >>> large_data_note(5_000_000).split(";")[1]
    ' these data have 5,000,000'
    """
    return (
        f"comparator: the run's final w (u* is computed exactly up to "
        f"{EXACT_COMPARATOR_VALUES:,} values; these data have {values:,}; "
        "--comparator U or --optimal to choose)"
    )


def certificate_when_stuck(data: Dataset) -> Any:
    """A verified Gordan certificate when the data are not separable, else ``None``
    (:func:`pla_proof.tracing.stuck_certificate`, reporting to the progress line)."""
    from ..tracing import stuck_certificate

    return stuck_certificate(data, progress)


def progress(message: str) -> None:
    """Tell the progress line (shown on terminals after two seconds) what is happening."""
    from ..render.progress import current

    p = current()
    if p is not None:
        p.update(message)


def terminal_progress() -> Any:
    """A progress callback for long work (``None`` when stderr is not a terminal)."""
    from ..render.progress import Progress, current

    p = current()
    if p is None:
        if not sys.stderr.isatty():
            return None
        p = Progress(f"pla-proof {_state['command']}", delay=0.0)
        p.start()
    if not p._is_terminal():
        return None
    return p.update


def end_progress() -> None:
    """Erase the progress line, if one is shown."""
    from ..render.progress import current

    p = current()
    if p is not None:
        p.stop()


def load_data(args: argparse.Namespace) -> Dataset:
    from ..data import load
    from ..data.readers import shadowed_builtin

    progress(f"reading {args.data}")
    if shadowed_builtin(args.data):
        print(
            f"pla-proof {_state['command']}: note: {args.data!r} is the file ./{args.data}; "
            f"the built-in data set of that name is builtin:{args.data}",
            file=sys.stderr,
        )
    return load(
        args.data,
        labels=args.labels,
        bias=args.bias,
        delimiter=getattr(args, "delimiter", "auto"),
    )


def read_vector(spec: str, *, what: str) -> list[Fraction]:
    """A vector from a file or an inline list.

    A file holds numbers separated by commas and/or whitespace; ``#`` starts a
    comment that runs to the end of the line.  Inline, the numbers are separated by
    commas (or spaces).  An empty entry (``1,,2``) is an error, never skipped.
    """
    from ..numbers import to_fraction

    if os.path.exists(spec):
        if os.path.isdir(spec):
            raise InputError(f"{spec}: is a directory, not a {what} file")
        try:
            with open(spec, encoding="utf-8-sig") as fh:
                text = fh.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(f"{spec}: cannot read {what} file ({exc})") from None
        source = spec
    elif not set(spec) <= set("0123456789+-./eE, \t_"):
        raise InputError(
            f"{spec}: no such {what} file (or give the numbers inline, comma-separated)"
        )
    else:
        text, source = spec, what
    entries: list[tuple[int, int, str]] = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0]
        if not line.strip():
            continue
        for col, cell in enumerate(_cells(line), start=1):
            entries.append((lineno, col, cell))
    if not entries:
        raise InputError(f"{what} is empty")
    out = []
    for i, (lineno, col, cell) in enumerate(entries):
        if source == what:
            where = f"{what} entry {i + 1}"
        else:
            where = f"{source}: line {lineno}, {what} entry {col}"
        if not cell:
            raise InputError(f"{where} is empty (two commas in a row?)")
        out.append(to_fraction(cell, what=where))
    return out


def _cells(line: str) -> list[str]:
    """Split on commas; without commas, on whitespace."""
    if "," in line:
        return [c.strip() for c in line.split(",")]
    return line.split()


def exact_str(v: Any) -> str:
    """The exact value as text (``p/q``); intervals as ``[lo, hi]``."""
    if isinstance(v, Fraction | int) and not isinstance(v, bool):
        return exact(v)
    lo, hi = getattr(v, "lo", None), getattr(v, "hi", None)
    if lo is not None and hi is not None:
        return f"[{lo!r}, {hi!r}]"
    return str(v)


def jnum(v: Any) -> Any:
    """An exact value for ``--json``, unchanged: the encoder writes every ``Fraction``
    as ``{"exact", "float"}`` (kept for code written before the number rule)."""
    return Fraction(v) if isinstance(v, int) and not isinstance(v, bool) else v


def fmt(v: Any, width: int = 0) -> str:
    """Text output's number (:func:`pla_proof.render.numbers.show`)."""
    return show(v, width)


def fmt_vector(v: Sequence[Any]) -> str:
    """Text output's vector (:func:`pla_proof.render.numbers.vector`: a long one by its
    first and last coordinates)."""
    return vector(v, fmt)


def emit_json(obj: dict[str, Any], out: IO[str] | None = None) -> None:
    """Write ``obj`` as the command's one JSON object (schema name and version first)."""
    from ..render.jsonout import emit

    emit(obj, _state["command"], out)
