"""The per-command budget (``pla_proof.cli.budget``) called in-process, as ``main()``
is by a test runner or a notebook: an interruption never outlives its command."""

from __future__ import annotations

import time

from pla_proof.cli.budget import BudgetExceeded, CommandBudget


def _busy(seconds: float) -> None:
    t = time.perf_counter()
    while time.perf_counter() - t < seconds:
        pass


def test_an_expiry_as_the_command_ends_goes_off_inside_it_or_not_at_all() -> None:
    """Commands ending just as their budget runs out: the watchdog's exception is raised
    inside the ``with`` block or taken back -- never later, in unrelated code."""
    inside = leaked = 0
    for i in range(300):
        try:
            try:
                with CommandBudget("trace", 0.002, 0, process=False):
                    _busy(0.0005 * (i % 30))  # 0 to 15 ms (the GIL switches every 5 ms)
            except BudgetExceeded:
                inside += 1
            _busy(0.004)  # whatever the caller does next
        except BudgetExceeded:
            leaked += 1
    assert leaked == 0, f"{leaked} of 300 interruptions went off after their command"
    assert inside > 0  # the budget does interrupt
