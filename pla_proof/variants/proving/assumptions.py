"""Whether a claim's assumptions can hold at all, and what a search said of them.

A variant's ``assumes`` and the declared ranges of its parameters are hypotheses of its
claim's proof, beside the facts every case has (:data:`CASE_FACTS`, the proof's own
hypotheses).  Assumptions no case can meet make any proof from them vacuous:
:func:`contradiction` asks Z3 whether they are satisfiable together with the facts and
names a smallest set that is not.  A proof whose assumptions can hold is still reported
proved only when the search ran a case that met them all (:func:`unexercised` says what
was not exercised when none did).

>>> import sympy as sp
>>> from pla_proof.variants.proving.assumptions import R2, UU
>>> contradiction([("uu >= 2", UU >= 2), ("uu <= 1", UU <= 1)])
"assumes ('uu >= 2', 'uu <= 1') cannot hold together"
>>> contradiction([("R2 <= 0", sp.Le(R2, 0, evaluate=False))])
"assume 'R2 <= 0' contradicts R2 > 0 (every point within radius R)"
>>> contradiction([("R2 <= 1", R2 <= 1)]) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

__all__ = [
    "CASE_FACTS",
    "GAMMA",
    "R2",
    "UU",
    "contradiction",
    "range_relation",
    "unexercised",
    "unmet",
]

if TYPE_CHECKING:
    #: The symbols of the claim's formulas: the squared radius, the margin, ``|u|^2``.
    R2: Any
    GAMMA: Any
    UU: Any
    #: The facts of every case, as the claim's proof assumes them (the hypotheses of its
    #: instance obligations), each with why a case has it.
    CASE_FACTS: tuple[tuple[Any, str], ...]


def __getattr__(name: str) -> Any:
    """``R2``, ``GAMMA``, ``UU`` and ``CASE_FACTS``, made on first use: SymPy is
    imported only where a claim is proved, not by every search (which reads this
    module's :func:`unmet`)."""
    if name not in ("R2", "GAMMA", "UU", "CASE_FACTS"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import sympy as sp

    r2, gamma, uu = sp.symbols("R2 gamma uu")
    facts = (
        (gamma > 0, "a positive margin"),
        (uu > 0, "a nonzero comparator"),
        (r2 > 0, "every point within radius R"),
        (gamma**2 <= r2 * uu, "the margin within the radius, by Cauchy-Schwarz"),
    )
    made = {"R2": r2, "GAMMA": gamma, "UU": uu, "CASE_FACTS": facts}
    globals().update(made)
    return made[name]


#: Z3's time for the satisfiability of a claim's assumptions (milliseconds).
TIMEOUT_MS = 10_000


def range_relation(name: str, declared: str) -> Any:
    """A declared parameter range as a relation (``None`` for ``real``, or no range).

    >>> range_relation("eta", "> 0"), range_relation("tau", "real")
    (eta > 0, None)
    """
    import sympy as sp

    sym = sp.Symbol(name)
    return {"> 0": sym > 0, ">= 0": sym >= 0}.get(declared)


def _text(rel: Any) -> str:
    return str(rel).replace("**", "^").replace("*", " ")


def contradiction(
    assumed: Sequence[tuple[str, Any]], ranges: Mapping[str, str] | None = None
) -> str | None:
    """Why the ``assumed`` relations (each with the text the variant wrote), the
    declared parameter ``ranges`` and the :data:`CASE_FACTS` cannot hold together, in
    one line naming a smallest set of them that cannot (``None``: Z3 found a model, or
    could not decide).  Relations are read by their symbols' names only (a SymPy
    assumption such as ``positive=True`` is not used); give them unevaluated
    (``evaluate=False``) so that SymPy does not fold one to ``False``.

    >>> import sympy as sp
    >>> from pla_proof.variants.proving.assumptions import GAMMA, R2, UU
    >>> contradiction([("eta <= 0", sp.Symbol("eta") <= 0)], {"eta": "> 0"})
    "assume 'eta <= 0' contradicts eta > 0 (its declared range)"
    >>> contradiction([("gamma >= 2", GAMMA >= 2), ("R2 <= 1", R2 <= 1), ("uu <= 1", UU <= 1)])
    "assumes ('gamma >= 2', 'R2 <= 1', 'uu <= 1') cannot hold together with R2 > 0 (every point within radius R) and gamma^2 <= R2 uu (the margin within the radius, by Cauchy-Schwarz)"
    """  # noqa: E501
    import z3

    from ...proof.implications import to_z3

    env: dict[str, Any] = {}
    given = [(f"{_text(r)} ({why})", to_z3(r, env)) for r, why in __getattr__("CASE_FACTS")]
    for name, declared in (ranges or {}).items():
        rel = range_relation(name, declared)
        if rel is not None:
            given.append((f"{_text(rel)} (its declared range)", to_z3(rel, env)))
    assumes = [(text, to_z3(rel, env)) for text, rel in assumed]

    def unsat(items: list[tuple[str, Any]]) -> bool:
        solver = z3.Solver()
        solver.set("timeout", TIMEOUT_MS)
        solver.add(*(e for _, e in items))
        return bool(solver.check() == z3.unsat)

    core = given + assumes
    if not unsat(core):
        return None
    for item in list(core):  # the facts first: keep as few of them as will do
        rest = [i for i in core if i is not item]
        if unsat(rest):
            core = rest
    texts = [t for t, _ in core if any(t == a for a, _ in assumes)]
    facts = [t for t, _ in core if not any(t == a for a, _ in assumes)]
    if len(texts) == 1:
        return f"assume {texts[0]!r} contradicts {' and '.join(facts)}"
    together = f"assumes ({', '.join(map(repr, texts))}) cannot hold together"
    return together + (f" with {' and '.join(facts)}" if facts else "")


def unmet(text: str) -> str:
    """Why the search skipped a case that does not meet the assumption ``text``.

    >>> unmet("R2 <= 1")
    "the case does not satisfy the variant's assumption R2 <= 1"
    """
    return f"the case does not satisfy the variant's assumption {text}"


def _cases(n: int) -> str:
    return f"{n} case{'' if n == 1 else 's'}"


def unexercised(assumes: Sequence[str], skipped: int, reasons: Mapping[str, int]) -> str:
    """What a search that ran no case said of the ``assumes``: which of them the
    ``skipped`` cases did not meet (``reasons``: the search's counts of its skip reasons,
    each case counted under the first assumption it does not meet).

    >>> unexercised(["uu >= 1000"], 200, {unmet("uu >= 1000"): 200})
    "assume 'uu >= 1000' never held in 200 cases"
    >>> unexercised(["a >= 1", "b >= 1"], 9, {unmet("a >= 1"): 5, unmet("b >= 1"): 3})
    "none of 9 cases met them all: 5 stopped at 'a >= 1', 3 at 'b >= 1', 1 was skipped for another reason"
    >>> unexercised([], 0, {})
    'no case was run'
    """  # noqa: E501
    if not skipped:
        return "no case was run"
    if not assumes:
        return f"all {_cases(skipped)} were skipped"
    counts = [(t, reasons.get(unmet(t), 0)) for t in assumes]
    if len(assumes) == 1 and counts[0][1] == skipped:
        return f"assume {assumes[0]!r} never held in {_cases(skipped)}"
    parts = [f"{n} at {text!r}" for text, n in counts if n]
    if parts:  # "5 stopped at 'a >= 1', 3 at 'b >= 1'"
        n, rest = parts[0].split(" ", 1)
        parts[0] = f"{n} stopped {rest}"
    other = skipped - sum(n for _, n in counts)
    if other:
        parts.append(f"{other} {'was' if other == 1 else 'were'} skipped for another reason")
    return f"none of {skipped} cases met them all: " + ", ".join(parts)
