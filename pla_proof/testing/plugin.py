"""pla_proof's pytest plugin: Hypothesis profiles, one example database, a time budget,
the property-suite report and fixtures for your own suites.

Installed with the package (``pytest11`` entry point ``pla_proof``), so ``pytest -p
pla_proof`` names it; it changes nothing until asked:

* ``--pla-profile NAME`` (or the ini option ``pla_proof_profile = NAME``, a project's
  default, which ``HYPOTHESIS_PROFILE`` then overrides) registers the profiles of
  :mod:`pla_proof.testing.profiles` (``dev``, ``ci``, ``thorough``, ``campaign``) and
  loads one; an unknown name is refused.
* ``--pla-database URL`` / ``PLA_PROOF_DATABASE`` (plus ``--pla-database-readonly`` /
  ``PLA_PROOF_DATABASE_READONLY=1``) points the loaded profile at a directory or a Redis
  server (:func:`pla_proof.testing.database.open_database`).
* ``--pla-minutes M`` / ``PLA_PROOF_MINUTES`` is the ``campaign`` profile's budget
  (:mod:`pla_proof.campaign`).
* Tests may record figures with ``record_property("report: <what>", value)`` (or the
  ``pla_report`` fixture); they are printed in a "property suite report" section at the
  end of the run, also under pytest-xdist.

Fixtures: ``pla_profile`` (the loaded profile's name), ``pla_database`` (its example
database or None), ``pla_report`` (record a figure for the report),
``pla_check_variant`` (:func:`pla_proof.testing.check_variant` with the profile's
example count) and ``pla_counterexamples`` (a
:class:`~pla_proof.testing.database.CounterexampleStore` on the profile's database).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import is_hypothesis_test, settings
from hypothesis.database import ExampleDatabase, InMemoryExampleDatabase

from ..campaign import Budget, run_rounds
from ..errors import InputError
from .database import ENV_DATABASE, ENV_READONLY, CounterexampleStore, describe, open_database
from .profiles import (
    EXTRA_PROFILES,
    PROFILES,
    TIME_BUDGET_PROFILES,
    missing_extra,
    register_profiles,
    with_database,
)

__all__ = ["REPORT_PREFIX"]

#: ``record_property`` names with this prefix go into the property suite report.
REPORT_PREFIX = "report: "
ENV_MINUTES = "PLA_PROOF_MINUTES"
_TRUE = ("1", "true", "yes", "on")


@dataclass
class _State:
    profile: str
    active: bool
    database: str
    minutes: float | None = None
    budget: Budget | None = None
    lines: list[str] = field(default_factory=list)


_STATE = pytest.StashKey[_State]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("pla_proof", "pla_proof property suites")
    group.addoption(
        "--pla-profile",
        metavar="NAME",
        help=f"load a Hypothesis profile ({', '.join([*PROFILES, *EXTRA_PROFILES])}); "
        "overrides HYPOTHESIS_PROFILE",
    )
    group.addoption(
        "--pla-database",
        metavar="URL",
        help=f"example database: a directory, redis://HOST:PORT/DB or :memory: (${ENV_DATABASE})",
    )
    group.addoption(
        "--pla-database-readonly",
        action="store_true",
        default=None,
        help=f"replay the database's examples without writing to it (${ENV_READONLY}=1)",
    )
    group.addoption(
        "--pla-minutes",
        type=float,
        metavar="M",
        help=f"time budget of the campaign profile, in minutes (${ENV_MINUTES})",
    )
    parser.addini(
        "pla_proof_profile",
        "this project's default Hypothesis profile (HYPOTHESIS_PROFILE and --pla-profile win)",
        default="",
    )


def _choose_profile(config: pytest.Config) -> tuple[str, bool]:
    option = config.getoption("pla_profile")
    ini = str(config.getini("pla_proof_profile") or "")
    theirs = config.getoption("hypothesis_profile", None)
    if not (option or ini):
        return settings.get_current_profile_name(), False
    if option and theirs:
        raise pytest.UsageError("give --pla-profile or --hypothesis-profile, not both")
    register_profiles()
    if option:
        name, source = option, "--pla-profile"
    elif theirs:
        name, source = theirs, "--hypothesis-profile"
    elif os.environ.get("HYPOTHESIS_PROFILE"):
        name, source = os.environ["HYPOTHESIS_PROFILE"], "HYPOTHESIS_PROFILE"
    else:
        name, source = ini, "pla_proof_profile"
    why = missing_extra(name)
    if why is not None:
        raise pytest.UsageError(f"{source}={name!r}: {why}")
    try:
        settings.get_profile(name)
    except Exception:
        names = ", ".join([*PROFILES, *EXTRA_PROFILES])
        raise pytest.UsageError(f"{source}={name!r} is not a profile (choose {names})") from None
    settings.load_profile(name)
    return name, True


def _minutes(config: pytest.Config) -> float | None:
    value: float | None = config.getoption("pla_minutes")
    if value is None and os.environ.get(ENV_MINUTES):
        try:
            value = float(os.environ[ENV_MINUTES])
        except ValueError:
            raise pytest.UsageError(
                f"{ENV_MINUTES}={os.environ[ENV_MINUTES]!r} is not a number of minutes"
            ) from None
    if value is not None and not value > 0:
        raise pytest.UsageError(f"the time budget must be positive, got {value} minutes")
    return value


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    name, active = _choose_profile(config)
    url = config.getoption("pla_database") or os.environ.get(ENV_DATABASE)
    readonly = config.getoption("pla_database_readonly")
    if readonly is None:
        readonly = os.environ.get(ENV_READONLY, "").lower() in _TRUE
    if url:
        try:
            db = open_database(url, readonly=readonly)
        except InputError as exc:
            raise pytest.UsageError(str(exc)) from None
        settings.register_profile(f"{name}+database", with_database(name, db))
        settings.load_profile(f"{name}+database")
        active = True
    elif readonly:
        raise pytest.UsageError("--pla-database-readonly needs a database (--pla-database URL)")
    state = _State(name, active, describe(settings().database))
    minutes = _minutes(config)
    if name in TIME_BUDGET_PROFILES:
        if minutes is None:
            raise pytest.UsageError(
                f"the {name} profile searches for a time: give --pla-minutes M or {ENV_MINUTES}"
            )
        state.minutes = minutes
    elif minutes is not None:
        raise pytest.UsageError(
            f"--pla-minutes needs a time-budget profile ({', '.join(TIME_BUDGET_PROFILES)})"
        )
    config.stash[_STATE] = state


def _state(config: pytest.Config) -> _State:
    return config.stash[_STATE]


def pytest_report_header(config: pytest.Config) -> str | None:
    state = _state(config)
    if not state.active:
        return None
    s = settings()
    budget = f", budget {state.minutes:g} min" if state.minutes is not None else ""
    return (
        f"pla_proof: profile {state.profile} ({s.max_examples} examples per property"
        f"{', derandomised' if s.derandomize else ''}{budget}), database {state.database}"
    )


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    state = _state(config)
    if state.minutes is None:
        return
    count = sum(1 for it in items if is_hypothesis_test(getattr(it, "obj", None)))
    workers = int(getattr(config, "workerinput", {}).get("workercount", 1))
    state.budget = Budget(60.0 * state.minutes, searches=count, workers=workers)


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """Under a time-budget profile, run a Hypothesis test in rounds until its share is spent."""
    budget = _state(pyfuncitem.config).budget
    test = pyfuncitem.obj
    if budget is None or not is_hypothesis_test(test):
        return None
    args = {a: pyfuncitem.funcargs[a] for a in pyfuncitem._fixtureinfo.argnames}
    inner = test.hypothesis.inner_test
    calls = [0]

    def counted(*a: Any, **k: Any) -> Any:
        calls[0] += 1
        return inner(*a, **k)

    test.hypothesis.inner_test = counted
    own = getattr(test, "_hypothesis_internal_use_settings", None)
    round_size = own.max_examples if isinstance(own, settings) else None
    try:
        stats = run_rounds(
            lambda: test(**args), budget, count=lambda: calls[0], round_size=round_size
        )
    finally:
        test.hypothesis.inner_test = inner
    pyfuncitem.user_properties.append((REPORT_PREFIX + "campaign", stats.describe()))
    return True


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """Print the figures tests recorded (e.g. the largest k gamma^2 / R^2 found); a figure
    recorded more than once (say, once per example) is printed with its last value."""
    figures: dict[tuple[str, str], object] = {}
    for outcome in ("passed", "failed"):
        for report in terminalreporter.stats.get(outcome, []):
            if getattr(report, "when", "call") != "call":
                continue
            for name, value in getattr(report, "user_properties", ()):
                if isinstance(name, str) and name.startswith(REPORT_PREFIX):
                    test = report.nodeid.rsplit("::", 1)[-1]
                    figures[(test, name[len(REPORT_PREFIX) :])] = value
    if figures:
        state = _state(config)
        terminalreporter.write_sep("-", f"property suite report (profile {state.profile})")
        for (test, what), value in sorted(figures.items(), key=lambda kv: kv[0]):
            terminalreporter.write_line(f"{test}: {what} = {value}")


# --- fixtures for users' suites ---------------------------------------------------------


@pytest.fixture
def pla_profile(request: pytest.FixtureRequest) -> str:
    """The name of the Hypothesis profile this run loaded."""
    return _state(request.config).profile


@pytest.fixture
def pla_database() -> ExampleDatabase | None:
    """The example database of the loaded profile (None: no database, e.g. ``ci``)."""
    db = settings().database
    return db if isinstance(db, ExampleDatabase) else None


@pytest.fixture
def pla_report(record_property: Callable[[str, object], None]) -> Callable[[str, object], None]:
    """``pla_report(what, value)``: print ``value`` in the property suite report."""

    def report(what: str, value: object) -> None:
        record_property(REPORT_PREFIX + what, value)

    return report


@pytest.fixture
def pla_check_variant() -> Callable[..., Any]:
    """:func:`pla_proof.testing.check_variant` searching the profile's number of examples."""
    from . import check_variant

    def check(variant: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("examples", settings().max_examples)
        return check_variant(variant, **kwargs)

    return check


@pytest.fixture
def pla_counterexamples(pla_database: ExampleDatabase | None) -> CounterexampleStore:
    """``pla-proof check``'s counterexample facts in the profile's database (in memory
    when the profile has none)."""
    return CounterexampleStore(pla_database or InMemoryExampleDatabase())
