"""Benchmark: exact optimal margin / certificate on a few thousand points.

Run:  python benchmarks/bench_geometry.py [--repeat 3]
      python benchmarks/bench_geometry.py --starts   # where the exact method starts cold

For each case the data are built (integer or float64 coordinates, converted
exactly), then timed separately: ``separability`` (scipy warm start + exact
active-set refinement + exact verification), ``affine_margin`` on the same points
with a bias coordinate, ``gordan_certificate`` on non-separable data, and
``pla-proof bound --no-runs`` end to end through the CLI entry point.  Reported
times are the best of ``--repeat`` runs (the first scipy import is excluded by a
warm-up call).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import platform
import tempfile
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from pla_proof.cli import main as cli_main
from pla_proof.data import Dataset, from_arrays, load
from pla_proof.geometry import affine_margin, gordan_certificate, separability


def _separable(n: int, d: int, kind: str, seed: int) -> Dataset:
    rng = np.random.default_rng(seed)
    u = rng.normal(size=d)
    X = rng.integers(-50, 51, size=(n, d)) if kind == "int" else rng.normal(size=(n, d))
    y = np.where(X @ u >= 0, 1, -1)
    return from_arrays(X, y, name=f"{kind}-{n}x{d}")


def _noisy(n: int, d: int, seed: int) -> Dataset:
    rng = np.random.default_rng(seed)
    X = rng.integers(-50, 51, size=(n, d))
    y = np.where(X @ rng.normal(size=d) >= 0, 1, -1)
    flip = rng.choice(n, size=n // 20, replace=False)
    y[flip] *= -1
    return from_arrays(X, y, name=f"noisy-{n}x{d}")


def _affine(data: Any) -> Any:
    """The affine margin of ``data`` with a bias coordinate (augmented in the timing)."""
    return affine_margin(data.with_bias("augment"))


def _best(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    best, out = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


_SHAPES = [(500, 10), (2000, 12), (4000, 10), (10000, 4), (250, 20), (1500, 20), (200, 25),
           (150, 30), (100, 50), (20, 50), (10, 100), (5000, 20)]  # fmt: skip


def starts() -> None:
    """The exact method's cold start against SciPy's warm start (plus SciPy's import, in
    a fresh process), on separable integer data of several shapes; which one
    ``margin.starts_cold`` takes, and whether it is the faster there."""
    import subprocess
    import sys

    from pla_proof.geometry import margin

    code = (
        "import time; t = time.perf_counter(); import scipy.optimize; "
        "print(time.perf_counter() - t)"
    )
    imports = sorted(
        float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout)
        for _ in range(5)
    )
    scipy_import = imports[2]
    print(f"importing scipy.optimize in a fresh process: {scipy_import:.3f} s (median of 5)")
    import scipy.optimize  # noqa: F401  (the warm column is the solve alone)

    rng = np.random.default_rng(1)
    print(f"{'n x d':>10} {'cold s':>8} {'warm s':>8} {'+import':>8}  taken  faster")
    for n, d in _SHAPES:
        X = rng.integers(-50, 51, size=(n, d))
        X[:, 0] = np.where(X[:, 0] >= 0, X[:, 0] + 1, X[:, 0])
        times = []
        for cold in (True, False):
            data = from_arrays(X, np.sign(X[:, 0]))
            size, work = margin.COLD_START_SIZE, margin.COLD_START_WORK
            margin.COLD_START_SIZE, margin.COLD_START_WORK = (10**9, 10**18) if cold else (0, 0)
            try:
                t = time.perf_counter()
                separability(data)
                times.append(time.perf_counter() - t)
            finally:
                margin.COLD_START_SIZE, margin.COLD_START_WORK = size, work
        warm = times[1] + scipy_import
        taken = "cold" if margin.starts_cold(n, d) else "warm"
        faster = "cold" if times[0] <= warm else "warm"
        print(f"{n:>5} x {d:<3} {times[0]:8.3f} {times[1]:8.3f} {warm:8.3f}  {taken:5}  {faster}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument(
        "--starts", action="store_true", help="only the cold/warm start of the exact method"
    )
    args = ap.parse_args()
    print(f"python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cpu(s)")
    if args.starts:
        starts()
        return
    separability(load("orthonormal:3"))  # warm-up: scipy import
    rows = []
    for n, d, kind in [(3000, 10, "int"), (3000, 10, "float"), (5000, 20, "int"), (3000, 2, "int")]:
        data = _separable(n, d, kind, seed=n + d)
        t, res = _best(partial(separability, data), args.repeat)
        ta, am = _best(partial(_affine, data), args.repeat)
        assert am is not None
        rows.append(
            (
                data.name,
                "separability",
                t,
                f"bound {float(res.bound):.6g}, support {len(res.support)}",
            )
        )
        rows.append(
            (data.name, "affine_margin", ta, f"augmented bound {float(am.augmented_bound):.6g}")
        )
    noisy = _noisy(3000, 10, seed=1)
    t, cert = _best(lambda: gordan_certificate(noisy), args.repeat)
    assert cert is not None and cert.verify(noisy)
    rows.append(
        (
            noisy.name,
            "gordan_certificate",
            t,
            f"source {cert.source}, support {sum(1 for a in cert.alpha if a)}",
        )
    )
    for N in (100, 300):
        data = load(f"orthonormal:{N}")
        t, res = _best(partial(separability, data), args.repeat)
        rows.append((data.name, "separability", t, f"bound {res.bound}"))
    # end to end through the command line (CSV read exactly, then the geometry)
    big = _separable(3000, 10, "int", seed=7)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "big.csv")
        with open(path, "w") as fh:
            for x, yi in zip(big.X, big.y, strict=True):
                fh.write(",".join(str(v) for v in x) + f",{yi}\n")

        def cli() -> int:
            with contextlib.redirect_stdout(io.StringIO()):
                return cli_main(["bound", path, "--no-runs"])

        t, code = _best(cli, args.repeat)
        rows.append(("big.csv 3000x10", "pla-proof bound --no-runs", t, f"exit {code}"))
    width = max(len(r[0]) for r in rows)
    for name, what, t, note in rows:
        print(f"{name:<{width}}  {what:<26} {t:7.3f} s   {note}")


if __name__ == "__main__":
    main()
