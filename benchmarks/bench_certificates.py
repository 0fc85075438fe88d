"""Coq certificates: how long coqc takes to check the certificate of a run.

Runs: the students table, a 100 x 4 run on real-valued data (decimals with two places)
and a 2,000 x 10 run on integers, each written by ``pla-proof trace --coq-certificate``
and compiled by ``coqc`` (target: under 60 s each) against the library written beside it,
``PlaPerceptron.v``, compiled once first (its time is printed apart).  Reproduce with

    python benchmarks/bench_certificates.py
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np


def _csv(path: Path, n: int, d: int, *, decimals: bool, seed: int = 1) -> None:
    rng = np.random.default_rng(seed)
    u = rng.integers(-5, 6, size=d)
    u[0] = 7
    rows: list[str] = []
    while len(rows) < n:
        x = rng.integers(-2000, 2001, size=d) if decimals else rng.integers(-20, 21, size=d)
        s = int(u @ x)
        if abs(s) < (300 if decimals else 3):
            continue
        cells = [f"{v / 100:.2f}" for v in x] if decimals else [str(v) for v in x]
        rows.append(",".join([*cells, "1" if s > 0 else "-1"]))
    path.write_text("\n".join(rows) + "\n")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        _csv(root / "real100x4.csv", 100, 4, decimals=True)
        _csv(root / "int2000x10.csv", 2000, 10, decimals=False)
        print(f"{'run':<16} {'trace s':>8} {'coqc s':>8} {'file KB':>8}")
        library = False
        for name in ("students", str(root / "real100x4.csv"), str(root / "int2000x10.csv")):
            cert = root / "Certificate.v"
            t0 = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "pla_proof", "trace", name, "--coq-certificate", str(cert)],
                check=True,
                capture_output=True,
            )
            t1 = time.perf_counter()
            if not library:  # the library the certificates need, once
                subprocess.run(["coqc", "-q", "PlaPerceptron.v"], check=True, cwd=tmp)
                library = True
                print(f"{'(library)':<16} {'':>8} {time.perf_counter() - t1:8.2f}")
                t1 = time.perf_counter()
            subprocess.run(["coqc", "-q", str(cert)], check=True, cwd=tmp)
            t2 = time.perf_counter()
            label = Path(name).stem
            print(f"{label:<16} {t1 - t0:8.2f} {t2 - t1:8.2f} {cert.stat().st_size / 1024:8.0f}")


if __name__ == "__main__":
    main()
