"""Speed of the property suite.

Measures, under the ``ci`` profile:

1. examples per second of the core invariant property
   (``properties/test_runtime_lemmas_hold.py::test_every_runtime_lemma_holds_at_every_update``:
   same strategies, same check), split into time in the trainer + monitor and time in
   Hypothesis (generation, bookkeeping);
2. the wall time of ``pytest properties`` (serially, and with ``-n 2`` via pytest-xdist).

Run from the repository root::

    python benchmarks/bench_properties.py              # everything
    python benchmarks/bench_properties.py --no-suite   # only the examples per second
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HYPOTHESIS_PROFILE", "ci")

from hypothesis import given, settings  # noqa: E402

from pla_proof.testing.profiles import register_profiles  # noqa: E402
from pla_proof.strategies import update_orders  # noqa: E402
from properties._support import CASES, SEEDS  # noqa: E402
from properties.test_runtime_lemmas_hold import check_runtime_lemmas  # noqa: E402


def core_property_rate(examples: int) -> dict[str, float]:
    """Run the core invariant property for ``examples`` examples; time its parts."""
    settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])
    stats = {"examples": 0.0, "trainer_s": 0.0, "updates": 0.0}

    @settings(max_examples=examples)
    @given(case=CASES, order=update_orders(), seed=SEEDS)
    def prop(case: Any, order: Any, seed: int) -> None:
        t0 = time.perf_counter()
        run = check_runtime_lemmas(case, order, seed)
        stats["trainer_s"] += time.perf_counter() - t0
        stats["examples"] += 1
        stats["updates"] += run.updates

    t0 = time.perf_counter()
    prop()
    stats["wall_s"] = time.perf_counter() - t0
    return stats


def suite_wall_time(extra: list[str]) -> tuple[float, str]:
    """Wall time of ``pytest properties`` with ``extra`` arguments, and its summary line."""
    cmd = [sys.executable, "-m", "pytest", "properties", "-q", *extra]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]
    return wall, lines[-1] if lines else proc.stderr.strip()[-200:]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=1000)
    parser.add_argument("--no-suite", action="store_true", help="skip the pytest wall times")
    args = parser.parse_args()
    profile = os.environ["HYPOTHESIS_PROFILE"]
    print(f"profile: {profile}; cores available: {os.cpu_count()}; python {sys.version.split()[0]}")

    s = core_property_rate(args.examples)
    n = s["examples"]
    print(
        f"core invariant property: {n:.0f} examples in {s['wall_s']:.2f} s "
        f"= {n / s['wall_s']:.0f} examples/s"
    )
    print(
        f"  trainer + monitor: {s['trainer_s']:.2f} s ({100 * s['trainer_s'] / s['wall_s']:.0f}%), "
        f"{s['updates']:.0f} updates ({s['updates'] / n:.1f} per example, "
        f"{1e6 * s['trainer_s'] / max(1.0, s['updates']):.0f} us per update incl. run set-up)"
    )
    print(f"  Hypothesis (generation, shrinking bookkeeping): {s['wall_s'] - s['trainer_s']:.2f} s")
    if not args.no_suite:
        for extra in ([], ["-n", "2"]):
            wall, summary = suite_wall_time(extra)
            label = " ".join(["pytest properties", *extra])
            print(f"{label}: {wall:.1f} s wall ({summary})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
