"""The Hypothesis settings profiles of the property suite.

* ``dev``      -- quick local runs: 100 examples per property (core properties 500),
  no deadline, the example database in ``.hypothesis/``.
* ``ci``       -- derandomised, no deadline, no example database: the same examples on
  every run, never flaky on a shared machine (200 examples, core properties 1000).
* ``thorough`` -- 10x the ci examples, randomised; spread it over every core with
  ``pytest -n auto``.
* ``campaign`` -- a time budget instead of an example count: every property runs
  again, in rounds of 100 examples (core properties 500) with fresh random seeds and
  the example database, until its share of ``--pla-minutes`` is spent (see
  :mod:`pla_proof.campaign`).
* ``symbolic`` -- the ci examples drawn by CrossHair (``backend="crosshair"``, the
  ``symbolic`` extra: ``pip install 'pla_proof[symbolic]'``), randomised; registered
  only where hypothesis-crosshair is installed (elsewhere asking for it names the extra).

No profile runs Hypothesis's ``explain`` phase (:data:`NO_EXPLAIN`).

A suite's core properties multiply the profile's ``max_examples`` (the repository's
``properties/_support.py`` uses 5x).  Only Hypothesis's own settings are used, so
``settings.get_profile("ci")`` is an ordinary :class:`hypothesis.settings`.

>>> register_profiles()
>>> settings.get_profile("ci").max_examples, settings.get_profile("ci").derandomize
(200, True)
>>> with_database("ci", None).database is None
True
"""

from __future__ import annotations

import importlib.util
from typing import Any

from hypothesis import HealthCheck, Phase, settings
from hypothesis.database import ExampleDatabase

__all__ = [
    "EXTRA_PROFILES",
    "PROFILES",
    "TIME_BUDGET_PROFILES",
    "missing_extra",
    "register_profiles",
    "with_database",
]

#: The phases of every profile: all but ``explain``.  On Python < 3.12 Hypothesis explains
#: a failure by tracing every line of the runs after it with ``sys.settrace``, under which
#: runs in long-lived test processes went on past CI's time limit (docs/properties.md).
NO_EXPLAIN = (Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink)

#: The profiles this package registers, in increasing depth.
PROFILES: dict[str, dict[str, Any]] = {
    "dev": {"max_examples": 100, "deadline": None},
    "ci": {
        "max_examples": 200,
        "deadline": None,
        "derandomize": True,
        "database": None,
        "print_blob": True,
        "suppress_health_check": [HealthCheck.too_slow],
    },
    "thorough": {
        "max_examples": 2000,
        "deadline": None,
        "suppress_health_check": [HealthCheck.too_slow],
    },
    "campaign": {
        "max_examples": 100,
        "deadline": None,
        "derandomize": False,
        "print_blob": True,
        "suppress_health_check": [HealthCheck.too_slow],
    },
}

#: Profiles that need an optional extra, and the one-line reason when it is missing.
EXTRA_PROFILES: dict[str, dict[str, Any]] = {
    "symbolic": {
        "max_examples": 200,
        "deadline": None,
        "backend": "crosshair",
        "suppress_health_check": list(HealthCheck),
    },
}

#: Profiles that search for a time budget rather than a number of examples.
TIME_BUDGET_PROFILES = ("campaign",)


def register_profiles() -> None:
    """Register every profile of :data:`PROFILES` with Hypothesis (idempotent)."""
    parent = settings.get_profile("default")
    for name, values in PROFILES.items():
        settings.register_profile(name, parent, **{"phases": NO_EXPLAIN, **values})
    for name, values in EXTRA_PROFILES.items():
        if missing_extra(name) is None:
            settings.register_profile(name, parent, **{"phases": NO_EXPLAIN, **values})


def missing_extra(name: str) -> str | None:
    """Why profile ``name`` cannot be loaded here (its extra is not installed), or None.

    >>> missing_extra("ci") is None
    True
    """
    if name not in EXTRA_PROFILES:
        return None
    if importlib.util.find_spec("hypothesis_crosshair_provider") is None:
        return f"the {name} profile needs hypothesis-crosshair: pip install 'pla_proof[symbolic]'"
    return None


def with_database(name: str, database: ExampleDatabase | None) -> settings:
    """Profile ``name`` with ``database`` as its example database.

    Hypothesis forbids a database with ``derandomize=True`` (a derandomised run
    never replays), so a profile given a database searches with random seeds: it
    replays every stored counterexample first, then generates.

    >>> from hypothesis.database import InMemoryExampleDatabase
    >>> s = with_database("ci", InMemoryExampleDatabase())
    >>> s.derandomize, s.max_examples
    (False, 200)
    """
    base = settings.get_profile(name)
    if database is None:
        return settings(base, database=None)
    return settings(base, derandomize=False, database=database)
