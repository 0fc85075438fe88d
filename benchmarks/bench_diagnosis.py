"""The diagnosis at the command's defaults: for every known mistake of the diagnosis
table (tests/test_variants_diagnosis.py: seeded bugs and the ``--fit`` corpus's broken
implementations), ``pla-proof check`` as a user runs it -- default examples, seed 0 --
then the mechanism each diagnosis names (right, wrong, or not named with confidence)
and what the diagnosis added to the check's time, beside the search's own time.

Run: python benchmarks/bench_diagnosis.py [--jobs 2] [--only NAME ...]

The table test names each mistake on a counterexample fixed in the test; here the
counterexample is whatever the default search finds and shrinks, so a mechanism may be
said differently (a tie where the fixed case has a strict mistake): each row prints the
words.  A passing check computes no diagnosis (nothing is added).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "tests"))

from test_variants_diagnosis import FIT, TABLE  # noqa: E402

from pla_proof.checks import Specs, check_specs  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--only", nargs="*", default=None)
    args = ap.parse_args()
    rows = []
    out = tempfile.mkdtemp()
    for what, (expected, _) in TABLE.items():
        if args.only and what not in args.only:
            continue
        specs = Specs([what]) if what.startswith("bug:") else Specs([], fit=[str(FIT / what)])
        load = os.getloadavg()[0]
        t0 = time.monotonic()
        outcome = check_specs(specs, jobs=args.jobs, out=out)
        total = time.monotonic() - t0
        c = outcome.checked[0]
        seen: dict[str, float] = {}
        first = None
        for p in c.report.failed:
            d = c.diagnoses.get(p.id)
            if d is None:
                continue
            first = first or d
            seen.setdefault(d.divergence.words if d.divergence else d.why, d.seconds)
        spent = sum(seen.values())
        named = first.mechanism if first is not None else "-"
        confident = (
            first is not None and first.divergence is not None and (first.divergence.confident)
        )
        verdict = "right" if named == expected else ("WRONG" if confident else "not named")
        rows.append((what, expected, named, verdict, spent, total, load))
        words = (
            first.divergence.words if first and first.divergence else (first.why if first else "")
        )
        print(
            f"{what:48s} {expected:20s} {named:20s} {verdict:9s} diagnosis {spent:5.2f} s "
            f"of {total:6.1f} s (load {load:.1f})\n    {words[:220]}",
            flush=True,
        )
    right = sum(1 for r in rows if r[3] == "right")
    wrong = sum(1 for r in rows if r[3] == "WRONG")
    times = [r[4] for r in rows]
    print(
        f"\n{right} of {len(rows)} named right, {wrong} named wrongly with confidence; "
        f"diagnosis time median {statistics.median(times):.2f} s, worst {max(times):.2f} s"
    )


if __name__ == "__main__":
    main()
