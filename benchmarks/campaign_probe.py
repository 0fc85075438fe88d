"""A pytest plugin that counts what a search tool does with a property suite.

``benchmarks/bench_campaign.py`` loads it (``-p campaign_probe``) into both tools it
compares -- pla_proof's ``campaign`` profile (pytest) and HypoFuzz (``hypothesis fuzz``,
which collects the tests through pytest too) -- so both are measured by the same
counter, in the test process itself, whatever each tool reports of its own:

* at collection, every Hypothesis test's ``hypothesis.inner_test`` (the body that runs
  once per test case) is wrapped: each call is counted and timed, and the first call that raises
  (an ``AssertionError`` or any other error that is not Hypothesis's own control flow)
  is stamped with the wall-clock time and the calls made until then;
* ``hypothesis.target`` is wrapped (before the test modules import it) to keep the
  largest value seen per label, as ``label @ module.py::function`` for the test it
  is called from;
* each process appends a JSON snapshot to ``$PLA_BENCH_PROBE_DIR/probe-<pid>.jsonl`` at
  most every half second and at once on a first failure, so a tool that is stopped
  with a signal (HypoFuzz runs until stopped) loses at most the last half second.

A test function with several pytest items (``parametrize``) is counted once, under
``module.py::function``.  Stateful tests (``RuleBasedStateMachine``) are not wrapped.
The plugin does nothing unless ``PLA_BENCH_PROBE_DIR`` is set.
"""

from __future__ import annotations

import functools
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

ENV_DIR = "PLA_BENCH_PROBE_DIR"
FLUSH_EVERY = 0.5

#: Hypothesis's own ``target`` (set when the plugin is configured).
_ORIGINAL_TARGET: Callable[..., int | float] | None = None


class _Probe:
    """The counts of one process (a forked worker starts its own)."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.started = time.time()
        self.tests: dict[str, dict[str, Any]] = {}
        self.targets: dict[str, float] = {}
        self.current: str | None = None
        self.last_flush = 0.0
        self.dirty = False

    def flush(self, force: bool = False) -> None:
        folder = os.environ.get(ENV_DIR)
        now = time.time()
        if not folder or not (force or (self.dirty and now - self.last_flush >= FLUSH_EVERY)):
            return
        snapshot = {
            "pid": self.pid,
            "started": self.started,
            "time": now,
            "tests": self.tests,
            "targets": self.targets,
        }
        with open(Path(folder) / f"probe-{self.pid}.jsonl", "a", encoding="utf-8") as f:
            f.write(json.dumps(snapshot) + "\n")
        self.last_flush, self.dirty = now, False


_PROBE: _Probe | None = None


def probe() -> _Probe:
    """This process's probe (a new one after a fork)."""
    global _PROBE
    if _PROBE is None or _PROBE.pid != os.getpid():
        _PROBE = _Probe()
    return _PROBE


def _target(observation: int | float, *, label: str = "") -> int | float:
    p = probe()
    value = float(observation)
    name = f"{label} @ {p.current}" if p.current else label
    if value > p.targets.get(name, float("-inf")):
        p.targets[name] = value
        p.dirty = True
    assert _ORIGINAL_TARGET is not None
    return _ORIGINAL_TARGET(observation, label=label)


def _counted(key: str, inner: Callable[..., Any]) -> Callable[..., Any]:
    from hypothesis.errors import HypothesisException

    @functools.wraps(inner)  # keeps the name and source: the database key is unchanged
    def body(*args: Any, **kwargs: Any) -> Any:
        p = probe()
        entry = p.tests.setdefault(
            key, {"calls": 0, "failures": 0, "seconds": 0.0, "first_call": time.time()}
        )
        entry["calls"] += 1
        p.dirty = True
        outer, p.current = p.current, key
        t0 = time.perf_counter()
        try:
            return inner(*args, **kwargs)
        except HypothesisException:
            raise  # assume(), invalid data: Hypothesis's control flow, not a failure
        except Exception:
            entry["failures"] += 1
            if "first_failure" not in entry:
                entry["first_failure"] = time.time()
                entry["calls_to_first_failure"] = entry["calls"]
                p.flush(force=True)
            raise
        finally:
            entry["seconds"] += time.perf_counter() - t0
            p.current = outer
            p.flush()

    body._pla_probe = True  # type: ignore[attr-defined]
    return body


def pytest_configure(config: pytest.Config) -> None:
    # Hypothesis is imported here, not at the top: a plugin named with -p is imported
    # before the installed ones, and importing Hypothesis that early makes pla_proof's
    # own pytest plugin fail to import (a circular import through its hypothesis hook).
    global _ORIGINAL_TARGET
    if os.environ.get(ENV_DIR):
        import hypothesis

        if _ORIGINAL_TARGET is None:
            _ORIGINAL_TARGET = hypothesis.target
        hypothesis.target = _target
        probe()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if not os.environ.get(ENV_DIR):
        return
    from hypothesis import is_hypothesis_test

    for item in items:
        test: Any = getattr(item, "obj", None)
        if not is_hypothesis_test(test) or not hasattr(test, "hypothesis"):
            continue
        inner = test.hypothesis.inner_test
        if getattr(inner, "_pla_probe", False):
            continue  # already wrapped (another item of the same function, or a fork)
        key = f"{item.nodeid.split('::', 1)[0]}::{test.__name__}"
        test.hypothesis.inner_test = _counted(key, inner)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Any:
    """Name the test running (pytest runs it; HypoFuzz calls the bodies itself), so that a
    ``target()`` in a plain test that calls a ``@given`` function is attributed to it."""
    if not os.environ.get(ENV_DIR):
        return (yield)
    p = probe()
    function = getattr(item, "function", None)
    name = getattr(function, "__name__", item.name)
    outer, p.current = p.current, f"{item.nodeid.split('::', 1)[0]}::{name}"
    try:
        return (yield)
    finally:
        p.current = outer


def pytest_sessionfinish(session: pytest.Session) -> None:
    if os.environ.get(ENV_DIR):
        probe().flush(force=True)


def read(folder: str | Path) -> list[dict[str, Any]]:
    """The last complete snapshot of every process that wrote to ``folder``."""
    snapshots = []
    for path in sorted(Path(folder).glob("probe-*.jsonl")):
        last = None
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                last = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut short by a signal
        if last is not None:
            snapshots.append(last)
    return snapshots
