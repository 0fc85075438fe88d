"""Exactness of each conversion path of from_arrays / from_integers / from_floats / the
CSV reader: integers at the edges of every dtype, floats from subnormals to 1e300,
NaN and infinities refused with their one-line messages, object arrays and Fractions."""

from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pla_proof.data import Dataset, from_arrays, passes, read_csv
from pla_proof.data import readers as readers_mod
from pla_proof.errors import InputError

INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


def exact_rows(X: Any) -> tuple[tuple[Fraction, ...], ...]:
    return tuple(tuple(Fraction(v) for v in row) for row in X)


def radius(rows: tuple[tuple[Fraction, ...], ...]) -> Fraction:
    return max(sum((v * v for v in r), Fraction(0)) for r in rows)


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_integer_edges_of_every_dtype_are_exact(dtype: Any) -> None:
    info = np.iinfo(dtype)
    X = np.array([[info.min, info.max], [0, 1], [info.max, info.min]], dtype=dtype)
    ds = from_arrays(X, np.array([1, -1, 1]))
    want = exact_rows(X.tolist())
    assert want == ds.X
    assert ds.radius_squared == radius(want)
    Z, s = ds.integer_points()
    assert s == 1 and [[int(v) for v in r] for r in Z] == X.tolist()
    assert [ds.integer_row(i) for i in range(3)] == [tuple(r) for r in X.tolist()]
    big = max(abs(int(info.min)), int(info.max)) > 2**53
    assert ds.kind == ("big" if big else "grid")
    margins = [sum(r) * y for r, y in zip(want, (1, -1, 1), strict=True)]
    assert ds.min_margin([1, 1]) == (min(margins), margins.index(min(margins)))


@pytest.mark.parametrize(
    ("top", "dtype"),
    [(127, "int8"), (128, "int16"), (2**15 - 1, "int16"), (2**15, "int32"),
     (2**31 - 1, "int32"), (2**31, "int64"), (2**53, "int64")],
)  # fmt: skip
def test_grids_are_stored_in_the_narrowest_dtype(top: int, dtype: str) -> None:
    ds = from_arrays(np.array([[-top, 1], [top, 0]]), [1, -1])
    assert ds.kind == "grid" and ds.values.dtype == np.dtype(dtype)
    assert ((Fraction(-top), Fraction(1)), (Fraction(top), Fraction(0))) == ds.X
    # the loop reads int8/16/32 as stored; wider integers exactly as float64
    assert ds.compact.dtype == np.dtype(dtype if dtype != "int64" else "float64")
    assert ds.radius_squared == top * top + 1


def test_grid_limit_and_beyond_are_exact() -> None:
    for v in (2**53, 2**53 + 1, -(2**63), 2**64 - 1):
        dtype = np.uint64 if v > 2**63 else np.int64
        ds = from_arrays(np.array([[v, 1]], dtype=dtype), [1])
        assert ((Fraction(v), Fraction(1)),) == ds.X
        assert (ds.kind == "grid") == (abs(v) <= 2**53)
        assert ds.radius_squared == v * v + 1


def test_the_stored_values_are_a_copy() -> None:
    X = np.array([[1, 2], [3, 4]], dtype=np.int8)
    ds = from_arrays(X, [1, -1])
    X[0, 0] = 100
    assert ds.X[0] == (1, 2)
    assert not ds.values.flags.writeable


FLOATS = [5e-324, -5e-324, 2.2250738585072014e-308, 1e-300, 0.1, 1.0, 1e300, -1e300]


def test_floats_from_subnormals_to_1e300_are_exact() -> None:
    X = np.array([FLOATS, FLOATS[::-1]])
    ds = from_arrays(X, [1, -1])
    want = exact_rows(X.tolist())
    assert ds.kind == "float"
    assert want == ds.X
    assert ds.radius_squared == radius(want)
    Z, s = ds.integer_points()
    assert [[Fraction(int(v), s) for v in r] for r in Z] == [list(r) for r in want]


def test_dyadic_floats_become_a_narrow_grid() -> None:
    ds = from_arrays(np.array([[0.5, -0.25], [1.5, 2.0]]), [1, -1])
    assert ds.kind == "grid" and ds.scale == 4 and ds.values.dtype == np.int8
    assert ((Fraction(1, 2), Fraction(-1, 4)), (Fraction(3, 2), Fraction(2))) == ds.X
    assert ds.as_float()[0].tolist() == [[0.5, -0.25], [1.5, 2.0]]


@pytest.mark.parametrize(
    ("value", "message"),
    [(np.nan, "coordinate 2 of row 1 is NaN"), (np.inf, "coordinate 2 of row 1 is infinite"),
     (-np.inf, "coordinate 2 of row 1 is infinite")],
)  # fmt: skip
def test_nan_and_infinities_are_refused_in_one_line(value: float, message: str) -> None:
    with pytest.raises(InputError) as info:
        from_arrays(np.array([[1.0, value]]), [1])
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("y", "labels", "message"),
    [([1, 2], "pm1", "label 2 at row 2 is not -1 or +1"),
     (np.array([1.0, 0.5]), "pm1", "label 1/2 at row 2 is not -1 or +1"),
     (np.array([1, 0]), "pm1", "label 0 at row 2 is not -1 or +1 (0/1 labels: use "
      "labels='01' / --labels 01)"),
     (np.array([0, -1]), "01", "label -1 at row 2 is not 0 or 1 (labels='01')"),
     (np.array([1.0, np.nan]), "pm1", "label at row 2 is NaN"),
     (np.array([1.0, np.inf]), "pm1", "label at row 2 is infinite"),
     ([1, True], "pm1", "label at row 2 is a boolean, not a number"),
     (["1", "x"], "pm1", "label at row 2 'x' is not a number")],
)  # fmt: skip
def test_bad_labels_keep_their_messages(y: Any, labels: str, message: str) -> None:
    with pytest.raises(InputError) as info:
        from_arrays(np.array([[1], [2]]), y, labels=labels)
    assert str(info.value) == message


def test_labels_of_every_form() -> None:
    X = np.array([[1], [2], [3]])
    for y in ([1, -1, 1], np.array([1, -1, 1], dtype=np.int8), np.array([1.0, -1.0, 1.0]),
              ["1", "-1", "+1"], [Fraction(1), -1, 1]):  # fmt: skip
        assert from_arrays(X, y).y == (1, -1, 1)
    assert from_arrays(X, np.array([1, 0, 1], dtype=np.uint8), labels="01").y == (1, -1, 1)


def test_object_arrays_and_fractions_still_work() -> None:
    X = np.array([[Fraction(1, 3), 2], [10**30, "0.5"]], dtype=object)
    ds = from_arrays(X, [1, -1])
    assert ((Fraction(1, 3), Fraction(2)), (Fraction(10**30), Fraction(1, 2))) == ds.X
    assert ds.kind == "big" and ds.scale == 6
    small = from_arrays([[Fraction(1, 2), 1]], [1])
    assert small.kind == "grid" and small.values.dtype == np.int8 and small.scale == 2


def test_from_integers_without_a_copy_takes_the_array() -> None:
    Z = np.array([[1, 2]], dtype=np.int8)
    ds = Dataset.from_integers(Z, 1, [1], copy=False)
    assert ds.values is Z and not Z.flags.writeable
    wide = np.array([[1, 2]], dtype=np.int64)  # narrowed: a copy whatever copy says
    assert Dataset.from_integers(wide, 1, [1], copy=False).values.dtype == np.int8


# --- the numpy passes (the engine's compiled ones are tested against these) ---------------


def test_passes_on_integer_edges() -> None:
    Z = np.array([[-(2**53), 3], [0, -4]], dtype=np.int64)
    assert passes.max_abs(Z) == 2**53
    assert passes.max_abs(np.array([[np.iinfo(np.int64).min]])) == 2**63
    assert passes.max_abs(np.array([[2**64 - 1]], dtype=np.uint64)) == 2**64 - 1
    assert passes.int_max_square_norm(Z) is None  # beyond int64: the caller decides exactly
    assert passes.int_max_square_norm(Z[1:]) == 16


# --- CSV files of integers ------------------------------------------------------------------


def write(tmp_path: Path, text: str) -> str:
    p = tmp_path / "d.csv"
    p.write_text(text)
    return str(p)


def test_integer_csv_is_parsed_as_integers(tmp_path: Path, monkeypatch: Any) -> None:
    def no_floats(*args: Any) -> None:
        raise AssertionError("an integer file needs no float parse")

    monkeypatch.setattr(readers_mod, "_parse_floats", no_floats)
    text = "a,b,label\n+5,-0,1\r\n\n007, 12 ,-1\n-9223372036854775807,9007199254740993,1\n"
    ds = read_csv(write(tmp_path, text), fast=True)
    assert (
        (Fraction(5), Fraction(0)),
        (Fraction(7), Fraction(12)),
        (Fraction(-9223372036854775807), Fraction(9007199254740993)),
    ) == ds.X
    assert ds.y == (1, -1, 1)
    assert ds == read_csv(write(tmp_path, text), fast=False)


@pytest.mark.parametrize(
    ("text", "message"),
    [("1,2,1\n3,,1\n", "line 2, column 2 is empty"),
     ("1,2,1\n3,1-2,1\n", "line 2, column 2: value '1-2' is not a number"),
     ("1,2,1\n3,4,2\n", "line 2, column 3: label 2 is not -1 or +1"),
     ("1,2,1\n3,4\n", "line 2 has 2 columns, expected 3")],
)  # fmt: skip
def test_integer_csv_refusals_are_the_exact_readers(
    tmp_path: Path, text: str, message: str
) -> None:
    path = write(tmp_path, text)
    for fast in (True, False):
        with pytest.raises(InputError) as info:
            read_csv(path, fast=fast)
        assert str(info.value) == f"{path}: {message}"


def test_integers_beyond_int64_in_a_csv_are_exact(tmp_path: Path) -> None:
    ds = read_csv(write(tmp_path, "99999999999999999999,1,1\n-3,4,-1\n"), fast=True)
    assert ds.X[0] == (Fraction(99999999999999999999), Fraction(1)) and ds.kind == "big"
