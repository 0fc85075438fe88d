"""``pla-proof bound``: exact geometry on the command line, exit codes, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pla_proof.cli import main
from pla_proof.errors import SolverError
from pla_proof.geometry import margin as margin_mod
from pla_proof.trainer import RULES


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("n", [3, 8])
def test_orthonormal_bound_is_n_and_every_rule_attains_it(
    capsys: pytest.CaptureFixture[str], n: int
) -> None:
    code, out, _ = run_cli(capsys, "bound", f"orthonormal:{n}", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["separable"] is True
    assert obj["gamma2"]["exact"] == f"1/{n}" and obj["bound"] == {"exact": str(n), "float": n}
    assert obj["R2"]["exact"] == "1" and obj["affine"] is None
    rules = [r["rule"] for r in obj["runs"]]
    assert set(rules) == set(RULES) and rules.count("random") == 3
    assert all(r["updates"] == n and r["status"] == "converged" for r in obj["runs"])


def test_students_text_report(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "bound", "students")
    assert code == 0
    assert "gamma*^2 = |p*|^2 = 67825/929" in out
    assert "tight bound R^2/gamma*^2 = 465429/67825" in out
    assert "affine margin on the original coordinates (exact)" in out
    assert "augmented bound (R^2 + c^2)(1 + theta^2/c^2)/gamma^2 = 639777/4225" in out
    assert "maxviol" in out


def test_students_json_affine(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "bound", "students", "--json", "--no-runs")
    obj = json.loads(out)
    assert code == 0 and obj["runs"] == []
    assert [v["exact"] for v in obj["u_integer"]] == ["754", "754", "-902", "754", "0", "-35"]
    aff = obj["affine"]
    assert aff["available"] and aff["exact"] and aff["gamma2"]["exact"] == "325/4"
    assert aff["augmented_bound"]["exact"] == "639777/4225"


def test_xor_exits_3_with_an_exact_certificate(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "bound", "xor", "--json")
    obj = json.loads(out)
    assert code == 3 and obj["separable"] is False
    cert = obj["certificate"]
    assert [a["exact"] for a in cert["alpha"]] == ["1", "1", "1", "1"]
    assert cert["verified"] and cert["source"] == "lp"
    code, out, _ = run_cli(capsys, "bound", "xor")
    assert code == 3 and "NOT SEPARABLE" in out and "convex hulls meet" in out


def test_zero_point_certificate_text(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "z.csv"
    f.write_text("1,2,1\n0,0,-1\n")
    code, out, _ = run_cli(capsys, "bound", str(f))
    assert code == 3 and "point 2 is the zero vector" in out


def test_budget_exhausted_exits_3(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "bound", "maxviol:1/10", "--budget", "2", "--json")
    obj = json.loads(out)
    assert code == 3 and obj["bound"]["exact"] == "101"
    assert any(r["status"] == "budget_exhausted" for r in obj["runs"])


def test_one_class_affine_margin_is_unbounded(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    f = tmp_path / "pos.csv"
    f.write_text("1,2,1\n3,1,1\n")
    code, out, _ = run_cli(capsys, "bound", str(f), "--bias", "augment", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["affine"] == {
        "available": False,
        "note": "unbounded (every label is the same)",
    }


def test_solver_error_is_one_line_and_exit_1(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def boom(*args: object, **kw: object) -> None:
        raise SolverError("exact min-norm refinement did not converge in 0 iterations")

    monkeypatch.setattr(margin_mod, "nearest_points", boom)
    code, out, err = run_cli(capsys, "bound", "orthonormal:3")
    assert code == 1 and out == ""
    assert err.strip() == (
        "pla-proof bound: solver error: exact min-norm refinement did not converge in 0 iterations"
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["bound", "nosuch.csv"], "no such file"),
        (["bound", "orthonormal:0"], "positive integer"),
        (["bound", "students", "--bias", "weird"], "unknown bias convention"),
        (["bound", "students", "--seeds", "-1"], "--seeds"),
        (["bound", "students", "--budget", "-5"], "--budget"),
    ],
)
def test_bad_input_exits_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1


def test_bad_csv_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "bad.csv"
    f.write_text("1,2,1\n1,x,-1\n")
    code, _, err = run_cli(capsys, "bound", str(f))
    assert code == 2 and "line 2" in err
