"""``pla-proof explain``: every lemma on a real run's numbers."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from pla_proof.cli import main
from pla_proof.cli.explain import explain_run
from pla_proof.data import load
from pla_proof.proof.statements import RUNTIME_LEMMAS
from pla_proof.trainer import train


def test_default_walks_through_students(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain"]) == 0
    out = capsys.readouterr().out
    assert "students" in out and "optimal u*" in out
    for lem in RUNTIME_LEMMAS:
        assert f"  {lem.id} " in out
    assert "Theorem 3:  k = 2 <= R^2/gamma^2 = 465429/67825" in out
    assert "SEP: the returned w" in out and "DUAL" in out and "COS" in out and "BIAS" in out


def test_json_numbers_are_the_runs_own(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "maxviol:1/5", "--rule", "maxviol", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    data_set = load("maxviol:1/5")
    run = train(data_set, rule="maxviol", comparator=_optimal(data_set))
    assert data["updates"] == run.updates == len(data["steps"])
    for step, shown in zip(run.steps, data["steps"], strict=True):
        assert [c["lemma"] for c in shown["checks"]] == [lem.id for lem in RUNTIME_LEMMAS]
        for lem, c in zip(RUNTIME_LEMMAS, shown["checks"], strict=True):
            lhs_fn, op, rhs_fn = lem.evaluator(strict=False)
            lhs = lhs_fn(**{n: step.values[n] for n in lhs_fn.__pla_args__})
            rhs = rhs_fn(**{n: step.values[n] for n in rhs_fn.__pla_args__})
            assert (Fraction(c["lhs"]["exact"]), c["op"], Fraction(c["rhs"]["exact"])) == (
                lhs,
                op,
                rhs,
            )
            assert c["holds"] is True
            slack = Fraction(c["slack"]["exact"])
            assert slack >= 0 and (slack == 0 or op != "==")


def _optimal(data):  # type: ignore[no-untyped-def]
    from pla_proof.geometry import optimal_comparator

    return optimal_comparator(data)


def test_orthonormal_attains_the_bound(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "orthonormal:4"]) == 0
    out = capsys.readouterr().out
    assert "k = 4 <= R^2/gamma^2 = 4;  slack 0 updates  (the bound is attained)" in out


def test_not_separable_says_so_and_exits_3(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "xor"]) == 3
    out = capsys.readouterr().out
    assert "NOT linearly separable" in out and "Gordan" in out and "checked exactly" in out
    assert main(["explain", "xor", "--json"]) == 3
    assert json.loads(capsys.readouterr().out)["status"] == "not_separable"


def test_budget_exhausted_exits_3(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "maxviol:1/10", "--rule", "maxviol", "--budget", "3"]) == 3
    assert "no conclusion" in capsys.readouterr().out


def test_markdown_handout_to_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "handout.md"
    assert main(["explain", "--markdown", "-o", str(target)]) == 0
    assert capsys.readouterr().out == ""
    text = target.read_text(encoding="utf-8")
    assert text.startswith("# The Perceptron convergence proof on `students`")
    assert "| lemma | what it says |" in text and "## The final step" in text
    assert "\\|x_j\\|^2" in text  # table cells stay intact


def test_strict_margin_and_long_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "--strict"]) == 0
    assert "Theorem 3:  k = 2 < R^2/gamma^2" in capsys.readouterr().out
    assert main(["explain", "maxviol:1/10", "--rule", "maxviol", "--steps", "3"]) == 0
    out = capsys.readouterr().out
    shown = [line.split(":")[0] for line in out.splitlines() if line.startswith("Update k = ")]
    run = train(load("maxviol:1/10"), rule="maxviol", comparator=None)
    last = run.updates
    assert shown == ["Update k = 1", "Update k = 2", f"Update k = {last}"]
    assert f"... {last - 3} more updates" in out
    assert main(["explain", "orthonormal:4", "--steps", "0"]) == 0
    out = capsys.readouterr().out
    assert "Update k = " not in out and "... 4 more updates" in out


def test_bad_input_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "orthonormal:3", "--comparator", "1,-1"]) == 2
    assert "comparator has 2 entries" in capsys.readouterr().err
    assert main(["explain", "--steps", "-1"]) == 2
    assert main(["explain", "-o", "/nonexistent-dir/x.md"]) == 2


def test_explain_run_needs_a_comparator() -> None:
    from pla_proof.errors import InputError

    data = load("orthonormal:2")
    with pytest.raises(InputError):
        explain_run(data, train(data, comparator=None))
