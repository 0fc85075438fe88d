"""The variant protocol: what a variant file imports and subclasses.

The cases and orders a variant runs on (:class:`Case`, :class:`Order`), what a run
returns (:class:`Record`, :class:`Measure`), what it claims (:class:`Claim`), the base
classes (:class:`Variant`, :class:`LinearVariant`, :class:`PassVariant`) with their
default run on the engine, the hooks they may define (:mod:`.hooks`,
:data:`PROTOCOL_VERSION`), the selection rules (:class:`Selector`) and the strategies of
cases the catalog draws from (:mod:`.cases`).  Nothing here checks a claim: that is
:mod:`pla_proof.variants.checking`.

>>> from pla_proof.variants.protocol import LinearVariant, PROTOCOL_VERSION
>>> PROTOCOL_VERSION, LinearVariant().name
(2, 'linear')
"""

from .claim import Claim, max_updates
from .hooks import (
    LINEAR_HOOKS,
    NOT_HOOKS,
    PROTOCOL_VERSION,
    REMOVED_HOOKS,
    REMOVED_NAMES,
    VARIANT_HOOKS,
    RemovedName,
    check_hooks,
    removed,
)
from .selector import Selector
from .variant import (
    ORDER_RULES,
    Case,
    LinearVariant,
    Measure,
    Order,
    PassVariant,
    Record,
    Variant,
    Vector,
    WeightTrace,
    bound_floor,
    claim_budget,
    hard_cases,
    in_domain,
    orders,
    orthonormal_cases,
    pushing_cases,
    run_mode,
    run_problem,
    same_updates,
    survival_counts,
)

__all__ = [
    "LINEAR_HOOKS",
    "NOT_HOOKS",
    "ORDER_RULES",
    "PROTOCOL_VERSION",
    "REMOVED_HOOKS",
    "REMOVED_NAMES",
    "VARIANT_HOOKS",
    "Case",
    "Claim",
    "LinearVariant",
    "Measure",
    "Order",
    "PassVariant",
    "Record",
    "RemovedName",
    "Selector",
    "Variant",
    "Vector",
    "WeightTrace",
    "bound_floor",
    "check_hooks",
    "claim_budget",
    "hard_cases",
    "in_domain",
    "max_updates",
    "orders",
    "orthonormal_cases",
    "pushing_cases",
    "removed",
    "run_mode",
    "run_problem",
    "same_updates",
    "survival_counts",
]
