"""Time `pla-proof check` over the built-in catalog (the search only, no file output).

Run: python benchmarks/bench_check.py [--examples N] [--seed S]
Prints one Markdown row per variant: properties, runs, inconclusive runs, result, seconds.
"""

from __future__ import annotations

import argparse
import time

from pla_proof.variants import builtin_names, resolve, search


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--examples", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    print("| variant | properties | runs | inconclusive | result | seconds |")
    print("|---|---|---|---|---|---|")
    total = 0.0
    for name in builtin_names():
        t = time.perf_counter()
        rep = search(resolve(name), examples=args.examples, seed=args.seed)
        dt = time.perf_counter() - t
        total += dt
        res = "all hold" if rep.ok else "FAIL: " + ", ".join(p.id for p in rep.failed)
        props = " ".join(p.id for p in rep.properties)
        print(f"| {name} | {props} | {rep.runs} | {rep.inconclusive} | {res} | {dt:.1f} |")
    print(f"\ntotal {total:.1f} s ({args.examples} examples per search, seed {args.seed})")


if __name__ == "__main__":
    main()
