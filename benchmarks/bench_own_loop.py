"""The kernel perceptrons' own loop (a Python ``run()``): integers over a common
denominator against the Fraction loop it replaced, on the same runs, in one process.

Run: python benchmarks/bench_own_loop.py [--repeat R]

For each kernel variant (``dual``, ``kernel-poly`` and the seeded ``bug:kernel-cache-11th``)
and a long-run case of 20 points (``pla_proof.strategies.long_run_datasets``, the run
reaching the variant's cap of 1000 updates), it times ``variant.run(case, order)`` with
the integer path and with the Fraction path (``_IntegerDual.of`` disabled), checks that
both give the same updates and measurements, and prints the median seconds of each and
their ratio.  The machine may be shared: the two paths alternate, so read the ratio.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pla_proof.variants.catalog import kernel
from pla_proof.variants.catalog.registry import resolve
from pla_proof.variants.protocol.variant import Case, Order


def long_case(n: int = 20, m: int = 20) -> Case:
    """A long run in the plane: ``z_1 = (1, 1)``, ``z_2 = -(m z_1 + (0, 1))`` and points
    ``a z_1 + b z_2`` in the cone between them (as ``long_run_datasets`` builds them)."""
    z1, z2 = (1, 1), (-m, -(m + 1))
    Z = [z1, z2] + [
        tuple(a * p + b * q for p, q in zip(z1, z2, strict=True))
        for a, b in [(1 + i % 3, 1 + i % 2) for i in range(n - 2)]
    ]
    y = [1 if i % 2 == 0 else -1 for i in range(n)]
    X = tuple(tuple(Fraction(yi * v) for v in z) for z, yi in zip(Z, y, strict=True))
    u = (Fraction(m + 2), Fraction(-(m + 1)))  # u.z1 = 1, u.z2 = 1 (times the scale)
    return Case(X, tuple(y), (Fraction(1),), Fraction(0), {"anchors": (u,)}, "long-run")


def timed(variant: object, case: Case, fast: bool) -> tuple[float, object]:
    original = kernel._IntegerDual.of
    if not fast:
        kernel._IntegerDual.of = staticmethod(lambda *a: None)  # type: ignore[method-assign,assignment]
    try:
        t0 = time.perf_counter()
        rec = variant.run(case, Order("cyclic"))  # type: ignore[attr-defined]
        dt = time.perf_counter() - t0
    finally:
        kernel._IntegerDual.of = original  # type: ignore[method-assign]
    steps = [(m.k, m.j, m.t, m.pu0, m.pu1, m.n0, m.n1) for m in rec.measured()]
    return dt, (rec.choices, steps, rec.output.get("alpha"))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    case = long_case()
    print(f"own loop, {case.n} points, cyclic; load average {os.getloadavg()[0]:.2f}\n")
    print("| variant | updates | Fraction loop s | integer loop s | speed-up |")
    print("|---|---|---|---|---|")
    for name in ("dual", "kernel-poly", "bug:kernel-cache-11th"):
        v = resolve(name)
        slow, fast = [], []
        for _ in range(args.repeat):
            ts, rs = timed(v, case, fast=False)
            tf, rf = timed(v, case, fast=True)
            if rs != rf:
                sys.exit(f"{name}: the two loops differ")
            slow.append(ts)
            fast.append(tf)
        s, f = statistics.median(slow), statistics.median(fast)
        print(f"| `{name}` | {len(rf[0])} | {s:.3f} | {f:.3f} | {s / f:.1f}x |", flush=True)  # type: ignore[index]
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
