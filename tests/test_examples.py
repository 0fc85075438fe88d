"""The examples shipped with the package."""

from __future__ import annotations

from pathlib import Path

import pytest

from pla_proof.data import load, read_csv
from pla_proof.examples import EXAMPLES, main, path
from pla_proof.variants import resolve


def test_students_csv_is_seed_002s_table_of_the_builtin() -> None:
    builtin = load("students")
    shipped = load(str(path("students.csv")), bias="augment")
    assert shipped.X == builtin.X and shipped.y == builtin.y


def test_xor_and_decimals_read_exactly() -> None:
    xor = read_csv(path("xor.csv"))
    assert xor.y == (-1, -1, 1, 1)
    decimals = read_csv(path("decimals.csv"))
    assert str(decimals.X[0][0]) == "1/10"


def test_the_example_variant_resolves_by_module_and_by_path() -> None:
    by_module = resolve("pla_proof.examples.half_step_margin:variant")
    by_path = resolve(f"{path('half_step_margin.py')}:HalfStepMargin")
    assert by_module.name == by_path.name == "half-step-margin"


def test_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    listing = capsys.readouterr().out
    assert all(name in listing for name in EXAMPLES)
    assert main(["xor.csv"]) == 0
    assert capsys.readouterr().out.strip() == str(path("xor.csv"))
    assert main(["nope.csv"]) == 2
    assert "no example 'nope.csv'" in capsys.readouterr().err
    assert main(["--copy", str(tmp_path / "mine")]) == 0
    assert sorted(p.name for p in (tmp_path / "mine").iterdir()) == sorted(EXAMPLES)
    (tmp_path / "file").write_text("")
    assert main(["--copy", str(tmp_path / "file")]) == 2
    assert "error:" in capsys.readouterr().err
