"""Perceptron variants: the protocol, the built-in catalog and the checking harness.

>>> from pla_proof.variants import resolve, search
>>> search(resolve("margin"), examples=10).ok
True
"""

from .harness import (
    CheckReport,
    Counterexample,
    Failure,
    PropertyResult,
    evaluate,
    run_case,
    search,
)
from .protocol import (
    Case,
    Claim,
    LinearVariant,
    Measure,
    Order,
    PassVariant,
    Record,
    Variant,
    orders,
    survival_counts,
)
from .registry import BUILTIN, builtin_names, resolve

__all__ = [
    "BUILTIN",
    "Case",
    "CheckReport",
    "Claim",
    "Counterexample",
    "Failure",
    "LinearVariant",
    "Measure",
    "Order",
    "PassVariant",
    "PropertyResult",
    "Record",
    "Variant",
    "builtin_names",
    "evaluate",
    "orders",
    "resolve",
    "run_case",
    "search",
    "survival_counts",
]
