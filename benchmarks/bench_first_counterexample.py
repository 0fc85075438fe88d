"""Time to the first counterexample: every seeded bug of the built-in catalog and every
broken own-loop example, searched at the command's defaults.

Run: python benchmarks/bench_first_counterexample.py [--jobs 2] [--examples N] [--only NAME ...]

For each broken variant it runs ``search(variant, first_only=True, jobs=J)`` -- what
``pla-proof check VARIANT`` does until it has its first shrunk counterexample (fixed
examples, one round of generated examples, shrinking) -- and prints the wall seconds,
the property that caught it (or ``MISSED``), the counterexample's size and the machine's
load average before the search; then the median and the worst time.  The machine may
be shared: read the times next to the load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from pla_proof.variants.catalog.bugs import BUGS  # noqa: E402
from pla_proof.variants.catalog.registry import resolve  # noqa: E402
from pla_proof.variants.checking import search  # noqa: E402
from pla_proof.variants.checking.shard import DEFAULT_EXAMPLES  # noqa: E402

#: The broken own-loop examples (a Python ``run()``): the compatibility suite's twins.
OWN_LOOP = [
    f"{HERE / 'tests' / 'compat' / f}:broken"
    for f in ("own_loop.py", "selector_010.py", "kernel.py", "multiclass.py")
]


def targets() -> list[tuple[str, str]]:
    """(label, spec) of every broken variant the benchmark searches."""
    out = [(f"bug:{name}", f"bug:{name}") for name in BUGS]
    out += [(Path(s.split(":")[0]).name + ":broken", s) for s in OWN_LOOP]
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--examples", type=int, default=DEFAULT_EXAMPLES)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", nargs="*", default=None)
    args = ap.parse_args()
    print(
        f"time to the first counterexample: search(first_only=True, examples={args.examples}, "
        f"seed={args.seed}, jobs={args.jobs}), {os.cpu_count()} cores\n"
    )
    print("| variant | load before | seconds | caught by | points | updates |")
    print("|---|---|---|---|---|---|")
    times: list[float] = []
    missed = []
    for label, spec in targets():
        if args.only and not any(o in label for o in args.only):
            continue
        variant = resolve(spec)
        load = os.getloadavg()[0]
        t0 = time.perf_counter()
        rep = search(
            variant, examples=args.examples, seed=args.seed, first_only=True, jobs=args.jobs
        )
        dt = time.perf_counter() - t0
        times.append(dt)
        ce = rep.result(rep.caught_by).counterexample if rep.caught_by else None
        if rep.caught_by is None:
            missed.append(label)
        pts = "" if ce is None else str(ce.case.n)
        ups = "" if ce is None else str(ce.record.updates)
        print(
            f"| `{label}` | {load:.2f} | {dt:.1f} | {rep.caught_by or 'MISSED'} | {pts} | {ups} |",
            flush=True,
        )
    if times:
        print(
            f"\n{len(times)} variants: median {statistics.median(times):.1f} s, "
            f"worst {max(times):.1f} s, missed {len(missed)}"
            + (f" ({', '.join(missed)})" if missed else "")
        )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
