"""Coq certificates of runs and separators: coqc accepts the honest ones and rejects
tampered ones (a choice changed to a non-violator, a weight changed, a wrong bound)."""

from __future__ import annotations

import shutil
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from pla_proof.cli import main
from pla_proof.data import from_arrays
from pla_proof.proof.certificate import q, run_certificate
from pla_proof.proof.coq import compile_text
from pla_proof.trainer import train

COQC = shutil.which("coqc")
pytestmark = pytest.mark.skipif(
    COQC is None, reason="coqc is not installed (Debian package 'coq'; .ci/system-packages)"
)


def compiles(text: str) -> bool:
    proc, _ = compile_text(COQC or "coqc", text, 300, name="Certificate.v")
    return proc is not None and proc.returncode == 0


def separable(n: int, d: int, *, decimals: bool, seed: int) -> object:
    """``n`` points in ``d`` dimensions, labelled by a fixed direction with a margin:
    integers in [-20, 20], or decimals with two places (real-valued data)."""
    rng = np.random.default_rng(seed)
    u = rng.integers(-5, 6, size=d)
    u[0] = 7
    X: list[list[object]] = []
    y: list[int] = []
    while len(X) < n:
        x = rng.integers(-2000, 2001, size=d) if decimals else rng.integers(-20, 21, size=d)
        s = int(u @ x)
        if abs(s) < (300 if decimals else 3):
            continue
        X.append([Fraction(int(v), 100) for v in x] if decimals else [int(v) for v in x])
        y.append(1 if s > 0 else -1)
    return from_arrays(X, y, name=f"separable-{n}x{d}")


def run_text(data: object) -> tuple[str, object]:
    r = train(data)  # type: ignore[arg-type]
    assert r.status == "converged" and r.comparator is not None
    X, y = data.X, data.y  # type: ignore[attr-defined]
    return run_certificate(X, y, r.choices, r.w, r.comparator.u, name="t"), r


def test_the_students_certificate_is_checked_and_tampering_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "Students.v"
    assert main(["trace", "students", "--coq-certificate", str(path)]) == 0
    text = path.read_text()
    assert compiles(text)
    # one choice changed to a point that is not a violator at that update
    choices = text[text.index("Definition choices") :].split("\n", 1)[0]
    assert choices == "Definition choices : list N := [0%N; 2%N]."  # points 1 and 3
    assert not compiles(text.replace(choices, "Definition choices : list N := [0%N; 0%N]."))
    # one weight changed
    w = text[text.index("Definition W") :].split("\n", 1)[0]
    assert not compiles(text.replace(w, w.replace("(10 # 1)", "(11 # 1)", 1)))


def test_a_separator_certificate_is_checked_and_a_wrong_bound_rejected(tmp_path: Path) -> None:
    path = tmp_path / "Separator.v"
    assert main(["certify", "students", "10,10,-5,10,10,0", "--coq-certificate", str(path)]) == 0
    text = path.read_text()
    assert compiles(text)
    assert f"Definition B : Q := {q(Fraction(2839, 75))}." in text
    assert not compiles(text.replace(q(Fraction(2839, 75)), q(Fraction(2839, 76))))
    flipped = text.replace(
        "Definition W : list Q := [(10 # 1)", "Definition W : list Q := [(-9 # 1)"
    )
    assert flipped != text and not compiles(flipped)


def test_no_certificate_for_a_run_that_does_not_separate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "Xor.v"
    assert main(["trace", "xor", "--coq-certificate", str(path)]) == 3
    assert not path.exists() and "no Coq certificate written" in capsys.readouterr().err
    assert main(["trace", "students", "--coq-certificate", str(tmp_path / "x.txt")]) == 2


@pytest.mark.parametrize(("n", "d", "decimals"), [(100, 4, True), (2000, 10, False)])
def test_certificates_of_larger_runs_are_checked(n: int, d: int, decimals: bool) -> None:
    """The 100 x 4 real-valued and 2,000 x 10 integer runs of the issue's targets (their
    compile times are measured in benchmarks/bench_certificates.py)."""
    text, r = run_text(separable(n, d, decimals=decimals, seed=1))
    assert r.updates > 10  # type: ignore[attr-defined]
    assert compiles(text)
