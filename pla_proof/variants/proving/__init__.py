"""Proving a variant's claim: its rule read as the linear template the generic lemma
proves (:mod:`.declared`), and the claim proved for that rule by Z3 and, on request,
by Coq's kernel (:mod:`.instances`).

:mod:`.instances` is imported on first use of :func:`prove_claim`, and SymPy only where a
rule is read through it: a search does not import it, and neither does the proof of a
rule that reads plainly (:func:`~.declared.read_plain`, proved by Z3 alone).
"""

from typing import TYPE_CHECKING, Any

from .declared import DeclaredRule, NotDeclarative, SymbolicCase, read_rule

if TYPE_CHECKING:
    from .instances import prove_claim

__all__ = ["DeclaredRule", "NotDeclarative", "SymbolicCase", "prove_claim", "read_rule"]


def __getattr__(name: str) -> Any:
    if name == "prove_claim":
        from .instances import prove_claim

        return prove_claim
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
