"""The code's own standards, checked as part of the test run: the package, the tests, the
properties and the benchmarks type-check under mypy's strict mode (pyproject.toml), and
ruff finds nothing to lint or reformat."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TREES = ["pla_proof", "tests", "properties", "benchmarks"]


def _run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=cwd, capture_output=True, text=True, timeout=280
    )


def test_the_package_type_checks_strictly_and_a_wrong_call_is_rejected(tmp_path: Path) -> None:
    """One mypy run (each takes a minute of CPU): the package passes strict mode, and a
    script beside it that calls the library wrongly is the only thing that fails."""
    bad = tmp_path / "bad.py"
    bad.write_text("from pla_proof import load\n\nload(3)\n", encoding="utf-8")
    out = _run("mypy", "--cache-dir", str(tmp_path / "cache"), "pla_proof", str(bad))
    errors = [line for line in out.stdout.splitlines() if ": error:" in line]
    assert errors and all(line.startswith(str(bad)) for line in errors), out.stdout[-3000:]
    assert out.returncode == 1 and 'incompatible type "int"' in out.stdout


def test_the_tests_properties_and_benchmarks_type_check(tmp_path: Path) -> None:
    """The same strict mode, except that an assertion may compare exact numbers with
    plain integers (``(Fraction(1), Fraction(2)) == (1, 2)``); the compatibility suite's
    files and the users' files the checker is tried on are written as users write them,
    untyped, and are left out."""
    out = _run(
        "mypy",
        "--cache-dir",
        str(tmp_path / "cache"),
        "--disable-error-code",
        "comparison-overlap",
        "--exclude",
        "tests/(compat|fixtures)/",
        "tests",
        "properties",
        "benchmarks",
    )
    assert out.returncode == 0, out.stdout[-3000:]


def test_the_code_is_linted_and_formatted() -> None:
    lint = _run("ruff", "check", "--quiet", *TREES)
    assert lint.returncode == 0, lint.stdout[-3000:]
    fmt = _run("ruff", "format", "--check", "--quiet", *TREES)
    assert fmt.returncode == 0, fmt.stdout[-3000:]


def test_the_linter_rejects_unused_imports_and_unformatted_code(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import os\nx=( 1,2 )\n", encoding="utf-8")
    config = ["--config", str(ROOT / "pyproject.toml")]
    assert _run("ruff", "check", "--quiet", *config, str(bad), cwd=tmp_path).returncode == 1
    out = _run("ruff", "format", "--check", "--quiet", *config, str(bad), cwd=tmp_path)
    assert out.returncode == 1
