"""The data set: exact points and labels, and the bias conventions.

A :class:`Dataset` holds the vectors the Perceptron is *trained on* (after any bias
augmentation) as exact ``Fraction`` tuples and labels in ``{-1, +1}``.

>>> ds = from_arrays([[1, 0], [0, 1]], [1, -1])
>>> ds.n, ds.d, ds.radius_squared
(2, 2, Fraction(1, 1))
>>> from_arrays([[1, 2]], [0])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pla_proof.errors.InputError: label 0 at row 1 is not -1 or +1 (0/1 labels: ...)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property
from typing import Any

import numpy as np

from ..errors import InputError
from ..numbers import common_scale, to_fraction
from .labels import parse_label

__all__ = ["BIAS_CONVENTIONS", "Bias", "Dataset", "from_arrays"]

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
    lab = tuple(parse_label(v, i + 1, labels) for i, v in enumerate(ys))
    ds = Dataset(tuple(pts), lab, name=name)
    return ds.with_bias(bias)
