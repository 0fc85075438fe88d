"""A lemma's relation evaluated on every update of a run at once.

The proof's run-time statements are polynomial relations in the run vocabulary
(:mod:`pla_proof.proof.statements`).  A run records each measured quantity as an
array over its updates.  The statement's own expression is evaluated three ways:

* **exact**: each quantity is an integer array ``A`` over a positive integer
  denominator ``D`` (value ``A/D``); sums bring terms to a common denominator,
  products multiply them, and the relation ``L/Dl op R/Dr`` is decided as
  ``L Dr op R Dl``.  A magnitude bound travels with every array: int64 while it is
  below 2^62, Python integers (object arrays) beyond -- exact either way.
* **on residues** (exact runs on float data): the same, modulo each prime, by the
  relation's :class:`Programs` run compiled (:mod:`pla_proof.engine.evaluate`).
* **interval**: each quantity is a pair of float64 arrays ``[lo, hi]`` enclosing it
  (an :class:`Enclosures` table); every operation of :class:`Interval` rounds
  outward, and a relation is *violated* only where it fails for every value of the
  enclosures -- run compiled by the same programs.

>>> import numpy as np
>>> from fractions import Fraction
>>> from pla_proof.proof.statements import lemma
>>> rel = Relation.of(lemma("L3"), strict=False)
>>> values = {"pu1": Exact.of(np.array([2, 5]), 1), "k": Exact.of(np.array([1, 2]), 1),
...           "g": Exact.const(Fraction(3, 2))}
>>> rel.exact(values).tolist()  # pu1 >= k g: 2 >= 3/2 and 5 >= 3
[True, True]
>>> values["pu1"] = Exact.of(np.array([1, 5]), 1)
>>> rel.exact(values).tolist()
[False, True]
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from ..engine.enclosures import Enclosures, Interval
from ..engine.evaluate import ADD, MUL, NUM, POW, SYM
from ..engine.exact import Exact
from ..engine.residues import Residues, primes, primes_for, residues_of
from ..engine.scratch import give, take
from ..proof.runtime import tree_symbols

if TYPE_CHECKING:
    from ..proof.runtime import RunLemma
    from ..proof.statements import Lemma

__all__ = ["Enclosures", "Exact", "Interval", "Relation"]

# --- relations ----------------------------------------------------------------------------------


_CACHE: dict[tuple[Any, ...], Relation] = {}
_NO_ZERO = np.empty(0, dtype=np.bool_)  # (residue_differences' answer when it makes a table)


@dataclass(frozen=True)
class Relation:
    """A lemma's run-time relation ``lhs op rhs``, ready to evaluate on arrays.

    The SymPy expressions are compiled once (per statement and margin form) into small
    evaluators, so a run pays no SymPy cost.
    """

    lemma: Lemma | RunLemma
    strict: bool
    op: str
    symbols: tuple[str, ...]
    _lhs: Any
    _rhs: Any
    programs: Programs

    @staticmethod
    def of(lemma: Lemma | RunLemma, *, strict: bool) -> Relation:
        key = (lemma.id, id(lemma), strict)  # the cached relation keeps its lemma alive
        cached = _CACHE.get(key)
        if cached is None or cached.lemma is not lemma:
            lhs, op, rhs = _form(lemma, strict)
            names = tuple(sorted(tree_symbols(lhs) | tree_symbols(rhs)))
            programs = Programs.of(lhs, rhs, names)
            cached = Relation(lemma, strict, op, names, _compile(lhs), _compile(rhs), programs)
            _CACHE[key] = cached
        return cached

    def exact(
        self,
        values: dict[str, Any],
        cols: np.ndarray | None = None,
        table: tuple[tuple[str, ...], np.ndarray] | None = None,
    ) -> np.ndarray:
        """Where the relation holds (a boolean array over the updates, or over the updates
        ``cols`` only); values are :class:`Exact` or
        :class:`~pla_proof.engine.residues.Residues` (then with at least
        :meth:`primes_needed` primes; the relation runs compiled, prime by prime, and
        reads the residues from ``table`` -- names, and a block ``(quantity, prime,
        update)`` -- when that holds every quantity it needs)."""
        if any(isinstance(values.get(n), Residues) for n in self.symbols):
            bound = self.difference_bound(values)
            whole = table is not None and cols is None and set(self.symbols) <= set(table[0])
            if whole and self.op == "==":  # (only whether it is 0: no table of differences)
                assert table is not None
                return self.programs.residue_zero_rows(values, bound, table)
            diff = self.programs.residue_difference(values, cols, bound, table if whole else None)
            try:
                if self.op == "==":
                    return np.asarray(diff.is_zero(), dtype=bool)
                return np.asarray(compare(diff.signs(), self.op, 0), dtype=bool)
            finally:  # (the verdicts are new arrays: the differences were scratch)
                give(diff.R)
        if cols is not None:
            values = {n: v.take(cols) if hasattr(v, "take") else v for n, v in values.items()}
        a, b = self.numerators(values)
        return np.asarray(compare(a, self.op, b), dtype=bool)

    def sides_exact(self, values: dict[str, Any]) -> tuple[Any, Any]:
        return self._lhs(values), self._rhs(values)

    def numerators(self, values: dict[str, Any]) -> tuple[Any, Any]:
        """Both sides over one denominator (integer arrays, :class:`Exact` values):
        ``lhs op rhs`` holds exactly where ``a op b`` does."""
        left, right = self.sides_exact(values)
        return left.numerators_times(right.D), right.numerators_times(left.D)

    def primes_needed(self, bounds: dict[str, Any]) -> int:
        """How many primes decide the relation exactly on residues, given each
        quantity's denominator and magnitude bound (an :class:`Exact` or
        :class:`~pla_proof.engine.residues.Residues`)."""
        return primes_for(self.difference_bound(bounds))

    def difference_bound(self, values: Mapping[str, Any]) -> int:
        """A bound on ``|L (Dr/g) - R (Dl/g)|`` (the sides ``L/Dl``, ``R/Dr``, ``g =
        gcd(Dl, Dr)``) from each symbol's denominator and bound -- computed once per
        set of them (a run's chunks share them; the monitor asks for each relation
        several times a chunk).

        >>> from pla_proof.proof.runtime import RUNTIME_LEMMAS
        >>> l5 = Relation.of(next(l for l in RUNTIME_LEMMAS if l.id == "L5"), strict=False)
        >>> one = Exact(1, 1, 1)
        >>> l5.difference_bound({"n0": one, "n1": one, "t": one, "xx": one})  # 1 + 1 + 2 + 1
        5
        """
        key = tuple((values[n].D, values[n].bound) for n in self.symbols)
        memo = self.programs.cache.setdefault("bounds", {})
        got = memo.get(key)
        if got is None:
            bounds = {n: Exact(values[n].bound, values[n].D, values[n].bound) for n in self.symbols}
            left, right = self.sides_exact(bounds)
            g = math.gcd(left.D, right.D)
            if len(memo) >= 64:  # (a few sets a run; bounded across many runs)
                memo.clear()
            got = memo[key] = (left.bound * right.D + right.bound * left.D) // g
        return int(got)

    def interval(self, values: Mapping[str, Interval] | Enclosures) -> tuple[Interval, Interval]:
        """The enclosures of both sides, arrays over the updates (one value when every
        symbol is one): :class:`Interval` arithmetic, compiled."""
        return self.programs.enclosure_sides(Enclosures.of(values))

    def on_enclosures(
        self, values: Mapping[str, Interval] | Enclosures, K: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """Per update of a chunk of ``K``: does the relation certainly fail on the
        enclosures (their ends finite), and is it left unsettled by them (neither
        certainly holding nor certainly failing)?"""
        table = Enclosures.of(values, K)
        return self.programs.enclosure_verdicts(table, self.op)


# --- the relation as programs for the compiled evaluator ----------------------------------------


def _program(e: Any, names: tuple[str, ...], consts: list[Fraction]) -> list[tuple[int, int]]:
    """A polynomial tree as instructions of :mod:`pla_proof.engine.evaluate`, folded in
    the order :func:`_compile` folds it (constants appended to ``consts``)."""
    tag = e[0]
    if tag == "sym":
        return [(SYM, names.index(e[1]))]
    if tag == "num":
        consts.append(Fraction(int(e[1]), int(e[2])))
        return [(NUM, len(consts) - 1)]
    if tag in ("add", "mul"):
        out = _program(e[1], names, consts)
        for a in e[2:]:
            out += _program(a, names, consts)
            out.append((ADD if tag == "add" else MUL, 0))
        return out
    if tag == "pow" and int(e[2]) >= 1:
        return [*_program(e[1], names, consts), (POW, int(e[2]))]
    raise ValueError(f"cannot evaluate {e} (not a polynomial)")


def _denominators(
    code: np.ndarray, D: list[int], cD: list[int]
) -> tuple[int, list[int], list[int]]:
    """The denominator of a program's value, given its symbols' ``D`` and constants'
    ``cD``, and each ``ADD``'s factors to the common denominator (1 elsewhere)."""
    stack: list[int] = []
    fa, fb = [1] * len(code), [1] * len(code)
    for i, (op, arg) in enumerate(code.tolist()):
        if op == SYM:
            stack.append(D[arg])
        elif op == NUM:
            stack.append(cD[arg])
        elif op == ADD:
            b, a = stack.pop(), stack.pop()
            L = math.lcm(a, b)
            fa[i], fb[i] = L // a, L // b
            stack.append(L)
        elif op == MUL:
            b, a = stack.pop(), stack.pop()
            stack.append(a * b)
        else:
            stack.append(stack.pop() ** arg)
    return stack[0], fa, fb


@dataclass(frozen=True)
class Programs:
    """Both sides of a relation as programs, and the constants they use."""

    lhs: np.ndarray
    rhs: np.ndarray
    names: tuple[str, ...]
    consts: tuple[Fraction, ...]
    cache: dict[Any, Any]

    @staticmethod
    def of(lhs: Any, rhs: Any, names: tuple[str, ...]) -> Programs:
        consts: list[Fraction] = []
        code_l = np.array(_program(lhs, names, consts), dtype=np.int64).reshape(-1, 2)
        code_r = np.array(_program(rhs, names, consts), dtype=np.int64).reshape(-1, 2)
        return Programs(code_l, code_r, names, tuple(consts), {})

    def _codes(self, names: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
        """Both programs reading their symbols from the rows ``names`` of a table."""
        got = self.cache.get(names)
        if got is None:
            rows = np.array([names.index(n) for n in self.names], dtype=np.int64)
            codes = []
            for code in (self.lhs, self.rhs):
                c = code.copy()
                sym = c[:, 0] == SYM
                c[sym, 1] = rows[c[sym, 1]]
                codes.append(c)
            got = self.cache[names] = (codes[0], codes[1])
        return got

    def _table_codes(self, table: Enclosures) -> tuple[np.ndarray, np.ndarray, list[str]]:
        """Both programs reading a table: a quantity known per update from its row, one
        known as one value as a constant (after the programs' own); and those names."""
        key = ("table", *table.layout())
        got = self.cache.get(key)
        if got is None:
            rows = table.rows
            extra = [n for n in self.names if n not in rows]  # (the table's scalars)
            where = np.array(
                [
                    rows.index(n) if n in rows and n else len(self.consts) + extra.index(n)
                    for n in self.names
                ],
                dtype=np.int64,
            )
            is_row = np.array([n in rows and bool(n) for n in self.names])
            codes = []
            for code in (self.lhs, self.rhs):
                c = code.copy()
                sym = np.flatnonzero(c[:, 0] == SYM)
                for i in sym:
                    s = int(c[i, 1])
                    c[i, 0] = SYM if is_row[s] else NUM
                    c[i, 1] = where[s]
                codes.append(c)
            got = self.cache[key] = (codes[0], codes[1], extra)
        return got

    def _constants(self) -> tuple[np.ndarray, np.ndarray]:
        got = self.cache.get("intervals")
        if got is None:
            points = [Interval.point(c) for c in self.consts]
            clo = np.array([float(p.lo) for p in points], dtype=np.float64).reshape(-1)
            chi = np.array([float(p.hi) for p in points], dtype=np.float64).reshape(-1)
            got = self.cache["intervals"] = (clo, chi)
        return got

    def _table_args(self, table: Enclosures) -> tuple[Any, ...]:
        code_l, code_r, extra = self._table_codes(table)
        ends = tuple(table.scalars[n] for n in extra)
        key = ("args", ends, table.lo.shape[0])  # (a run's chunks share the constants)
        got = self.cache.get(key)
        if got is None:
            clo, chi = self._constants()
            if extra:
                clo = np.concatenate([clo, np.array([e[0] for e in ends], dtype=np.float64)])
                chi = np.concatenate([chi, np.array([e[1] for e in ends], dtype=np.float64)])
            if len(self.cache) >= 256:  # (bounded across many runs)
                self.cache.clear()
            got = self.cache[key] = (clo, chi, np.zeros(table.lo.shape[0], dtype=np.int8))
        clo, chi, flags = got
        return code_l, code_r, table.lo, table.hi, flags, clo, chi

    def enclosure_sides(self, table: Enclosures) -> tuple[Interval, Interval]:
        from ..engine.evaluate import enclosure_sides

        code_l, code_r, lo, hi, flags, clo, chi = self._table_args(table)
        out = np.empty((4, table.K))
        with np.errstate(over="ignore", invalid="ignore"):
            enclosure_sides(code_l, code_r, lo, hi, flags, clo, chi, out)
        return Interval(out[0], out[1]), Interval(out[2], out[3])

    def enclosure_verdicts(self, table: Enclosures, op: str) -> tuple[np.ndarray, np.ndarray]:
        from ..engine.evaluate import OPS, enclosure_verdicts

        code_l, code_r, lo, hi, flags, clo, chi = self._table_args(table)
        bad = np.empty(table.K, dtype=np.bool_)
        unsettled = np.empty(table.K, dtype=np.bool_)
        with np.errstate(over="ignore", invalid="ignore"):
            enclosure_verdicts(
                code_l, code_r, OPS.index(op), lo, hi, flags, clo, chi, bad, unsettled
            )
        return bad, unsettled

    def _factors_for(
        self, code_l: np.ndarray, code_r: np.ndarray, D: list[int], P: int
    ) -> tuple[Any, ...]:
        """:meth:`_factors`, made once per programs, denominators and primes."""
        key = (code_l.tobytes(), tuple(D), P)
        got = self.cache.get(key)
        if got is None:
            got = self.cache[key] = self._factors(code_l, code_r, D, P)
        return got

    def _factors(
        self, code_l: np.ndarray, code_r: np.ndarray, D: list[int], P: int
    ) -> tuple[Any, ...]:
        """Per prime: each ``ADD``'s factors to a common denominator (both sides), the
        constants, the factors of the difference and its denominator."""
        cD = [c.denominator for c in self.consts]
        Dl, fa_l, fb_l = _denominators(code_l, D, cD)
        Dr, fa_r, fb_r = _denominators(code_r, D, cD)
        g = math.gcd(Dl, Dr)
        q = np.array(primes(P), dtype=np.int64)

        def per_prime(fs: list[int]) -> np.ndarray:
            out = np.array([[f % p for p in q.tolist()] for f in fs], dtype=np.int64)
            return out.reshape(len(fs), P)

        return (
            per_prime(fa_l), per_prime(fb_l), per_prime(fa_r), per_prime(fb_r),
            per_prime([c.numerator for c in self.consts]), per_prime([Dr // g])[0],
            per_prime([Dl // g])[0], Dl * Dr // g,
        )  # fmt: skip

    def residue_difference(
        self,
        values: dict[str, Any],
        cols: np.ndarray | None,
        bound: int,
        table: tuple[tuple[str, ...], np.ndarray] | None = None,
    ) -> Residues:
        """``L (Dr/g) - R (Dl/g)`` (the sides ``L/Dl``, ``R/Dr``, ``g = gcd(Dl, Dr)``)
        as :class:`Residues` over the updates ``cols`` (every update when None), modulo
        as many primes as the fewest the symbols' residues carry; ``bound`` bounds it."""
        vals = [values[name] for name in self.names]
        P = min(v.P for v in vals if isinstance(v, Residues))
        if table is not None and table[1].shape[1] >= P:  # the measured block, as it is
            names, block = table
            code_l, code_r = self._codes(names)
            Dt = [values[n].D if n in values else 1 for n in names]
            flags = np.zeros(len(names), np.int8)
            return self._run(code_l, code_r, block, flags, Dt, block.shape[1], bound)
        K = max((v.R.shape[1] for v in vals if isinstance(v, Residues)), default=1)
        for v in vals:
            if isinstance(v, Exact) and isinstance(v.A, np.ndarray) and v.A.ndim:
                K = max(K, int(v.A.shape[0]))
        n = K if cols is None else len(cols)
        R = np.empty((len(vals), P, n), dtype=np.int64)
        scalar = np.zeros(len(vals), dtype=np.int8)
        D: list[int] = []
        for s, v in enumerate(vals):  # (only the updates asked for)
            if isinstance(v, Residues):
                A = v.R[:P]
            else:
                A = residues_of(v.A if cols is None or np.ndim(v.A) == 0 else v.A[cols], P)
            if A.ndim == 1 or A.shape[1] == 1:
                R[s, :, 0] = A.reshape(P, -1)[:, 0]
                scalar[s] = 1
            elif isinstance(v, Residues) and cols is not None:
                R[s] = A[:, cols]
            else:
                R[s] = A
            D.append(v.D)
        return self._run(self.lhs, self.rhs, R, scalar, D, P, bound)

    def residue_zero_rows(
        self, values: dict[str, Any], bound: int, table: tuple[tuple[str, ...], np.ndarray]
    ) -> np.ndarray:
        """Where :meth:`residue_difference` on the measured block ``table`` is 0 (every
        update), decided modulo as many primes as ``bound`` needs -- what
        ``residue_difference(...).is_zero()`` says, without the differences."""
        from ..engine.evaluate import residue_differences

        names, block = table
        P = primes_for(bound)
        if block.shape[1] < P:
            raise ValueError(f"{block.shape[1]} primes cannot determine integers up to {bound}")
        code_l, code_r = self._codes(names)
        D = [values[n].D if n in values else 1 for n in names]
        fa_l, fb_l, fa_r, fb_r, Rc, f_l, f_r, _ = self._factors_for(code_l, code_r, D, P)
        K = block.shape[2]
        zero = np.empty(K, dtype=np.bool_)
        q = np.array(primes(P), dtype=np.int64)
        flags = np.zeros(len(names), np.int8)
        idx = np.arange(K, dtype=np.int64)
        none = np.empty((0, 0), dtype=np.int64)  # (no table: only whether each is 0)
        residue_differences(
            code_l, fa_l, fb_l, code_r, fa_r, fb_r, block, flags, Rc, q, f_l, f_r, idx, none, zero
        )
        return zero

    def _run(
        self,
        code_l: np.ndarray,
        code_r: np.ndarray,
        R: np.ndarray,
        scalar: np.ndarray,
        D: list[int],
        P: int,
        bound: int,
    ) -> Residues:
        """The programs ``code_l``/``code_r`` (reading rows of ``R``, whose denominators
        are ``D``) on every column of ``R``, modulo the first ``P`` primes."""
        from ..engine.evaluate import residue_differences

        fa_l, fb_l, fa_r, fb_r, Rc, f_l, f_r, D_diff = self._factors_for(code_l, code_r, D, P)
        n = R.shape[2]
        out = take((P, n), np.int64)  # (scratch: Relation.exact gives it back)
        q = np.array(primes(P), dtype=np.int64)
        idx = np.arange(n, dtype=np.int64)
        residue_differences(
            code_l, fa_l, fb_l, code_r, fa_r, fb_r, R, scalar, Rc, q, f_l, f_r, idx, out, _NO_ZERO
        )
        return Residues(out, D_diff, bound)


def _form(lemma: Any, strict: bool) -> tuple[Any, str, Any]:
    """The lemma's relation as polynomial trees: a run-time lemma carries them (no
    SymPy); any other lemma's SymPy sides are written as trees."""
    form = getattr(type(lemma), "form", None)
    if form is not None:
        out: tuple[Any, str, Any] = form(lemma, strict)
        return out
    from ..proof.statements import tree

    lhs, op, rhs = lemma.sides(strict=strict)
    return tree(lhs), op, tree(rhs)


def _compile(e: Any) -> Any:
    """A polynomial tree as a function of the values, in exact arithmetic
    (:class:`Exact`, or :class:`~pla_proof.engine.residues.Residues`)."""
    tag = e[0]
    if tag == "sym":
        name = e[1]
        return lambda v: v[name]
    if tag == "num":
        const = Exact.const(Fraction(int(e[1]), int(e[2])))
        return lambda v: const
    if tag in ("add", "mul"):
        parts = [_compile(a) for a in e[1:]]
        add = tag == "add"

        def fold(v: Any) -> Any:
            out = parts[0](v)
            for p in parts[1:]:
                out = out + p(v) if add else out * p(v)
            return out

        return fold
    if tag == "pow" and int(e[2]) >= 1:
        base, n = _compile(e[1]), int(e[2])

        def power(v: Any) -> Any:
            x = base(v)
            out = x
            for _ in range(n - 1):
                out = out * x
            return out

        return power
    raise ValueError(f"cannot evaluate {e} (not a polynomial)")


def compare(a: Any, op: str, b: Any) -> Any:
    """``a op b`` elementwise (``op``: ``<=``, ``<``, ``>=``, ``>`` or ``==``)."""
    if op == "<=":
        return a <= b
    if op == "<":
        return a < b
    if op == ">=":
        return a >= b
    if op == ">":
        return a > b
    if op == "==":
        return a == b
    raise ValueError(f"unknown relation {op!r}")


def certainly_holds(lhs: Interval, op: str, rhs: Interval) -> Any:
    """Where ``lhs op rhs`` holds for every pair of values in the enclosures (an
    equality never: enclosures cannot show it).

    >>> certainly_holds(Interval(0.0, 1.0), "<=", Interval(1.0, 2.0))
    True
    """
    if op == "<=":
        return lhs.hi <= rhs.lo
    if op == "<":
        return lhs.hi < rhs.lo
    if op == ">=":
        return lhs.lo >= rhs.hi
    if op == ">":
        return lhs.lo > rhs.hi
    if op == "==":
        return np.zeros(np.broadcast(lhs.lo, rhs.lo).shape, dtype=bool)
    raise ValueError(f"unknown relation {op!r}")


def certainly_violated(lhs: Interval, op: str, rhs: Interval) -> Any:
    """Where ``lhs op rhs`` fails for every pair of values in the enclosures.

    >>> certainly_violated(Interval(2.0, 3.0), "<=", Interval(0.0, 1.0))
    True
    >>> certainly_violated(Interval(0.5, 3.0), "<=", Interval(0.0, 1.0))
    False
    """
    if op == "<=":
        return lhs.lo > rhs.hi
    if op == "<":
        return lhs.lo >= rhs.hi
    if op == ">=":
        return lhs.hi < rhs.lo
    if op == ">":
        return lhs.hi <= rhs.lo
    if op == "==":
        return (lhs.hi < rhs.lo) | (lhs.lo > rhs.hi)
    raise ValueError(f"unknown relation {op!r}")
