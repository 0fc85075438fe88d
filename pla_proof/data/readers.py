"""Reading data sets: CSV and ``.npz`` files, and :func:`load` (a file or a built-in).

>>> ds = load("orthonormal:3")
>>> ds.n, ds.d, ds.radius_squared
(3, 3, Fraction(1, 1))
>>> load("students").bias.name, load("students").d
('augment', 6)
"""

from __future__ import annotations

import csv
import io
import os
import zipfile

import numpy as np

from ..errors import InputError
from ..numbers import to_fraction
from .builtins import BUILTINS, builtin
from .dataset import Bias, Dataset, Vector, from_arrays
from .labels import parse_label

__all__ = ["load", "read_csv", "read_npz"]


def read_csv(
    path: str | os.PathLike[str], *, labels: str = "pm1", header: bool | None = None
) -> Dataset:
    """Read a CSV file: one point per line, the label in the last column.

    A first line whose cells are all non-numeric is a header (or force with
    ``header``).  Blank lines and lines starting with ``#`` are skipped.  Decimals
    are read exactly (``0.1`` is 1/10).
    """
    text = _read_text(path)
    rows: list[Vector] = []
    ys: list[int] = []
    width: int | None = None
    reader = csv.reader(io.StringIO(text))
    first = True
    for lineno, cells in enumerate(reader, start=1):
        cells = [c.strip() for c in cells]
        if not cells or all(c == "" for c in cells) or cells[0].startswith("#"):
            continue
        if first:
            first = False
            is_header = header if header is not None else all(_non_numeric(c) for c in cells)
            if is_header:
                width = len(cells)
                continue
        if width is None:
            width = len(cells)
        if len(cells) != width:
            raise InputError(f"{path}: line {lineno} has {len(cells)} columns, expected {width}")
        if len(cells) < 2:
            raise InputError(f"{path}: line {lineno} needs at least one feature and a label")
        try:
            x = tuple(to_fraction(c, what="value") for c in cells[:-1])
            label = parse_label(cells[-1], lineno, labels)
        except InputError as exc:
            raise InputError(f"{path}: line {lineno}: {exc}") from None
        rows.append(x)
        ys.append(label)
    if not rows:
        raise InputError(f"{path}: the data set is empty (no data rows)")
    return Dataset(tuple(rows), tuple(ys), name=os.path.basename(os.fspath(path)))


def _non_numeric(cell: str) -> bool:
    try:
        to_fraction(cell)
    except InputError:
        return True
    return False


def _read_bytes(path: str | os.PathLike[str]) -> bytes:
    """The file's bytes, or an ``InputError`` naming why it cannot be read."""
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, not a data file") from None
    except PermissionError:
        raise InputError(f"{path}: permission denied") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror})") from None


def _read_text(path: str | os.PathLike[str]) -> str:
    try:
        return _read_bytes(path).decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{path}: not a UTF-8 text file") from None


def read_npz(path: str | os.PathLike[str], *, labels: str = "pm1") -> Dataset:
    """Read arrays ``X`` (n x d) and ``y`` (n) from an ``.npz`` file, never unpickling."""
    raw = _read_bytes(path)
    if not raw.startswith(b"PK"):
        raise InputError(f"{path}: not a valid .npz file (not a zip archive)")
    try:
        with np.load(io.BytesIO(raw), allow_pickle=False) as npz:
            missing = [k for k in ("X", "y") if k not in npz.files]
            if missing:
                raise InputError(f"{path}: missing array(s) {', '.join(missing)} (need X and y)")
            X = npz["X"]
            y = npz["y"]
    except ValueError as exc:
        if "pickle" in str(exc).lower():
            raise InputError(f"{path}: contains pickled objects; refusing to load them") from None
        raise InputError(f"{path}: not a valid .npz file ({exc})") from None
    except (zipfile.BadZipFile, OSError, EOFError):
        raise InputError(f"{path}: not a valid .npz file") from None
    for key, arr in (("X", X), ("y", y)):
        if arr.dtype.kind not in "biuf":
            raise InputError(f"{path}: array {key} is not numeric (dtype {arr.dtype})")
    if X.ndim != 2:
        raise InputError(f"{path}: X must be 2-dimensional (n x d), got shape {X.shape}")
    if y.ndim != 1:
        raise InputError(f"{path}: y must be 1-dimensional, got shape {y.shape}")
    try:
        return from_arrays(X, y, name=os.path.basename(os.fspath(path)), labels=labels)
    except InputError as exc:
        raise InputError(f"{path}: {exc}") from None


# --- built-in data sets --------------------------------------------------------------


def load(spec: str, *, labels: str = "pm1", bias: str | Bias | None = "default") -> Dataset:
    """Load a built-in data set by name or a ``.csv`` / ``.npz`` file.

    ``bias="default"`` keeps a built-in's own convention (students and xor train
    with (x, 1)) and adds none to files; ``None``/``"none"`` removes it; any other
    convention replaces it.
    """
    found = builtin(spec)
    if found is not None:
        ds = found
    elif spec.lower().endswith(".npz"):
        ds = read_npz(spec, labels=labels)
    elif os.path.isdir(spec):
        raise InputError(f"{spec}: is a directory, not a data file")
    elif os.path.exists(spec) or spec.lower().endswith((".csv", ".txt")):
        ds = read_csv(spec, labels=labels)
    else:
        known = ", ".join(BUILTINS)
        raise InputError(f"{spec}: no such file or built-in data set (built-ins: {known})")
    if bias == "default":
        return ds
    conv = Bias.parse(bias) if isinstance(bias, str) or bias is None else bias
    return ds.without_bias().with_bias(conv)
