"""Data sets: exact points and labels, readers, bias conventions, built-in examples.

A :class:`Dataset` holds the vectors the Perceptron is *trained on* (after any bias
augmentation) as exact ``Fraction`` tuples and labels in ``{-1, +1}``.

>>> ds = load("orthonormal:3")
>>> ds.n, ds.d, ds.radius_squared
(3, 3, Fraction(1, 1))
>>> load("students").bias.name, load("students").d
('augment', 6)
>>> from_arrays([[1, 2]], [0])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pla_proof.errors.InputError: label 0 at row 1 is not -1 or +1 (0/1 labels: ...)
"""

from __future__ import annotations

import csv
import io
import os
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property
from typing import Any

import numpy as np

from .errors import InputError
from .numbers import common_scale, to_fraction

__all__ = [
    "BIAS_CONVENTIONS",
    "BUILTINS",
    "Bias",
    "Dataset",
    "from_arrays",
    "load",
    "read_csv",
    "read_npz",
]

Vector = tuple[Fraction, ...]


@dataclass(frozen=True)
class Bias:
    """A bias convention, each equivalent to augmenting x -> (x, c).

    * ``augment`` (seeds 001/002): x -> (x, c), c > 0 (default 1); decision w.x + c*w_last.
    * ``minus-one`` (seed 003): x -> (x, -1), weights (w, b), b <- b - y; decision w.x - b.
    * ``separate`` (seed 004): a separate term b <- b + y; decision w.x + b (= augment, c = 1).

    >>> Bias.parse("augment:2")
    Bias(name='augment', c=Fraction(2, 1))
    >>> Bias.parse("minus-one").c
    Fraction(-1, 1)
    """

    name: str
    c: Fraction

    @staticmethod
    def parse(text: str | None) -> Bias | None:
        """Parse ``none``, ``augment[:c]``, ``minus-one`` or ``separate``."""
        if text is None or text.strip().lower() in {"", "none", "no"}:
            return None
        name, _, arg = text.strip().lower().partition(":")
        if name in {"augment", "aug"}:
            c = to_fraction(arg, what="bias constant c") if arg else Fraction(1)
            if c <= 0:
                raise InputError(f"bias constant c must be > 0, got {c}")
            return Bias("augment", c)
        if arg:
            raise InputError(f"bias convention {name!r} takes no constant")
        if name in {"minus-one", "seed003"}:
            return Bias("minus-one", Fraction(-1))
        if name in {"separate", "seed004"}:
            return Bias("separate", Fraction(1))
        raise InputError(
            f"unknown bias convention {text!r} (choose none, augment[:c], minus-one, separate)"
        )

    def split(self, w_hat: Sequence[Any]) -> tuple[tuple[Any, ...], Any]:
        """Split augmented weights into the convention's own ``(w, b)``.

        The decision is ``w.x + b`` for ``augment`` and ``separate`` and ``w.x - b``
        for ``minus-one`` (seed 003's own form).

        >>> Bias.parse("minus-one").split((1, 2, 3))
        ((1, 2), 3)
        >>> Bias.parse("augment:2").split((1, 2, 3))
        ((1, 2), Fraction(6, 1))
        """
        w, last = tuple(w_hat[:-1]), w_hat[-1]
        if self.name == "minus-one":
            return w, last
        return w, last * self.c

    def describe(self) -> str:
        """A one-line description for reports."""
        if self.name == "augment":
            return f"augment x -> (x, {self.c})"
        if self.name == "minus-one":
            return "x -> (x, -1), b <- b - y (seed 003)"
        return "separate b <- b + y (seed 004)"


BIAS_CONVENTIONS = ("none", "augment[:c]", "minus-one", "separate")


@dataclass(frozen=True)
class Dataset:
    """Points ``X`` (n x d, exact) and labels ``y`` in {-1, +1}: the vectors trained on.

    ``bias`` records the convention that produced the last coordinate, if any;
    ``original_d`` is the dimension before augmentation.
    """

    X: tuple[Vector, ...]
    y: tuple[int, ...]
    name: str = "data"
    bias: Bias | None = None

    def __post_init__(self) -> None:
        _validate(self.X, self.y)

    @property
    def n(self) -> int:
        return len(self.X)

    @property
    def d(self) -> int:
        return len(self.X[0])

    @property
    def original_d(self) -> int:
        return self.d - (1 if self.bias is not None else 0)

    @cached_property
    def radius_squared(self) -> Fraction:
        """R^2 = max_i |x_i|^2 over the vectors actually trained on."""
        Z, s = self.integer_points()
        return Fraction(max(sum(v * v for v in z) for z in Z), s * s)

    def with_bias(self, bias: Bias | str | None) -> Dataset:
        """Augment with a bias convention (``None`` returns the data unchanged).

        >>> from_arrays([[1, 2]], [1]).with_bias("augment:3").X
        ((Fraction(1, 1), Fraction(2, 1), Fraction(3, 1)),)
        """
        conv = Bias.parse(bias) if isinstance(bias, str) or bias is None else bias
        if conv is None:
            return self
        if self.bias is not None:
            raise InputError("data set already carries a bias coordinate")
        X = tuple((*x, conv.c) for x in self.X)
        return replace(self, X=X, bias=conv)

    def without_bias(self) -> Dataset:
        """The raw points, dropping a bias coordinate added by :meth:`with_bias`."""
        if self.bias is None:
            return self
        return replace(self, X=tuple(x[:-1] for x in self.X), bias=None)

    def integer_points(self) -> tuple[tuple[tuple[int, ...], ...], int]:
        """``(Z, s)``: the points scaled by the positive integer ``s`` to integers.

        A positive scale leaves every decision of the Perceptron unchanged.

        >>> from_arrays([["0.5", "1/3"]], [1]).integer_points()
        (((3, 2),), 6)
        """
        return self._integer_points

    @cached_property
    def _integer_points(self) -> tuple[tuple[tuple[int, ...], ...], int]:
        s = common_scale(self.X)
        Z = tuple(tuple(v.numerator * (s // v.denominator) for v in x) for x in self.X)
        return Z, s

    def as_float(self) -> tuple[np.ndarray, np.ndarray]:
        """``(X, y)`` as float64 arrays (refused if a value overflows float64)."""
        try:
            X = np.array([[float(v) for v in x] for x in self.X], dtype=np.float64)
        except OverflowError:
            raise InputError("a coordinate is too large for float mode") from None
        if not np.all(np.isfinite(X)):
            raise InputError("a coordinate is too large for float mode")
        return X, np.array(self.y, dtype=np.float64)


def _validate(X: tuple[Vector, ...], y: tuple[int, ...]) -> None:
    if len(X) == 0:
        raise InputError("the data set is empty (no points)")
    if len(X) != len(y):
        raise InputError(f"shape mismatch: {len(X)} points but {len(y)} labels")
    d = len(X[0])
    if d == 0:
        raise InputError("the points have zero features")
    for i, x in enumerate(X):
        if len(x) != d:
            raise InputError(f"row {i + 1} has {len(x)} features, expected {d}")
    for i, label in enumerate(y):
        if label not in (-1, 1):
            raise InputError(f"label {label!r} at row {i + 1} is not -1 or +1")


def _label(value: Any, row: int, labels: str) -> int:
    try:
        f = to_fraction(value, what=f"label at row {row}")
    except InputError as exc:
        raise InputError(str(exc)) from None
    if labels == "01":
        if f == 0:
            return -1
        if f == 1:
            return 1
        raise InputError(f"label {_show(f)} at row {row} is not 0 or 1 (labels='01')")
    if f in (-1, 1):
        return int(f)
    hint = " (0/1 labels: use labels='01' / --labels 01)" if f == 0 else ""
    raise InputError(f"label {_show(f)} at row {row} is not -1 or +1{hint}")


def _show(f: Fraction) -> str:
    return str(f.numerator) if f.denominator == 1 else str(f)


def from_arrays(
    X: Any, y: Any, *, name: str = "arrays", labels: str = "pm1", bias: str | Bias | None = None
) -> Dataset:
    """Build a data set from nested sequences or numpy arrays, converting exactly.

    >>> from_arrays([[0.1, 2]], [1]).X
    ((Fraction(3602879701896397, 36028797018963968), Fraction(2, 1)),)
    """
    if labels not in ("pm1", "01"):
        raise InputError(f"labels must be 'pm1' or '01', got {labels!r}")
    if isinstance(X, np.ndarray):
        if X.ndim != 2:
            raise InputError(f"X must be 2-dimensional (n x d), got shape {X.shape}")
        rows = X.tolist()
    else:
        try:
            rows = [list(r) for r in X]
        except TypeError:
            raise InputError("X must be a sequence of rows") from None
    ys = np.asarray(y, dtype=object).tolist() if isinstance(y, np.ndarray) else list(y)
    if isinstance(y, np.ndarray) and y.ndim != 1:
        raise InputError(f"y must be 1-dimensional, got shape {y.shape}")
    if len(rows) != len(ys):
        raise InputError(f"shape mismatch: {len(rows)} points but {len(ys)} labels")
    pts = []
    for i, r in enumerate(rows):
        pts.append(
            tuple(
                to_fraction(v, what=f"coordinate {c + 1} of row {i + 1}") for c, v in enumerate(r)
            )
        )
    lab = tuple(_label(v, i + 1, labels) for i, v in enumerate(ys))
    ds = Dataset(tuple(pts), lab, name=name)
    return ds.with_bias(bias)


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
            label = _label(cells[-1], lineno, labels)
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


def _students() -> Dataset:
    # Seed 002: subjects A..E, accept (+1) / decline (-1); trained with bias x -> (x, 1).
    X = [[10, 10, 10, 10, 10], [10, 10, 10, 10, 0], [0, 0, 15, 0, 0]]
    return from_arrays(X, [1, 1, -1], name="students", bias="augment")


def _orthonormal(arg: str) -> Dataset:
    n = _positive_int(arg, "orthonormal:N")
    if n > 2000:
        raise InputError("orthonormal:N supports N up to 2000")
    X = [[1 if i == j else 0 for j in range(n)] for i in range(n)]
    y = [1 if i % 2 == 0 else -1 for i in range(n)]
    return from_arrays(X, y, name=f"orthonormal:{n}")


def _xor() -> Dataset:
    X = [[0, 0], [1, 1], [1, 0], [0, 1]]
    return from_arrays(X, [-1, -1, 1, 1], name="xor", bias="augment")


def _maxviol(arg: str) -> Dataset:
    gamma = to_fraction(arg, what="maxviol:G margin") if arg else Fraction(1, 10)
    if not 0 < gamma <= 1:
        raise InputError(f"maxviol:G needs 0 < G <= 1, got {gamma}")
    X = [[gamma, Fraction(1, 2)], [gamma, Fraction(1)], [gamma, Fraction(-1)]]
    return from_arrays(X, [1, 1, 1], name=f"maxviol:{arg or '1/10'}")


def _positive_int(text: str, what: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise InputError(f"{what}: N must be a positive integer, got {text!r}") from None
    if n < 1:
        raise InputError(f"{what}: N must be a positive integer, got {n}")
    return n


BUILTINS: dict[str, str] = {
    "students": "seed 002's admission table (5 subjects, accept/decline), with bias (x, 1)",
    "orthonormal:N": "x_i = e_i in dimension N, alternating labels: attains k = R^2/gamma*^2 = N",
    "xor": "the four XOR points with bias (x, 1): not separable",
    "maxviol:G": "(G, 1/2), (G, 1), (G, -1), all +1: max-violation needs about 1/(2G^2) updates",
}


def load(spec: str, *, labels: str = "pm1", bias: str | Bias | None = "default") -> Dataset:
    """Load a built-in data set by name or a ``.csv`` / ``.npz`` file.

    ``bias="default"`` keeps a built-in's own convention (students and xor train
    with (x, 1)) and adds none to files; ``None``/``"none"`` removes it; any other
    convention replaces it.
    """
    name, _, arg = spec.partition(":")
    builtin: Dataset | None = None
    if name == "students" and not arg:
        builtin = _students()
    elif name == "orthonormal":
        builtin = _orthonormal(arg)
    elif name == "xor" and not arg:
        builtin = _xor()
    elif name == "maxviol":
        builtin = _maxviol(arg)
    if builtin is not None:
        ds = builtin
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
