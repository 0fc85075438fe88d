"""The program Coq extracts from ``algorithm.v`` makes the engine's run, on generated
exact data: any labels, a bias input ``c``, any start ``(w0, b0)``, rationals of several
orders of magnitude, a budget of a few passes -- the same ``None`` when the budget runs
out, else the same updates, weights and bias.  The link from the code to Coq is the
program's reading of its numbers; a reader that swaps numerator and denominator, or drops
a sign, makes the property fail (the second test builds both and lets Hypothesis find
the case)."""

from __future__ import annotations

import shutil
import subprocess
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import find, given, settings
from hypothesis import strategies as st

from pla_proof.data import Dataset
from pla_proof.engine.drive import drive
from pla_proof.engine.rule import LinearRule
from pla_proof.proof.algorithm import (
    DRIVER,
    ProgramRun,
    build_program,
    compiled_library,
    compiled_program,
    program_input,
    run_program,
)

pytestmark = pytest.mark.skipif(
    shutil.which("coqc") is None or shutil.which("ocamlopt") is None,
    reason="coqc or ocamlopt is not installed (Debian packages 'coq', 'ocaml-nox')",
)

#: A rational of one of several orders of magnitude (10^-9 .. 10^9), either sign.
NUMBERS = st.builds(
    lambda m, k, den: Fraction(m, den) * Fraction(10) ** k,
    st.integers(-50, 50),
    st.integers(-9, 9),
    st.integers(1, 12),
)


@st.composite
def problems(draw: Any) -> dict[str, Any]:
    """Points, labels, a bias input, a start and a budget of passes."""
    n = draw(st.integers(1, 5))
    d = draw(st.integers(1, 3))
    X = [[draw(NUMBERS) for _ in range(d)] for _ in range(n)]
    y = [draw(st.sampled_from([-1, 1])) for _ in range(n)]
    c = draw(st.sampled_from([Fraction(0), Fraction(1), Fraction(-1), Fraction(1, 2)]) | NUMBERS)
    start = draw(st.booleans())
    w0 = [draw(NUMBERS) if start else Fraction(0) for _ in range(d)]
    b0 = draw(NUMBERS) if start else Fraction(0)
    epochs = draw(st.integers(1, 6))
    return {"X": X, "y": y, "c": c, "w0": w0, "b0": b0, "epochs": epochs}


def engine_run(p: dict[str, Any]) -> tuple[int | None, tuple[Fraction, ...] | None, Any]:
    """The engine on ``(x, c)`` from ``(w0, b0)``, cyclic: ``(k, w, b)`` when a pass
    without updates comes within the budget of passes, else ``(None, None, None)``."""
    X, y, n, E = p["X"], p["y"], len(p["X"]), p["epochs"]
    data = Dataset(tuple((*x, p["c"]) for x in X), tuple(y))
    rule = LinearRule(w0=(*p["w0"], p["b0"]))
    dec = drive(data, rule, order="cyclic", budget=E * n + 1, detect_cycles=False)
    passes = int(dec.visits[-1]) // n + 2 if dec.updates else 1
    if dec.status != "converged" or passes > E:
        return None, None, None
    w = tuple(Fraction(v) for v in dec.w)
    return dec.updates, w[:-1], w[-1]


def program_run(program: Path, p: dict[str, Any]) -> ProgramRun:
    text = program_input(p["X"], p["y"], epochs=p["epochs"], c=p["c"], w0=p["w0"], b0=p["b0"])
    return run_program(program, text)


def agrees(program: Path, p: dict[str, Any]) -> bool:
    """The program's answer is the engine's (a program that fails on its input does not
    agree)."""
    try:
        r = program_run(program, p)
    except subprocess.CalledProcessError:
        return False
    return (r.k, r.w, r.b) == engine_run(p)


@given(problems())  # the profile's examples: 200 under ci, thousands under thorough
def test_the_extracted_program_makes_the_engines_run(p: dict[str, Any]) -> None:
    program = compiled_program()
    r = program_run(program, p)
    assert (r.k, r.w, r.b) == engine_run(p), p


#: Sabotaged readers of the program's input (the driver's ``rat``).
_READ = "match q_of_strings n d with"
SABOTAGE = {
    "swapped": "match q_of_strings d n with",
    "sign-dropped": (
        "let n = if String.length n > 1 && n.[0] = '-' then String.sub n 1 "
        "(String.length n - 1) else n in\n  match q_of_strings n d with"
    ),
}


@pytest.mark.parametrize("name", list(SABOTAGE))
def test_a_sabotaged_reader_of_the_numbers_is_caught(name: str) -> None:
    assert DRIVER.count(_READ) == 1
    home = compiled_library()
    program = home / f"pla_perceptron_{name.replace('-', '_')}"
    if not program.exists():
        build_program(home, driver=DRIVER.replace(_READ, SABOTAGE[name]), name=program.name)
    wrong = find(
        problems(),
        lambda p: not agrees(program, p),
        settings=settings(max_examples=500, database=None),
    )
    assert not agrees(program, wrong) and agrees(compiled_program(), wrong)
