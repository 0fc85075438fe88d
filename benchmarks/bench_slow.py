"""Slow is not wrong: a class that needs 10^6 updates in pure Python gets an
inconclusive verdict with its reason within its time limit, not a failure.

Run: python benchmarks/bench_slow.py [--time-limit S] [--run-seconds S]

Writes a correct Perceptron class in pure Python (lists, no numpy) and a variant whose
cases are one data set the classic algorithm needs about 10^6 updates on (two nearly
parallel points, (1, 1) and (700, 701), opposite labels), then runs the whole command
``pla-proof check FILE:V --time-limit S --run-seconds R --json`` in a fresh process and
prints its wall time, exit code, verdict and reason.  It passes when the exit code is 3
(inconclusive), no property failed, the reason names the classic algorithm's updates,
and the wall time is within the time limit plus the process's start-up (10 s).

Measured (2 cores shared with other work, load average ~10; defaults --time-limit 60,
--run-seconds 5): wall 56.0 s, exit 3, verdict inconclusive, no property failed; each
run: "no result after 50 s (after 315392 update(s)): slow, not wrong -- the bound
(965899771205 update(s)) not reached; the classic algorithm needs 984205 update(s) on
this case (2 points, d = 2)".  With --time-limit 30 --run-seconds 2: wall 34.9 s, exit 3.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

VARIANT = '''\
"""A correct classic Perceptron written in pure Python, on a case that needs ~10^6 updates."""

from fractions import Fraction

from hypothesis import strategies as st

from pla_proof.variants import Case, Claim, Measure, Record, Variant

A = 700
X = ((Fraction(1), Fraction(1)), (Fraction(A), Fraction(A + 1)))
Y = (1, -1)
U = (Fraction(A + 2), Fraction(-A - 1))
HARD = Case(X, Y, U, Fraction(1), {}, "two-nearly-parallel-points")


def _dot(a, b):
    return sum((p * q for p, q in zip(a, b)), Fraction(0))


class V(Variant):
    name = "pure-python-classic"

    def cases(self):
        return st.just(HARD)

    def claim(self, case):
        return Claim(C=case.radius_squared, g=case.gamma, uu=case.uu)

    def run(self, case, order):
        w = [Fraction(0)] * case.d
        rec = Record()
        k, changed = 0, True
        while changed:
            changed = False
            for j, (x, y) in enumerate(zip(case.X, case.y)):
                t = y * _dot(w, x)
                if t <= 0:
                    new = [a + y * b for a, b in zip(w, x)]
                    k += 1
                    rec.add(Measure(k, j, t, _dot(case.u, w), _dot(case.u, new),
                                    _dot(w, w), _dot(new, new)))
                    w, changed = new, True
        rec.output["w"] = tuple(w)
        return rec
'''


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--run-seconds", type=float, default=5.0)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "pure_python_classic.py"
        path.write_text(VARIANT, encoding="utf-8")
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        env.pop("PLA_PROOF_TIME_LIMIT", None)
        argv = [
            sys.executable, "-m", "pla_proof", "check", f"{path}:V", "--json",
            "--time-limit", f"{a.time_limit:g}", "--run-seconds", f"{a.run_seconds:g}",
            "--out", str(Path(tmp) / "ce"),
        ]  # fmt: skip
        t0 = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, text=True, env=env, check=False)
        wall = time.perf_counter() - t0
    print(f"pla-proof check (pure-Python classic, ~10^6 updates needed), --time-limit "
          f"{a.time_limit:g}, --run-seconds {a.run_seconds:g}")  # fmt: skip
    print(f"wall {wall:.1f} s, exit {done.returncode}")
    try:
        doc = json.loads(done.stdout)
    except json.JSONDecodeError:
        sys.exit(f"no JSON report: {done.stderr.strip()[-500:]}")
    failed = [p["id"] for p in doc["properties"] if p["status"] == "fail"]
    print(f"verdict {doc['verdict']}, runs {doc['runs']}, slow {doc.get('slow')}, failed {failed}")
    for reason in doc.get("inconclusive_reasons", []):
        print(f"  {reason}")
    ok = (
        done.returncode == 3
        and doc["verdict"] == "inconclusive"
        and not failed
        and any("classic algorithm needs" in r for r in doc.get("inconclusive_reasons", []))
        and wall <= a.time_limit + 10
    )
    print("PASS" if ok else "FAIL")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
