"""Reading ``fit(X, y)`` classes: how an estimator written without pla_proof in mind
is read (its weights, bias, label coding, sign(0) and epoch budget, verified against
its ``predict()``: :mod:`.reading`) and checked as a variant (:class:`Estimator`).
"""

from .estimator import (
    EPOCHS_PROPERTY,
    ESTIMATOR_PROPERTIES,
    Estimator,
    classic_epochs,
    mlxtend_tracer,
    resolve_factory,
)
from .reading import BIAS_NAMES, BUDGET_NAMES, WEIGHT_NAMES, Reading, read, set_budget

__all__ = [
    "BIAS_NAMES",
    "BUDGET_NAMES",
    "EPOCHS_PROPERTY",
    "ESTIMATOR_PROPERTIES",
    "WEIGHT_NAMES",
    "Estimator",
    "Reading",
    "classic_epochs",
    "mlxtend_tracer",
    "read",
    "resolve_factory",
    "set_budget",
]
