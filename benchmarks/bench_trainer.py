"""Throughput of the monitored trainer: exact (int64 fast path), exact (Python ints),
float with the interval guard, and unmonitored exact -- measured in one run, so the
ratios are comparable on a shared machine.

Run:  python benchmarks/bench_trainer.py [--n 2000] [--d 10] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from pla_proof import Dataset, from_arrays, train
from pla_proof import trainer as trainer_module


def make_data(n: int, d: int, seed: int) -> tuple[Dataset, list[int]]:
    rng = random.Random(seed)
    u = [rng.randint(-5, 5) or 1 for _ in range(d)]
    X: list[list[int]] = []
    y: list[int] = []
    while len(X) < n:
        x = [rng.randint(-50, 50) for _ in range(d)]
        s = sum(a * b for a, b in zip(u, x, strict=True))
        if abs(s) >= 3:
            X.append(x)
            y.append(1 if s > 0 else -1)
    return from_arrays(X, y), u


def timed(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--d", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    data, u = make_data(args.n, args.d, seed=1)
    run = train(data, comparator=u)
    k = run.updates
    bound = float(run.bound or 0)
    print(f"data: n={args.n}, d={args.d}; cyclic rule, {k} updates, bound {bound:.4g}")

    cases: dict[str, Callable[[], object]] = {
        "exact, monitored (int64 path)": lambda: train(data, comparator=u),
        "exact, unmonitored": lambda: train(data, comparator=None),
        "float, monitored (interval guard)": lambda: train(data, comparator=u, mode="float"),
    }
    results = {name: timed(fn, args.repeat) for name, fn in cases.items()}
    saved = trainer_module._INT64_SAFE
    trainer_module._INT64_SAFE = 0  # force the Python-int path
    try:
        python_ints = timed(lambda: train(data, comparator=u), args.repeat)
        results["exact, monitored (Python ints)"] = python_ints
    finally:
        trainer_module._INT64_SAFE = saved
    base = results["exact, monitored (int64 path)"]
    print(f"{'configuration':40} {'seconds':>9} {'updates/s':>10} {'ratio':>6}")
    for name, sec in results.items():
        print(f"{name:40} {sec:9.3f} {k / sec:10.0f} {sec / base:6.2f}")


if __name__ == "__main__":
    main()
