"""Every ``--json`` output validates against its shipped schema and keeps the number rule."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from pla_proof.cli import main
from pla_proof.schemas import COMMANDS, schema, validate

#: the only keys under which a JSON float may appear (docs/cli.md)
FLOAT_KEYS = {"float", "lo", "hi", "seconds", "max_missed"}


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = main([*argv, "--json"])
    out = capsys.readouterr().out
    assert out.count("\n") == 1, "one JSON object on one line"
    return code, json.loads(out)


def floats_outside_the_rule(obj: Any, key: str = "") -> list[str]:
    if isinstance(obj, float):
        return [] if key in FLOAT_KEYS else [key]
    if isinstance(obj, dict):
        return [bad for k, v in obj.items() for bad in floats_outside_the_rule(v, k)]
    if isinstance(obj, list):
        return [bad for v in obj for bad in floats_outside_the_rule(v, key)]
    return []


def cases(tmp_path: Path) -> list[tuple[list[str], int | None]]:
    wide = tmp_path / "wide.csv"
    wide.write_text("1e400,1,1\n-1,2,-1\n")
    other = tmp_path / "Other.v"
    other.write_text("Lemma one : 1 = 1. Proof. reflexivity. Qed.\n")
    return [
        (["audit", str(other)], 1),
        (["trace", "students"], 0),
        (["trace", "orthonormal:3", "--mode", "float", "--comparator", "1,-1,1"], 0),
        (["trace", "xor"], 3),
        (["trace", "orthonormal:5", "--budget", "2"], 3),
        (["trace", "orthonormal:3", "--replay", "3,1,2"], 0),
        (["certify", "orthonormal:3", "1,-1,1"], 0),
        (["certify", "orthonormal:3", "-1,2,0"], 1),
        (["certify", str(wide), "1e400,-1"], 0),
        (["bound", "students"], 0),
        (["bound", "xor"], 3),
        (["bound", "orthonormal:4", "--no-runs"], 0),
        (["explain", "students"], 0),
        (["explain", "xor"], 3),
        (["explain", "maxviol:1/10", "--rule", "maxviol", "--budget", "3"], 3),
        (["verify", "--only", "L1*"], 0),
        (["check", "--list"], 0),
        (["plot", "students", "--kind", "sandwich", "-o", str(tmp_path / "s.png")], 0),
        (["export", "--coq", str(tmp_path / "proof.v")], None),
        (
            [
                "check",
                "bug:plus-x",
                "--examples",
                "10",
                "--shrink-runs",
                "30",
                "--out",
                str(tmp_path / "ce"),
            ],
            1,
        ),
    ]


def test_every_output_validates_and_keeps_the_number_rule(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    seen = set()
    for argv, expected in cases(tmp_path):
        code, obj = run_json(capsys, *argv)
        assert code == expected or expected is None, argv
        assert obj["schema"] == f"pla-proof/{argv[0]}" and obj["schema_version"] == 1
        validate(obj)
        assert floats_outside_the_rule(obj) == [], argv
        seen.add(argv[0])
    assert seen == set(COMMANDS)


def test_a_replayed_counterexample_validates(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "ce"
    argv = ["bug:plus-x", "--examples", "10", "--shrink-runs", "30", "--out", str(out)]
    code, obj = run_json(capsys, "check", *argv)
    failed = next(p for p in obj["properties"] if p["status"] == "fail")
    code, replay = run_json(
        capsys, "check", "bug:plus-x", "--replay", failed["counterexample"]["json"]
    )
    assert code == 1
    validate(replay)


def test_the_schemas_reject_the_old_mixed_representations(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, obj = run_json(capsys, "certify", "orthonormal:3", "1,-1,1")
    for wrong in ({"bound": 3}, {"bound": "3"}, {"w": ["1", "-1", "1"]}, {"schema_version": 0}):
        with pytest.raises(jsonschema.ValidationError):
            validate({**obj, **wrong})
    with pytest.raises(jsonschema.ValidationError):
        validate({**obj, "margin": {"exact": "1/0", "float": 1.0}})


def test_huge_exact_values_are_written_in_full(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "big.csv"
    path.write_text("1,1\n")
    weight = "9" * 5000  # more digits than Python prints by default
    code, obj = run_json(capsys, "certify", str(path), weight)
    assert code == 0
    assert obj["w"][0] == {"exact": weight, "float": None}
    validate(obj)


@pytest.mark.parametrize("command", COMMANDS)
def test_each_schema_is_a_valid_json_schema(command: str) -> None:
    jsonschema.Draft202012Validator.check_schema(schema(command))
