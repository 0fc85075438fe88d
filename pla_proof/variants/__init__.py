"""Perceptron variants: the protocol users write against, the boundary that calls their
code, the proof of a declared rule, the reading of fit(X, y) classes, the checking and
the built-in catalog (one package each: docs/design.md, "Layout").

``__all__`` is the variant protocol's published surface, version
:data:`PROTOCOL_VERSION` (docs/variants.md, "The protocol's published surface", lists
every name, hook and field); a name removed since 0.1.0 fails on import, naming its
replacement.

>>> from pla_proof.variants import resolve, search
>>> search(resolve("margin"), examples=10).ok
True
"""

from typing import Any

from ..errors import OutsideDomain
from .catalog.registry import BUILTIN, builtin_names, resolve
from .checking import (
    CheckReport,
    Counterexample,
    Failure,
    PropertyResult,
    evaluate,
    run_case,
    search,
)
from .protocol.hooks import PROTOCOL_VERSION, check_hooks, removed
from .protocol.selector import Selector
from .protocol.variant import (
    Case,
    Claim,
    LinearVariant,
    Measure,
    Order,
    PassVariant,
    Record,
    Variant,
    hard_cases,
    orders,
    survival_counts,
)

__all__ = [
    "BUILTIN",
    "PROTOCOL_VERSION",
    "Case",
    "CheckReport",
    "Claim",
    "Counterexample",
    "Failure",
    "LinearVariant",
    "Measure",
    "Order",
    "OutsideDomain",
    "PassVariant",
    "PropertyResult",
    "Record",
    "Selector",
    "Variant",
    "builtin_names",
    "check_hooks",
    "evaluate",
    "hard_cases",
    "orders",
    "resolve",
    "run_case",
    "search",
    "survival_counts",
]


def __getattr__(name: str) -> Any:
    err = removed(__name__, name)
    if err is not None:
        raise err
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
