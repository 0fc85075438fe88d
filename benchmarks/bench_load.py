"""Benchmark: reading a big CSV exactly, side by side with numpy.

Run:  python benchmarks/bench_load.py [--rows 200000] [--cols 200] [--repeat 1]

Writes, in a temporary directory, an integer CSV (coordinates -999..999) and a
decimal CSV (two decimals, -9.99..9.99), each ``rows`` x ``cols`` plus a label
column, and the same data as ``.npz``.  For each file it times, in one process:

* ``numpy.loadtxt(path, delimiter=",")`` -- the reference (floats, not exact);
* ``pla_proof.data.read_csv(path)`` -- exact rationals (0.1 is 1/10), checked;
* ``pla_proof.data.read_csv(path, fast=False)`` on the first 2,000 rows only
  (the exact reader alone), scaled to the full size, to show what the proof of
  exactness saves;
* ``numpy.load`` and ``pla_proof.data.read_npz`` on the ``.npz``.

The machine is shared: compare the ratios within one run.
"""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from pla_proof.data import read_csv, read_npz


def best(fn: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def write(path: str, X: np.ndarray, y: np.ndarray, fmt: str) -> None:
    np.savetxt(path, np.column_stack([X, y]), fmt=[fmt] * X.shape[1] + ["%d"], delimiter=",")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=200_000)
    ap.add_argument("--cols", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    n, d = args.rows, args.cols
    Z = rng.integers(-999, 1000, size=(n, d))
    y = np.where(rng.random(n) < 0.5, -1, 1)
    print(f"{n} x {d} (+ label), python {platform.python_version()}, numpy {np.__version__}")
    with tempfile.TemporaryDirectory() as tmp:
        cases = {
            "integer": (os.path.join(tmp, "int.csv"), Z, "%d"),
            "decimal": (os.path.join(tmp, "dec.csv"), Z / 100, "%.2f"),
        }
        for kind, (path, X, fmt) in cases.items():
            write(path, X, y, fmt)
            mb = os.path.getsize(path) / 1e6
            ref = best(partial(np.loadtxt, path, delimiter=","), args.repeat)
            ours = best(partial(read_csv, path), args.repeat)
            ds = read_csv(path)
            Zs, s = ds.integer_points()
            assert s == (1 if kind == "integer" else 100)  # decimals: Z / 100 exactly
            assert np.array_equal(np.asarray(Zs, dtype=np.int64), Z)
            head = os.path.join(tmp, "head.csv")
            write(head, X[:2000], y[:2000], fmt)
            slow = best(partial(read_csv, head, fast=False), 1) * n / 2000
            print(
                f"{kind:8s} CSV {mb:7.1f} MB: numpy.loadtxt {ref:6.2f} s | read_csv {ours:6.2f} s "
                f"(ratio {ours / ref:.2f}) | exact reader alone ~{slow:6.1f} s "
                "(scaled from 2000 rows)"
            )
        npz = os.path.join(tmp, "d.npz")
        np.savez(npz, X=Z, y=y)

        def np_load() -> None:
            with np.load(npz) as f:
                f["X"], f["y"]

        ref = best(np_load, args.repeat)
        ours = best(lambda: read_npz(npz), args.repeat)
        print(
            f"integer npz: numpy.load {ref:6.3f} s | read_npz {ours:6.3f} s "
            f"(ratio {ours / ref:.2f})"
        )


if __name__ == "__main__":
    main()
