"""A check where no run reached a verdict is inconclusive (exit 3), never a pass
(pla_proof.variants.checking.report.CheckReport.status)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pla_proof.cli import main
from pla_proof.variants.checking.report import CheckReport, PropertyResult

CAPPED = '''\
from pla_proof.variants import LinearVariant


class AlwaysCapped(LinearVariant):
    """The classic rule allowed no update: every run stops at the safety cap."""

    name = "always-capped"

    def budget(self, case):
        return 0, False
'''


def report(runs: int, inconclusive: int) -> CheckReport:
    r = CheckReport("v", 10, 0, runs=runs, inconclusive=inconclusive)
    r.properties = [PropertyResult("T", "bound", "T", runs=runs)]
    return r


def test_every_run_at_the_cap_is_inconclusive_with_its_reason() -> None:
    r = report(5, 5)
    assert r.status == "inconclusive" and not r.ok
    assert r.inconclusive_reasons == [
        "no run reached a verdict: all 5 run(s) stopped at the safety cap before their bound"
    ]


def test_one_decided_run_is_a_verdict_as_before() -> None:
    assert report(5, 4).status == "pass" and report(5, 4).inconclusive_reasons == []


def test_the_cli_says_inconclusive_with_exit_3(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "capped.py").write_text(CAPPED)
    argv = ["check", "capped.py:AlwaysCapped", "--examples", "10", "--jobs", "1"]
    assert main([*argv, "--json"]) == 3
    doc = json.loads(capsys.readouterr().out)
    assert doc["verdict"] == "inconclusive" and doc["runs"] == doc["inconclusive"] > 0
    assert doc["inconclusive_reasons"][0].startswith("no run reached a verdict")
    assert main(argv) == 3
    assert "INCONCLUSIVE (exit 3): no run reached a verdict" in capsys.readouterr().out


def test_a_normal_passing_check_is_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "classic", "--examples", "10", "--jobs", "1", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["verdict"] == "pass" and "inconclusive_reasons" not in doc
