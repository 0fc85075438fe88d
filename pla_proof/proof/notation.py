"""The proof's own notation: every symbol defined once, statements in text and LaTeX.

The statements of :mod:`.statements` are SymPy relations over short internal names
(``pu1``, ``n1``, ``uu``, ``yux``, ...).  This module is the one place that says
what each name *means* and how it is written -- in plain text and in LaTeX -- and
renders any statement in that notation, with the terms in the proof's order rather
than SymPy's.  ``explain``, ``trace``, ``verify`` and the HTML pages print through it.

Two margins, one meaning each: ``g = min_i y_i u·x_i`` is the *homogeneous* margin of
the comparator ``u`` (any length; what the checks use), ``γ = g/‖u‖`` the *unit* one
(the textbook's, for ``u/‖u‖``).

>>> from pla_proof.proof.statements import lemma
>>> text(lemma("L3"))
'u·w_{k+1} ≥ k·g'
>>> latex(lemma("L3"))
'$u\\\\cdot w_{k+1} \\\\ge k\\\\,g$'
>>> text(lemma("L3"), strict=True)
'u·w_{k+1} > k·g'
>>> text(lemma("T")), text(lemma("L2")), text(lemma("L5"))
('k·g² ≤ R²·‖u‖²', 'u·w_{k+1} − u·w_k ≥ g', '‖w_{k+1}‖² = ‖w_k‖² + 2 y_j (w_k·x_j) + ‖x_j‖²')
>>> SYMBOLS["g"].meaning
'homogeneous margin of the comparator: g = min_i y_i u·x_i (not divided by ‖u‖)'
>>> [s.name for s in symbols_of(lemma("L4"))]
['pu1', 'n1', 'uu']
"""

from __future__ import annotations

from typing import Any

import sympy as sp
from sympy.core.relational import Relational

from .symbols import SYMBOLS, Notation

__all__ = ["SYMBOLS", "Notation", "latex", "legend", "symbols_of", "text"]


# Order of terms in a sum and of factors in a product: the proof's reading order.
_SUM_ORDER = ("ps", "ns", "pu", "n0", "pu1", "n1", "t", "yux", "xx", "k", "g", "C", "R2", "uu")
_MUL_ORDER = ("k", "eta", "g", "gamma", "C", "R2", "R", "uu", "y")
_SUP = {2: "²", 3: "³", 4: "⁴"}
_TEXT_OPS = {"<=": "≤", ">=": "≥", "<": "<", ">": ">", "==": "=", "!=": "≠"}
_LATEX_OPS = {"<=": r"\le", ">=": r"\ge", "<": "<", ">": ">", "==": "=", "!=": r"\ne"}


def _rank(expr: sp.Basic, order: tuple[str, ...]) -> tuple[int, str]:
    names = [str(s) for s in expr.free_symbols]
    ranks = [order.index(n) for n in names if n in order]
    return (min(ranks) if ranks else len(order), sp.sstr(expr))


class _Renderer:
    def __init__(self, latex: bool):
        self.latex = latex

    # -- atoms --------------------------------------------------------------------------
    def symbol(self, s: sp.Symbol) -> tuple[str, bool]:
        known = SYMBOLS.get(s.name)
        if known is not None:
            return (known.latex if self.latex else known.text), known.atomic
        return s.name, True

    def number(self, q: sp.Rational) -> str:
        if q.q == 1:
            return str(q.p)
        return rf"\tfrac{{{q.p}}}{{{q.q}}}" if self.latex else f"{q.p}/{q.q}"

    # -- expressions --------------------------------------------------------------------
    def expr(self, e: Any) -> str:
        out, _ = self.node(sp.sympify(e))
        return out

    def node(self, e: sp.Basic) -> tuple[str, bool]:
        """Rendered form and whether it is atomic (no parentheses needed around it)."""
        if isinstance(e, sp.Symbol):
            return self.symbol(e)
        if isinstance(e, sp.Rational):
            return self.number(e), e.q == 1 and e.p >= 0
        if isinstance(e, sp.Indexed):
            base, _ = self.symbol(sp.Symbol(str(e.base)))
            idx = ",".join(self.expr(a) for a in e.indices)
            return (f"{base}_{{{idx}}}" if len(idx) > 1 else f"{base}_{idx}"), True
        if isinstance(e, sp.Add):
            return self.add(e), False
        if isinstance(e, sp.Mul):
            return self.mul(e)
        if isinstance(e, sp.Pow):
            return self.pow(e), True
        if isinstance(e, sp.Sum):
            return self.sum(e), False
        if isinstance(e, sp.KroneckerDelta):
            a, b = (self.expr(x) for x in e.args)
            return (rf"\delta_{{{a}{b}}}" if self.latex else f"δ_{{{a}{b}}}"), True
        if isinstance(e, Relational):
            return self.relation(e), False
        if isinstance(e, (sp.And, sp.Or, sp.Equivalent, sp.Implies)):
            return self.logic(e), False
        if isinstance(e, sp.Not):
            inner = self.paren(e.args[0])
            return (rf"\lnot {inner}" if self.latex else f"¬{inner}"), True
        if e is sp.true or e is sp.false:
            return ("true" if e is sp.true else "false"), True
        return sp.sstr(e), True

    def paren(self, e: sp.Basic) -> str:
        out, atomic = self.node(e)
        if atomic:
            return out
        return rf"\left({out}\right)" if self.latex else f"({out})"

    def add(self, e: sp.Add) -> str:
        terms = sorted(sp.Add.make_args(e), key=lambda t: _rank(t, _SUM_ORDER))
        positive = [t for t in terms if not t.could_extract_minus_sign()]
        negative = [t for t in terms if t.could_extract_minus_sign()]
        minus = "-" if self.latex else "−"
        out = ""
        for t in positive + negative:
            if t in negative:
                out += f" {minus} " if out else minus
                out += self.term(-t)
            else:
                out += (" + " if out else "") + self.term(t)
        return out

    def term(self, t: sp.Basic) -> str:
        if isinstance(t, sp.Add | Relational):
            return self.paren(t)
        return self.node(t)[0]

    def mul(self, e: sp.Mul) -> tuple[str, bool]:
        coeff, rest = e.as_coeff_mul()
        if coeff < 0:
            inner, _ = self.mul(sp.Mul(-coeff, *rest, evaluate=False))  # type: ignore[arg-type]
            return ("-" if self.latex else "−") + inner, False
        num: list[sp.Basic] = []
        den: list[sp.Basic] = []
        for f in rest:
            if isinstance(f, sp.Pow) and f.exp.is_Number and f.exp < 0:
                den.append(f.base ** (-f.exp))
            else:
                num.append(f)
        if isinstance(coeff, sp.Rational) and coeff.q != 1:
            den.insert(0, sp.Integer(coeff.q))
            coeff = sp.Integer(coeff.p)
        factors = sorted(num, key=lambda f: _rank(f, _MUL_ORDER))
        joiner = r"\," if self.latex else "·"
        single = len(factors) == 1 and isinstance(factors[0], sp.Symbol)
        if coeff != 1 and single and not self.node(factors[0])[1]:
            # "2 y_j (w_k·x_j)": a number times one quantity needs no parentheses
            top = self.number(coeff) + (r"\," if self.latex else " ") + self.node(factors[0])[0]
            parts = [top, top]
        else:
            parts = ([self.number(coeff)] if coeff != 1 or not factors else []) + [
                self.paren(f) if len(factors) + (coeff != 1) > 1 else self.node(f)[0]
                for f in factors
            ]
            top = joiner.join(parts)
        if not den:
            return top, len(parts) == 1 and self.node(factors[0])[1] if factors else True
        bottom_expr = sp.Mul(*den)
        bottom = self.paren(bottom_expr) if len(den) > 1 else self.node(bottom_expr)[0]
        if self.latex:
            return rf"\frac{{{top}}}{{{self.expr(bottom_expr)}}}", True
        return f"{top}/{bottom}", False

    def pow(self, e: sp.Pow) -> str:
        base, exp = e.base, e.exp
        if exp.is_Number and exp < 0:
            return self.mul(sp.Mul(1, e, evaluate=False))[0]  # type: ignore[arg-type]
        b = self.paren(base)
        if self.latex:
            return (
                f"{b}^{{{self.expr(exp)}}}" if not (exp.is_Integer and exp < 10) else f"{b}^{exp}"
            )
        if exp.is_Integer and int(exp) in _SUP:
            return f"{b}{_SUP[int(exp)]}"
        return f"{b}^{self.paren(exp)}"

    def sum(self, e: sp.Sum) -> str:
        idx, lo, hi = e.limits[0]
        body = self.paren(e.function) if isinstance(e.function, sp.Add) else self.expr(e.function)
        if self.latex:
            return rf"\sum_{{{idx}={self.expr(lo)}}}^{{{self.expr(hi)}}} {body}"
        return f"Σ_{{{idx}={self.expr(lo)}..{self.expr(hi)}}} {body}"

    def relation(self, e: Relational) -> str:
        ops = _LATEX_OPS if self.latex else _TEXT_OPS
        return f"{self.expr(e.lhs)} {ops[e.rel_op]} {self.expr(e.rhs)}"

    def logic(self, e: sp.Basic) -> str:
        if self.latex:
            sep = {sp.And: r" \land ", sp.Or: r" \lor ", sp.Equivalent: r" \iff "}
            sep[sp.Implies] = r" \implies "
        else:
            sep = {sp.And: " ∧ ", sp.Or: " ∨ ", sp.Equivalent: " ⇔ ", sp.Implies: " ⇒ "}
        args = e.args
        return sep[type(e)].join(self.paren(a) for a in args)


def _statement(obj: Any, strict: bool) -> Any:
    full = getattr(type(obj), "sympy", None)
    if full is not None:  # a run-time lemma: its SymPy lemma
        obj = full(obj)
    if hasattr(obj, "statement") and callable(obj.statement):
        return obj.statement(strict=strict)
    return obj


def text(obj: Any, strict: bool = False) -> str:
    """A lemma (its statement under the chosen margin form) or any SymPy expression,
    relation or formula, in the proof's plain-text notation.

    >>> from pla_proof.proof.statements import pu1, pu, g, k
    >>> text(sp.GreaterThan(pu1 - pu, g)), text(sp.Rational(3, 4) * k)
    ('u·w_{k+1} − u·w_k ≥ g', '3·k/4')
    """
    return _Renderer(latex=False).expr(_statement(obj, strict))


def latex(obj: Any, strict: bool = False, *, inline: bool = True) -> str:
    """The same in LaTeX, as ``$...$`` (``inline=False``: without the dollars).

    >>> from pla_proof.proof.statements import lemma
    >>> latex(lemma("T"), inline=False)
    'k\\\\,g^2 \\\\le R^2\\\\,\\\\|u\\\\|^2'
    """
    body = _Renderer(latex=True).expr(_statement(obj, strict))
    return f"${body}$" if inline else body


def symbols_of(obj: Any, strict: bool = False) -> list[Notation]:
    """The defined symbols a statement uses, in the order of :data:`SYMBOLS`."""
    names = {str(s) for s in sp.sympify(_statement(obj, strict)).free_symbols}
    return [s for s in SYMBOLS.values() if s.name in names]


def legend(obj: Any, strict: bool = False) -> list[str]:
    """One line per symbol of a statement: ``"u·w_{k+1}: progress after the update"``.

    >>> from pla_proof.proof.statements import lemma
    >>> legend(lemma("L7"))
    ['k: index of this update (w_k → w_{k+1}); k = 1 is the first update', \
'‖w_{k+1}‖²: squared norm after the update', 'R²: squared radius: R² = max_i ‖x_i‖²']
    """
    return [f"{s.text}: {s.meaning}" for s in symbols_of(obj, strict)]
