"""Where a time limit may interrupt a run: not in the compiler, not in a GC callback."""

from __future__ import annotations

import gc
import sys
import time
from typing import Any

import pytest

from pla_proof.interrupts import in_compiler, in_gc_callback, safe_to_interrupt
from pla_proof.variants.checking import RunTimeout, time_limit


def test_an_ordinary_frame_may_be_interrupted() -> None:
    frame = sys._getframe()
    assert safe_to_interrupt(frame) and not in_compiler(frame) and not in_gc_callback(frame)


def test_the_per_run_limit_is_not_dropped_inside_a_gc_callback() -> None:
    # An exception raised in a GC callback is printed as "ignored" and dropped; the limit
    # waits until the callback returns, and the run still ends.
    seen: list[Any] = []
    inside: list[bool] = []

    def slow(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            inside.append(in_gc_callback(sys._getframe()))
            end = time.monotonic() + 0.3
            while time.monotonic() < end:
                pass

    old_hook = sys.unraisablehook
    sys.unraisablehook = seen.append
    gc.callbacks.append(slow)
    try:
        with pytest.raises(RunTimeout), time_limit(0.1):
            gc.collect()
            while True:
                pass
    finally:
        gc.callbacks.remove(slow)
        sys.unraisablehook = old_hook
    assert inside and all(inside)
    assert not [u for u in seen if isinstance(u.exc_value, RunTimeout)]
