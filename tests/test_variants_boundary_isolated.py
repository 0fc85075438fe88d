"""Users' code in a forked child: its value comes back, its failures and its time are
the caller's to report, and nothing it does is left in the caller's process."""

from __future__ import annotations

import os
import signal
import sys
import time

import pytest

from pla_proof.variants.boundary.isolated import ChildFailed, in_child


def _leave_state() -> str:
    sys.setrecursionlimit(12345)
    signal.signal(signal.SIGUSR1, signal.SIG_IGN)
    os.environ["PLA_PROOF_ISOLATED_TEST"] = "1"
    print("printed in the child")
    return "done"


def test_the_value_comes_back_and_the_state_stays_in_the_child(
    capfd: pytest.CaptureFixture[str],
) -> None:
    before = (sys.getrecursionlimit(), signal.getsignal(signal.SIGUSR1))
    assert in_child(_leave_state) == "done"
    assert (sys.getrecursionlimit(), signal.getsignal(signal.SIGUSR1)) == before
    assert "PLA_PROOF_ISOLATED_TEST" not in os.environ
    assert "printed in the child" not in capfd.readouterr().out


def test_an_exception_is_one_line() -> None:
    with pytest.raises(ChildFailed, match=r"^ZeroDivisionError: division by zero"):
        in_child(lambda: 1 / 0)


def test_a_child_that_never_returns_is_killed_on_time() -> None:
    t0 = time.monotonic()
    with pytest.raises(ChildFailed, match=r"did not finish in 0\.5 s"):
        in_child(time.sleep, 30, seconds=0.5)
    assert time.monotonic() - t0 < 5


def test_a_child_that_ends_itself_gives_no_answer() -> None:
    with pytest.raises(ChildFailed, match="without an answer"):
        in_child(os._exit, 0)


def test_an_unpicklable_value_is_a_failure_not_a_hang() -> None:
    with pytest.raises(ChildFailed, match=r"pickle|Pickl"):
        in_child(lambda: lambda: None)
