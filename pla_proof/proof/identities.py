"""SymPy checker for the proof's identities, in general dimension and for small d.

A general-dimension identity is proved by *rewriting*: every finite sum
``Sum(f, (i, 1, d))`` with a symbolic upper limit is split by linearity into
canonical atoms ``c * Sum(m, (i, 1, d))`` (``c`` free of ``i``, ``m`` a product of
indexed factors); both sides then expand to polynomials in those atoms and the
identity holds when the difference is the zero polynomial.  The only other
rewrite rules are explicit and named:

* ``signs``: for ``y`` in ``{-1, +1}``, ``y**2 = 1`` (powers of ``y`` reduced mod 2);
* ``sift``: ``Sum(KroneckerDelta(i, j) f(i), (i, 1, n)) = f(j)`` for ``1 <= j <= n``;
* :func:`peel_last`: ``Sum(f, (i, 1, d + 1)) = Sum(f, (i, 1, d)) + f(d + 1)``.

No ``simplify`` is ever called, so the check is fast and its steps are the ones
listed here.  :func:`check_instances` repeats the check for concrete ``d`` by
expanding the sums (``Sum.doit``) -- an independent cross-check.

>>> from pla_proof.proof.statements import vector_forms
>>> v = vector_forms()
>>> check_identity(v["pu1"], v["pu"] + v["yux"]).status
'proved'
>>> check_identity(v["n1"], v["n0"] - 2 * v["t"] + v["xx"], signs=("y",)).status
'refuted'
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations
from typing import Any

import sympy as sp

from .verdicts import Verdict

__all__ = [
    "Verdict",
    "check_identity",
    "check_instances",
    "lagrange_sos",
    "normal_form",
    "peel_last",
    "reduce_signs",
    "unroll",
]


def _linear(s: sp.Sum, sift: bool) -> sp.Expr:
    """One finite sum rewritten by linearity into canonical atoms."""
    if len(s.limits) != 1:
        return s
    idx, lo, hi = s.limits[0]
    body = sp.expand(s.function)
    out: list[sp.Expr] = []
    for term in sp.Add.make_args(body):
        inside: list[sp.Expr] = []
        outside: list[sp.Expr] = []
        for f in sp.Mul.make_args(term):
            (inside if idx in f.free_symbols else outside).append(f)
        coeff = sp.Mul(*outside)
        if not inside:
            out.append(coeff * (hi - lo + 1))
            continue
        deltas = [f for f in inside if isinstance(f, sp.KroneckerDelta) and idx in f.args]
        if sift and len(deltas) == 1:
            (other,) = [a for a in deltas[0].args if a != idx]
            rest = sp.Mul(*(f for f in inside if f is not deltas[0]))
            out.append(coeff * rest.xreplace({idx: other}))
            continue
        out.append(coeff * sp.Sum(sp.Mul(*inside), (idx, lo, hi)))
    return sp.Add(*out)


def normal_form(expr: sp.Expr, *, sift: bool = False) -> sp.Expr:
    """Split every sum by linearity and expand: a polynomial in canonical sum atoms.

    >>> from pla_proof.proof.statements import vsum, W, X, i, y
    >>> normal_form(vsum((W[i] + y * X[i]) ** 2) - vsum(W[i] ** 2))
    y**2*Sum(x[i]**2, (i, 1, d)) + 2*y*Sum(w[i]*x[i], (i, 1, d))
    """
    rewritten = expr.replace(lambda e: isinstance(e, sp.Sum), lambda e: _linear(e, sift))
    return sp.expand(rewritten)


def reduce_signs(expr: sp.Expr, signs: Iterable[str]) -> sp.Expr:
    """Reduce powers of each sign variable ``s`` in ``{-1, +1}`` modulo ``s**2 = 1``.

    >>> s = sp.Symbol("y")
    >>> reduce_signs(s**3 + s**2 - 1, ["y"])
    y
    """
    names = set(signs)
    if not names:
        return expr
    reduced = expr.replace(
        lambda e: e.is_Pow and str(e.base) in names and e.exp.is_Integer and e.exp >= 2,
        lambda e: e.base ** (int(e.exp) % 2),
    )
    return sp.expand(reduced)


def peel_last(expr: sp.Expr) -> sp.Expr:
    """``Sum(f, (i, a, b + 1)) -> Sum(f, (i, a, b)) + f(b + 1)`` for every sum whose upper
    limit is ``something + 1`` (the definition of a finite sum).

    >>> from pla_proof.proof.statements import vsum, X, i, d
    >>> peel_last(vsum(X[i], d + 1))
    x[d + 1] + Sum(x[i], (i, 1, d))
    """

    def peel(s: sp.Sum) -> sp.Expr:
        idx, lo, hi = s.limits[0]
        return sp.Sum(s.function, (idx, lo, hi - 1)) + s.function.xreplace({idx: hi})

    return expr.replace(
        lambda e: (
            isinstance(e, sp.Sum)
            and len(e.limits) == 1
            and isinstance(e.limits[0][2], sp.Add)
            and sp.S.One in e.limits[0][2].args
        ),
        peel,
    )


def _atoms_to_values(expr: sp.Expr) -> list[sp.Basic]:
    return sorted(
        (a for a in expr.atoms(sp.Symbol, sp.Indexed) if not isinstance(a, sp.Dummy)),
        key=str,
    )


def _counterexample(
    residual: sp.Expr,
    dims: Mapping[sp.Symbol, Sequence[int]],
    signs: Iterable[str],
    sift: bool,
    tries: int = 24,
) -> str | None:
    """Search small concrete instances where ``residual`` is nonzero (deterministic)."""
    rng = random.Random(0)
    sign_names = set(signs)
    dim_syms = list(dims)
    choices = [dict(zip(dim_syms, combo, strict=True)) for combo in _product(dims)]
    for assignment in choices:
        concrete = unroll(residual.xreplace(assignment))
        for _ in range(tries):
            values: dict[Any, Any] = {}
            for a in _atoms_to_values(concrete):
                if str(a) in sign_names:
                    values[a] = rng.choice((-1, 1))
                elif isinstance(a, sp.Symbol) and a.is_integer and str(a) in {"j"}:
                    values[a] = 1
                else:
                    values[a] = rng.randint(-3, 3)
            val = sp.expand(concrete.xreplace(values))
            if val.is_number and val != 0:
                shown = ", ".join(f"{k} = {v}" for k, v in values.items())
                dims_shown = ", ".join(f"{k} = {v}" for k, v in assignment.items())
                return f"nonzero ({val}) at {dims_shown}: {shown}"
    return None


def _product(dims: Mapping[sp.Symbol, Sequence[int]]) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = [()]
    for values in dims.values():
        out = [(*p, v) for p in out for v in values]
    return out


def check_identity(
    lhs: sp.Expr,
    rhs: sp.Expr,
    *,
    signs: Iterable[str] = (),
    sift: bool = False,
    dims: Mapping[sp.Symbol, Sequence[int]] | None = None,
) -> Verdict:
    """Prove ``lhs == rhs`` in general dimension by linearity rewriting.

    ``dims`` (default: ``d`` in 1..3) are the concrete sizes tried when the
    rewriting leaves a residual, to turn a failure into a counterexample.
    """
    signs = tuple(signs)
    residual = reduce_signs(normal_form(lhs - rhs, sift=sift), signs)
    if residual == 0:
        return Verdict("proved", "difference rewrites to 0")
    if dims is None:
        from .statements import d

        dims = {d: (1, 2, 3)}
    found = _counterexample(residual, dims, signs, sift)
    if found is not None:
        return Verdict("refuted", f"residual {sp.sstr(residual)}; {found}")
    return Verdict("unknown", f"residual {sp.sstr(residual)} not shown to be 0")


def unroll(expr: sp.Expr) -> sp.Expr:
    """Write out every sum whose limits are integers (``Sum.doit`` without its search).

    >>> from pla_proof.proof.statements import vsum, X, i
    >>> unroll(vsum(X[i] ** 2, 3))
    x[1]**2 + x[2]**2 + x[3]**2
    """

    def write_out(s: sp.Sum) -> sp.Expr:
        idx, lo, hi = s.limits[0]
        return sp.Add(*(unroll(s.function).xreplace({idx: v}) for v in range(int(lo), int(hi) + 1)))

    return expr.replace(
        lambda e: (
            isinstance(e, sp.Sum)
            and len(e.limits) == 1
            and e.limits[0][1].is_Integer
            and e.limits[0][2].is_Integer
        ),
        write_out,
    )


def check_instances(
    lhs: sp.Expr,
    rhs: sp.Expr,
    dim_symbol: sp.Symbol,
    sizes: Iterable[int],
    *,
    signs: Iterable[str] = (),
    extra: Mapping[int, Sequence[Mapping[Any, Any]]] | None = None,
) -> Verdict:
    """Check ``lhs == rhs`` for each concrete size by expanding the sums.

    ``extra[size]`` lists further substitutions to try at that size (e.g. each
    concrete ``j``, or what each written-out coordinate is), applied once the sums are
    written out; every one must give a zero difference.
    """
    signs = tuple(signs)
    for size in sizes:
        base = unroll((lhs - rhs).xreplace({dim_symbol: size}))
        subs_list = (extra or {}).get(size, [{}])
        for subs in subs_list:
            diff = reduce_signs(sp.expand(base.xreplace(dict(subs))), signs)
            if diff != 0:
                where = ", ".join(f"{k} = {v}" for k, v in dict(subs).items())
                return Verdict(
                    "refuted",
                    f"at {dim_symbol} = {size}{', ' + where if where else ''}: "
                    f"difference {sp.sstr(diff)}",
                )
    return Verdict("proved", "expanded to 0 for every size")


def lagrange_sos(a: Sequence[Any], b: Sequence[Any], dim: int) -> sp.Expr:
    """``sum_{i<j} (a_i b_j - a_j b_i)^2`` for vectors given as component lists.

    Lagrange's identity: ``|a|^2 |b|^2 - (a.b)^2`` equals this sum of squares.

    >>> lagrange_sos([1, 0], [0, 1], 2)
    1
    """
    return sp.Add(*((a[p] * b[q] - a[q] * b[p]) ** 2 for p, q in combinations(range(dim), 2)))
