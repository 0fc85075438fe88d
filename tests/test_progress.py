import io
import sys
import time

import pytest

from pla_proof.cli import common
from pla_proof.render.progress import Progress
from pla_proof.variants import resolve, search


def test_search_reports_progress_to_a_callback() -> None:
    lines: list[str] = []
    report = search(resolve("classic"), examples=60, progress=lines.append)
    assert report.ok
    assert lines and all(line.startswith("classic: ") for line in lines)
    assert lines[-1].endswith("refuted so far: none")


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def shown(stream: Tty, label: str, message: str) -> Progress:
    """Start a progress line on ``stream``, wait until it shows, stop it."""
    p = Progress(label, stream=stream, delay=0.0)
    p.start()
    p.update(message)
    deadline = time.monotonic() + 10
    while not p.shown and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)
    p.stop()
    return p


def test_progress_is_shown_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert common.terminal_progress() is None
    stream = io.StringIO()
    p = Progress("pla-proof check", stream=stream, delay=0.0)
    p.start()
    p.update("classic: 25 runs")
    time.sleep(0.3)
    p.stop()
    assert not p.shown and stream.getvalue() == ""


def test_a_dumb_terminal_gets_plain_lines_without_control_codes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TERM", "dumb")
    tty = Tty()
    shown(tty, "pla-proof check", "classic: 25 runs")
    text = tty.getvalue()
    assert "pla-proof check: " in text and "\x1b" not in text and "\r" not in text


def test_a_terminal_gets_a_transient_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setenv("NO_COLOR", "1")
    tty = Tty()
    p = shown(tty, "pla-proof trace", "training")
    assert p.shown and "pla-proof trace: training" in tty.getvalue()
