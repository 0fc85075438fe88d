"""The theorem on small runs, from the algorithm's definition alone, beside the
blueprint's composition of the same runs: a regression net for the blueprint itself.

For ``d <= 2`` coordinates and ``K <= 3`` updates a run is written out symbolically:
a comparator ``u`` and points ``x_1 .. x_K`` whose every coordinate is a real unknown,
labels ``y_k`` in ``{-1, 1}``, the margin assumption (``y_k u.x_k >= g > 0``, ``u != 0``),
the radius assumption (``|x_k|^2 <= R2``), the trigger ``y_k w_k.x_k <= 0`` at every
update, ``w_1 = 0`` and ``w_{k+1} = w_k + y_k x_k``.  Then

* **direct**: the run has ``K g^2 <= R2 |u|^2`` (the theorem at ``k = K``), proved with
  no lemma of the blueprint;
* **runs exist**: Z3 finds such a run (for some ``d``), so the direct check is not true
  merely because no run has ``K`` updates;
* **composed**: the blueprint's one-step facts (its run-time lemmas without induction:
  trigger, margin and radius at the picked point, L1, L2, L4, L5, L6), read at updates
  ``1 .. K`` and chained by its inductions' start and state link, imply the blueprint's
  own T at ``k = K`` (Z3, scalars), and are consistent;
* **grounded**: every composed fact holds on the algorithm's run (the run vocabulary
  read off the run's vectors, not off the blueprint's vector forms);
* **agree**: the direct theorem and the blueprint's T at ``k = K`` are one relation.

Z3 alone does not refute the negation of the direct claim: for ``d = 2, K = 2`` its
nonlinear procedure runs out of time (20 s with every solver setting tried).  So the
direct check hands Z3 a *linear* problem: the products of every two hypotheses, every
hypothesis times the square of every coordinate, and the square of every 2 x 2 minor
of every two vectors of the run are added (each true of all reals), ``y_k^2`` is
reduced to 1, and every monomial becomes a fresh real.  A real model of the original
problem is a model of the linear one, so *unsat* of the linear problem is a proof --
a degree-4 Positivstellensatz refutation found by linear arithmetic.

>>> report = check_small_runs(dims=(2,), updates=(2,))
>>> report.ok, [(c.d, c.K, c.direct, c.runs) for c in report.cases]
(True, [(2, 2, 'proved', 'exist')])
>>> wrong = Algorithm("w <- w + x", lambda w, y, x: w + x)
>>> check_small_runs(wrong, dims=(2,), updates=(2,)).ok
False
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations, combinations_with_replacement
from typing import Any

import sympy as sp
import z3
from sympy.polys.rings import ring

from .chain import canon
from .implications import check_implication, to_z3
from .statements import (
    LEMMAS,
    R2,
    VOCABULARY,
    Lemma,
    g,
    k,
    n0,
    n1,
    pu,
    pu1,
    rel,
    t,
    uu,
    xx,
    yux,
)

__all__ = [
    "PERCEPTRON",
    "Algorithm",
    "Case",
    "Linearised",
    "Run",
    "SmallRuns",
    "check_small_runs",
    "composed_facts",
    "runs_exist",
    "symbolic_run",
]

#: the per-update symbols of the run vocabulary (one copy per update in a composition)
PER_UPDATE = (t, pu, pu1, yux, n0, n1, xx)

#: Z3's time for the nonlinear look-ups (a run's existence, a counterexample)
SEARCH_MS = 2000


@dataclass(frozen=True)
class Algorithm:
    """An update rule ``(w_c, y, x_c) -> next w_c`` and its trigger ``y w.x <op> 0``."""

    name: str
    update: Callable[[Any, Any, Any], Any]
    trigger: str = "<="


#: the Perceptron of the theorem
PERCEPTRON = Algorithm("w_{k+1} = w_k + y_k x_k when y_k w_k.x_k <= 0", lambda w, y, x: w + y * x)


def _dot(a: Sequence[Any], b: Sequence[Any]) -> Any:
    return sp.Add(*(p * q for p, q in zip(a, b, strict=True)))


@dataclass(frozen=True)
class Run:
    """K updates in dimension d, every coordinate and label a symbol."""

    d: int
    K: int
    u: tuple[sp.Symbol, ...]
    xs: tuple[tuple[sp.Symbol, ...], ...]
    ys: tuple[sp.Symbol, ...]
    #: ``w_1 .. w_{K+1}`` as expressions in the points and labels
    ws: tuple[tuple[Any, ...], ...]
    hypotheses: tuple[Any, ...]

    def vocabulary(self, step: int) -> dict[sp.Symbol, Any]:
        """What the run vocabulary means at update ``step``, read off this run."""
        w, w_next = self.ws[step - 1], self.ws[step]
        x, y = self.xs[step - 1], self.ys[step - 1]
        return {
            t: y * _dot(w, x),
            pu: _dot(self.u, w),
            pu1: _dot(self.u, w_next),
            yux: y * _dot(self.u, x),
            n0: _dot(w, w),
            n1: _dot(w_next, w_next),
            xx: _dot(x, x),
            uu: _dot(self.u, self.u),
            k: step,
        }

    def theorem(self) -> Any:
        """The convergence bound for this run, written from the textbook: K g^2 <= R2 |u|^2."""
        return rel(self.K * g**2, "<=", R2 * _dot(self.u, self.u))

    @property
    def vectors(self) -> list[tuple[Any, ...]]:
        """u, the points and the weights after each update (w_1 = 0 left out)."""
        return [self.u, *self.xs, *self.ws[1:]]


def symbolic_run(d: int, K: int, algorithm: Algorithm = PERCEPTRON) -> Run:
    """The hypotheses of a run of ``K`` updates in dimension ``d``.

    >>> run = symbolic_run(1, 2)
    >>> run.ws[2]
    (x1_1*y1 + x2_1*y2,)
    >>> [str(h) for h in run.hypotheses[6:10]]
    ['Eq(y2, -1) | Eq(y2, 1)', 'u_1*x2_1*y2 >= g', 'x2_1**2 <= R2', 'x1_1*x2_1*y1*y2 <= 0']
    """
    u = tuple(sp.Symbol(f"u_{c}", real=True) for c in range(1, d + 1))
    xs = tuple(
        tuple(sp.Symbol(f"x{j}_{c}", real=True) for c in range(1, d + 1)) for j in range(1, K + 1)
    )
    ys = tuple(sp.Symbol(f"y{j}", real=True) for j in range(1, K + 1))
    w: tuple[Any, ...] = tuple(sp.S.Zero for _ in range(d))
    ws = [w]
    hyps: list[Any] = [rel(g, ">", 0), rel(_dot(u, u), ">", 0)]  # A1: g > 0, u != 0
    for x, y in zip(xs, ys, strict=True):
        hyps += [
            sp.Or(rel(y, "==", 1), rel(y, "==", -1)),
            rel(y * _dot(u, x), ">=", g),  # A1 at the picked point
            rel(_dot(x, x), "<=", R2),  # A2 at the picked point
            rel(y * _dot(w, x), algorithm.trigger, 0),  # the trigger
        ]
        w = tuple(sp.expand(algorithm.update(wc, y, xc)) for wc, xc in zip(w, x, strict=True))
        ws.append(w)
    return Run(d, K, u, xs, ys, tuple(ws), tuple(hyps))


def _is_sign(h: Any) -> bool:
    return isinstance(h, sp.Or)


def _atom(monom: tuple[int, ...]) -> str:
    """The linear problem's variable for a monomial (named after its exponents)."""
    return "m_" + "_".join(map(str, monom))


def _real(numerator: int, denominator: int) -> str:
    """An SMT-LIB real literal.

    >>> _real(-3, 2), _real(4, 1)
    ('(- (/ 3.0 2.0))', '4.0')
    """
    value = f"{abs(numerator)}.0"
    if denominator != 1:
        value = f"(/ {value} {denominator}.0)"
    return f"(- {value})" if numerator < 0 else value


class Linearised:
    """Z3's linear arithmetic over the monomials of a run's hypotheses and their products.

    >>> lin = Linearised(symbolic_run(2, 2))
    >>> lin.entails(symbolic_run(2, 2).theorem()), lin.entails(rel(g, ">", 1))
    (True, False)
    """

    def __init__(self, run: Run) -> None:
        coords = [*run.u, *(c for x in run.xs for c in x)]
        self.ring, *_ = ring([g, R2, *coords, *run.ys], sp.QQ)
        self.signs = [self.ring.gens.index(self.ring(y)) for y in run.ys]
        self.atoms: set[str] = set()
        facts = [self._side(h) for h in run.hypotheses if not _is_sign(h)]
        products = [
            (self._mul(p, q), ps and qs)
            for (p, ps), (q, qs) in combinations_with_replacement(facts, 2)
        ]
        squares = [self.ring(c) ** 2 for c in coords]
        products += [(self._mul(s, p), False) for s in squares for p, _ in facts]
        for a, b in combinations(run.vectors, 2):
            for i, j in combinations(range(run.d), 2):
                minor = self.poly(a[i] * b[j] - a[j] * b[i])
                products.append((self._mul(minor, minor), False))
        asserts = [self._assert(p, ">" if strict else ">=") for p, strict in [*facts, *products]]
        declared = "".join(f"(declare-const {name} Real)\n" for name in sorted(self.atoms))
        self.solver = z3.Solver()
        self.solver.from_string(declared + "\n".join(asserts))

    def poly(self, expr: Any) -> Any:
        """``expr`` as a ring element with ``y_k^2 = 1``."""
        return self._reduce(self.ring.from_expr(sp.sympify(expr)))

    def _reduce(self, p: Any) -> Any:
        if not self.signs:
            return p
        out: dict[tuple[int, ...], Any] = {}
        for monom, coeff in p.items():
            m = list(monom)
            for s in self.signs:
                m[s] %= 2
            key = tuple(m)
            out[key] = out.get(key, 0) + coeff
        return self.ring.from_dict({m: c for m, c in out.items() if c})

    def _mul(self, p: Any, q: Any) -> Any:
        return self._reduce(p * q)

    def _side(self, h: Any) -> tuple[Any, bool]:
        """A hypothesis ``a op b`` as ``p >= 0`` (or ``p > 0`` when strict)."""
        op = h.rel_op
        if op not in ("<=", "<", ">=", ">"):
            raise ValueError(f"not an inequality: {h}")
        diff = h.lhs - h.rhs if op in (">=", ">") else h.rhs - h.lhs
        return self.poly(diff), op in ("<", ">")

    def _assert(self, p: Any, op: str) -> str:
        """``p op 0`` in SMT-LIB, every monomial a real named after its exponents."""
        terms = []
        for monom, coeff in p.items():
            value = _real(coeff.numerator, coeff.denominator)
            if not any(monom):
                terms.append(value)
                continue
            name = _atom(monom)
            self.atoms.add(name)
            terms.append(f"(* {value} {name})")
        total = f"(+ {' '.join(terms)} 0.0)" if terms else "0.0"
        return f"(assert ({op} {total} 0.0))"

    def _expr(self, p: Any) -> Any:
        """``p`` as a Z3 term over the same monomial variables (a few terms: built directly)."""
        terms = []
        for monom, coeff in p.items():
            value = z3.RealVal(f"{coeff.numerator}/{coeff.denominator}")
            terms.append(value * z3.Real(_atom(monom)) if any(monom) else value)
        return z3.Sum(terms) if terms else z3.RealVal(0)

    def entails(self, relation: Any) -> bool:
        """The run's hypotheses imply ``relation`` (an equation: its sides are one polynomial)."""
        if relation is sp.true:
            return True
        if relation.rel_op == "==":
            return not self.poly(relation.lhs - relation.rhs)
        p, strict = self._side(relation)
        lhs = self._expr(p)
        self.solver.push()
        self.solver.add(lhs <= 0 if strict else lhs < 0)
        answer = self.solver.check()
        self.solver.pop()
        return bool(answer == z3.unsat)


def runs_exist(run: Run, *, timeout_ms: int = SEARCH_MS) -> str:
    """``exist`` (Z3 found one), ``none`` (Z3: no such run) or ``unknown``."""
    env: dict[str, Any] = {}
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    solver.add(*(to_z3(h, env) for h in run.hypotheses))
    answer = solver.check()
    if answer == z3.sat:
        return "exist"
    return "none" if answer == z3.unsat else "unknown"


# --- the blueprint's side -------------------------------------------------------------------


def _at(expr: Any, step: int) -> Any:
    """``expr`` read at update ``step``: ``k -> step``, each per-update symbol its own copy."""
    subs: dict[Any, Any] = {s: sp.Symbol(f"{s}[{step}]", real=True) for s in PER_UPDATE}
    subs[k] = step
    return expr.xreplace(subs)


def _one_step(lemmas: Sequence[Lemma]) -> list[Lemma]:
    """The run-time lemmas that hold at one update by themselves (no induction, not T)."""
    return [
        lem
        for lem in lemmas
        if lem.runtime is not None
        and lem.at == "update"
        and lem.induction is None
        and lem.kind != "theorem"
    ]


def composed_facts(K: int, lemmas: Sequence[Lemma] = LEMMAS) -> list[tuple[str, int, Any]]:
    """``(name, update, relation)``: the blueprint's facts over the first ``K`` updates.

    >>> [name for name, step, _ in composed_facts(2) if step == 2][:3]
    ['DEF_TRIGGER@2', 'A1_j@2', 'A2_j@2']
    >>> [(name, str(fact)) for name, _, fact in composed_facts(2) if ".link" in name]
    [('L3.link@2', 'Eq(pu[2], pu1[1])'), ('L7.link@2', 'Eq(n0[2], n1[1])')]
    """
    facts: list[tuple[str, int, Any]] = []
    theorem = next(lem for lem in lemmas if lem.kind == "theorem")
    assert theorem.hypotheses is not None
    globals_ = {k, g, uu, R2}
    for h in theorem.hypotheses(False):  # the positivity it takes: k >= 1, g > 0, |u|^2 > 0
        if h.free_symbols <= globals_:
            facts.append((f"T.{sp.sstr(h)}", 1, h.xreplace({k: 1})))
    for step in range(1, K + 1):
        facts += [
            (f"{lem.id}@{step}", step, _at(lem.statement(), step)) for lem in _one_step(lemmas)
        ]
        for lem in lemmas:
            if lem.induction is None:
                continue
            if step == 1:  # the start: the base case's values at the first update
                facts += [
                    (f"{lem.id}.start", 1, rel(_at(VOCABULARY[name][0], 1), "==", value))
                    for name, value in lem.induction.base.items()
                    if name != "k"
                ]
            else:  # the state link: what update step - 1 calls pu1 is update step's pu
                facts += [
                    (f"{lem.id}.link@{step}", step,
                     rel(_at(VOCABULARY[now][0], step), "==", _at(VOCABULARY[before][0], step - 1)))
                    for before, now in lem.induction.previous.items()
                ]  # fmt: skip
    return facts


def _theorem_at(K: int, lemmas: Sequence[Lemma]) -> Any:
    theorem = next(lem for lem in lemmas if lem.kind == "theorem")
    return theorem.statement().xreplace({k: K})


def _consistent(relations: Iterable[Any]) -> bool:
    env: dict[str, Any] = {}
    solver = z3.Solver()
    solver.set("timeout", SEARCH_MS)
    solver.add(*(to_z3(r, env) for r in relations))
    return bool(solver.check() == z3.sat)


def _ground(fact: Any, run: Run, step: int) -> Any:
    """A composed fact with every per-update copy replaced by what the run measures."""
    subs: dict[Any, Any] = {uu: _dot(run.u, run.u)}
    for s in range(1, step + 1):
        vocab = run.vocabulary(s)
        subs.update({sp.Symbol(f"{sym}[{s}]", real=True): vocab[sym] for sym in PER_UPDATE})
    return fact.xreplace(subs)


# --- the report -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One dimension and number of updates."""

    d: int
    K: int
    #: the theorem from the algorithm: ``proved``, ``refuted`` or ``not proved``
    direct: str
    #: does a run of K updates exist: ``exist``, ``none`` or ``unknown``
    runs: str
    #: the blueprint's facts of update K that do not hold on this run
    ungrounded: tuple[str, ...]
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "d": self.d,
            "K": self.K,
            "direct": self.direct,
            "runs": self.runs,
            "ungrounded": list(self.ungrounded),
            "detail": self.detail,
        }


@dataclass
class SmallRuns:
    """The direct check and the blueprint's composition, per ``(d, K)``."""

    algorithm: str
    cases: list[Case]
    #: K -> the blueprint's composition proves T at k = K (and its facts are consistent)
    composed: dict[int, str]
    seconds: float
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        dims = sorted({c.d for c in self.cases})
        updates = sorted({c.K for c in self.cases})
        where = f"d = {_span(dims)}, K = {_span(updates)}"
        if self.ok:
            return (
                f"small runs ({where}): the theorem holds directly from the algorithm and "
                f"follows from the blueprint's composed facts, which hold on every run "
                f"({self.seconds:.2f} s)"
            )
        return f"small runs ({where}): {len(self.problems)} PROBLEM(S): " + "; ".join(
            self.problems[:3]
        )

    def lines(self) -> list[str]:
        out = [f"small runs of {self.algorithm}, checked without the blueprint:"]
        for c in self.cases:
            runs = {"exist": "runs exist", "none": "no run has K updates"}.get(c.runs, "runs ?")
            ground = "facts hold" if not c.ungrounded else "NOT holding: " + ", ".join(c.ungrounded)
            out.append(
                f"  d = {c.d}, K = {c.K}: direct {c.direct} ({runs}); blueprint "
                f"{self.composed.get(c.K, '?')}; {ground}"
                + (f"  !! {c.detail}" if c.detail else "")
            )
        out.append(self.summary())
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "algorithm": self.algorithm,
            "cases": [c.to_json() for c in self.cases],
            "composed": {str(K): status for K, status in self.composed.items()},
            "problems": list(self.problems),
            "seconds": round(self.seconds, 6),
            "summary": self.summary(),
        }


def _span(values: Sequence[int]) -> str:
    return str(values[0]) if len(values) == 1 else f"{values[0]}..{values[-1]}"


def check_small_runs(
    algorithm: Algorithm = PERCEPTRON,
    *,
    dims: Sequence[int] = (1, 2),
    updates: Sequence[int] = (1, 2, 3),
    lemmas: Sequence[Lemma] = LEMMAS,
) -> SmallRuns:
    """The direct check of ``algorithm`` and the composition of ``lemmas``, compared."""
    start = time.perf_counter()
    cases: list[Case] = []
    composed: dict[int, str] = {}
    problems: list[str] = []
    for K in updates:
        facts = composed_facts(K, lemmas)
        goal = _theorem_at(K, lemmas)
        verdict = check_implication([f for _, _, f in facts], goal)
        consistent = _consistent(f for _, _, f in facts)
        composed[K] = "proved" if verdict.proved and consistent else (
            verdict.status if not verdict.proved else "vacuous (facts inconsistent)"
        )  # fmt: skip
        if composed[K] != "proved":
            problems.append(f"K = {K}: the blueprint's facts do not give T: {composed[K]}")
        for d in dims:
            run = symbolic_run(d, K, algorithm)
            lin = Linearised(run)
            if canon(run.theorem()) != canon(goal.xreplace({uu: _dot(run.u, run.u)})):
                problems.append(f"d = {d}, K = {K}: the direct theorem is not the blueprint's T")
            direct, detail = "proved", ""
            if not lin.entails(run.theorem()):
                found = check_implication(run.hypotheses, run.theorem(), timeout_ms=SEARCH_MS)
                direct = "refuted" if found.status == "refuted" else "not proved"
                detail = found.detail
                problems.append(f"d = {d}, K = {K}: direct {direct}")
            ungrounded = tuple(
                name
                for name, step, fact in facts
                if step == K and not lin.entails(_ground(fact, run, step))
            )
            if ungrounded:
                problems.append(f"d = {d}, K = {K}: {', '.join(ungrounded)} not on the run")
            cases.append(Case(d, K, direct, runs_exist(run), ungrounded, detail))
        if not any(c.runs == "exist" for c in cases if c.K == K):
            problems.append(f"K = {K}: no run of {K} update(s) exists (the check would be vacuous)")
    return SmallRuns(algorithm.name, cases, composed, time.perf_counter() - start, problems)
