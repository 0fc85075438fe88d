"""The symbolic backend (``check --backend crosshair``): the same search with a first
round drawn by CrossHair, every counterexample it finds confirmed on plain values."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from pla_proof.variants import resolve
from pla_proof.variants.catalog.bugs import BUGS
from pla_proof.variants.checking import search, shard, symbolic
from pla_proof.variants.checking.report import Counterexample, ShardResult
from pla_proof.variants.checking.run import run_case
from pla_proof.variants.protocol.variant import Case, Order

needs_crosshair = pytest.mark.skipif(
    symbolic.missing("crosshair") is not None, reason="pip install 'pla_proof[symbolic]'"
)


def test_an_unknown_backend_or_a_missing_extra_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    assert symbolic.missing("hypothesis") is None
    assert "one of hypothesis, crosshair" in (symbolic.missing("z3") or "")
    import importlib.util

    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None)
    assert symbolic.missing("crosshair") == (
        "--backend crosshair needs hypothesis-crosshair: pip install 'pla_proof[symbolic]'"
    )


def test_the_cli_refuses_an_unknown_backend_with_exit_2(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "pla_proof", "check", "classic", "--backend", "z3"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert out.returncode == 2, out.stderr
    assert out.stderr.strip().splitlines() == [
        "pla-proof check: error: --backend must be one of hypothesis, crosshair, got 'z3'"
    ]


def test_a_symbolic_counterexample_that_does_not_fail_on_plain_values_is_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The replay is what keeps the backend from raising a false alarm: a counterexample
    whose property holds when the case is run again is not reported."""
    variant = resolve("classic")
    case = Case(((Fraction(1),),), (1,), (Fraction(1),), Fraction(1), {})
    rec, res = run_case(variant, case, Order("cyclic"))
    assert not any(res.values())
    from pla_proof.variants.protocol.claim import Failure

    fake = Counterexample(case, Order("cyclic"), rec, Failure("G1", 1, 0, 2, "<=", 1))
    monkeypatch.setattr(shard._Round, "search", lambda self, *a: [fake])
    out = ShardResult()
    kept = shard._symbolic_round(variant, None, 1, 0, set(), out, "exact", 5.0, 0, 10, "crosshair")
    assert kept == [] and out.symbolic["dropped"] == 1 and "replayed" not in out.symbolic


@needs_crosshair
def test_crosshair_finds_a_seeded_bug_and_confirms_it_on_plain_values() -> None:
    report = search(BUGS["plus-x"].variant(), examples=8, seed=0, shards=1, backend="crosshair")
    assert not report.result("G2").ok
    assert report.symbolic["runs"] >= 1
    assert report.symbolic.get("replayed", 0) >= 1 and report.symbolic.get("dropped", 0) == 0
    ce = report.result("G2").counterexample
    assert ce is not None and all(type(v) is Fraction for x in ce.case.X for v in x)


@needs_crosshair
def test_crosshair_raises_no_false_alarm_on_the_classic_algorithm(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "pla_proof", "check", "classic", "--backend", "crosshair",
         "--examples", "8", "--jobs", "1", "--json"],
        cwd=tmp_path, capture_output=True, text=True, timeout=280,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-800:]
    doc = json.loads(out.stdout)
    assert doc["verdict"] == "pass"
    assert doc["symbolic"]["backend"] == "crosshair" and doc["symbolic"]["runs"] >= 1
    assert "numba" in doc["symbolic"]["follows"]
    assert "Not Deterministic" not in out.stderr  # (CrossHair's diagnostics kept out)
