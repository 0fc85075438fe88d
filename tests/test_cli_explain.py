"""``pla-proof explain``: every lemma on a real run's numbers."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from pla_proof.cli import main
from pla_proof.cli.explain import explain_run
from pla_proof.data import Dataset, load
from pla_proof.proof.statements import RUNTIME_LEMMAS
from pla_proof.trainer import train


def test_default_walks_through_students(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain"]) == 0
    out = capsys.readouterr().out
    assert "students" in out and "optimal u*" in out
    for lem in RUNTIME_LEMMAS:
        assert f"  {lem.id} " in out
    assert "Theorem 3:  k = 2 ≤ R²/γ² = 465429/67825 (≈ 6.8622)" in out
    assert "SEP: the returned w_3" in out and "DUAL" in out and "COS" in out and "BIAS" in out


def test_statements_in_the_proofs_notation_every_symbol_defined(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from pla_proof.proof import notation

    assert main(["explain", "demo2d"]) == 0
    out = capsys.readouterr().out
    for internal in ("pu1", "n1", "uu", "yux", "R2", "gamma^2", "k*gamma", "<="):
        assert internal not in out, internal
    symbols = out.split("Symbols\n", 1)[1].split("\n\n", 1)[0]
    for lem in RUNTIME_LEMMAS:
        assert notation.text(lem) in out
        for sym in notation.symbols_of(lem):
            assert f"  {sym.text}: {sym.meaning}" in symbols
    # g is the homogeneous margin, γ = g/‖u‖ the unit one: never the other way round
    assert "y_i (u·x_i) ≥ g = " in out and "γ = g/‖u‖" in out
    # one format per relation: the exact value with its decimal beside it
    assert "y_j (u·x_j) ≥ g:  25/609 (≈ 0.0410509) ≥ 25/609 (≈ 0.0410509)   slack 0" in out


def test_weights_after_every_update(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "orthonormal:3", "--comparator", "1,-1,1"]) == 0
    out = capsys.readouterr().out
    assert "so w_2 = w_1 + x_1 = (1, 0, 0)" in out
    assert "so w_3 = w_2 − x_2 = (1, -1, 0)" in out
    assert "so w_4 = w_3 + x_3 = (1, -1, 1)" in out


def test_seed_002_table_rule_and_criterion(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "students"]) == 0
    out = capsys.readouterr().out
    assert "  1  10  10  10  10  10   +1 (accept)" in out
    assert "  3   0   0  15   0   0  -1 (decline)" in out
    assert "decide accept (+1) when 10A + 10B − 5C + 10D + 10E > 0, else decline (-1)" in out
    assert (
        "Lin's sample criterion, A + B + 2C + D > 40, separates the data too: "
        "y_i (u·x_i) = 10, 10, 10 > 0" in out
    )
    assert "bound R²·‖u‖²/g² = 805107/100 (≈ 8051.07)" in out


def test_a_wrong_criterion_is_refused() -> None:
    from pla_proof.data.builtins import _DESCRIPTIONS, Criterion, Description
    from pla_proof.render.explanation import rule_lines

    data = load("students")
    run = train(data, comparator=_optimal(data))
    ex = explain_run(data, run)
    saved = _DESCRIPTIONS["students"]
    wrong = Criterion(tuple(Fraction(v) for v in (1, 1, 2, 1, 0)), Fraction(60), "a stricter rule")
    _DESCRIPTIONS["students"] = Description(saved.features, saved.labels, (wrong,))
    try:
        lines = rule_lines(ex)
    finally:
        _DESCRIPTIONS["students"] = saved
    assert "a stricter rule, A + B + 2C + D > 60, does NOT separate the data: point 1" in lines[1]


def test_xor_with_the_product_feature_is_separable(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "xor-x1x2"]) == 0
    out = capsys.readouterr().out
    assert "x1·x2" in out and "every update" in out
    assert "decide +1 when 2·x1 + 2·x2 − 4·x1·x2 − 1 > 0, else -1" in out
    run = train(load("xor-x1x2"), comparator=None)
    assert run.status == "converged"


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
            lhs = lhs_fn(**{n: step.values[n] for n in lhs_fn.__pla_args__})  # type: ignore[attr-defined]
            rhs = rhs_fn(**{n: step.values[n] for n in rhs_fn.__pla_args__})  # type: ignore[attr-defined]
            assert (Fraction(c["lhs"]["exact"]), c["op"], Fraction(c["rhs"]["exact"])) == (
                lhs,
                op,
                rhs,
            )
            assert c["holds"] is True
            slack = Fraction(c["slack"]["exact"])
            assert slack >= 0 and (slack == 0 or op != "==")


def _optimal(data: Dataset) -> Any:
    from pla_proof.geometry import optimal_comparator

    return optimal_comparator(data)


def test_orthonormal_attains_the_bound(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "orthonormal:4"]) == 0
    out = capsys.readouterr().out
    assert "k = 4 ≤ R²/γ² = 4;  slack 0 updates  (the bound is attained)" in out


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
    # LaTeX maths ($...$) for GitHub and Jupyter; a norm is \Vert, since a pipe would end
    # the table cell
    assert "| $\\Vert x_j\\Vert ^2 \\le R^2$ |" in text
    assert "$w_{3} = w_{2} - x_{3} = (10, 10, -5, 10, 10, 0)$" in text
    cells = None  # every row of a table has its header's number of cells: no stray pipe
    for line in text.splitlines():
        if not line.startswith("|"):
            cells = None
            continue
        bars = line.count("|") - line.count("\\|")
        cells = bars if cells is None else cells
        assert bars == cells, line
    assert text.count("$") % 2 == 0


def test_strict_margin_and_long_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "--strict"]) == 0
    out = capsys.readouterr().out
    assert "Theorem 3:  k = 2 < R²/γ²" in out and "y_j (u·x_j) > g:" in out
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


def test_html_and_figures_for_a_lecture(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib", reason="the figures need the plot extra (matplotlib)")
    page, figs = tmp_path / "lecture.html", tmp_path / "figs"
    assert main(["explain", "demo2d", "--html", str(page), "--figures", str(figs)]) == 0
    out = capsys.readouterr().out.splitlines()
    kinds = ["hyperplane", "sandwich", "geometry", "margin-sweep", "orders"]
    assert out == [f"wrote {figs / k}.png" for k in kinds] + [f"wrote {page}"]
    assert sorted(p.name for p in figs.iterdir()) == sorted(f"{k}.png" for k in kinds)
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and "Content-Security-Policy" in html
    # more than two coordinates: only the figures that apply
    figs2 = tmp_path / "students"
    assert main(["explain", "students", "--figures", str(figs2)]) == 0
    capsys.readouterr()
    assert sorted(p.name for p in figs2.iterdir()) == [
        "margin-sweep.png",
        "orders.png",
        "sandwich.png",
    ]


def test_markdown_hand_out_links_the_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib", reason="the figures need the plot extra (matplotlib)")
    md = tmp_path / "handout.md"
    code = main(
        ["explain", "orthonormal:3", "--markdown", "-o", str(md), "--figures", str(tmp_path / "f")]
    )
    assert code == 0
    text = md.read_text(encoding="utf-8")
    assert "![sandwich](f/sandwich.png)" in text and "![orders](f/orders.png)" in text
    assert "hyperplane" not in text.split("## The updates")[0]


def test_non_separable_data_still_get_their_page_and_updates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib", reason="the figures need the plot extra (matplotlib)")
    page, figs = tmp_path / "xor.html", tmp_path / "figs"
    assert main(["explain", "xor", "--html", str(page), "--figures", str(figs)]) == 3
    captured = capsys.readouterr()
    assert "NOT linearly separable" in captured.out
    assert captured.err.splitlines() == [f"wrote {figs / 'hyperplane.png'}", f"wrote {page}"]
    assert [p.name for p in figs.iterdir()] == ["hyperplane.png"]


def test_html_refuses_bad_targets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "demo2d", "--html", str(tmp_path / "no" / "such" / "p.html")]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_the_teachers_guide_commands_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every command of docs/teaching.md's table, run as written (the CSV is the guide's)."""
    pytest.importorskip("matplotlib", reason="the figures need the plot extra (matplotlib)")
    import re
    import shlex

    guide = (Path(__file__).parent.parent / "docs" / "teaching.md").read_text(encoding="utf-8")
    csv = guide.split("```\nx1,x2,label\n", 1)[1].split("```", 1)[0]
    (tmp_path / "mine.csv").write_text("x1,x2,label\n" + csv, encoding="utf-8")
    table = guide.split("## Three data sets, three commands each", 1)[1].split("\n\n")[1]
    commands = re.findall(r"`(pla-proof explain [^`]+)`", table)
    assert len(commands) == 9
    monkeypatch.chdir(tmp_path)
    for command in commands:
        assert main(shlex.split(command)[1:]) == 0, command
    capsys.readouterr()
    assert (tmp_path / "mine.html").exists() and (
        tmp_path / "figs" / "mine" / "hyperplane.png"
    ).exists()
    assert "![hyperplane](figs/mine/hyperplane.png)" in (tmp_path / "mine.md").read_text("utf-8")
    assert sorted(p.name for p in (tmp_path / "figs" / "ortho").iterdir()) == [
        "margin-sweep.png",
        "orders.png",
        "sandwich.png",
    ]


def test_data_above_the_limit_explain_with_the_final_w_and_say_so(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("pla_proof.cli.common.EXACT_COMPARATOR_VALUES", 35)  # orthonormal:6: 36
    note = "comparator: the run's final w (u* is computed exactly up to 35 values; these data"
    assert main(["explain", "orthonormal:6"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(note)
    assert main(["explain", "orthonormal:6", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["comparator_note"].startswith(note)
    assert main(["explain", "orthonormal:6", "--json", "--optimal"]) == 0
    assert json.loads(capsys.readouterr().out)["comparator_note"] is None
