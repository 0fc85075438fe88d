"""The ``campaign`` profile beside HypoFuzz: what each finds in the same time on the same cores.

In one run, for the same wall time and the same number of processes, on the same tests:

1. **suite**: the property suite (``properties/``) plus four properties with a bug to
   find (``benchmarks/campaign_bugs.py``, from a plus-x trainer found at once to a wrong
   sharper bound that only a targeted search refutes), searched by
   ``pytest --pla-profile campaign --pla-minutes M -n 2`` and then by
   ``hypothesis fuzz -n 2`` for the wall time the campaign took;
2. with ``--bug-minutes M``, **bugs alone**: the four bug properties only, the same way.

Both tools are measured by the same counter, ``benchmarks/campaign_probe.py`` (a pytest
plugin loaded into both: test cases run per property, the time and the test cases to
the first failure, the largest ``hypothesis.target`` score per label); each tool's own
count is printed beside it as a cross-check.

HypoFuzz is not a dependency of pla_proof, nor an extra, nor imported by it: its licence
(AGPL-3.0 up to 25.4.8; from 25.4.9 on, free for non-commercial use only, commercial
use needs a licence from its author) is the user's to accept.  Install it into a scratch
virtual environment together with this checkout, and name its ``hypothesis`` command::

    python3 -m venv /tmp/hypofuzz-venv
    /tmp/hypofuzz-venv/bin/pip install hypofuzz 'hypothesis==6.157.0' -e .
    python benchmarks/bench_campaign.py --hypofuzz /tmp/hypofuzz-venv/bin/hypothesis

(or ``PLA_BENCH_HYPOFUZZ=/tmp/hypofuzz-venv/bin/hypothesis``).  HypoFuzz 25.11.1 needs
Hypothesis <= 6.157.0: from 6.157.1 on, its worker processes crash with
``AttributeError: 'ConjectureResult' object has no attribute 'slice_comments'`` as soon
as they have shrunk a failure (the benchmark reports such crashes).

Options: ``--minutes M`` (suite, per tool; default 2), ``--bug-minutes M`` (bugs alone,
per tool; default 0: skipped), ``--workers N`` (default 2).  Each tool runs for the wall
time the campaign takes, which is the budget plus an overshoot: every property runs at
least one round (100 test cases, core properties 500), about 200 s in all for this suite
on 2 cores, so the default run takes about 7 minutes and cannot take much less.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HERE = ROOT / "benchmarks"
sys.path.insert(0, str(HERE))

import campaign_probe  # noqa: E402

ENV_HYPOFUZZ = "PLA_BENCH_HYPOFUZZ"
SUITE = ["properties", "benchmarks/campaign_bugs.py"]
BUGS = ["benchmarks/campaign_bugs.py"]
INSTALL = (
    "python3 -m venv /tmp/hypofuzz-venv && /tmp/hypofuzz-venv/bin/pip install hypofuzz "
    "'hypothesis==6.157.0' -e . , then --hypofuzz /tmp/hypofuzz-venv/bin/hypothesis"
)


@dataclass
class ToolRun:
    """What one tool did in one phase, as the probe counted it."""

    tool: str
    command: list[str]
    load: str
    workers: int
    wall: float = 0.0
    cpu: float = 0.0
    exit: str = ""
    tests: dict[str, dict[str, Any]] = field(default_factory=dict)
    targets: dict[str, float] = field(default_factory=dict)
    first_example: float | None = None
    own_count: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(int(t["calls"]) for t in self.tests.values())

    @property
    def body_seconds(self) -> float:
        return sum(float(t["seconds"]) for t in self.tests.values())


def uptime() -> str:
    try:
        out = subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout
    except OSError:
        out = ""
    return out.strip() or "load average: " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def _environment(probe_dir: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("HYPOTHESIS_", "PLA_PROOF_", "PYTEST_ADDOPTS"))
    }
    paths = [str(ROOT), str(HERE), *filter(None, [os.environ.get("PYTHONPATH")])]
    env["PYTHONPATH"] = os.pathsep.join(paths)
    env[campaign_probe.ENV_DIR] = str(probe_dir)
    return env


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """End the process group this benchmark started (HypoFuzz runs until stopped)."""
    for sig, wait in ((signal.SIGTERM, 10.0), (signal.SIGKILL, 10.0)):
        if proc.poll() is not None:
            return
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            continue


def _group_cpu(pgid: int, seen: dict[int, float]) -> None:
    """Record the CPU seconds (user + system) of every live process of group ``pgid``."""
    tick = os.sysconf("SC_CLK_TCK")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == pgid:  # fields: state, ppid, pgrp, ..., utime (12th), stime
            seen[int(entry)] = (int(fields[11]) + int(fields[12])) / tick


def _run(
    command: list[str], work: Path, seconds: float | None, limit: float
) -> tuple[float, float, str, str, float]:
    """Run ``command`` in its own process group, for ``seconds`` (then stop it) or until it
    ends (at most ``limit`` seconds); return its wall time, its processes' CPU time
    (sampled every second: a process that ends between samples loses at most a second),
    output, exit and start."""
    probe_dir = work / "probe"
    probe_dir.mkdir(parents=True)
    out_path = work / "output.txt"
    cpu: dict[int, float] = {}
    with open(out_path, "wb") as out:
        start = time.time()
        t0 = time.perf_counter()
        proc = subprocess.Popen(
            command,
            cwd=ROOT,
            env=_environment(probe_dir),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = t0 + (seconds if seconds is not None else limit)
        exit_text = ""
        while not exit_text:
            _group_cpu(proc.pid, cpu)
            try:
                proc.wait(timeout=max(0.0, min(1.0, deadline - time.perf_counter())))
                exit_text = f"exit {proc.returncode}"
            except subprocess.TimeoutExpired:
                if time.perf_counter() >= deadline:
                    _group_cpu(proc.pid, cpu)
                    exit_text = "stopped at the time limit" if seconds is not None else "TIMED OUT"
                    _stop(proc)
        wall = time.perf_counter() - t0
    output = out_path.read_text(encoding="utf-8", errors="replace")
    return wall, sum(cpu.values()), output, exit_text, start


def _collect(run: ToolRun, work: Path, start: float) -> None:
    """Merge the probe's snapshots of every process of the run."""
    for snap in campaign_probe.read(work / "probe"):
        for key, t in snap["tests"].items():
            merged = run.tests.setdefault(
                key, {"calls": 0, "failures": 0, "seconds": 0.0, "processes": 0}
            )
            merged["calls"] += t["calls"]
            merged["seconds"] += t["seconds"]
            merged["failures"] += t["failures"]
            merged["processes"] += 1
            first = t["first_call"] - start
            if run.first_example is None or first < run.first_example:
                run.first_example = first
            if "first_failure" in t:
                ttf = t["first_failure"] - start
                if "ttf" not in merged or ttf < merged["ttf"]:
                    merged["ttf"] = ttf
                    merged["calls_to_failure"] = t["calls_to_first_failure"]
        for label, value in snap["targets"].items():
            run.targets[label] = max(value, run.targets.get(label, float("-inf")))


def run_campaign(paths: list[str], minutes: float, workers: int, work: Path) -> ToolRun:
    command = [sys.executable, "-m", "pytest", *paths, "-p", "campaign_probe"]
    command += ["--pla-profile", "campaign", "--pla-minutes", f"{minutes:g}", "-n", str(workers)]
    command += ["--pla-database", str(work / "db"), "-q", "-p", "no:randomly"]
    run = ToolRun("campaign", command, uptime(), workers)
    limit = 60.0 * minutes * 3 + 300.0
    run.wall, run.cpu, output, run.exit, start = _run(command, work, None, limit)
    _collect(run, work, start)
    counted = [int(m) for m in re.findall(r"campaign = \d+ rounds?, (\d+) test cases", output)]
    summary = [ln for ln in output.splitlines() if re.search(r"\d+ (passed|failed)", ln)]
    run.own_count = (
        f"its report: {sum(counted)} test cases over {len(counted)} Hypothesis tests"
        + (f"; pytest: {summary[-1].strip('= ')}" if summary else "")
    )
    return run


def run_hypofuzz(
    hypofuzz: str, paths: list[str], seconds: float, workers: int, work: Path
) -> ToolRun:
    command = [hypofuzz, "fuzz", "--no-dashboard", "-n", str(workers), "--", *paths]
    command += ["-p", "campaign_probe", "--pla-database", str(work / "db"), "-p", "no:randomly"]
    run = ToolRun("HypoFuzz", command, uptime(), workers)
    run.wall, run.cpu, output, run.exit, start = _run(command, work, seconds, seconds)
    _collect(run, work, start)
    fuzzing = re.search(r"using (?:up to )?\d+ process(?:es)? to fuzz[^\n]*", output)
    own = _hypofuzz_reports(work / "db")
    run.own_count = (
        f"its reports: {own} test cases (saved at target switches; the last stretch of "
        f"each worker is not in them); {fuzzing.group(0) if fuzzing else 'no tests fuzzed'}"
    )
    crashes = [ln for ln in output.splitlines() if re.match(r"\w*(Error|Exception)\b.*:", ln)]
    if crashes:
        run.notes.append(
            f"{output.count('Traceback')} traceback(s) from HypoFuzz; last: {crashes[-1][:160]}"
        )
    return run


def _hypofuzz_reports(db: Path) -> int:
    """Test cases HypoFuzz itself counted: the latest report of every (test, worker) in
    its example database (JSON values; statuses VALID = 2 and INTERESTING = 3)."""
    latest: dict[tuple[str, str], tuple[float, int]] = {}
    for path in db.rglob("*") if db.exists() else ():
        if not path.is_file():
            continue
        try:
            report = json.loads(path.read_bytes())
        except (ValueError, UnicodeDecodeError):
            continue
        if not isinstance(report, dict) or "status_counts" not in report:
            continue
        key = (str(report.get("nodeid")), str(report.get("worker_uuid")))
        counts = report["status_counts"]
        done = int(counts.get("2", 0)) + int(counts.get("3", 0))
        if key not in latest or report["elapsed_time"] >= latest[key][0]:
            latest[key] = (float(report["elapsed_time"]), done)
    return sum(done for _, done in latest.values())


def _versions(hypofuzz: str) -> str:
    python = Path(hypofuzz).parent / "python"
    code = (
        "import importlib.metadata as m, sys; "
        "print(*(m.version(p) for p in ('hypofuzz', 'hypothesis', 'pytest')), "
        "sys.version.split()[0])"
    )
    try:
        out = subprocess.run(
            [str(python), "-c", code], capture_output=True, text=True, check=True, timeout=60
        ).stdout.split()
    except (OSError, subprocess.SubprocessError):
        return f"HypoFuzz at {hypofuzz} (versions not readable from {python})"
    from importlib.metadata import version

    return (
        f"HypoFuzz {out[0]} (Hypothesis {out[1]}, pytest {out[2]}, Python {out[3]}, in "
        f"{python.parent.parent}); campaign: pla_proof {version('pla_proof')}, Hypothesis "
        f"{version('hypothesis')}, pytest {version('pytest')}, pytest-xdist "
        f"{version('pytest-xdist')}, Python {sys.version.split()[0]}"
    )


def _short(key: str) -> str:
    path, name = key.split("::", 1)
    return f"`{Path(path).stem}::{name}`"


def _cell(t: dict[str, Any] | None) -> str:
    if t is None:
        return "-"
    return f"{t['calls']} ({1000 * t['seconds'] / max(1, t['calls']):.0f} ms)"


def _found(t: dict[str, Any] | None) -> str:
    if t is None:
        return "not run"
    if "ttf" not in t:
        return f"not found ({t['calls']} test cases)"
    return f"{t['ttf']:.1f} s, test case #{t['calls_to_failure']}"


def report(phase: str, runs: Iterable[ToolRun]) -> None:
    a, b = runs
    print(f"\n### {phase}\n")
    for r in (a, b):
        shown = " ".join([Path(r.command[0]).name, *r.command[1:]])
        print(f"- {r.tool}: `{shown}`")
        print(f"  - before: {r.load}")
        first = f"{r.first_example:.1f} s" if r.first_example is not None else "never"
        print(
            f"  - {r.wall:.1f} s wall ({r.exit}), {r.cpu:.1f} s CPU in all its processes; "
            f"first test case {first} after launch"
        )
        print(f"  - {r.own_count}")
        for note in r.notes:
            print(f"  - {note}")
    keys = sorted(set(a.tests) | set(b.tests))
    print(f"\n| property | {a.tool}: test cases (ms each) | {b.tool}: test cases (ms each) |")
    print("|---|---:|---:|")
    for key in keys:
        print(f"| {_short(key)} | {_cell(a.tests.get(key))} | {_cell(b.tests.get(key))} |")
    rates = [
        f"{r.total / r.wall:.1f}/s wall, {r.total / r.cpu:.1f}/CPU s" if r.wall and r.cpu else "-"
        for r in (a, b)
    ]
    print(
        f"| **total** ({len(a.tests)} / {len(b.tests)} properties ran) | "
        f"**{a.total}** ({rates[0]}) | **{b.total}** ({rates[1]}) |"
    )
    cells = []
    for r in (a, b):
        share = r.body_seconds / (r.wall * r.workers) if r.wall else 0.0
        per_case = 1000 * r.body_seconds / r.total if r.total else 0.0
        cells.append(f"{r.body_seconds:.0f} s, {100 * share:.0f}%, {per_case:.0f} ms")
    print(
        "| time inside the property bodies: seconds, share of wall x processes, "
        f"per test case | {cells[0]} | {cells[1]} |"
    )
    failing = [k for k in keys if any("ttf" in r.tests.get(k, {}) for r in (a, b))]
    failing += [k for k in keys if "campaign_bugs" in k and k not in failing]
    if failing:
        print(f"\n| property with a bug | {a.tool}: first failure | {b.tool}: first failure |")
        print("|---|---|---|")
        for key in failing:
            print(f"| {_short(key)} | {_found(a.tests.get(key))} | {_found(b.tests.get(key))} |")
        print(
            "\n(first failure: seconds after launch, start-up included, and which test case of "
            "that property in the process that found it)"
        )
    labels = sorted(set(a.targets) | set(b.targets))
    if labels:
        print(f"\n| `target()` label, largest value | {a.tool} | {b.tool} |")
        print("|---|---:|---:|")
        for label in labels:
            va, vb = (f"{r.targets[label]:.4f}" if label in r.targets else "-" for r in (a, b))
            name, _, key = label.partition(" @ ")
            print(f"| {name}{f' ({_short(key)})' if key else ''} | {va} | {vb} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hypofuzz", default=os.environ.get(ENV_HYPOFUZZ), metavar="PATH")
    parser.add_argument("--minutes", type=float, default=2.0, help="suite, per tool")
    parser.add_argument("--bug-minutes", type=float, default=0.0, help="bugs alone (0: skip)")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    hypofuzz = args.hypofuzz and shutil.which(args.hypofuzz)
    if not hypofuzz:
        print(
            f"bench_campaign: HypoFuzz's `hypothesis` command not found "
            f"({args.hypofuzz or f'give --hypofuzz PATH or ${ENV_HYPOFUZZ}'}); install: {INSTALL}",
            file=sys.stderr,
        )
        return 2
    check = subprocess.run(
        [hypofuzz, "fuzz", "--help"], capture_output=True, text=True, check=False, timeout=120
    )
    if check.returncode != 0:
        said = " ".join((check.stderr or check.stdout).split()) or "no output"
        last = [said if len(said) <= 160 else said[:157] + "..."]
        print(
            f"bench_campaign: {hypofuzz} has no `fuzz` command ({last[0]}); install: {INSTALL}",
            file=sys.stderr,
        )
        return 2
    if args.minutes <= 0 or args.bug_minutes < 0 or args.workers < 1:
        print(
            "bench_campaign: --minutes must be > 0, --bug-minutes >= 0, --workers >= 1",
            file=sys.stderr,
        )
        return 2
    print(
        f"## `python benchmarks/bench_campaign.py --minutes {args.minutes:g} "
        f"--bug-minutes {args.bug_minutes:g} --workers {args.workers}`\n"
    )
    print(f"- {_versions(hypofuzz)}")
    print(f"- cores: {os.cpu_count()}; {args.workers} processes each")
    phases = [("suite: properties/ + benchmarks/campaign_bugs.py", SUITE, args.minutes)]
    if args.bug_minutes > 0:
        phases.append(("bugs alone: benchmarks/campaign_bugs.py", BUGS, args.bug_minutes))
    with tempfile.TemporaryDirectory(prefix="bench-campaign-") as tmp:
        for i, (phase, paths, minutes) in enumerate(phases):
            ours = run_campaign(paths, minutes, args.workers, Path(tmp) / f"{i}-campaign")
            theirs = run_hypofuzz(hypofuzz, paths, ours.wall, args.workers, Path(tmp) / f"{i}-hf")
            report(f"{phase} ({minutes:g} min budget; both ran {ours.wall:.0f} s)", (ours, theirs))
    print(f"\n- after: {uptime()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
