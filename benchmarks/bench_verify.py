"""Wall time of ``pla-proof verify --json``: the whole symbolic check, imports included,
side by side with its parts.

Each repetition is a fresh interpreter (so SymPy's and Z3's import cost is counted),
run as a subprocess, the commands interleaved so that a change in the machine's load
hits them alike:

* ``verify --json`` -- every obligation, the chain check and the small runs;
* ``verify --json --only '*'`` -- the same obligations alone (no chain, no small runs):
  the reference the ratio is taken against;
* with ``--coq``, also ``verify --json --coq`` (one ``coqc`` run on top).

The script reports medians, spreads and ratios, the time of the small runs (from the
command's own report) and the slowest obligations.

Run:  python benchmarks/bench_verify.py [--repeat 7] [--coq]
Target: ``verify`` well under 5 s of wall time on a 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any

BASE = [sys.executable, "-m", "pla_proof", "verify", "--json"]
COMMANDS = {
    "verify": BASE,
    "obligations only": [*BASE, "--only", "*"],
    "verify --coq": [*BASE, "--coq"],
}


def run(command: list[str]) -> tuple[float, dict[str, Any]]:
    start = time.perf_counter()
    proc = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        print(proc.stdout[-2000:], proc.stderr[-2000:], file=sys.stderr)
        raise SystemExit(f"{' '.join(command[3:])} exited {proc.returncode}")
    return wall, json.loads(proc.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="fresh runs to time (default 7)")
    parser.add_argument("--coq", action="store_true", help="also time verify --coq (needs coqc)")
    args = parser.parse_args()
    names = [n for n in COMMANDS if args.coq or n != "verify --coq"]
    walls: dict[str, list[float]] = {n: [] for n in names}
    reports: dict[str, dict[str, Any]] = {}
    for _ in range(args.repeat):
        for name in names:
            wall, reports[name] = run(COMMANDS[name])
            walls[name].append(wall)
    print(f"{args.repeat} fresh runs of each, interleaved, {os.cpu_count()} cores")
    reference = statistics.median(walls["obligations only"])
    for name in names:
        shown = " ".join(["python -m pla_proof", *COMMANDS[name][3:]])
        median = statistics.median(walls[name])
        print(
            f"  {shown:<50} median {median:.2f} s (min {min(walls[name]):.2f}, "
            f"max {max(walls[name]):.2f}), ratio to obligations only {median / reference:.2f}"
        )
    full = reports["verify"]
    small = full["small_runs"]
    print(
        f"obligations: {len(full['obligations'])}, ok: {full['ok']}; checking them (last run): "
        f"{full['seconds']:.2f} s; small runs (last run): {small['seconds']:.2f} s "
        f"({len(small['cases'])} cases)"
    )
    print("slowest obligations (last run):")
    for ob in sorted(full["obligations"], key=lambda ob: -ob["seconds"])[:5]:
        print(f"  {ob['id']:<16} {ob['checker']:<6} {ob['scope']:<12} {ob['seconds']:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
