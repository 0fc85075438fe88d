"""The data set: exact points and labels as numpy arrays, and the bias conventions.

A :class:`Dataset` holds the vectors the Perceptron is *trained on* (after any bias
augmentation) and labels in ``{-1, +1}``.  The points are exact rationals stored as
one numpy array in one of three forms, chosen once when the data are made:

* ``grid``: integers ``Z`` (``|Z| <= 2**53``, held in the narrowest of int8, int16,
  int32 and int64 that holds them) and a positive integer ``scale``, ``x = Z / scale``
  -- integer data, fixed-point decimals, dyadic floats of a narrow range; the engine
  decides and monitors these in int64;
* ``float``: arbitrary finite float64 values, each taken exactly;
* ``big``: Python integers (an object array) and a ``scale`` -- anything else.

Exact values (``Fraction``) are derived lazily, only where a decision or a check
needs them: :attr:`Dataset.X` builds every row and is meant for small data.

>>> ds = from_arrays([[1, 0], [0, 1]], [1, -1])
>>> ds.n, ds.d, ds.kind, ds.radius_squared
(2, 2, 'grid', Fraction(1, 1))
>>> from_arrays([["0.5", "1/3"]], [1]).integer_points()
(array([[3, 2]]), 6)
>>> from_arrays([[0.1, 1e300]], [1]).kind
'float'
>>> from_arrays([[1, 2]], [0])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pla_proof.errors.InputError: label 0 at row 1 is not -1 or +1 (0/1 labels: ...)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

import numpy as np

from ..errors import InputError
from ..numbers import to_fraction
from . import passes
from .labels import parse_labels

__all__ = ["BIAS_CONVENTIONS", "KINDS", "Bias", "Dataset", "from_arrays"]

Vector = tuple[Fraction, ...]

#: Integers up to this magnitude are exact in float64.
GRID_LIMIT = 2**53
#: The storage forms of a data set (see the module docstring).
KINDS = ("grid", "float", "big")
_TINY = 2.0**-1074


@dataclass(frozen=True)
class Bias:
    """A bias convention, each equivalent to augmenting x -> (x, c).

    * ``augment`` (Cornell CS4780 and Lin 2023): x -> (x, c), c > 0 (default 1); decision
      w.x + c*w_last.
    * ``minus-one`` (the perceptron course page): x -> (x, -1), weights (w, b), b <- b - y;
      decision w.x - b.
    * ``separate`` (the DSC 255 handout): a separate term b <- b + y; decision w.x + b
      (= augment, c = 1).

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
        for ``minus-one`` (the course page's own form).

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
            return "x -> (x, -1), b <- b - y (the perceptron course page)"
        return "separate b <- b + y (the DSC 255 handout)"


BIAS_CONVENTIONS = ("none", "augment[:c]", "minus-one", "separate")


class Dataset:
    """Points (n x d, exact) and labels in {-1, +1}: the vectors trained on.

    ``Dataset(X, y)`` converts rows of exact numbers (ints, Fractions, floats, decimal
    strings); :meth:`from_integers` and :meth:`from_floats` take numpy arrays as they
    are, without a per-value conversion.  ``bias`` records the convention that
    produced the last coordinate, if any; ``original_d`` is the dimension before it.

    >>> ds = Dataset([[Fraction(1, 2), 3]], [1], name="one")
    >>> ds.X, ds.y, ds.scale
    (((Fraction(1, 2), Fraction(3, 1)),), (1,), 2)
    """

    kind: str
    values: np.ndarray
    scale: int
    labels: np.ndarray
    name: str
    bias: Bias | None

    def __init__(self, X: Any, y: Any, name: str = "data", bias: Bias | None = None) -> None:
        rows = _rows(X)
        pts = [
            tuple(
                to_fraction(v, what=f"coordinate {c + 1} of row {i + 1}") for c, v in enumerate(r)
            )
            for i, r in enumerate(rows)
        ]
        labels = _labels(y, len(pts))
        _validate_shape([len(p) for p in pts], len(labels))
        kind, values, scale = _store_fractions(pts)
        self._set(kind, values, scale, labels, name, bias)
        self.__dict__["X"] = tuple(pts)

    def _set(
        self,
        kind: str,
        values: np.ndarray,
        scale: int,
        labels: np.ndarray,
        name: str,
        bias: Bias | None,
    ) -> None:
        values.setflags(write=False)
        labels.setflags(write=False)
        self.kind, self.values, self.scale = kind, values, scale
        self.labels, self.name, self.bias = labels, name, bias

    @classmethod
    def _make(
        cls,
        kind: str,
        values: np.ndarray,
        scale: int,
        labels: np.ndarray,
        name: str,
        bias: Bias | None,
    ) -> Dataset:
        ds = cls.__new__(cls)
        ds._set(kind, values, scale, labels, name, bias)
        return ds

    @classmethod
    def from_integers(
        cls,
        Z: Any,
        scale: int,
        y: Any,
        *,
        name: str = "data",
        bias: Bias | None = None,
        copy: bool = True,
    ) -> Dataset:
        """``x_i = Z_i / scale`` exactly, for an integer array ``Z`` (any integer dtype, or
        an object array of Python ints) and a positive integer ``scale``.

        The integers are stored in the narrowest dtype that holds them (a copy, made in
        the same pass that narrows them); ``copy=False`` takes ``Z`` itself when it is
        already narrowest and C-ordered (and makes it read-only).

        >>> Dataset.from_integers(np.array([[1, 2]]), 4, [1]).X
        ((Fraction(1, 4), Fraction(1, 2)),)
        """
        Z = np.asarray(Z)
        if Z.ndim != 2:
            raise InputError(f"X must be 2-dimensional (n x d), got shape {Z.shape}")
        if not isinstance(scale, int | np.integer) or isinstance(scale, bool) or scale <= 0:
            raise InputError(f"scale must be a positive integer, got {scale!r}")
        labels = _labels(y, Z.shape[0])
        _validate_shape([Z.shape[1]] * min(Z.shape[0], 1), len(labels), n=Z.shape[0])
        if Z.dtype.kind in "iu":
            narrow = _narrow(Z, copy)
            if narrow is not None:
                return cls._make("grid", narrow, int(scale), labels, name, bias)
            Zo = np.array(Z.tolist(), dtype=object)
        elif Z.dtype == object:
            if not all(type(v) is int for v in Z.flat):
                raise InputError("an integer array must hold Python ints")
            Zo = Z
        else:
            raise InputError(f"an integer array is needed, got dtype {Z.dtype}")
        return cls._make(*_store_ints(Zo, int(scale)), labels, name, bias)

    @classmethod
    def from_floats(
        cls, F: Any, y: Any, *, name: str = "data", bias: Bias | None = None, copy: bool = True
    ) -> Dataset:
        """Every float64 of ``F`` taken exactly (a float is a dyadic rational).

        >>> Dataset.from_floats(np.array([[0.5, 0.25]]), [1]).integer_points()
        (array([[2, 1]]), 4)
        """
        F = np.asarray(F)
        if F.ndim != 2:
            raise InputError(f"X must be 2-dimensional (n x d), got shape {F.shape}")
        if F.dtype.kind != "f":
            raise InputError(f"a float array is needed, got dtype {F.dtype}")
        F = np.array(F, dtype=np.float64) if copy else np.asarray(F, dtype=np.float64).view()
        if not np.all(np.isfinite(F)):
            bad = np.argwhere(~np.isfinite(F))[0]
            what = "NaN" if np.isnan(F[tuple(bad)]) else "infinite"
            raise InputError(f"coordinate {bad[1] + 1} of row {bad[0] + 1} is {what}")
        labels = _labels(y, F.shape[0])
        _validate_shape([F.shape[1]] * min(F.shape[0], 1), len(labels), n=F.shape[0])
        kind, values, scale, least = _float_storage(F)
        ds = cls._make(kind, values, scale, labels, name, bias)
        if kind == "float" and bias is None:  # the exponent pass gave its scale too
            ds.__dict__["_float_scale"] = least
        return ds

    # --- shape and labels --------------------------------------------------------------

    @property
    def n(self) -> int:
        return int(self.values.shape[0])

    @property
    def d(self) -> int:
        return int(self.values.shape[1])

    @property
    def original_d(self) -> int:
        return self.d - (1 if self.bias is not None else 0)

    @cached_property
    def y(self) -> tuple[int, ...]:
        """The labels as a tuple of Python ints (``labels`` is the int8 array)."""
        return tuple(int(v) for v in self.labels)

    # --- exact values, derived lazily ----------------------------------------------------

    @cached_property
    def X(self) -> tuple[Vector, ...]:
        """Every point as a tuple of ``Fraction`` (O(n d) objects: for small data)."""
        return tuple(self.row(i) for i in range(self.n))

    def row(self, i: int) -> Vector:
        """Point ``i`` (0-based) as exact ``Fraction`` values."""
        if self.kind == "float":
            return tuple(Fraction(float(v)) for v in self.values[i])
        s = self.scale
        return tuple(Fraction(int(v), s) for v in self.values[i])

    def integer_points(self) -> tuple[np.ndarray, int]:
        """``(Z, s)``: the points times the positive integer ``s`` are the integers ``Z``
        (int64 when they fit, else Python ints in an object array).

        A positive scale leaves every decision of the Perceptron unchanged.
        """
        return self._integer_points

    def integer_row(self, i: int) -> tuple[int, ...]:
        """Point ``i`` times the scale of :meth:`integer_points`, as Python ints (without
        building every row).

        >>> Dataset.from_floats(np.array([[0.5, 0.25], [1.0, 2.0]]), [1, 1]).integer_row(1)
        (4, 8)
        """
        if self.kind == "float":
            shift = self._float_scale.bit_length() - 1
            out = []
            for v in self.values[i].tolist():
                p, q = v.as_integer_ratio()  # q is a power of two dividing 2^shift
                out.append(p << (shift - q.bit_length() + 1))
            return tuple(out)
        return tuple(int(v) for v in self.values[i].tolist())

    @property
    def integer_scale(self) -> int:
        """The scale ``s`` of :meth:`integer_points` and :meth:`integer_row`."""
        return self._float_scale if self.kind == "float" else self.scale

    @cached_property
    def _float_scale(self) -> int:
        return _float_shift_scale(self.values)

    @cached_property
    def _integer_points(self) -> tuple[np.ndarray, int]:
        if self.kind == "grid":
            return self.values.astype(np.int64), self.scale
        if self.kind == "big":
            Z = self.values
            if _max_abs_int(Z) < 2**62:
                return Z.astype(np.int64), self.scale
            return Z, self.scale
        Zf, s = _floats_to_ints(self.values)
        return Zf, s

    @cached_property
    def radius_squared(self) -> Fraction:
        """R^2 = max_i |x_i|^2 over the vectors actually trained on (exact)."""
        s = self.integer_scale
        if self.kind == "grid":
            exact = passes.int_max_square_norm(self.values)
            if exact is not None:
                return Fraction(exact, s * s)
        best = max(sum(v * v for v in self.integer_row(j)) for j in self._farthest_candidates())
        return Fraction(best, s * s)

    def _farthest_candidates(self) -> list[int]:
        """Rows that may attain the largest norm: decided in float64 with a rigorous
        error bound, so only these need exact arithmetic."""
        A = self.approx
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            r = passes.square_norms(A)
        if not np.all(np.isfinite(r)):
            return list(range(self.n))
        rel = 4 * (self.d + 2) * 2.0**-53 + (0.0 if self.kind != "big" else 8 * 2.0**-53)
        slack = (self.d + 1) * _TINY
        hi = r * (1 + rel) + slack
        lo = r * (1 - rel) - slack
        return [int(j) for j in np.flatnonzero(hi >= lo.max())]

    @cached_property
    def compact(self) -> np.ndarray:
        """The stored values in the smallest exact dtype (``grid``: int8, int16 or int32
        when the integers fit; otherwise the float64 values themselves).  The engine reads
        these: big data are read from memory once per epoch, so 8 bytes a value cost 8
        times the time of 1.

        >>> from_arrays([[1, -2]], [1]).compact.dtype
        dtype('int8')
        >>> from_arrays([[1, -2**40]], [1]).compact.dtype
        dtype('float64')
        """
        V = self.values
        if self.kind != "grid" or V.dtype in _NARROW:
            return V
        out = _narrow(V)
        if out is None or out.dtype not in _NARROW:  # beyond int32: held exactly in float64
            out = V.astype(np.float64)
        out.setflags(write=False)
        return out

    @property
    def row_l1(self) -> np.ndarray:
        """An upper bound on each row's ``sum_c |a_c|`` over :attr:`approx`."""
        return self._row_norms[0]

    @property
    def row_max(self) -> np.ndarray:
        """Each row's ``max_c |a_c|`` over :attr:`approx`."""
        return self._row_norms[1]

    @cached_property
    def _row_norms(self) -> tuple[np.ndarray, np.ndarray]:
        """``(row_l1, row_max)``, from one pass over the stored values (integers: exact
        sums, then the same relative margin as for floats)."""
        d = self.d
        if self.kind == "grid":
            l1, top = passes.int_row_norms(self.values)
            with np.errstate(over="ignore"):
                l1f = l1.astype(np.float64) * (1.0 + (d + 2) * 2.0**-52)
            topf = top.astype(np.float64)
        else:
            A = np.abs(self.approx)
            with np.errstate(over="ignore"):
                l1f = A.sum(axis=1) * (1.0 + (d + 2) * 2.0**-52)
            topf = A.max(axis=1)
        l1f.setflags(write=False)
        topf.setflags(write=False)
        return l1f, topf

    def min_margin(self, v: Sequence[Any]) -> tuple[Fraction, int]:
        """``(min_i y_i v.x_i, i)`` exactly (the smallest index among ties), decided in
        float64 with a rigorous error bound and exactly only for the candidates.

        >>> from_arrays([[1, 0], [0, 1], [1, 1]], [1, 1, -1]).min_margin([1, Fraction(1, 2)])
        (Fraction(-3, 2), 2)
        """
        vf = [a if type(a) is Fraction else to_fraction(a, what="vector entry") for a in v]
        if len(vf) != self.d:
            raise InputError(f"the vector has {len(vf)} entries, the data have {self.d}")
        vs = math.lcm(*(a.denominator for a in vf)) if vf else 1
        V = [a.numerator * (vs // a.denominator) for a in vf]
        cands = self._margin_candidates(V)
        s = self.integer_scale
        best: tuple[int, int] | None = None
        for i in cands:
            m = int(self.labels[i]) * sum(
                a * b for a, b in zip(V, self.integer_row(i), strict=True)
            )
            if best is None or m < best[0]:
                best = (m, i)
        assert best is not None
        return Fraction(best[0], s * vs), best[1]

    def _margin_candidates(self, V: list[int]) -> list[int]:
        """Rows whose margin may be the least (float64 filter with a rigorous bound)."""
        d = self.d
        vf = np.empty(d)
        ev = np.empty(d)
        for c, vc in enumerate(V):
            try:
                f = float(vc)
            except OverflowError:
                return list(range(self.n))
            vf[c] = f
            ev[c] = 0.0 if int(f) == vc else abs(f) * 2.0**-53  # (an integer: f is one too)
        rel = 0.0 if self.kind != "big" else 2.0**-52
        g = (d + 2) * 2.0**-52
        with np.errstate(over="ignore", invalid="ignore", under="ignore"):
            m = passes.matvec(self.values if self.kind == "grid" else self.approx, vf)
            m *= self.labels
            # sum_c |a_c v_c| <= |a|_1 max|v|, and the rounding of v: |a|_1 max(ev)
            a = self.row_l1 * float(np.abs(vf).max())
            e = self.row_l1 * float(ev.max())
            err = (g + rel) * (a * (1 + 2 * g) + (2 * d + 4) * _TINY) + e * (1 + 2 * g)
            err = err * (1 + 2 * g) + (2 * d + 4) * _TINY
            lo, hi = m - err, m + err
        if not (np.all(np.isfinite(lo)) and np.all(np.isfinite(hi))):
            return list(range(self.n))
        return [int(i) for i in np.flatnonzero(lo <= hi.min())]

    @cached_property
    def approx(self) -> np.ndarray:
        """float64 values approximating the stored integers (``grid``, ``big``: ``Z``, to be
        divided by ``scale``) or the floats themselves (``float``).  Exact except for
        ``big``, where each entry is rounded once (relative error <= 2^-53, or inf)."""
        if self.kind == "float":
            return self.values
        if self.kind == "grid":
            exact: np.ndarray = self.values.astype(np.float64)  # |Z| <= 2^53: exact
            exact.setflags(write=False)
            return exact
        out = np.empty(self.values.shape)
        for idx, v in np.ndenumerate(self.values):
            try:
                out[idx] = float(v)
            except OverflowError:
                out[idx] = math.inf if v > 0 else -math.inf
        out.setflags(write=False)
        return out

    def as_float(self) -> tuple[np.ndarray, np.ndarray]:
        """``(X, y)`` as float64 arrays, each value correctly rounded (refused if a value
        overflows float64)."""
        return self._float_points, self.labels.astype(np.float64)

    @cached_property
    def _float_points(self) -> np.ndarray:
        if self.kind == "float":
            return self.values
        s = self.scale
        if self.kind == "grid" and s == 1:
            return self.approx
        if self.kind == "grid" and (s <= GRID_LIMIT or s & (s - 1) == 0):
            # the division is one correctly rounded operation (or exact, for a power of 2)
            Z = self.values.astype(np.float64)  # |Z| <= 2^53: exact
            with np.errstate(over="ignore", under="ignore"):
                out = np.ldexp(Z, -(s.bit_length() - 1)) if s & (s - 1) == 0 else Z / float(s)
        else:
            out = np.empty(self.values.shape)
            for idx, v in np.ndenumerate(self.values):
                try:
                    out[idx] = float(Fraction(int(v), s))
                except OverflowError:
                    out[idx] = math.inf
        if not np.all(np.isfinite(out)):
            raise InputError("a coordinate is too large for float mode")
        out.setflags(write=False)
        return out

    # --- bias conventions ----------------------------------------------------------------

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
        c = conv.c
        if self.kind == "float" and Fraction(float(c)) == c:
            col = np.full((self.n, 1), float(c))
            return Dataset.from_floats(
                np.hstack([self.values, col]), self.labels, name=self.name, bias=conv
            )
        Z, s = self.integer_points()
        s2 = math.lcm(s, c.denominator)
        mult = s2 // s
        cz = c.numerator * (s2 // c.denominator)
        if Z.dtype == object or max(_max_abs_int(Z) * mult, abs(cz)) > GRID_LIMIT:
            Zo = np.array(Z.tolist(), dtype=object) * mult
            col = np.full((self.n, 1), cz, dtype=object)
            return Dataset.from_integers(
                np.hstack([Zo, col]), s2, self.labels, name=self.name, bias=conv
            )
        col = np.full((self.n, 1), cz, dtype=np.int64)
        return Dataset.from_integers(
            np.hstack([Z * mult, col]), s2, self.labels, name=self.name, bias=conv
        )

    def without_bias(self) -> Dataset:
        """The raw points, dropping a bias coordinate added by :meth:`with_bias`."""
        if self.bias is None:
            return self
        return Dataset._make(
            self.kind, self.values[:, :-1].copy(), self.scale, self.labels, self.name, None
        )

    def renamed(self, name: str) -> Dataset:
        """The same data under another name."""
        return Dataset._make(self.kind, self.values, self.scale, self.labels, name, self.bias)

    def subset(self, rows: Sequence[int]) -> Dataset:
        """The points ``rows`` (0-based), in that order."""
        idx = np.asarray(list(rows), dtype=np.int64)
        return Dataset._make(
            self.kind, self.values[idx], self.scale, self.labels[idx], self.name, self.bias
        )

    # --- comparison ----------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Dataset):
            return NotImplemented
        return (
            self.name == other.name
            and self.bias == other.bias
            and self.values.shape == other.values.shape
            and bool(np.array_equal(self.labels, other.labels))
            and (
                (
                    self.kind == other.kind
                    and self.scale == other.scale
                    and bool(np.array_equal(self.values, other.values))
                )
                or self.X == other.X
            )
        )

    def __hash__(self) -> int:
        return hash((self.name, self.values.shape, self.y))

    def __repr__(self) -> str:
        if self.n * self.d <= 32:  # small data: a repr that rebuilds them
            rows = ", ".join("[" + ", ".join(_num_repr(v) for v in row) + "]" for row in self.X)
            bias = f", bias={self.bias!r}" if self.bias is not None else ""
            return f"Dataset([{rows}], {list(self.y)}, name={self.name!r}{bias})"
        bias = f", bias={self.bias.name}" if self.bias is not None else ""
        return f"<Dataset {self.name!r}: n={self.n}, d={self.d}, {self.kind}{bias}>"


def _num_repr(v: Fraction) -> str:
    if v.denominator == 1:
        return str(v.numerator)
    return f"Fraction({v.numerator}, {v.denominator})"


# --- storage -------------------------------------------------------------------------------


def _rows(X: Any) -> list[Sequence[Any]]:
    if isinstance(X, np.ndarray):
        if X.ndim != 2:
            raise InputError(f"X must be 2-dimensional (n x d), got shape {X.shape}")
        return list(X.tolist())
    try:
        return [list(r) for r in X]
    except TypeError:
        raise InputError("X must be a sequence of rows") from None


def _labels(y: Any, n: int) -> np.ndarray:
    arr = np.asarray(y) if not isinstance(y, np.ndarray) else y
    if arr.ndim != 1:
        raise InputError(f"y must be 1-dimensional, got shape {arr.shape}")
    if arr.shape[0] != n:
        raise InputError(f"shape mismatch: {n} points but {arr.shape[0]} labels")
    if arr.dtype.kind in "iuf":
        ok = (arr == 1) | (arr == -1)
        if not np.all(ok):
            i = int(np.flatnonzero(~ok)[0])
            raise InputError(f"label {arr[i]!r} at row {i + 1} is not -1 or +1")
        return arr.astype(np.int8)
    out = np.empty(n, dtype=np.int8)
    for i, v in enumerate(arr.tolist()):
        if isinstance(v, bool) or v not in (-1, 1):
            raise InputError(f"label {v!r} at row {i + 1} is not -1 or +1")
        out[i] = int(v)
    return out


def _validate_shape(widths: list[int], n_labels: int, n: int | None = None) -> None:
    """Refuse an empty data set, labels that do not match the points, rows of unequal
    widths; ``n``: the number of points when ``widths`` lists only the first rows (an
    array's rows are all as wide: no list of its n widths is made)."""
    if not widths:
        raise InputError("the data set is empty (no points)")
    n = len(widths) if n is None else n
    if n != n_labels:
        raise InputError(f"shape mismatch: {n} points but {n_labels} labels")
    d = widths[0]
    if d == 0:
        raise InputError("the points have zero features")
    for i, w in enumerate(widths):
        if w != d:
            raise InputError(f"row {i + 1} has {w} features, expected {d}")


def _max_abs_int(Z: np.ndarray) -> int:
    if Z.size == 0:
        return 0
    if Z.dtype == object:
        return int(max(abs(v) for v in Z.flat))
    return max(abs(int(Z.max())), abs(int(Z.min())))


#: The integer dtypes a grid is stored in, narrowest first, with the largest |Z| each holds
#: (symmetric: |Z| <= limit, so that -Z and |Z| never overflow).
_WIDTHS = ((np.int8, 127), (np.int16, 2**15 - 1), (np.int32, 2**31 - 1), (np.int64, GRID_LIMIT))
_NARROW = (np.dtype(np.int8), np.dtype(np.int16), np.dtype(np.int32))


def _narrow(Z: np.ndarray, copy: bool = True) -> np.ndarray | None:
    """A C-ordered copy of the integers ``Z`` (an integer or integral float array) in
    the narrowest dtype of :data:`_WIDTHS` that holds them (``copy=False``: ``Z`` itself
    when it is that already), or None when ``max |Z| > 2^53``.  One pass for the range
    and one for the copy.

    >>> _narrow(np.array([[127, -127]])).dtype, _narrow(np.array([[-128]])).dtype
    (dtype('int8'), dtype('int16'))
    >>> _narrow(np.array([[2**53 + 1]])) is None
    True
    """
    top = passes.max_abs(Z)
    for dtype, limit in _WIDTHS:
        if top <= limit:
            if not copy and Z.dtype == dtype and Z.flags.c_contiguous:
                return Z
            return np.array(Z, dtype=dtype, order="C")
    return None


def _store_ints(Zo: np.ndarray, scale: int) -> tuple[str, np.ndarray, int]:
    """The storage of the exact integers ``Zo`` (object array) over ``scale``."""
    if _max_abs_int(Zo) <= GRID_LIMIT:
        narrow = _narrow(Zo.astype(np.int64))
        assert narrow is not None
        return "grid", narrow, scale
    if scale & (scale - 1) == 0:  # a power of two: the values may be floats
        F = np.empty(Zo.shape)
        exact = True
        for idx, v in np.ndenumerate(Zo):
            q = Fraction(v, scale)
            try:
                f = float(q)
            except OverflowError:
                exact = False
                break
            if Fraction(f) != q:
                exact = False
                break
            F[idx] = f
        if exact:
            return _store_floats(F)
    return "big", Zo, scale


def _store_fractions(pts: list[Vector]) -> tuple[str, np.ndarray, int]:
    scale = 1
    for p in pts:
        for v in p:
            if v.denominator != 1:
                scale = math.lcm(scale, v.denominator)
    Zo = np.array([[v.numerator * (scale // v.denominator) for v in p] for p in pts], dtype=object)
    return _store_ints(Zo, scale)


def _store_floats(F: np.ndarray) -> tuple[str, np.ndarray, int]:
    """Floats as a grid when one power-of-two scale makes every value an integer of at
    most 53 bits, else as they are."""
    kind, values, scale, _least = _float_storage(F)
    return kind, values, scale


def _float_storage(F: np.ndarray) -> tuple[str, np.ndarray, int, int]:
    """:func:`_store_floats`, and the least power of two ``s`` with every ``F s`` an
    integer (:func:`_float_shift_scale`).

    Every value is an integer times ``2^low`` and below ``2^top`` in magnitude
    (:func:`~pla_proof.data.passes.float_exponents`, one pass), so ``F 2^k`` is integral
    exactly for ``k >= -low``, and its integers have at most 53 bits for ``k <= 53 - top``:
    the least scale is ``2^max(0, -low)``, a grid when it is at most ``2^(53 - top)``."""
    ex = passes.float_exponents(F)
    if ex is None:
        return "grid", np.zeros(F.shape, dtype=np.int8), 1, 1
    low, top = ex
    k = max(0, -low)
    if k > 53 - top:
        return "float", F, 1, 1 << k
    G = np.ldexp(F, k) if k else F
    narrow = _narrow(G)  # |G| < 2^53, integers: exact
    assert narrow is not None
    return "grid", narrow, 1 << k, 1 << k


def _float_shift_scale(F: np.ndarray) -> int:
    """The least power of two ``s`` with every ``F * s`` an integer."""
    ex = passes.float_exponents(F)
    return 1 if ex is None else 1 << max(0, -ex[0])


def _floats_to_ints(F: np.ndarray) -> tuple[np.ndarray, int]:
    """Exact integers ``Z`` and a power-of-two ``s`` with ``F = Z / s``."""
    s = _float_shift_scale(F)
    shift = s.bit_length() - 1
    Z = np.empty(F.shape, dtype=object)
    for idx, v in np.ndenumerate(F):
        p, q = float(v).as_integer_ratio()
        Z[idx] = p << (shift - q.bit_length() + 1)
    if _max_abs_int(Z) < 2**62:
        return Z.astype(np.int64), s
    return Z, s


def from_arrays(
    X: Any, y: Any, *, name: str = "arrays", labels: str = "pm1", bias: str | Bias | None = None
) -> Dataset:
    """Build a data set from nested sequences or numpy arrays, converting exactly.

    Integer and float numpy arrays are taken as they are (no per-value conversion);
    anything else goes through :func:`~pla_proof.numbers.to_fraction`.

    >>> from_arrays([[0.1, 2]], [1]).X
    ((Fraction(3602879701896397, 36028797018963968), Fraction(2, 1)),)
    """
    if labels not in ("pm1", "01"):
        raise InputError(f"labels must be 'pm1' or '01', got {labels!r}")
    if isinstance(y, np.ndarray) and y.ndim != 1:
        raise InputError(f"y must be 1-dimensional, got shape {y.shape}")
    lab = parse_labels(y, labels)
    if isinstance(X, np.ndarray) and X.ndim == 2 and X.dtype.kind in "iu":
        ds = Dataset.from_integers(X, 1, lab, name=name)
    elif isinstance(X, np.ndarray) and X.ndim == 2 and X.dtype.kind == "f":
        ds = Dataset.from_floats(X, lab, name=name)
    else:
        ds = Dataset(X, lab, name=name)
    return ds.with_bias(bias)
