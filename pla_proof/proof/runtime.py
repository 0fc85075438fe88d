"""The run-time lemmas without SymPy: what a run's monitor evaluates, for the run path.

The statements are the ones of :mod:`pla_proof.proof.statements` (the one source),
written out as polynomial trees in the generated :mod:`pla_proof.proof.forms`, so that a
run -- ``pla-proof trace``, ``train()`` -- evaluates them without importing SymPy.  Each
:class:`RunLemma` answers what the monitor and the run record ask (``id``, ``title``,
``statement``, ``holds``, ``evaluator``, ``form``); anything else (``sides``,
``hypotheses``, ``induction``, ...) is the SymPy lemma's, imported on first use.

>>> L3 = lemma("L3")
>>> L3.title, str(L3.statement(strict=False))
('P_k: progress after k updates', 'pu1 >= g*k')
>>> L3.holds({"pu1": 6, "g": 2, "k": 3})
True
>>> [lem.id for lem in RUNTIME_LEMMAS][-1], [lem.id for lem in END_LEMMAS]
('T', ['SEP'])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from . import forms
from .comparison import compare

__all__ = [
    "CLAIMED_BOUND",
    "END_LEMMAS",
    "GENERIC_LEMMAS",
    "RUNTIME_LEMMAS",
    "RunLemma",
    "compare",
    "compile_tree",
    "lemma",
    "tree_symbols",
]

Tree = tuple[Any, ...]


def compile_tree(tree: Tree) -> Callable[..., Any]:
    """A polynomial tree as a Python function of its symbols, by keyword (plain
    arithmetic: ints, Fractions and intervals all work); ``__pla_args__`` names them.

    >>> f = compile_tree(("add", ("num", 1, 2), ("mul", ("sym", "g"), ("sym", "k"))))
    >>> f.__pla_args__, f(g=2, k=3)
    (('g', 'k'), Fraction(13, 2))
    """
    names = tuple(sorted(tree_symbols(tree)))
    body = _build(tree)

    def fn(**values: Any) -> Any:
        return body(values)

    fn.__pla_args__ = names  # type: ignore[attr-defined]
    return fn


def tree_symbols(tree: Tree) -> set[str]:
    """The symbols a polynomial tree uses.

    >>> sorted(tree_symbols(("mul", ("sym", "k"), ("pow", ("sym", "g"), 2))))
    ['g', 'k']
    """
    if tree[0] == "sym":
        return {tree[1]}
    if tree[0] == "num":
        return set()
    if tree[0] == "pow":
        return tree_symbols(tree[1])
    return set().union(*(tree_symbols(t) for t in tree[1:]))


def _build(tree: Tree) -> Callable[[Mapping[str, Any]], Any]:
    tag = tree[0]
    if tag == "sym":
        name = tree[1]
        return lambda v: v[name]
    if tag == "num":
        q = Fraction(tree[1], tree[2])
        value: Any = q.numerator if q.denominator == 1 else q
        return lambda v: value
    if tag == "pow":
        base, n = _build(tree[1]), tree[2]

        def power(v: Mapping[str, Any]) -> Any:
            x = base(v)
            out = x
            for _ in range(n - 1):
                out = out * x
            return out

        return power
    parts = [_build(t) for t in tree[1:]]
    add = tag == "add"

    def fold(v: Mapping[str, Any]) -> Any:
        out = parts[0](v)
        for p in parts[1:]:
            out = out + p(v) if add else out * p(v)
        return out

    return fold


class Statement(str):
    """A run-time statement's text (``str`` of the SymPy relation)."""


class RunLemma:
    """A run-time lemma of the proof, answered from the generated forms."""

    def __init__(self, lemma_id: str) -> None:
        info = forms.LEMMAS[lemma_id]
        self.id = lemma_id
        self.title: str = info["title"]
        self.kind: str = info["kind"]
        self.text: str = info["text"]
        self.source: str = info["source"]
        self.at: str = info["at"]
        self._forms = {False: info[False], True: info[True]}
        self._compiled: dict[bool, tuple[Callable[..., Any], str, Callable[..., Any]]] = {}

    def __repr__(self) -> str:
        return f"RunLemma({self.id!r})"

    def form(self, strict: bool = False) -> tuple[Tree, str, Tree]:
        """``(lhs, op, rhs)`` as polynomial trees."""
        lhs, op, rhs, _ = self._forms[strict]
        return lhs, op, rhs

    def notation(self, strict: bool = False) -> str:
        """The statement in the proof's notation (``pla_proof.proof.notation.text``)."""
        text: str = forms.LEMMAS[self.id][("notation", strict)][0]
        return text

    def latex(self, strict: bool = False) -> str:
        """The statement in LaTeX, as ``$...$`` (``pla_proof.proof.notation.latex``)."""
        text: str = forms.LEMMAS[self.id][("notation", strict)][1]
        return text

    def symbols(self, strict: bool = False) -> tuple[str, ...]:
        """The names of the symbols the statement uses, in the order of ``SYMBOLS``."""
        names: tuple[str, ...] = forms.LEMMAS[self.id][("notation", strict)][2]
        return names

    def statement(self, *, strict: bool = False) -> Statement:
        """The statement's text (the SymPy relation: ``self.sympy().statement()``)."""
        return Statement(self._forms[strict][3])

    def evaluator(
        self, *, strict: bool = False
    ) -> tuple[Callable[..., Any], str, Callable[..., Any]]:
        """Compiled ``(lhs, op, rhs)``; arguments by keyword from the vocabulary."""
        cached = self._compiled.get(strict)
        if cached is None:
            lhs, op, rhs = self.form(strict)
            cached = (compile_tree(lhs), op, compile_tree(rhs))
            self._compiled[strict] = cached
        return cached

    def holds(self, values: Mapping[str, Any], *, strict: bool = False) -> bool:
        """Evaluate the run-time relation on exact numbers."""
        lhs, op, rhs = self.evaluator(strict=strict)
        left = lhs(**{n: values[n] for n in lhs.__pla_args__})  # type: ignore[attr-defined]
        right = rhs(**{n: values[n] for n in rhs.__pla_args__})  # type: ignore[attr-defined]
        return compare(left, op, right)

    def sympy(self) -> Any:
        """The lemma of :mod:`pla_proof.proof.statements` (imports SymPy)."""
        from . import statements

        if self.id == statements.CLAIMED_BOUND.id:
            return statements.CLAIMED_BOUND
        return statements.lemma(self.id)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.sympy(), name)


_BY_ID = {i: RunLemma(i) for i in forms.LEMMAS}

#: The lemmas the run-time monitor evaluates at every update, in proof order.
RUNTIME_LEMMAS: tuple[RunLemma, ...] = tuple(_BY_ID[i] for i in forms.RUNTIME_IDS)
#: The lemmas the monitor evaluates once, on the returned weights.
END_LEMMAS: tuple[RunLemma, ...] = tuple(_BY_ID[i] for i in forms.END_IDS)
#: The generic lemma's run-time statements (G1, G2, P_G, Q_G, T_G): a variant's claim.
GENERIC_LEMMAS: tuple[RunLemma, ...] = tuple(_BY_ID[i] for i in forms.GENERIC_IDS)
#: ``k <= B``: a bound a variant states itself.
CLAIMED_BOUND: RunLemma = _BY_ID[forms.CLAIMED_BOUND_ID]


def lemma(lemma_id: str) -> RunLemma:
    """A run-time lemma by id (``KeyError`` for an id that is not one)."""
    return _BY_ID[lemma_id]
