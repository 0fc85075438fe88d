import io
import sys

import pytest

from pla_proof.cli import common
from pla_proof.variants import resolve, search


def test_search_reports_progress_to_a_callback() -> None:
    lines: list[str] = []
    report = search(resolve("classic"), examples=60, progress=lines.append)
    assert report.ok
    assert lines and all(line.startswith("classic: ") for line in lines)
    assert lines[-1].endswith("refuted so far: none")


def test_progress_is_shown_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert common.terminal_progress() is None
    tty = Tty()
    monkeypatch.setattr(sys, "stderr", tty)
    show = common.terminal_progress()
    assert show is not None
    show("classic: 25 runs")
    assert "classic: 25 runs" in tty.getvalue()
