"""Time to the first counterexample of each needle (bugs that show only near the edge of
one inequality), at the command's defaults, for several seeds, each search stopped at 60 s.

Run: python benchmarks/bench_needles.py [--seeds 0 1] [--jobs 2] [--backend crosshair] [--root DIR]
     [--needles NAME ...]

``--root`` runs the pla_proof found in another checkout (e.g. a worktree of an earlier
commit with this commit's ``pla_proof/variants/catalog/bugs.py`` copied in): the
"before aiming" column of docs/variants.md was measured that way on the commit before
the slack targets.  The machine may be shared: read the times next to the load.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ap = argparse.ArgumentParser()
ap.add_argument("--seeds", type=int, nargs="*", default=[0, 1])
ap.add_argument("--jobs", type=int, default=2)
ap.add_argument("--seconds", type=float, default=60.0)
ap.add_argument("--root", default=str(Path(__file__).resolve().parent.parent))
ap.add_argument("--backend", default="hypothesis", help="hypothesis or crosshair")
ap.add_argument("--needles", nargs="*", default=None, help="these needles only (default: all)")
args = ap.parse_args()
sys.path.insert(0, args.root)

from pla_proof.variants.boundary.limits import check_deadline  # noqa: E402
from pla_proof.variants.catalog.bugs import BUGS, NEEDLES  # noqa: E402
from pla_proof.variants.checking import search  # noqa: E402


def main() -> None:
    print(
        f"needles: first counterexample at the defaults, jobs={args.jobs}, "
        f"backend={args.backend}, {args.root}"
    )
    print("| needle | seed | load before | seconds | caught by | points |")
    print("|---|---|---|---|---|---|")
    for name in args.needles or NEEDLES:
        for seed in args.seeds:
            load = os.getloadavg()[0]
            t0 = time.perf_counter()
            with check_deadline(args.seconds):
                rep = search(
                    BUGS[name].variant(),
                    seed=seed,
                    first_only=True,
                    jobs=args.jobs,
                    **({} if args.backend == "hypothesis" else {"backend": args.backend}),
                )
            dt = time.perf_counter() - t0
            ce = rep.result(rep.caught_by).counterexample if rep.caught_by else None
            print(
                f"| `bug:{name}` | {seed} | {load:.2f} | {dt:.1f} | "
                f"{rep.caught_by or 'MISSED'} | {'' if ce is None else ce.case.n} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
