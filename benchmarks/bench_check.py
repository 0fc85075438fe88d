"""`pla-proof check --all` on one core and on two, side by side in one run.

Run: python benchmarks/bench_check.py [--examples N] [--repeat R] [--jobs-b J]

Runs the whole command (fresh process: start-up, imports and compiled-loop loading
included) as ``pla-proof check --all --examples N --json`` with ``--jobs 1`` and with
``--jobs J`` (default 2), alternating A B A B ... ``R`` times, and prints per pair the
wall seconds, the CPU seconds of the command and its workers, the machine's load
average, and the ratio jobs-1 wall / jobs-J wall; then the median ratio.  It also
checks that both give the same verdict, the same failing properties and the same
counterexamples (``--jobs`` must not change the report).  The machine is shared:
compare ratios measured in one run, and read them next to the load.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any


def run(examples: int, jobs: int, out: str) -> tuple[float, float, dict[str, Any]]:
    """(wall seconds, CPU seconds of the command and its children, the JSON report)."""
    argv = ["pla-proof", "check", "--all", "--examples", str(examples), "--json"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(
        [*argv, "--jobs", str(jobs), "--out", out], capture_output=True, text=True, check=False
    )
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode not in (0, 1):
        sys.exit(f"pla-proof check failed (exit {done.returncode}): {done.stderr.strip()}")
    return wall, cpu, json.loads(done.stdout)


def verdicts(doc: dict[str, Any]) -> list[Any]:
    """What must not depend on --jobs: per variant the verdict, the failing
    properties and each counterexample's failure."""
    return [
        (
            r["variant"],
            r["ok"],
            [
                (p["id"], p["counterexample"]["points"], p["counterexample"]["failure"])
                for p in r["properties"]
                if p["status"] == "fail"
            ],
        )
        for r in doc["reports"]
    ]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--examples", type=int, default=50)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--jobs-b", type=int, default=2)
    args = ap.parse_args()
    j = args.jobs_b
    print(f"pla-proof check --all --examples {args.examples}: --jobs 1 vs --jobs {j}, ")
    print(f"{os.cpu_count()} cores, alternating, {args.repeat} pairs\n")
    print(f"| pair | load before | jobs 1 wall / CPU s | jobs {j} wall / CPU s | ratio |")
    print("|---|---|---|---|---|")
    ratios = []
    same = True
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.repeat):
            load = os.getloadavg()[0]
            w1, c1, d1 = run(args.examples, 1, os.path.join(tmp, "a"))
            w2, c2, d2 = run(args.examples, j, os.path.join(tmp, "b"))
            same = same and verdicts(d1) == verdicts(d2)
            ratios.append(w1 / w2)
            row = f"| {i + 1} | {load:.2f} | {w1:.1f} / {c1:.1f} | {w2:.1f} / {c2:.1f} |"
            print(f"{row} {w1 / w2:.2f} |", flush=True)
    print(f"\nmedian speed-up {statistics.median(ratios):.2f}x on {j} processes")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    print("same verdicts, failing properties and counterexamples: " + ("yes" if same else "NO"))
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
