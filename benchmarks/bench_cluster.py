"""A search on a Dask cluster against the local ``--jobs`` pool, on this machine.

Starts a real ``dask scheduler`` and ``dask worker`` processes on loopback (each
``--nworkers 1 --nthreads 1``, under a nanny, as people start them), and runs the same
units -- seeded shards of catalog variants, the default shard size unless
``--examples`` says otherwise -- three ways, alternating, ``--repeat`` times:

* the local pool, ``--jobs 2`` (the reference: what a 2-core machine does without Dask);
* the cluster with 2 workers, and with 1 worker;

and prints examples run per second for each, the ratio cluster/local, and the cost of
the cluster per shard: with one worker the shards run one after another, so the time
between two shards' results, less the second shard's own time, is what the
cluster adds to it -- each against the same shard run in this process, paired (sending
the task and the variant, the clean process it runs in, returning the result).

    python benchmarks/bench_cluster.py                 # 8 variants x 2 shards x 100 examples
    python benchmarks/bench_cluster.py --examples 400  # longer shards
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "tests"))

from dask_parts import loopback_cluster  # noqa: E402

from pla_proof.variants.catalog.registry import resolve  # noqa: E402
from pla_proof.variants.checking.cluster import Cluster, run_units_on_cluster  # noqa: E402
from pla_proof.variants.checking.shard import DEFAULT_SHRINK_RUNS  # noqa: E402
from pla_proof.variants.checking.workers import run_unit, run_units  # noqa: E402

VARIANTS = ["classic", "unit-ball", "bias-augment", "learning-rate", "margin", "normalised"]
VARIANTS += ["nonzero-start", "classic-strict"]


def _units(examples: int, shards: int, seed: int) -> list[tuple[Any, dict[str, Any]]]:
    units = []
    for name in VARIANTS:
        v = resolve(name)
        for s in range(shards):
            kw = dict(
                examples=examples, seed=seed, shard=s, mode="exact", limit=5.0,
                first_only=False, shrink_runs=DEFAULT_SHRINK_RUNS, progress=None,
                backend="hypothesis", extra=[] if s == 0 else None,
            )  # fmt: skip
            units.append((v, kw))
    return units


def _local(units: list[Any], jobs: int) -> tuple[float, int]:
    runs = [0]

    def finish(t: int, r: Any) -> None:
        runs[0] += r.runs

    t0 = time.monotonic()
    run_units(units, list(range(len(units))), jobs, finish)
    return time.monotonic() - t0, runs[0]


def _cluster(units: list[Any], address: str) -> tuple[float, dict[int, float]]:
    """Wall time, and the time between each shard's result and the one before it
    (with one worker the shards run one after another: that is the shard's time there)."""
    came: list[tuple[float, int]] = []

    def finish(t: int, r: Any) -> None:
        came.append((time.monotonic(), t))

    t0 = time.monotonic()
    run_units_on_cluster(units, list(range(len(units))), Cluster(address), [0] * len(units), finish)
    wall = time.monotonic() - t0
    return wall, {b[1]: b[0] - a[0] for a, b in itertools.pairwise(came)}


def _each(units: list[Any]) -> dict[int, float]:
    """Each shard's own time, run here in this process (no process of its own, no
    cluster): the work the cluster's time is compared with."""
    out = {}
    for t, (v, kw) in enumerate(units):
        t0 = time.monotonic()
        run_unit(v, kw)
        out[t] = time.monotonic() - t0
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--examples", type=int, default=100, help="examples per shard")
    ap.add_argument("--shards", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    units = _units(args.examples, args.shards, 0)
    runs_of = _local(units, 2)[1]  # (a warm-up: the compiled loops loaded; the runs counted)
    rows: dict[str, list[float]] = {
        "local --jobs 2": [],
        "dask, 2 workers": [],
        "dask, 1 worker": [],
    }
    added: list[float] = []
    own: list[float] = []
    with loopback_cluster(2) as two, loopback_cluster(1) as one:
        _cluster(units, two.address)  # (warm-up: each worker's clean-process server started)
        _cluster(units, one.address)
        _each(units)
        for _ in range(args.repeat):
            rows["local --jobs 2"].append(_local(units, 2)[0])
            rows["dask, 2 workers"].append(_cluster(units, two.address)[0])
            wall, there = _cluster(units, one.address)
            rows["dask, 1 worker"].append(wall)
            here = _each(units)
            added += [there[t] - here[t] for t in there]
            own += list(here.values())
    print(
        f"{len(units)} shards ({len(VARIANTS)} variants x {args.shards}) of {args.examples} "
        f"examples, {runs_of} runs in all; {args.repeat} repeats, alternating\n"
    )
    print(f"{'how':18s} {'wall s (min / median / max)':30s} runs/s (median)")
    for how, walls in rows.items():
        med = statistics.median(walls)
        print(
            f"{how:18s} {min(walls):6.2f} / {med:6.2f} / {max(walls):6.2f}{'':9s} "
            f"{runs_of / med:8.1f}"
        )
    ratio = statistics.median(rows["local --jobs 2"]) / statistics.median(rows["dask, 2 workers"])
    print(f"\nthroughput, dask with 2 workers / local --jobs 2: {ratio:.2f}")
    mean_shard = statistics.mean(own)
    med_added = statistics.median(added)
    print(
        f"a shard's own time (run in this process): {mean_shard:.3f} s on average; on the "
        f"cluster it takes {med_added * 1000:.0f} ms more at the median (paired by shard; "
        f"{min(added) * 1000:.0f} to {max(added) * 1000:.0f} ms): "
        f"{100 * med_added / mean_shard:.1f} % of a shard"
    )


if __name__ == "__main__":
    main()
