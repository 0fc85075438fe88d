"""Z3's part of an implication's proof, on formulas already in Z3: ``hypotheses =>
goal`` over the reals is *proved* when Z3 reports ``hypotheses & not goal``
unsatisfiable; a model of it is a counterexample (``refuted``); a timeout or ``unknown``
is not a proof.  :func:`pla_proof.proof.implications.check_implication` translates SymPy
formulas and calls :func:`decide`; a variant's claim read without SymPy is written in Z3
directly and decided here too.  It imports no SymPy.

>>> import z3
>>> a = z3.Real("a")
>>> decide([a >= 1], a > 0, {"a": a}).status
'proved'
>>> decide([a >= 0], a > 0, {"a": a}).detail
'counterexample: a = 0'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import z3

from .verdicts import Verdict

__all__ = ["DEFAULT_TIMEOUT_MS", "decide"]

#: Per-obligation Z3 time limit (milliseconds); running out is "unknown", not proved.
DEFAULT_TIMEOUT_MS = 10_000


def _show(value: Any) -> str:
    if z3.is_rational_value(value):
        frac = value.as_fraction()
        if frac.denominator == 1:
            return str(frac.numerator)
        return f"{frac.numerator}/{frac.denominator}"
    if z3.is_algebraic_value(value):
        return str(value.approx(6).as_decimal(6))
    return str(value)


def decide(
    hypotheses: Iterable[Any],
    goal: Any,
    env: Mapping[str, Any],
    *,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
) -> Verdict:
    """Prove ``hypotheses => goal`` (Z3 formulas over the reals) by unsatisfiability of
    the negation; a counterexample names the variables of ``env`` (name -> Z3 variable)."""
    solver = z3.Solver()
    solver.set("timeout", int(timeout_ms))
    solver.add(*hypotheses)
    solver.add(z3.Not(goal))
    answer = solver.check()
    if answer == z3.unsat:
        return Verdict("proved", "negation unsatisfiable")
    if answer == z3.sat:
        model = solver.model()
        shown = ", ".join(
            f"{name} = {_show(model.eval(var, model_completion=True))}"
            for name, var in sorted(env.items())
        )
        return Verdict("refuted", f"counterexample: {shown}")
    return Verdict("unknown", f"z3 answered unknown ({solver.reason_unknown()})")
