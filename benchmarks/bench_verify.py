"""Wall time of ``pla-proof verify --json``: the whole symbolic check, imports included.

Each repetition is a fresh interpreter (so SymPy's and Z3's import cost is counted),
run as a subprocess; the script reports the median, the spread, the number of
obligations and the slowest ones (from the command's own per-obligation timings).

Run:  python benchmarks/bench_verify.py [--repeat 7]
Target (the issue): under 5 s of wall time on a 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

COMMAND = [sys.executable, "-m", "pla_proof", "verify", "--json"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="fresh runs to time (default 7)")
    args = parser.parse_args()
    walls: list[float] = []
    report: dict[str, object] = {}
    for _ in range(args.repeat):
        start = time.perf_counter()
        proc = subprocess.run(COMMAND, capture_output=True, text=True, check=False)
        walls.append(time.perf_counter() - start)
        if proc.returncode != 0:
            print(proc.stdout[-2000:], proc.stderr[-2000:], file=sys.stderr)
            print(f"verify exited {proc.returncode}", file=sys.stderr)
            return 1
        report = json.loads(proc.stdout)
    obligations = report["obligations"]
    assert isinstance(obligations, list)
    slowest = sorted(obligations, key=lambda ob: -ob["seconds"])[:5]
    cores = os.cpu_count()
    shown = " ".join(["python -m pla_proof", *COMMAND[3:]])
    print(f"command: {shown}  ({args.repeat} fresh runs, {cores} cores)")
    print(
        f"wall time: median {statistics.median(walls):.2f} s, min {min(walls):.2f} s, "
        f"max {max(walls):.2f} s (target < 5 s)"
    )
    print(
        f"obligations: {len(obligations)}, all proved: {report['all_proved']}; "
        f"checking alone (last run): {report['seconds']:.2f} s"
    )
    print("slowest obligations (last run):")
    for ob in slowest:
        print(f"  {ob['id']:<16} {ob['checker']:<6} {ob['scope']:<12} {ob['seconds']:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
