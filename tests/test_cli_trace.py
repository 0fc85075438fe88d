import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pla_proof.cli import main
from pla_proof.trainer import RULES


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("rule", RULES)
def test_orthonormal_json_reports_six_updates_and_bound_six(
    capsys: pytest.CaptureFixture[str], rule: str
) -> None:
    code, out, _ = run_cli(capsys, "trace", "orthonormal:6", "--json", "--rule", rule)
    obj = json.loads(out)
    assert code == 0
    assert (obj["status"], obj["updates"], obj["bound"]["exact"]) == ("converged", 6, "6")
    assert len(obj["steps"]) == 6 and obj["steps"][0]["k"] == 1


def test_students_converges_with_every_invariant(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "trace", "students")
    assert code == 0
    assert "every invariant held" in out
    assert out.splitlines()[4].split() == [
        "k", "j", "y_j", "(w_k·x_j)", "u·w_{k+1}", "k·g", "‖w_{k+1}‖²", "k·R²", "w_{k+1}"
    ]  # fmt: skip
    assert "(10, 10, -5, 10, 10, 0)" in out.splitlines()[6]


def test_notation_one_meaning_per_symbol(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "trace", "demo2d")
    assert code == 0
    head = "\n".join(out.splitlines()[:3])
    assert "margin g = 25/609 (y_i (u·x_i) ≥ g for every i)" in head
    assert "unit margin γ = g/‖u‖ with γ² = 25/609" in head
    assert "theorem: k ≤ R²/γ² = R²·‖u‖²/g² = 15834/25" in head
    assert "gamma" not in out and "<=" not in out


def test_json_shows_the_weights_and_every_lemma_after_each_update(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from fractions import Fraction

    from pla_proof.data import load
    from pla_proof.proof.statements import RUNTIME_LEMMAS
    from pla_proof.trainer import train

    code, out, _ = run_cli(capsys, "trace", "demo2d", "--json", "--rule", "maxviol")
    obj = json.loads(out)
    assert code == 0
    assert set(obj["comparator"]) == {"u", "g", "uu", "gamma_squared", "R2", "source"}
    comp = {
        key: v["exact"]
        for key, v in obj["comparator"].items()
        if key in ("g", "uu", "gamma_squared")
    }
    g, uu = Fraction(comp["g"]), Fraction(comp["uu"])
    assert Fraction(comp["gamma_squared"]) == g * g / uu
    data = load("demo2d")
    run = train(data, rule="maxviol", comparator=None)
    w = [Fraction(0)] * data.d
    for step, j in zip(obj["steps"], run.choices, strict=True):
        w = [a + data.y[j] * b for a, b in zip(w, data.X[j], strict=True)]
        assert [Fraction(v["exact"]) for v in step["w"]] == w
        assert [c["lemma"] for c in step["checks"]] == [lem.id for lem in RUNTIME_LEMMAS]
        values = {k: Fraction(v["exact"]) for k, v in step["values"].items()}
        assert values["n1"] == sum(v * v for v in w) and values["k"] == step["k"]
        for lem, c in zip(RUNTIME_LEMMAS, step["checks"], strict=True):
            assert lem.holds(values) and c["holds"] is True
            assert "pu1" not in c["statement"] and "uu" not in c["statement"]


def test_xor_exits_3_with_certificate(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "trace", "xor", "--json")
    obj = json.loads(out)
    assert code == 3 and obj["status"] == "not_separable"
    assert [a["exact"] for a in obj["certificate"]["alpha"]] == ["1", "1", "1", "1"]


def test_budget_exhausted_exits_3(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "trace", "orthonormal:5", "--budget", "2", "--json")
    assert code == 3 and json.loads(out)["status"] == "budget_exhausted"


def test_explicit_comparator_strict_and_float(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    comp = tmp_path / "u.txt"
    comp.write_text("1 -1 1 -1\n")
    code, out, _ = run_cli(
        capsys, "trace", "orthonormal:4", "--comparator", str(comp), "--strict", "--json"
    )
    obj = json.loads(out)
    assert code == 0 and obj["strict"] and obj["bound"]["exact"] == "16"
    code, out, _ = run_cli(
        capsys, "trace", "orthonormal:4", "--comparator", "1,-1,1,-1", "--mode", "float"
    )
    assert code == 0 and "float guard" in out


def test_replay_reproduces_an_order(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "trace", "orthonormal:3", "--replay", "3,1,2", "--json")
    assert code == 0 and json.loads(out)["choices"] == [3, 1, 2]
    code, _, err = run_cli(capsys, "trace", "orthonormal:3", "--replay", "1,1")
    assert code == 2 and "not a violator" in err


def write(tmp_path: Path, name: str, text: str) -> str:
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def bad_inputs(tmp_path: Path) -> list[tuple[list[str], str]]:
    pickled = tmp_path / "p.npz"
    np.savez(pickled, X=np.array([[object()]], dtype=object), y=np.array([1]))
    return [
        (["trace", str(tmp_path / "missing.csv")], "no such file"),
        (["trace", write(tmp_path, "nan.csv", "1,2,1\nnan,1,1\n")], "line 2"),
        (["trace", write(tmp_path, "inf.csv", "1,inf,1\n")], "not finite"),
        (["trace", write(tmp_path, "lab.csv", "1,2,5\n")], "not -1 or +1"),
        (["trace", write(tmp_path, "01.csv", "1,2,0\n")], "--labels 01"),
        (["trace", write(tmp_path, "rag.csv", "1,2,1\n1,1\n")], "line 2 has 2 columns"),
        (["trace", write(tmp_path, "txt.csv", "1,2,1\n1,x,1\n")], "line 2"),
        (["trace", write(tmp_path, "empty.csv", "")], "empty"),
        (["trace", write(tmp_path, "nofeat.csv", "1\n")], "at least one feature"),
        (["trace", str(pickled)], "pickled"),
        (["trace", "students", "--comparator", "1,2,3"], "comparator has 3 entries"),
        (["trace", "orthonormal:2", "--comparator", "1,1"], "does not separate"),
        (
            ["trace", "orthonormal:2", "--comparator", str(tmp_path / "nope.txt")],
            "no such comparator file",
        ),
        (["trace", "orthonormal:2", "--bias", "wobbly"], "unknown bias convention"),
        (["trace", "orthonormal:2", "--budget", "-3"], "budget"),
        (["trace", "orthonormal:2", "--rule", "sideways"], "invalid choice"),
        (["trace", "orthonormal:zero"], "positive integer"),
    ]


def test_every_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for argv, message in bad_inputs(tmp_path):
        code, _, err = run_cli(capsys, *argv)
        assert code == 2, argv
        lines = err.strip().splitlines()
        assert len(lines) == 1, (argv, err)
        assert message in lines[0], (argv, err)
        assert "Traceback" not in err


def test_installed_console_script_refuses_bad_input_without_traceback(tmp_path: Path) -> None:
    bad = write(tmp_path, "bad.csv", "1,2,1\n3,oops,1\n")
    proc = subprocess.run(
        [sys.executable, "-m", "pla_proof", "trace", bad],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "line 2" in proc.stderr
    assert proc.stdout == ""


def test_a_wide_row_is_shown_by_its_first_and_last_coordinates(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """100,000 columns (a bag-of-words row): the text names the size and shows the first
    and last coordinates (it printed 1.2 MB before); the JSON output keeps them all."""
    d = 100_000
    path = tmp_path / "wide.csv"
    row = [(3 * c) % 7 for c in range(d)]
    path.write_text(",".join(map(str, row)) + ",1\n", encoding="utf-8")
    u = tmp_path / "u.txt"  # the point itself separates it (no optimal comparator to find)
    u.write_text(",".join(map(str, row)) + "\n", encoding="utf-8")
    code, out, _ = run_cli(capsys, "trace", str(path), "--comparator", str(u))
    assert code == 0 and len(out) < 2_000
    shown = f"(0, 3, 6, 2, 5, 1, 4, 0, 3, …, {row[-2]}, {row[-1]}; 100,000 coordinates)"
    assert f"w_2 = {shown} separates" in out
    code, out, _ = run_cli(capsys, "trace", str(path), "--comparator", str(u), "--json")
    assert code == 0 and [int(v["exact"]) for v in json.loads(out)["w"]] == row


# --- the default comparator on data too large for the exact u* ---------------------------


def _no_exact_solve(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the exact u* solve fail loudly if it is attempted."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("optimal_comparator called")

    monkeypatch.setattr("pla_proof.geometry.optimal_comparator", refuse)


def test_data_above_the_limit_use_the_final_w_and_say_so(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("pla_proof.cli.common.EXACT_COMPARATOR_VALUES", 35)  # orthonormal:6: 36
    _no_exact_solve(monkeypatch)
    code, out, _ = run_cli(capsys, "trace", "orthonormal:6")
    lines = out.splitlines()
    assert code == 0
    assert lines[1] == (
        "comparator: the run's final w (u* is computed exactly up to 35 values; these data "
        "have 36; --comparator U or --optimal to choose)"
    )
    assert "[final w]" in lines[2] and "every invariant held" in out
    code, out, _ = run_cli(capsys, "trace", "orthonormal:6", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["comparator"]["source"] == "final w"
    assert "these data have 36" in obj["comparator_note"]


def test_data_at_the_limit_keep_the_optimal_comparator(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("pla_proof.cli.common.EXACT_COMPARATOR_VALUES", 36)
    code, out, _ = run_cli(capsys, "trace", "orthonormal:6", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["comparator"]["source"] == "optimal u*"
    assert obj["comparator_note"] is None
    code, out, _ = run_cli(capsys, "trace", "orthonormal:6")
    assert "[optimal u*]" in out.splitlines()[1] and "final w (u*" not in out


def test_optimal_forces_u_star_above_the_limit(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("pla_proof.cli.common.EXACT_COMPARATOR_VALUES", 1)
    code, out, _ = run_cli(capsys, "trace", "orthonormal:6", "--json", "--optimal")
    obj = json.loads(out)
    assert code == 0 and obj["comparator"]["source"] == "optimal u*"
    assert obj["comparator_note"] is None
    code, _, err = run_cli(capsys, "trace", "students", "--optimal", "--comparator", "1,1,1,1,1,1")
    assert code == 2 and "--comparator and --optimal cannot be used together" in err


def test_the_final_w_bound_is_a_valid_bound(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """On the final-w path the bound shown is the theorem's for u = w, computed from the
    data here: it is at least the updates made, and at least u*'s (the tightest)."""
    from fractions import Fraction

    from pla_proof.data import load
    from pla_proof.geometry import optimal_comparator

    monkeypatch.setattr("pla_proof.cli.common.EXACT_COMPARATOR_VALUES", 1)
    for name in ("demo2d", "students", "orthonormal:5"):
        code, out, _ = run_cli(capsys, "trace", name, "--json")
        obj = json.loads(out)
        assert code == 0 and obj["comparator"]["source"] == "final w"
        data = load(name)
        w = [Fraction(v["exact"]) for v in obj["w"]]
        g = min(
            yi * sum(a * b for a, b in zip(w, x, strict=True))
            for x, yi in zip(data.X, data.y, strict=True)
        )
        r2 = max(sum(Fraction(a) ** 2 for a in x) for x in data.X)
        bound = r2 * sum(v * v for v in w) / g**2
        assert g > 0 and Fraction(obj["bound"]["exact"]) == bound
        assert obj["updates"] <= bound
        star = optimal_comparator(data)
        assert star is not None and star.bound <= bound
