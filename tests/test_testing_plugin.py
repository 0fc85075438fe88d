"""The pytest plugin: profiles, their choice, the suite report, fixtures, time budgets.

Each test runs a small suite in a fresh pytest session (``pytester``); the plugin loads
Hypothesis profiles into the process, so the outer session's profile is restored after
every in-process run.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from hypothesis import settings
from hypothesis.errors import InvalidArgument

from pla_proof.testing.profiles import EXTRA_PROFILES, PROFILES, missing_extra

SUITE = """
from hypothesis import HealthCheck, given, settings, strategies as st
from pla_proof.testing.database import describe

def test_profile_settings(pla_profile, pla_database, record_property):
    s = settings()
    record_property("report: profile", f"{pla_profile} {s.max_examples} {s.derandomize}")
    record_property("report: database", describe(pla_database).split()[0])

@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers())
def test_a_property(n, pla_report):
    pla_report("largest n", 7)
"""


@pytest.fixture(autouse=True)
def _restore_profile(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each inner run starts from a clean environment; the outer profile is restored."""
    for var in ("HYPOTHESIS_PROFILE", "PLA_PROOF_DATABASE", "PLA_PROOF_DATABASE_READONLY"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.delenv("PLA_PROOF_MINUTES", raising=False)
    name = settings.get_current_profile_name()
    # An inner suite may re-register a profile under one of these names (a user's own
    # ``ci``, say): restore the registrations too, not only the name, or every later
    # test of this process runs under the inner suite's settings.
    saved = {}
    for profile in ("default", name, *PROFILES, *EXTRA_PROFILES):
        try:
            saved[profile] = settings.get_profile(profile)
        except InvalidArgument:
            continue
    yield
    for profile, registered in saved.items():
        settings.register_profile(profile, registered)
    settings.load_profile(name)
    assert repr(settings.default) == repr(saved[name]), "the outer profile was not restored"


def report_lines(result: pytest.RunResult) -> list[str]:
    out = result.stdout.lines
    start = next((i for i, ln in enumerate(out) if "property suite report" in ln), None)
    assert start is not None, "\n".join(out)
    return [ln for ln in out[start + 1 :] if ": " in ln and not ln.startswith("=")]


def test_inactive_without_a_profile_option_or_ini(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(SUITE)
    result = pytester.runpytest_inprocess()
    result.assert_outcomes(passed=2)
    assert not any(ln.startswith("pla_proof: profile") for ln in result.stdout.lines)


@pytest.mark.parametrize(
    ("name", "expected"),
    [("dev", "dev 100 False"), ("ci", "ci 200 True"), ("thorough", "thorough 2000 False")],
)
def test_pla_profile_option_loads_the_profile(
    pytester: pytest.Pytester, name: str, expected: str
) -> None:
    pytester.makepyfile(SUITE)
    result = pytester.runpytest_inprocess(f"--pla-profile={name}")
    result.assert_outcomes(passed=2)
    lines = report_lines(result)
    assert f"test_profile_settings: profile = {expected}" in lines
    assert lines.count("test_a_property: largest n = 7") == 1  # the last value of each figure
    assert any(ln.startswith(f"pla_proof: profile {name} (") for ln in result.stdout.lines)


@pytest.mark.skipif(
    missing_extra("symbolic") is not None, reason="pip install 'pla_proof[symbolic]'"
)
def test_the_symbolic_profile_draws_with_crosshair(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        SUITE
        + """
def test_backend(pla_profile, record_property):
    record_property("report: backend", settings().backend)
"""
    )
    result = pytester.runpytest_inprocess("--pla-profile=symbolic")
    result.assert_outcomes(passed=3)
    assert "test_backend: backend = crosshair" in report_lines(result)


def test_a_profile_whose_extra_is_missing_is_refused_naming_it(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None)
    pytester.makepyfile(SUITE)
    result = pytester.runpytest_inprocess("--pla-profile=symbolic")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "pip install 'pla_proof[symbolic]'" in result.stderr.str()


def test_ci_has_no_database_and_dev_a_local_directory(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(SUITE)
    ci = report_lines(pytester.runpytest_inprocess("--pla-profile=ci"))
    dev = report_lines(pytester.runpytest_inprocess("--pla-profile=dev"))
    assert "test_profile_settings: database = none" in ci
    assert "test_profile_settings: database = directory" in dev


def test_precedence_option_then_environment_then_ini(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile(SUITE)
    pytester.makeini("[pytest]\npla_proof_profile = thorough\n")
    assert "test_profile_settings: profile = thorough 2000 False" in report_lines(
        pytester.runpytest_inprocess()
    )
    monkeypatch.setenv("HYPOTHESIS_PROFILE", "ci")
    assert "test_profile_settings: profile = ci 200 True" in report_lines(
        pytester.runpytest_inprocess()
    )
    assert "test_profile_settings: profile = dev 100 False" in report_lines(
        pytester.runpytest_inprocess("--pla-profile=dev")
    )


def test_unknown_profiles_and_bad_budgets_are_refused(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile(SUITE)
    cases = [
        (["--pla-profile=bogus"], "--pla-profile='bogus' is not a profile (choose dev, ci"),
        (["--pla-profile=campaign"], "the campaign profile searches for a time: give"),
        (["--pla-profile=ci", "--pla-minutes=1"], "--pla-minutes needs a time-budget profile"),
        (["--pla-profile=campaign", "--pla-minutes=0"], "the time budget must be positive"),
        (["--pla-database-readonly"], "--pla-database-readonly needs a database"),
        (["--pla-database=ftp://x/y"], "database ftp://x/y: unsupported scheme 'ftp'"),
        (["--pla-profile=ci", "--hypothesis-profile=ci"], "give --pla-profile or --hypothesis"),
    ]
    for args, message in cases:
        result = pytester.runpytest_inprocess(*args)
        assert result.ret == pytest.ExitCode.USAGE_ERROR, args
        result.stderr.fnmatch_lines([f"ERROR: {message}*"])
    monkeypatch.setenv("HYPOTHESIS_PROFILE", "nightly")
    pytester.makeini("[pytest]\npla_proof_profile = dev\n")
    result = pytester.runpytest_inprocess()
    result.stderr.fnmatch_lines(["ERROR: HYPOTHESIS_PROFILE='nightly' is not a profile*"])


def test_a_users_own_profile_of_the_same_name_is_kept_when_inactive(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(
        "from hypothesis import settings\n"
        "settings.register_profile('ci', max_examples=7, derandomize=False)\n"
        "settings.load_profile('ci')\n"
    )
    pytester.makepyfile(SUITE)
    lines = report_lines(pytester.runpytest_inprocess())
    assert "test_profile_settings: profile = ci 7 False" in lines


def test_database_option_gives_the_profile_a_database(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(SUITE)
    db = pytester.path / "db"
    result = pytester.runpytest_inprocess("--pla-profile=ci", f"--pla-database={db}")
    lines = report_lines(result)
    # Hypothesis allows no database when derandomised: a database means random seeds
    assert "test_profile_settings: profile = ci 200 False" in lines
    assert "test_profile_settings: database = directory" in lines
    result.stdout.fnmatch_lines([f"pla_proof: profile ci (200 examples*database directory {db}"])
    ro = pytester.runpytest_inprocess(f"--pla-database={db}", "--pla-database-readonly")
    assert "test_profile_settings: database = read-only" in report_lines(ro)


def test_check_variant_fixture_uses_the_profiles_examples(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        def test_classic(pla_check_variant):
            assert pla_check_variant("classic").report.examples == 200

        def test_bug_is_caught(pla_check_variant):
            with pytest.raises(AssertionError, match="G1"):
                pla_check_variant("bug:doubled-update", examples=20)

        def test_store(pla_counterexamples):
            doc = {"property": "SEP", "case": {"X": [["1"]]}}
            pla_counterexamples.record("v", doc)
            assert [f["property"] for f in pla_counterexamples.facts("v")] == ["SEP"]

        from pla_proof.variants import LinearVariant, OutsideDomain

        class NothingInDomain(LinearVariant):
            def claim(self, case):
                raise OutsideDomain("never")

        def test_nothing_checked(pla_check_variant):
            pla_check_variant(NothingInDomain(), examples=5)
        """
    )
    result = pytester.runpytest_inprocess("--pla-profile=ci")
    result.assert_outcomes(passed=3, failed=1)  # a check that ran nothing fails the test
    result.stdout.fnmatch_lines(["*nothing was checked -- no run was checked*"])


def test_a_failing_property_is_reported_and_shrunk(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        from hypothesis import given, strategies as st

        @given(st.integers())
        def test_small(n):
            assert n < 1000
        """
    )
    result = pytester.runpytest_inprocess("--pla-profile=ci")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*test_small(*", "*n=1000,*"])


CAMPAIGN = """
import time
from hypothesis import given, settings, strategies as st

@settings(max_examples=5)
@given(st.integers())
def test_slow(n):
    time.sleep(0.002)

@settings(max_examples=5)
@given(st.integers())
def test_slow_too(n):
    time.sleep(0.002)

@given(st.booleans())
def test_tiny_space(b):
    pass

def test_plain():
    pass
"""


def test_campaign_spends_its_budget_in_rounds(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(CAMPAIGN)
    result = pytester.runpytest_inprocess("--pla-profile=campaign", "--pla-minutes=0.05")
    result.assert_outcomes(passed=4)
    lines = {ln.split(": campaign = ")[0]: ln for ln in report_lines(result)}
    assert set(lines) == {"test_slow", "test_slow_too", "test_tiny_space"}
    # 3 s over 3 properties: rounds of 5 examples of >= 2 ms until ~1 s is spent
    for name in ("test_slow", "test_slow_too"):
        rounds, cases = (int(v) for v in re.findall(r"(\d+) (?:rounds|test cases)", lines[name]))
        assert rounds >= 2 and cases >= 5 * rounds, lines[name]
    assert result.duration < 3 + 10  # the budget, plus at most a round per property
    assert "1 rounds, 2 test cases" in lines["test_tiny_space"]
    assert "search space exhausted" in lines["test_tiny_space"]


def test_campaign_stops_at_a_failure_and_reports_it(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        from hypothesis import given, settings, strategies as st

        @settings(max_examples=10)
        @given(st.integers(0, 10**6))
        def test_found_late(n):
            assert n < 500_000
        """
    )
    result = pytester.runpytest_inprocess(
        "--pla-profile=campaign", "--pla-minutes=1", f"--pla-database={pytester.path / 'db'}"
    )
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*n=500000,*"])
    assert result.duration < 30
