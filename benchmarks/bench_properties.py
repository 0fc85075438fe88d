"""Speed of the property suite, on one core and on all of them.

Measures, under the ``ci`` profile (derandomised, so a serial and a parallel run try
the same examples):

1. examples per second of the core invariant property
   (``properties/test_runtime_lemmas_hold.py::test_every_runtime_lemma_holds_at_every_update``:
   same strategies, same check), split into time in the trainer + monitor and time in
   Hypothesis (generation, bookkeeping); and what Hypothesis reaches with an empty test
   body (the same strategies; the cheapest strategy of the same size);
2. ``pytest properties`` serially and with ``-n 2`` (pytest-xdist), in one run: wall
   time, speed-up, the examples Hypothesis ran (from ``--hypothesis-show-statistics``)
   per second and per core, whether every test has the same outcome in both runs, and
   what bounds the speed-up: start-up and collection (``--collect-only``, serial and
   with two workers), the sum of the tests' own times, and the longest test (a test
   runs on one worker, so the suite cannot finish before it does);
3. with ``--whole``, the same for the whole suite (``pytest``: tests, properties,
   doctests), which is what CI runs.

Run from the repository root::

    python benchmarks/bench_properties.py              # 1 and 2
    python benchmarks/bench_properties.py --no-suite   # only 1
    python benchmarks/bench_properties.py --whole      # 1, 2 and 3
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PROFILE = os.environ.setdefault("HYPOTHESIS_PROFILE", "ci")

from hypothesis import given, settings  # noqa: E402

from pla_proof.testing.profiles import register_profiles  # noqa: E402

register_profiles()
settings.load_profile(PROFILE)  # before the suite's modules read the profile's examples

from pla_proof.strategies import update_orders  # noqa: E402
from properties._support import CASES, SEEDS  # noqa: E402
from properties.test_runtime_lemmas_hold import check_runtime_lemmas  # noqa: E402


def core_property_rate(examples: int) -> dict[str, float]:
    """Run the core invariant property for ``examples`` examples; time its parts."""
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


def floor_rates(examples: int) -> dict[str, float]:
    """Examples per second Hypothesis reaches with nothing to test: the core property's
    own strategies with an empty body (no trainer, no chooser draws, no ``target``), and
    the cheapest strategy of the same size (a list of 60 small integers, as many numbers
    as a 12 x 5 data set).  They bound what any trainer could reach."""
    from hypothesis import strategies as st

    out: dict[str, float] = {}

    @settings(max_examples=examples)
    @given(case=CASES, order=update_orders(), seed=SEEDS)
    def same_strategies(case: Any, order: Any, seed: int) -> None:
        pass

    @settings(max_examples=examples)
    @given(st.lists(st.integers(-20, 20), min_size=60, max_size=60))
    def sixty_integers(xs: list[int]) -> None:
        pass

    for name, fn in (("same_strategies", same_strategies), ("sixty_integers", sixty_integers)):
        t0 = time.perf_counter()
        fn()
        out[name] = examples / (time.perf_counter() - t0)
    return out


@dataclass
class SuiteRun:
    label: str
    wall: float
    cpu: float
    summary: str
    outcomes: dict[str, str]
    durations: dict[str, float]
    examples: int


_EXAMPLES = re.compile(r"(\d+) passing, (\d+) failing, and (\d+) invalid test cases")


def pytest_run(paths: list[str], extra: list[str], label: str) -> SuiteRun:
    """Wall time, outcome and duration of every test, and examples run by Hypothesis."""
    with tempfile.TemporaryDirectory() as tmp:
        xml = os.path.join(tmp, "junit.xml")
        cmd = [sys.executable, "-m", "pytest", *paths, "-q", "-p", "no:randomly"]
        cmd += ["--hypothesis-show-statistics", f"--junitxml={xml}", *extra]
        t0, c0 = time.perf_counter(), _children_cpu()
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
        wall, cpu = time.perf_counter() - t0, _children_cpu() - c0
        outcomes: dict[str, str] = {}
        durations: dict[str, float] = {}
        if os.path.exists(xml):
            for case in ET.parse(xml).getroot().iter("testcase"):
                name = f"{case.get('classname')}::{case.get('name')}"
                kids = {child.tag for child in case}
                outcome = next((k for k in ("failure", "error", "skipped") if k in kids), "passed")
                outcomes[name] = outcome
                durations[name] = float(case.get("time", 0.0))
    examples = sum(sum(int(g) for g in m.groups()) for m in _EXAMPLES.finditer(proc.stdout))
    lines = [ln for ln in proc.stdout.splitlines() if re.search(r"\d+ (passed|failed)", ln)]
    summary = lines[-1].strip("= ") if lines else proc.stderr.strip()[-200:]
    return SuiteRun(label, wall, cpu, summary, outcomes, durations, examples)


def _children_cpu() -> float:
    """CPU seconds of every finished child process (and theirs): the pytest-xdist workers
    are counted too.  Unlike wall time, it does not grow when other work shares the cores."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def collect_time(paths: list[str], extra: list[str]) -> float:
    """Wall time of start-up, imports and collection alone."""
    cmd = [sys.executable, "-m", "pytest", *paths, "--collect-only", "-q", *extra]
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    return time.perf_counter() - t0


def compare(paths: list[str], workers: int) -> None:
    """Serial vs ``-n workers`` on ``paths``, in one run."""
    what = " ".join(["pytest", *paths]) if paths else "pytest"
    serial = pytest_run(paths, [], what)
    parallel = pytest_run(paths, ["-n", str(workers)], f"{what} -n {workers}")
    startup = collect_time(paths, [])
    startup_n = collect_time(paths, ["-n", str(workers)])
    for r, cores in ((serial, 1), (parallel, workers)):
        rate = r.examples / r.wall if r.wall else 0.0
        print(
            f"{r.label}: {r.wall:.1f} s wall, {r.cpu:.1f} s CPU ({r.summary}); {r.examples} "
            f"examples, {rate:.0f} per s, {rate / cores:.0f} per s per core, "
            f"{r.examples / r.cpu if r.cpu else 0:.0f} per CPU second"
        )
    same = serial.outcomes == parallel.outcomes
    differ = sorted(k for k in serial.outcomes if serial.outcomes[k] != parallel.outcomes.get(k))
    differing = f", differ: {', '.join(differ)}" if differ else ""
    print(
        f"  speed-up {serial.wall / parallel.wall:.2f}x on {workers} workers; same outcome for "
        f"every test: {same} ({len(serial.outcomes)} tests{differing})"
    )
    print(
        f"  CPU: {parallel.cpu:.1f} s with {workers} workers vs {serial.cpu:.1f} s serial "
        f"(parallel overhead {parallel.cpu - serial.cpu:+.1f} s); on {workers} idle cores the "
        f"parallel run needs at least {parallel.cpu / workers:.1f} s, a speed-up of at most "
        f"{serial.cpu / (parallel.cpu / workers):.2f}x"
    )
    total = sum(serial.durations.values())
    longest = max(serial.durations.items(), key=lambda kv: kv[1], default=("-", 0.0))
    print(
        f"  bounds: start-up + collection {startup:.1f} s serial, {startup_n:.1f} s with "
        f"{workers} workers; tests' own time {total:.1f} s (ideal {workers} workers: "
        f"{startup_n + total / workers:.1f} s); longest test {longest[1]:.1f} s "
        f"({longest[0].rsplit('::', 1)[-1]})"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--examples", type=int, default=1000)
    parser.add_argument("--no-suite", action="store_true", help="skip the pytest runs")
    parser.add_argument("--whole", action="store_true", help="also the whole suite (CI)")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    print(
        f"profile: {PROFILE}; cores available: {os.cpu_count()}; python {sys.version.split()[0]}; "
        f"load average {os.getloadavg()[0]:.1f} (other work on the machine slows -n 2 first)"
    )

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
    f = floor_rates(args.examples)
    print(
        f"  Hypothesis alone, empty test body: the same strategies {f['same_strategies']:.0f} "
        f"examples/s; a list of 60 small integers {f['sixty_integers']:.0f} examples/s"
    )
    if not args.no_suite:
        compare(["properties"], args.workers)
    if args.whole:
        compare([], args.workers)
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
