"""Hypothesis settings profiles, chosen by HYPOTHESIS_PROFILE (default: dev).

* ``dev``      -- quick local runs (100 examples per property).
* ``ci``       -- derandomised, no deadline: reproducible and never flaky on a shared machine.
* ``thorough`` -- 10x the examples; run it across all cores with ``pytest -n auto``.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile(
    "ci",
    max_examples=200,
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    max_examples=2000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
