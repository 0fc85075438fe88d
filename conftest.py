"""Hypothesis settings profiles, chosen by HYPOTHESIS_PROFILE (default: dev).

* ``dev``      -- quick local runs (100 examples per property, 500 for core properties).
* ``ci``       -- derandomised, no deadline, no example database: reproducible and never
  flaky on a shared machine (200 examples per property, 1000 for core properties).
* ``thorough`` -- 10x the ci examples; run it across all cores:
  ``HYPOTHESIS_PROFILE=thorough pytest properties -n auto``.

Core properties (``properties/_support.py``) run ``CORE_FACTOR`` times the profile's
``max_examples``.  Property tests may record a figure with
``record_property("report: <what>", value)``; the figures are printed in a
"property suite report" section at the end of the run (also under pytest-xdist).
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

PROFILES = ("dev", "ci", "thorough")
REPORT_PREFIX = "report: "

settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile(
    "ci",
    max_examples=200,
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    max_examples=2000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

_PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "dev")
if _PROFILE in PROFILES:
    settings.load_profile(_PROFILE)


def pytest_configure(config: pytest.Config) -> None:
    if _PROFILE not in PROFILES:
        raise pytest.UsageError(
            f"HYPOTHESIS_PROFILE={_PROFILE!r} is not a profile (choose {', '.join(PROFILES)})"
        )


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """Print the figures property tests recorded (e.g. the largest k gamma^2 / R^2 found)."""
    lines = []
    for outcome in ("passed", "failed"):
        for report in terminalreporter.stats.get(outcome, []):
            for name, value in getattr(report, "user_properties", ()):
                if isinstance(name, str) and name.startswith(REPORT_PREFIX):
                    test = report.nodeid.rsplit("::", 1)[-1]
                    lines.append(f"{test}: {name[len(REPORT_PREFIX) :]} = {value}")
    if lines:
        terminalreporter.write_sep("-", f"property suite report (profile {_PROFILE})")
        for line in sorted(lines):
            terminalreporter.write_line(line)
