"""A hand-written step or trigger is "proved" only when it is the template for *every*
input: read by exact probes, then evaluated on SymPy symbols and found equal to the
template's update and threshold.  Code that cannot take symbols (``limit_denominator``,
``float()``, numpy floats, ``bool()`` of a comparison), or that branches, compares for
equality or catches an exception on them, leaves the claim tested, not proved."""

from __future__ import annotations

import json
import textwrap
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from pla_proof.cli import main
from pla_proof.schemas import validate
from pla_proof.variants import Case, resolve, run_case
from pla_proof.variants.protocol.variant import Order
from pla_proof.variants.proving.declared import DeclaredRule, NotDeclarative, read_rule
from pla_proof.variants.proving.instances import prove_claim

HEAD = """\
from fractions import Fraction

import numpy as np

from pla_proof.numbers import dot
from pla_proof.variants import LinearVariant


class Mine(LinearVariant):
    name = "mine"
"""

#: The issue's shape: the new weights passed through limit_denominator(2^53) -- exact
#: unless a denominator exceeds 2^53 (x = 10^-16), and right on every exact probe.
ROUNDED = """
    def step(self, w, x, y):
        new = [Fraction(a + y * b).limit_denominator(2**53) for a, b in zip(w, x)]
        return [n - a for n, a in zip(new, w)]
"""


def write(tmp_path: Path, body: str, name: str = "mine") -> str:
    path = tmp_path / f"{name}.py"
    code = textwrap.indent(textwrap.dedent(body), "    ")
    path.write_text(f"{HEAD}{code}\n\nvariant = Mine()\n")
    return f"{path}:variant"


def load(tmp_path: Path, body: str) -> Any:
    return resolve(write(tmp_path, body))


def test_a_step_rounded_by_limit_denominator_is_tested_not_proved(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    spec = write(tmp_path, ROUNDED, "rounded")
    code = main(["check", spec, "--examples", "10", "--json"])
    doc = json.loads(capsys.readouterr().out)
    validate(doc)
    assert doc["proof"]["status"] != "proved" and not any(p["proved"] for p in doc["properties"])
    main(["check", spec, "--examples", "10"])
    out = capsys.readouterr().out
    assert "the claim is proved" not in out and "PROVED" not in out
    assert out.rstrip().endswith("the claim is tested, not proved")
    [line] = [t for t in out.splitlines() if t.startswith("proof: ")]
    # the reason: the symbols (its step cannot take them), or the probes themselves when
    # the data drawn for them have denominators above 2^53 (the mixed-scale branch)
    by_symbols = "step()" in line and "symbols" in line and "rounded.py:" in line
    assert by_symbols or "not the template: its step" in line, line
    assert code in (0, 1)


def test_the_rounded_step_fails_g1_and_q_k_on_its_witness(tmp_path: Path) -> None:
    x = Fraction(1, 10**16)  # a denominator above 2^53: the step rounds it
    case = Case(((x,),), (1,), (Fraction(1),), x)
    _, res = run_case(load(tmp_path, ROUNDED), case, Order("cyclic"))
    assert res["G1"] is not None and res["Q_k"] is not None


def proved_rule(v: Any) -> DeclaredRule:
    r = read_rule(v)
    assert isinstance(r, DeclaredRule), r
    assert "shown equal to the template on symbols" in r.how
    # the classic claim (R^2, gamma): proved for eta = 1, tau = 0; refuted (G1) otherwise
    want = "proved" if (r.eta, r.tau) == (1, 0) else "refuted"
    assert prove_claim(v).status == want
    return r


def refused(v: Any) -> str:
    r = read_rule(v)
    assert isinstance(r, NotDeclarative), r
    p = prove_claim(v)
    assert p.status == "not declarative" and not p.properties
    assert p.describe().startswith("tested, not proved: ") and "\n" not in p.describe()
    return r.reason


@pytest.mark.parametrize(
    ("body", "eta", "tau", "strict"),
    [
        (
            """
         def step(self, w, x, y):
             return [y * b for b in x]
         """,
            1,
            0,
            False,
        ),
        (
            """
         def step(self, w, x, y):
             return [(a + y * b) - a for a, b in zip(w, x, strict=True)]
         """,
            1,
            0,
            False,
        ),
        (
            """
         def triggers(self, w, x, y):
             return y * dot(w, x) <= 1

         def step(self, w, x, y):
             return [Fraction(1, 2) * y * v for v in x]
         """,
            Fraction(1, 2),
            1,
            False,
        ),
        (
            """
         def triggers(self, w, x, y):
             return y * sum(a * b for a, b in zip(w, x, strict=True)) < Fraction(1, 3)

         def step(self, w, x, y):
             return [3 * y * v for v in x]
         """,
            3,
            Fraction(1, 3),
            True,
        ),
        (
            """
         def triggers(self, w, x, y):
             return 2 >= 2 * y * dot(w, x)  # y w.x <= 1, written the other way round
         """,
            1,
            1,
            False,
        ),
        (
            """
         def triggers(self, w, x, y):
             return self.score(w, x, y) <= 0
         """,
            1,
            0,
            False,
        ),
        (
            """
         def step(self, w, x, y):
             return list(y * np.asarray(x, dtype=object))  # exact: numpy on objects
         """,
            1,
            0,
            False,
        ),
    ],
    ids=["y-x", "new-minus-old", "half-margin", "strict-third", "reversed", "score", "np-obj"],
)
def test_a_plain_hand_written_rule_is_still_proved(
    tmp_path: Path, body: str, eta: Any, tau: Any, strict: bool
) -> None:
    r = proved_rule(load(tmp_path, body))
    assert (r.eta, r.tau, r.strict) == (eta, tau, strict)


@pytest.mark.parametrize(
    ("body", "why"),
    [
        (
            """
         def step(self, w, x, y):
             s = float(sum(v * v for v in x))
             return [y * v * Fraction(s) / Fraction(s) for v in x]
         """,
            "step() could not be evaluated on symbols (TypeError",
        ),
        (
            """
         def step(self, w, x, y):
             big = np.asarray(x, dtype=np.float64)
             return [y * v + 0 * Fraction(float(b)) for v, b in zip(x, big)]
         """,
            "step() could not be evaluated on symbols (TypeError",
        ),
        (
            """
         def triggers(self, w, x, y):
             return bool(y * dot(w, x) <= 0)
         """,
            "triggers() could not be evaluated on symbols (TypeError",
        ),
        (
            """
         def step(self, w, x, y):  # right on every probe, wrong at one point
             return [y * b if b != Fraction(1, 10**16) else 0 * b for b in x]
         """,
            "step() branches or compares on symbols",
        ),
        (
            """
         def step(self, w, x, y):
             try:  # (2^100: no probe's denominator is that large, only symbols show it)
                 return [Fraction(y * b).limit_denominator(2**100) for b in x]
             except TypeError:
                 return [y * b for b in x]
         """,
            "step() may have caught an exception on symbols (a try block",
        ),
        (
            """
         def triggers(self, w, x, y):
             s = y * dot(w, x)
             return s <= 0 if len(x) < 10**9 else s <= 1
         """,
            "triggers() branches or compares for equality on symbols",
        ),
    ],
    ids=["float", "numpy-float", "bool-trigger", "equality", "caught", "branch"],
)
def test_code_that_symbols_cannot_show_is_tested_not_proved(
    tmp_path: Path, body: str, why: str
) -> None:
    reason = refused(load(tmp_path, body))
    assert why in reason and "mine.py:" in reason, reason


#: The template on every input but one, the exception hidden in a helper the hook calls
#: by name: a method of the variant, and a module function reached through a closure.
HIDDEN_IN_A_METHOD = """
    def _scale(self, v):
        return 0 if v == 10**-16 else v

    def step(self, w, x, y):
        return [y * self._scale(v) for v in x]
"""
HIDDEN_IN_A_CLOSURE = """
    def step(self, w, x, y):
        def scaled(v):
            return Fraction(0) if v in (10**-16,) else v

        return [y * scaled(v) for v in x]
"""


@pytest.mark.parametrize(
    "body", [HIDDEN_IN_A_METHOD, HIDDEN_IN_A_CLOSURE], ids=["method", "nested"]
)
def test_a_test_hidden_in_a_helper_the_hook_names_is_read(tmp_path: Path, body: str) -> None:
    reason = refused(load(tmp_path, body))
    assert "step() branches or compares on symbols (at mine.py:" in reason, reason


def test_a_rule_that_differs_from_the_template_on_symbols_is_named(tmp_path: Path) -> None:
    # y x on every probe (their w have denominators <= 4), not for w[0] = 1/5
    step = """
    def step(self, w, x, y):
        return [y * v + (12 * w[0]) % 1 for v in x]
    """
    reason = refused(load(tmp_path, step))
    assert reason.startswith("its step() on symbols gives "), reason
    assert "Mod(12*w0, 1)" in reason and "not the template's" in reason
    # the same truth value for every input, but not shown to be y w.x <= 0: not proved
    trigger = """
    def triggers(self, w, x, y):
        return y * dot(w, x) * (1 + x[0] ** 2) <= 0
    """
    reason = refused(load(tmp_path, trigger))
    assert reason.startswith("its triggers() on symbols is "), reason
    assert "not shown to be the threshold" in reason


def test_a_declared_rule_is_proved_as_before() -> None:
    from pla_proof.variants import resolve

    r = read_rule(resolve("classic"))
    assert isinstance(r, DeclaredRule) and r.how.startswith("declared")
    assert prove_claim(resolve("classic")).status == "proved"


def test_a_step_that_prints_is_proved_and_its_prints_on_symbols_are_not_shown(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    body = """
    def step(self, w, x, y):
        print("step at", w, x)
        return [y * b for b in x]
    """
    proved_rule(load(tmp_path, body))
    out = capsys.readouterr()
    assert "w0" not in out.out + out.err and "x0" not in out.out + out.err
