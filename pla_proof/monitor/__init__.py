"""The run-time monitor: the proof's statements evaluated on every update of a run.

See :mod:`pla_proof.monitor.core` (comparators, the monitor, violations) and
:mod:`pla_proof.monitor.relations` (exact and interval evaluation of a statement).
"""

from .core import SLACK, Comparator, Monitor, Step, Violation, make_comparator

__all__ = ["SLACK", "Comparator", "Monitor", "Step", "Violation", "make_comparator"]
