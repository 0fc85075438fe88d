"""Z3 checker for the proof's implications: hypotheses => conclusion over the reals.

An implication is *proved* when Z3 reports the negation ``H_1 & ... & H_m & not C``
unsatisfiable.  A model of the negation is a counterexample (``refuted``); a
timeout or ``unknown`` is *not* a proof.

Every symbol becomes an unconstrained Z3 real, whatever SymPy assumptions it
carries (``positive=True`` and the like are ignored): a positivity fact is used
only if it is one of the listed hypotheses.  Statements are kept division-free
where possible; where a textbook form divides (``k <= R^2/gamma^2``), remember that
Z3 gives ``x/0`` an arbitrary value, so the divisor's positivity must be a
hypothesis -- :func:`check_implication` then proves it, and without it finds a
counterexample.

>>> import sympy as sp
>>> a, b = sp.symbols("a b")
>>> check_implication([a >= 1, b >= a], b >= 1).status
'proved'
>>> v = check_implication([a >= 0], a > 0)
>>> v.status, v.detail
('refuted', 'counterexample: a = 0')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import sympy as sp
import z3
from sympy.core.relational import Relational

from ..errors import SolverError
from .solving import DEFAULT_TIMEOUT_MS, decide
from .verdicts import Verdict

__all__ = ["DEFAULT_TIMEOUT_MS", "check_implication", "to_z3"]


def _var(name: str, env: dict[str, Any]) -> Any:
    if name not in env:
        env[name] = z3.Real(name)
    return env[name]


def to_z3(expr: Any, env: dict[str, Any]) -> Any:
    """Translate a SymPy arithmetic expression or relation to Z3 (reals).

    >>> env = {}
    >>> to_z3(sp.Symbol("x") ** 2 <= 3, env), sorted(env)
    (3 >= x*x, ['x'])
    """
    if expr is sp.true or expr is True:
        return z3.BoolVal(True)
    if expr is sp.false or expr is False:
        return z3.BoolVal(False)
    if isinstance(expr, sp.Symbol):
        return _var(expr.name, env)
    if isinstance(expr, sp.Indexed):
        return _var(str(expr), env)
    if isinstance(expr, sp.Rational):  # includes Integer
        return z3.RealVal(f"{expr.p}/{expr.q}") if expr.q != 1 else z3.RealVal(int(expr.p))
    if isinstance(expr, sp.Add):
        return z3.Sum(*(to_z3(a, env) for a in expr.args))
    if isinstance(expr, sp.Mul):
        out = to_z3(expr.args[0], env)
        for a in expr.args[1:]:
            out = out * to_z3(a, env)
        return out
    if isinstance(expr, sp.Pow):
        if not (expr.exp.is_Integer and expr.exp != 0):
            raise SolverError(f"only integer powers translate to Z3, got {expr}")
        base = to_z3(expr.base, env)
        n = abs(int(expr.exp))
        out = base
        for _ in range(n - 1):
            out = out * base
        return out if expr.exp > 0 else 1 / out
    if isinstance(expr, Relational):
        a, b = to_z3(expr.lhs, env), to_z3(expr.rhs, env)
        op = expr.rel_op
        if op == "==":
            return a == b
        if op == "!=":
            return a != b
        if op == "<=":
            return a <= b
        if op == "<":
            return a < b
        if op == ">=":
            return a >= b
        if op == ">":
            return a > b
    if isinstance(expr, sp.And):
        return z3.And(*(to_z3(a, env) for a in expr.args))
    if isinstance(expr, sp.Or):
        return z3.Or(*(to_z3(a, env) for a in expr.args))
    if isinstance(expr, sp.Not):
        return z3.Not(to_z3(expr.args[0], env))
    if isinstance(expr, sp.Implies):
        return z3.Implies(to_z3(expr.args[0], env), to_z3(expr.args[1], env))
    if isinstance(expr, sp.Equivalent):
        return to_z3(expr.args[0], env) == to_z3(expr.args[1], env)
    raise SolverError(f"cannot translate {type(expr).__name__} {expr} to Z3")


def check_implication(
    hypotheses: Iterable[Any],
    conclusion: Any,
    *,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
) -> Verdict:
    """Prove ``hypotheses => conclusion`` over the reals by unsatisfiability of the negation."""
    env: dict[str, Any] = {}
    hyps = [to_z3(h, env) for h in hypotheses]
    goal = to_z3(conclusion, env)
    return decide(hyps, goal, env, timeout_ms=timeout_ms)
