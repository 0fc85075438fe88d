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

Run: python benchmarks/bench_check.py --classic [--repeat R] [--against DIR]

Times ``python -m pla_proof check classic`` the way a user runs it (a fresh process
each time, compiled bytecode, the default two worker processes on this machine's
cores): R runs (default 7), the median wall and CPU seconds (the command and its
workers); with ``--against DIR`` (a checkout of another revision) the two alternate,
A B A B ..., each with its own checkout first on ``PYTHONPATH``, and the median of the
pairs' ratios is printed too.  Both write their bytecode under a temporary directory
(``PYTHONPYCACHEPREFIX``), so neither compiles its sources on every run.

Measured 2026-11-26 (2 cores, shared, load 7-8 from other work; whole-process figures
of fresh processes, alternating with main f4759c6; medians):

    | `check classic` | runs | wall | CPU | peak memory |
    |---|---|---|---|---|
    | main f4759c6, compiled bytecode | 9 | 3.31 s | 2.14 s | 123 MiB |
    | now, compiled bytecode | 9 | 2.68 s (0.81x) | 1.73 s (0.81x) | 85 MiB |
    | main f4759c6, no bytecode written | 7 | 3.65 s | 2.35 s | 123 MiB |
    | now, no bytecode written | 7 | 2.90 s (0.82x) | 1.88 s (0.82x) | 85 MiB |

``--classic --against`` main (this script, 7 pairs, load 7.2-7.7): 3.87 s against 4.89 s
wall (0.80x), 1.91 s against 2.35 s of CPU.  The ratios are the medians of the pairs;
under this load the wall times are about twice a quiet machine's, and the CPU seconds
are the figure to compare.

The budget of one run (CPU seconds, one process each; the parent's proof overlaps the
workers' search): interpreter and site 0.05; the parent's imports before the fork
(Hypothesis 0.16, numpy and the engine 0.10, pla_proof 0.10) 0.37; the claim's proof
0.41 on main (SymPy's import 0.25, the proof modules 0.07, Z3 0.02, reading the rule and
Z3's five obligations 0.05), 0.05 now (the rule read and proved without SymPy); each
worker's shard of 100 examples 0.58-0.72 (0.65-0.80 before the workers were forked from
a frozen heap; Hypothesis's generation, targeting and drawing the cases about two
thirds, the 112 runs a third; shard 0 also runs the fixed examples, 0.08).  On 2 cores
the floor is start-up + imports + the longer shard: 0.05 + 0.35 + 0.7 = about 1.1 s;
1.0 s needs a cheaper search (the drawing of cases, pla_proof/strategies.py, or the
runs), not more overlap: the shards are fixed (2, seeded), both cores search.
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


def run_classic(checkout: str, cache: str) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the command and its workers) of one fresh
    ``python -m pla_proof check classic`` with ``checkout`` first on the path."""
    env = dict(os.environ, PYTHONPATH=checkout, PYTHONPYCACHEPREFIX=cache)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pla_proof", "check", "classic"],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        cwd=tempfile.gettempdir(),
    )
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0 or "the claim is proved" not in done.stdout:
        sys.exit(f"pla-proof check classic failed (exit {done.returncode}): {done.stderr.strip()}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def classic(repeat: int, against: str | None) -> None:
    """``check classic`` in fresh processes, alone or alternating with ``against``."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sides = {"this checkout": here} | ({"against": against} if against else {})
    print(f"python -m pla_proof check classic, fresh processes, {repeat} runs each")
    print(f"{os.cpu_count()} cores; load average before {os.getloadavg()[0]:.2f}\n")
    got: dict[str, list[tuple[float, float]]] = {k: [] for k in sides}
    with tempfile.TemporaryDirectory() as tmp:
        for name, path in sides.items():  # one warm-up each: the bytecode is written
            run_classic(path, os.path.join(tmp, name))
        for _ in range(repeat):
            for name, path in sides.items():
                got[name].append(run_classic(path, os.path.join(tmp, name)))
    print("| checkout | wall median (min-max) s | CPU median s |")
    print("|---|---|---|")
    for name, runs in got.items():
        walls = [w for w, _ in runs]
        cpu = statistics.median(c for _, c in runs)
        print(f"| {name} | {statistics.median(walls):.2f} ({min(walls):.2f}-{max(walls):.2f}) "
              f"| {cpu:.2f} |")  # fmt: skip
    if against:
        ratios = [a[0] / b[0] for a, b in zip(got["this checkout"], got["against"], strict=True)]
        print(f"\nwall ratio this / against, median of pairs: {statistics.median(ratios):.2f}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--examples", type=int, default=50)
    ap.add_argument("--repeat", type=int, default=None)
    ap.add_argument("--jobs-b", type=int, default=2)
    ap.add_argument("--classic", action="store_true", help="time `check classic` instead")
    ap.add_argument("--against", metavar="DIR", help="--classic: a checkout to alternate with")
    args = ap.parse_args()
    if args.classic:
        classic(args.repeat or 7, args.against)
        return
    args.repeat = args.repeat or 3
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
