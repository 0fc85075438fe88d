"""The compatibility suite (tests/compat/README.md): variant files written as users
write them keep passing, their broken twins keep being refuted, and a hook the protocol
no longer calls keeps being refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from checking import budget, cli_budget

from pla_proof.cli import main
from pla_proof.testing import check_estimator, check_variant
from pla_proof.variants import resolve

COMPAT = Path(__file__).parent / "compat"

#: file -> the property that refutes its broken twin
FILES = {
    "own_loop.py": "G2",
    "selector_010.py": "G1",
    "own_predictor.py": "SEP",
    "restricted_domain.py": "G1",
    "declared_rule.py": "G1",
    "kernel.py": "G1",
    "multiclass.py": "G1",
}


#: ``--fit`` files (a training function, a kernel class) -> the property that refutes
#: their broken twin
FIT_FILES = {
    "training_function.py": "SEP",
    "kernel_class.py": "PREDICT",
}


def fit_file(name: str) -> Any:
    """The module of a ``--fit`` file, loaded by path as ``pla-proof check`` loads it."""
    from pla_proof.variants.boundary import import_user_module

    return import_user_module(str(COMPAT / name), name)


@pytest.mark.parametrize("name", sorted(FIT_FILES))
def test_a_correct_fit_file_keeps_passing(name: str) -> None:
    report = check_estimator(fit_file(name).variant, **budget(10)).report
    assert report.ok and report.runs > 0 and report.skipped == 0


@pytest.mark.parametrize("name", sorted(FIT_FILES))
def test_its_broken_fit_twin_keeps_being_refuted(name: str) -> None:
    check_estimator(fit_file(name).broken, expect_failure=FIT_FILES[name], **budget(10, 20))


@pytest.mark.parametrize("name", sorted(FILES))
def test_a_correct_user_variant_keeps_passing(name: str) -> None:
    report = check_variant(f"{COMPAT / name}:variant", **budget(20)).report
    assert report.ok and report.runs > 0 and report.skipped == 0


@pytest.mark.parametrize("name", sorted(FILES))
def test_its_broken_twin_keeps_being_refuted(name: str) -> None:
    check_variant(f"{COMPAT / name}:broken", expect_failure=FILES[name], **budget(20))


def test_the_cli_checks_a_user_file_and_its_twin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--out", str(tmp_path), "--jobs", "1", "--json", *cli_budget(20)]
    assert main(["check", f"{COMPAT / 'kernel.py'}:variant", *args]) == 0
    assert json.loads(capsys.readouterr().out)["runs"] > 0
    assert main(["check", f"{COMPAT / 'kernel.py'}:broken", *args]) == 1
    doc = json.loads(capsys.readouterr().out)
    failed = [p["id"] for p in doc["properties"] if p["status"] == "fail"]
    assert failed[0] == "G1" and "SEP" not in failed


def test_a_removed_hook_is_refused_naming_its_replacement(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["check", f"{COMPAT / 'removed_hook.py'}:variant"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert "OldPredictor.end_margin" in err[0] and "decision(case, output)" in err[0]


def test_a_restricted_domain_is_never_run_outside_it() -> None:
    # its step raises outside integer points in the plane: a fixed example or a
    # replayed case outside would fail RUNS (a false alarm)
    v = resolve(f"{COMPAT / 'restricted_domain.py'}:variant")
    assert all(v.accepts(c) for c in v.examples())
    from fractions import Fraction

    from pla_proof.variants import Case, Order
    from pla_proof.variants.checking import fixed_cases

    outside = Case(((Fraction(1, 2),),), (1,), (Fraction(1),), Fraction(1, 2))
    fixed = fixed_cases(v, [(outside, Order("cyclic"))])
    assert fixed and all(c is not outside and v.accepts(c) for c, _ in fixed)
