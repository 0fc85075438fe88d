"""Checking a variant's claim: one run evaluated (:mod:`.run`), the search with
Hypothesis and its shrinking (:mod:`.shard`), run on every core (:mod:`.search`), what
it reports (:mod:`.report`), time-budget campaigns (:mod:`.campaign`) and
counterexample files (:mod:`.files`).

>>> from pla_proof.variants import resolve
>>> search(resolve("classic"), examples=10).ok
True
"""

from typing import Any

from ..boundary.calls import one_line
from ..boundary.limits import DEFAULT_TIME_LIMIT, TOTAL_FACTOR, RunTimeout, time_limit
from ..protocol.cases import float_case
from ..protocol.claim import Failure
from ..protocol.hooks import removed
from .drawing import fixed_cases, strategy_of
from .report import (
    GENERIC_PROPERTIES,
    HARNESS_PROPERTIES,
    MAX_SKIPPED_SHARE,
    SKIP_REASONS_KEPT,
    CheckReport,
    Counterexample,
    PropertyResult,
    ShardResult,
    failure_order,
    keep_reason,
    property_order,
    statement_of,
)
from .run import NoPredictor, decision_values, end_condition, evaluate, run_case
from .search import cost_rank, default_jobs, run_searches, search
from .shard import (
    DEFAULT_SHARDS,
    DEFAULT_SHRINK_RUNS,
    merge,
    search_shard,
    shard_examples,
)

__all__ = [
    "DEFAULT_SHARDS",
    "DEFAULT_SHRINK_RUNS",
    "DEFAULT_TIME_LIMIT",
    "GENERIC_PROPERTIES",
    "HARNESS_PROPERTIES",
    "MAX_SKIPPED_SHARE",
    "SKIP_REASONS_KEPT",
    "TOTAL_FACTOR",
    "CheckReport",
    "Counterexample",
    "Failure",
    "NoPredictor",
    "PropertyResult",
    "RunTimeout",
    "ShardResult",
    "cost_rank",
    "decision_values",
    "default_jobs",
    "end_condition",
    "evaluate",
    "failure_order",
    "fixed_cases",
    "float_case",
    "keep_reason",
    "merge",
    "one_line",
    "property_order",
    "run_case",
    "run_searches",
    "search",
    "search_shard",
    "shard_examples",
    "statement_of",
    "strategy_of",
    "time_limit",
]


def __getattr__(name: str) -> Any:
    err = removed("pla_proof.variants.harness", name)
    if err is not None:
        raise err
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
