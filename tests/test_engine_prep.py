"""The engine's compiled passes give the data layer's numpy passes' numbers."""

from fractions import Fraction
from typing import Any

import numpy as np
import pytest

import pla_proof.engine  # noqa: F401  (registers the compiled passes)
from pla_proof.data import from_arrays, passes
from pla_proof.engine import jit, prep

DTYPES = [np.int8, np.int16, np.int32, np.int64]
FLOATS = [5e-324, -5e-324, 2.2250738585072014e-308, 1e-300, 0.1, 1.0, 1e300, -1e300]


def edges(dtype: Any, rng: np.random.Generator) -> np.ndarray:
    top = min(int(np.iinfo(dtype).max), 2**53)
    Z = rng.integers(-top, top + 1, size=(40, 7), dtype=np.int64)
    Z[0, :] = top
    Z[1, :] = -top
    Z[2, :] = 0
    return np.array(Z, dtype=dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_row_norms_are_exact_at_the_edges(dtype: Any) -> None:
    Z = edges(dtype, np.random.default_rng(1))
    l1, top = prep.int_row_norms(Z)
    want = [sum(abs(int(v)) for v in row) for row in Z.tolist()]
    assert l1.tolist() == want
    assert top.tolist() == [max(abs(int(v)) for v in row) for row in Z.tolist()]
    ref = passes.int_row_norms(Z)  # numpy (a small array)
    assert ref[0].tolist() == want and ref[1].tolist() == top.tolist()


@pytest.mark.parametrize("dtype", DTYPES[:2])
def test_the_largest_square_norm_is_exact(dtype: Any) -> None:
    Z = edges(dtype, np.random.default_rng(2))
    want = max(sum(int(v) ** 2 for v in row) for row in Z.tolist())
    assert int(prep.int_max_square_norm(Z)) == want == passes.int_max_square_norm(Z)


def test_square_norms_beyond_int64_are_left_to_exact_arithmetic() -> None:
    Z = edges(np.int32, np.random.default_rng(2))  # 7 (2^31 - 1)^2 > 2^62
    assert passes.int_max_square_norm(Z) is None


@pytest.mark.parametrize("dtype", [*DTYPES, np.float64])
def test_matvec_is_a_dot_product_per_row(dtype: Any) -> None:
    rng = np.random.default_rng(3)
    A = np.array(rng.integers(-100, 101, size=(50, 9)), dtype=dtype)
    v = rng.standard_normal(9)
    got = prep.matvec(A, v)
    want = A.astype(np.float64) @ v
    assert np.allclose(got, want, rtol=1e-12, atol=1e-9)
    exact = [sum(float(a) * b for a, b in zip(row, v, strict=True)) for row in A.tolist()]
    assert np.allclose(got, exact, rtol=1e-12, atol=1e-9)


def test_the_engine_registers_its_passes_when_compiled() -> None:
    names = set(passes.registered())
    if jit.HAVE_NUMBA:
        assert names == {"int_row_norms", "int_max_square_norm", "matvec", "float_exponents"}
    else:
        assert not names


def test_big_arrays_take_the_compiled_pass(monkeypatch: Any) -> None:
    calls: list[str] = []

    def spy(Z: np.ndarray) -> Any:
        calls.append("compiled")
        return prep.int_row_norms(Z)

    monkeypatch.setitem(passes._COMPILED, "int_row_norms", spy)
    small = np.ones((10, 10), dtype=np.int8)
    passes.int_row_norms(small)
    assert calls == []
    big = np.ones((passes.COMPILED_MIN // 8, 8), dtype=np.int8)
    assert passes.int_row_norms(big)[0].tolist() == [8] * big.shape[0]
    assert calls == ["compiled"]


def _tiled(row: list[float]) -> np.ndarray:
    """``row`` repeated into an array of at least ``COMPILED_MIN`` values (the size from
    which the compiled pass is taken)."""
    n = passes.COMPILED_MIN // len(row) + 1
    return np.array([row] * n, dtype=np.float64)


@pytest.mark.parametrize(
    "row",
    [
        FLOATS,  # subnormals to 1e300: stored as floats
        [0.5, -0.25, 1.5, 2.0, 0.0, -0.0, 3.0, 1024.0],  # dyadic: a grid of quarters
        [2.0**-1074, 2.0**-1070, 0.0, -(2.0**-1073)],  # subnormals only: a grid at 2^1074
        [2.0**52, -(2.0**52) + 1, 1.0, 0.0],  # 53-bit integers: a grid at scale 1
        [2.0**53, 0.5],  # 54 bits at scale 2: floats
        [0.0, -0.0, 0.0],  # zeros
    ],
)
def test_large_float_arrays_are_stored_as_the_numpy_path_stores_them(row: list[float]) -> None:
    """Arrays of ``COMPILED_MIN`` values or more take the compiled exponent pass: the
    same storage, scale and exact values as the numpy pass on the same rows."""
    big = _tiled(row)
    small = from_arrays(np.array([row]), [1])
    ds = from_arrays(big, [1] * big.shape[0])
    assert (ds.kind, ds.scale, ds.integer_scale) == (small.kind, small.scale, small.integer_scale)
    assert ds.values.dtype == small.values.dtype
    assert ds.row(0) == small.row(0) == tuple(Fraction(v) for v in row)
    assert ds.integer_row(big.shape[0] - 1) == small.integer_row(0)
    assert passes.float_exponents(big) == passes.float_exponents(np.array([row]))


def test_the_exponent_pass_is_exact_on_every_kind_of_float() -> None:
    """The compiled pass and numpy's give ``(low, top)`` exactly, for any float: every
    value an integer times ``2^low`` (and not every one times ``2^(low + 1)``), every
    ``|v| < 2^top``."""
    rng = np.random.default_rng(7)
    F = rng.standard_normal((300, 9)) * np.exp2(rng.integers(-1070, 1020, size=(300, 9)))
    F[0, :3] = (5e-324, -0.0, 0.0)
    low, top = (int(v) for v in prep.float_exponents(F))
    assert (low, top) == passes.float_exponents(F)  # (numpy: a small array)
    exact = [Fraction(v) for v in F.flat if v != 0]
    assert all((q * Fraction(2) ** -low).denominator == 1 for q in exact)
    assert any((q * Fraction(2) ** -(low + 1)).denominator != 1 for q in exact)
    assert all(abs(q) < Fraction(2) ** top for q in exact)
    assert any(abs(q) >= Fraction(2) ** (top - 1) for q in exact)
