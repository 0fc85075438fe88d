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

With ``--phases`` (implies ``--coq``), it also times where the wall time of ``verify --json
--coq`` goes, in fresh interpreters whose functions are wrapped with clocks (after one
warm-up run: ``coqc`` starts early on the text the last run compiled): when ``coqc``
starts, when the export is built and compared with the text ``coqc`` compiles, the SymPy
and Z3 check (the chain and small runs with it) that runs meanwhile, when ``coqc`` is
done, and the exit -- each as a median of seconds since the interpreter started, with
the load average.

Run:  python benchmarks/bench_verify.py [--repeat 7] [--coq] [--phases]
Target: ``verify`` well under 5 s of wall time on a 2-core machine; ``verify --coq``
at most 10 s.
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


#: a fresh interpreter running ``verify --json --coq`` with clocks on its phases (printed
#: on standard error as one line ``PHASES {...}``)
PHASED = r"""
import json, sys, time
T0 = time.perf_counter()
marks = {}
def mark(name):
    marks.setdefault(name, round(time.perf_counter() - T0, 3))
from pla_proof.proof import coqc as coqc_module, verification  # (light: no SymPy yet)
early_init, claim, wait = (coqc_module.EarlyCoqc.__init__, coqc_module.EarlyCoqc.claim,
                           coqc_module.EarlyCoqc.wait)
def init(self, binary, text, remember):
    if text is not None:
        mark("coqc started (early)")
    early_init(self, binary, text, remember)
def claimed(self, text):
    mark("export built")
    ok = claim(self, text)
    mark("export matched" if ok else "export differed")
    return ok
def waited(self, timeout):
    out = wait(self, timeout)
    mark("coqc done")
    return out
verify_proof = verification.verify_proof
def verifying(*a, **k):
    mark("obligations built")
    from pla_proof.proof import blueprint, coq
    compile_text, check_all = coq.compile_text, blueprint.check_all
    def compiled(*a, **k):
        mark("coqc started (after the export)")
        out = compile_text(*a, **k)
        mark("coqc done")
        return out
    def checked(*a, **k):
        mark("check started")
        out = check_all(*a, **k)
        mark("check done")
        return out
    coq.compile_text, blueprint.check_all = compiled, checked
    out = verify_proof(*a, **k)
    mark("verified")
    return out
coqc_module.EarlyCoqc.__init__, coqc_module.EarlyCoqc.claim = init, claimed
coqc_module.EarlyCoqc.wait, verification.verify_proof = waited, verifying
from pla_proof.cli import main
code = main(["verify", "--json", "--coq"])
mark("exit")
print("PHASES " + json.dumps(marks), file=sys.stderr)
sys.exit(code)
"""


def phases(repeat: int) -> None:
    """Median seconds since the interpreter started at which each phase of ``verify
    --json --coq`` is reached, over ``repeat`` fresh runs after one warm-up."""
    command = [sys.executable, "-c", PHASED]
    subprocess.run(command, capture_output=True, text=True, check=False)  # (warm-up)
    seen: dict[str, list[float]] = {}
    walls, loads = [], []
    for _ in range(repeat):
        loads.append(os.getloadavg()[0])
        start = time.perf_counter()
        proc = subprocess.run(command, capture_output=True, text=True, check=False)
        walls.append(time.perf_counter() - start)
        line = next(x for x in proc.stderr.splitlines() if x.startswith("PHASES "))
        for name, at in json.loads(line[len("PHASES ") :]).items():
            seen.setdefault(name, []).append(at)
    print(
        f"verify --json --coq, {repeat} fresh runs after a warm-up: wall median "
        f"{statistics.median(walls):.2f} s (min {min(walls):.2f}, max {max(walls):.2f}); "
        f"load average (1 min) {min(loads):.2f}-{max(loads):.2f}"
    )
    for name, ats in sorted(seen.items(), key=lambda kv: statistics.median(kv[1])):
        print(f"  {name:<32} at {statistics.median(ats):6.2f} s (of {len(ats)} runs)")


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
    parser.add_argument(
        "--phases", action="store_true", help="also time the phases of verify --coq (needs coqc)"
    )
    args = parser.parse_args()
    args.coq = args.coq or args.phases
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
    if args.phases:
        phases(args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
