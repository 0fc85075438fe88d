"""Proving a variant's claim: its rule read as the linear template the generic lemma
proves (:mod:`.declared`), and the claim proved for that rule by Z3 and, on request,
by Coq's kernel (:mod:`.instances`).
"""

from .declared import DeclaredRule, NotDeclarative, SymbolicCase, read_rule
from .instances import prove_claim

__all__ = ["DeclaredRule", "NotDeclarative", "SymbolicCase", "prove_claim", "read_rule"]
