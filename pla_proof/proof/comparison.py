"""Comparison by relation symbol: ``a op b`` for the symbols SymPy's relations use.

The one primitive both the SymPy lemmas (:mod:`.statements`) and the SymPy-free
run-time lemmas (:mod:`.runtime`) evaluate a statement with; it imports nothing, so
both can depend on it without depending on each other.
"""

from __future__ import annotations

from typing import Any

__all__ = ["compare"]


def compare(a: Any, op: str, b: Any) -> bool:
    """``a op b`` for the relation symbols SymPy uses.

    >>> compare(1, "<=", 1), compare(1, "<", 1), compare(2, "==", 2)
    (True, False, True)
    """
    if op == "<=":
        return bool(a <= b)
    if op == "<":
        return bool(a < b)
    if op == ">=":
        return bool(a >= b)
    if op == ">":
        return bool(a > b)
    if op == "==":
        return bool(a == b)
    raise ValueError(f"unknown relation {op!r}")
