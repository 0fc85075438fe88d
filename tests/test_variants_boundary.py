"""The boundary between pla_proof and users' code: a variant's hooks are called only
where the variant applies, a helper its own code calls is not a misnamed hook, and what
users' code does wrong is said as the user's, naming the hook and the user's line."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from pla_proof.cli import main
from pla_proof.variants.boundary import HookError, call_hook, one_line
from pla_proof.variants.proving.declared import NotDeclarative, read_rule

FIXTURES = Path(__file__).parent / "fixtures"
ASSERTING = f"{FIXTURES / 'normalised_asserting.py'}"
HELPERS = f"{FIXTURES / 'own_loop_helpers.py'}"


def check(capsys: Any, tmp_path: Path, target: str, *extra: str) -> tuple[int, dict[str, Any]]:
    argv = ["check", target, "--examples", "20", "--jobs", "1", "--json", "--out", str(tmp_path)]
    code = main([*argv, *extra])
    doc = json.loads(capsys.readouterr().out)
    return code, doc["reports"][0] if "reports" in doc else doc


def test_a_step_asserting_its_domain_is_checked_to_a_verdict(capsys: Any, tmp_path: Path) -> None:
    # (before the boundary: "internal error: AssertionError ... (a bug in pla_proof)", exit 4)
    code, report = check(capsys, tmp_path, f"{ASSERTING}:variant")
    assert code == 0 and report["verdict"] == "pass"
    code, report = check(capsys, tmp_path, f"{ASSERTING}:wrong")
    assert code == 1 and report["verdict"] == "fail"
    failed = [p for p in report["properties"] if p["status"] == "fail"]
    assert "T" in {p["id"] for p in failed}
    assert all(p.get("counterexample") for p in failed)


def test_its_rule_is_read_only_on_points_of_its_domain() -> None:
    from pla_proof.variants.boundary import load_attribute

    variant = load_attribute(f"{ASSERTING}:variant", "test")
    calls: list[Any] = []
    step = type(variant).step

    def watched(self: Any, w: Any, x: Any, y: Any) -> Any:
        calls.append(x)
        return step(self, w, x, y)

    type(variant).step = watched  # every probe's point must have a rational norm
    try:
        rule = read_rule(variant)
    finally:
        type(variant).step = step
    assert calls
    squares = [sum(Fraction(a) ** 2 for a in x) for x in calls]
    assert all(math.isqrt(q.numerator) ** 2 == q.numerator for q in squares)
    assert all(math.isqrt(q.denominator) ** 2 == q.denominator for q in squares)
    # its step is x/|x| (not a constant multiple of y x): tested, with the reason
    assert isinstance(rule, NotDeclarative) and "AssertionError" not in rule.reason
    assert "changes with w, x or y" in rule.reason


def test_an_own_loop_calling_its_helpers_margin_and_update_is_checked(
    capsys: Any, tmp_path: Path
) -> None:
    # (before: "Helpers.margin is not a hook of the variant protocol", exit 2)
    code, report = check(capsys, tmp_path, f"{HELPERS}:variant")
    assert code == 0 and report["verdict"] == "pass"


def test_a_helper_name_it_never_calls_is_still_refused(capsys: Any, tmp_path: Path) -> None:
    code = main(["check", f"{HELPERS}:Unused", "--examples", "5", "--jobs", "1"])
    err = capsys.readouterr().err
    assert code == 2 and "Unused.predict is not a hook" in err and "decision(case, output)" in err


def test_call_hook_names_the_hook_and_the_users_line() -> None:
    def claim(case: Any) -> Any:
        raise ValueError("no")

    with pytest.raises(HookError, match=r"^claim\(\) raised ValueError: no \(at test_"):
        call_hook(claim, "claim", 1)
    with pytest.raises(
        HookError,
        match=r"claim\(\) returned 3 \(at test_variants_boundary.py:\d+\); expected a Claim",
    ):
        call_hook(lambda c: 3, "claim", 1, expect=str, expected="a Claim")


def test_one_line_prefers_the_users_frame_to_the_library_it_called() -> None:
    def eta() -> Any:
        return Fraction(float("nan"))

    try:
        eta()
    except ValueError as exc:
        assert "(at test_variants_boundary.py:" in one_line(exc)
    else:  # pragma: no cover
        raise AssertionError("Fraction(nan) raised nothing")


def test_a_nested_limit_owns_its_time() -> None:
    """A run (an inner limit) longer than the drawing's limit around it (outer) is the
    run's to judge: the outer one does not fire as soon as the run ends."""
    import time as _time

    from pla_proof.variants.boundary import time_limit as _limit

    t0 = _time.monotonic()
    with _limit(0.3, progress=lambda: t0):
        with _limit(5.0):
            while _time.monotonic() - t0 < 0.6:
                pass
        t1 = _time.monotonic()  # the outer limit's own work after the inner one ended
        while _time.monotonic() - t1 < 0.1:
            pass
    assert _time.monotonic() - t0 >= 0.7


def test_the_check_deadline_interrupts_a_run_and_says_so() -> None:
    from pla_proof.variants.boundary import RunTimeout, check_deadline, past_deadline
    from pla_proof.variants.boundary import time_limit as _limit

    clock = _limit(10.0, deadline=True)
    with check_deadline(0.2):
        try:
            with clock:
                while True:
                    pass
        except RunTimeout:
            pass
        assert clock.at_deadline and past_deadline()
    assert not past_deadline()


def test_a_limit_being_set_up_is_never_interrupted_by_an_outer_one() -> None:
    """An outer limit whose time is up does not raise while an inner limit is being set
    up or taken down: an exception there left the inner one's handler and repeating timer
    behind, and every later run of the process was interrupted (a test worker's later
    rule readings all 'did not return in 50 s')."""
    import signal
    import sys
    import time as _time
    from types import SimpleNamespace

    from pla_proof.engine.jit import compile_seconds
    from pla_proof.variants.boundary import RunTimeout
    from pla_proof.variants.boundary import time_limit as _limit

    outer = _limit(0.05)  # as armed, its time long up (no real timer: deterministic)
    outer.armed, outer._start, outer._compiled = True, _time.monotonic() - 1.0, compile_seconds()
    setting = SimpleNamespace(f_code=_limit.__enter__.__code__)
    taking_down = SimpleNamespace(f_code=_limit.__exit__.__code__)
    outer._expired(signal.SIGALRM, setting)  # returns: the timer fires again in 50 ms
    outer._expired(signal.SIGALRM, taking_down)
    with pytest.raises(RunTimeout):  # anywhere else, its time being up, it raises
        outer._expired(signal.SIGALRM, sys._getframe())
