"""``pla-proof certify``: exact validation of an external separator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pla_proof.cli import main


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_separating_weights_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "certify", "orthonormal:3", "1,-1,1", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["separates"] is True
    assert obj["margin"]["exact"] == "1" and obj["gamma2"]["exact"] == "1/3"
    assert obj["bound"] == {"exact": "3", "float": 3.0}
    assert obj["first_misclassified"] is None


def test_students_optimal_direction_from_a_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    f = tmp_path / "w.txt"
    f.write_text("754 754 -902 754 0 -35\n")
    code, out, _ = run_cli(capsys, "certify", "students", str(f))
    assert code == 0
    assert "separates every point strictly" in out and "465429/67825" in out


def test_misclassification_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "certify", "orthonormal:4", "1,1,0.5,-1", "--json")
    obj = json.loads(out)
    assert code == 1 and obj["separates"] is False
    assert obj["first_misclassified"] == 2 and obj["first_misclassified_value"]["exact"] == "-1"
    assert obj["bound"] is None
    code, out, _ = run_cli(capsys, "certify", "orthonormal:4", "1,1,0.5,-1")
    assert code == 1 and "does NOT separate: point 2 has y w.x = -1 <= 0" in out


def test_decimal_weights_are_exact(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # 0.1 * 3 - 0.3 is exactly 0 for decimals (not in float): on the boundary, not separated
    f = tmp_path / "d.csv"
    f.write_text("3,1\n")
    code, out, _ = run_cli(capsys, "certify", str(f), "0.1", "--json")
    assert code == 0 and json.loads(out)["margin"]["exact"] == "3/10"
    g = tmp_path / "e.csv"
    g.write_text("0.3,-1\n")
    code, out, _ = run_cli(capsys, "certify", str(g), "1", "--json")
    assert code == 1 and json.loads(out)["margin"]["exact"] == "-3/10"


def test_weights_of_zero(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "certify", "orthonormal:2", "0,0", "--json")
    obj = json.loads(out)
    assert code == 1 and obj["misclassified"] == 2 and obj["first_misclassified"] == 1


def test_certify_agrees_with_the_trainer_on_its_own_output(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run_cli(capsys, "trace", "students", "--json")
    w = json.loads(out)["w"]
    assert code == 0
    code, out, _ = run_cli(capsys, "certify", "students", ",".join(v["exact"] for v in w))
    assert code == 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["certify", "orthonormal:3", "1,2"], "2 entries but the data have 3 features"),
        (["certify", "students", "1,1,1,1,1"], "including the bias coordinate"),
        (["certify", "orthonormal:2", "nosuchfile"], "no such weights file"),
        (["certify", "orthonormal:2", "1,e"], "is not a number"),
        (["certify", "orthonormal:2", ","], "weights entry 1 is empty"),
        (["certify", "orthonormal:2", "1,,2"], "weights entry 2 is empty"),
        (["certify", "orthonormal:2", "1_000,1"], "is not a number"),
        (["certify", "nosuch.csv", "1"], "no such file"),
    ],
)
def test_bad_input_exits_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1
