"""Benchmark: how fast the command line starts, answers --help and refuses bad input.

Run:  python benchmarks/bench_startup.py [--repeat 7]

Each figure is the median wall time of a fresh process (``python -m pla_proof ...``),
``--repeat`` times, side by side with ``python -c pass`` (the interpreter alone)
in the same run; the last column is the difference, what pla_proof itself costs.
Also: the import time of ``pla_proof``, of ``pla_proof.cli`` and of what a first
``train()`` imports, beside ``sklearn.linear_model``'s, in a fresh interpreter, and
the cold start of every command on a tiny input (imports of the libraries it needs
included), and what ``check classic`` does before its workers fork.  ``farm-bench``
gives the same figures with CPU time:
``farm-bench -n 9 --vs 'python -c pass' -- python -m pla_proof trace --help``.
The machine is shared: compare within one run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

TARGET = 0.5  # seconds: --help and refusals must stay well under this


def wall(argv: list[str], repeat: int, cwd: str) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(argv, capture_output=True, cwd=cwd, check=False)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def import_time(module: str, repeat: int) -> float:
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    runs = [
        float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout)
        for _ in range(repeat)
    ]
    return statistics.median(runs)


_BEFORE_FORK = """
import resource, sys, time
t = time.perf_counter()
from pla_proof.variants.catalog.registry import resolve
from pla_proof.variants.checking.drawing import declarations
from pla_proof.variants.checking.search import run_searches
declarations(resolve("classic"), 5.0)
r = resource.getrusage(resource.RUSAGE_SELF)
heavy = [m for m in ("sympy", "z3", "numba", "scipy") if m in sys.modules]
print(r.ru_utime + r.ru_stime, time.perf_counter() - t, ",".join(heavy) or "none")
"""


def before_fork(repeat: int) -> str:
    """What ``check classic`` does before it forks its workers (the part no worker
    overlaps): median CPU and wall seconds in a fresh process, and the heavy libraries
    imported by then (SymPy and Z3 belong to the proof, run while the workers search)."""
    rows = []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", _BEFORE_FORK], capture_output=True, text=True)
        rows.append(out.stdout.split())
    cpu = statistics.median(float(r[0]) for r in rows)
    wall = statistics.median(float(r[1]) for r in rows)
    return f"{cpu:.3f} s CPU, {wall:.3f} s wall; heavy imports: {rows[-1][2]}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    py = [sys.executable]
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "bad.csv"), "w") as fh:
            fh.write("1,2,1\n3,oops,1\n")
        base = wall([*py, "-c", "pass"], args.repeat, tmp)
        print(f"python -c pass: {base:.3f} s (median of {args.repeat})")
        for module in ("pla_proof", "pla_proof.cli"):
            print(f"import {module}: {import_time(module, args.repeat):.3f} s")
        # what a first run of train() imports, beside scikit-learn's own import
        run = "pla_proof.trainer, pla_proof.engine.drive, pla_proof.engine.chunks"
        print(f"import {run}: {import_time(run, args.repeat):.3f} s")
        try:
            sk = import_time("sklearn.linear_model", args.repeat)
            print(f"import sklearn.linear_model: {sk:.3f} s")
        except ValueError:  # scikit-learn is not installed: no figure
            pass
        print(f"check classic before its workers fork: {before_fork(args.repeat)}")
        groups = {
            "help": [
                ["--help"],
                *[
                    [c, "--help"]
                    for c in ("verify", "explain", "trace", "bound", "certify", "check")
                ],
            ],
            "bad input": [
                ["trace", "missing.csv"],
                ["trace", "bad.csv"],
                ["certify", "orthonormal:2", "1,x"],
                ["trace", "orthonormal:2", "--rule", "sideways"],
                ["explain", "--json", "--markdown"],
            ],
            "issue targets (trace/explain students <= 0.3 s, check classic <= 1.0 s)": [
                ["trace", "students"],
                ["explain", "students"],
                ["check", "classic", "--out", tmp],
                ["check", "classic", "--jobs", "1", "--out", tmp],
            ],
            "cold start": [
                ["certify", "orthonormal:2", "1,-1"],
                ["bound", "orthonormal:2", "--no-runs"],
                ["trace", "orthonormal:2"],
                ["explain", "orthonormal:2"],
                ["verify", "--only", "L1"],
                ["check", "classic", "--examples", "5", "--out", tmp],
            ],
        }
        worst = 0.0
        for group, cases in groups.items():
            print(f"\n{group}:")
            for case in cases:
                t = wall([*py, "-m", "pla_proof", *case], args.repeat, tmp)
                if group in ("help", "bad input"):
                    worst = max(worst, t)
                print(f"  pla-proof {' '.join(case):42s} {t:6.3f} s  (+{t - base:.3f} s)")
        verdict = "within" if worst < TARGET else "OVER"
        print(f"\nslowest --help / refusal: {worst:.3f} s, {verdict} the {TARGET} s target")


if __name__ == "__main__":
    main()
