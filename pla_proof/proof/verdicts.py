"""A checker's answer (:class:`Verdict`), shared by the SymPy and Z3 checkers and by
the provers of a variant's claim; it imports neither SymPy nor Z3.

>>> Verdict("proved", "negation unsatisfiable").proved
True
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Verdict"]


@dataclass(frozen=True)
class Verdict:
    """A checker's answer: ``proved``, ``refuted`` (with a counterexample),
    ``unknown`` (not proved, no counterexample) or ``error``."""

    status: str
    detail: str = ""

    @property
    def proved(self) -> bool:
        return self.status == "proved"
