"""The engine's compiled passes give the data layer's numpy passes' numbers."""

from typing import Any

import numpy as np
import pytest

import pla_proof.engine  # noqa: F401  (registers the compiled passes)
from pla_proof.data import passes
from pla_proof.engine import jit, prep

DTYPES = [np.int8, np.int16, np.int32, np.int64]


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
        assert names == {"int_row_norms", "int_max_square_norm", "matvec"}
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
