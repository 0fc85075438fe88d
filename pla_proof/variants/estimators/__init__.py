"""Reading ``fit(X, y)`` classes and training functions: how an estimator written
without pla_proof in mind is read (its weights, bias, label coding, sign(0) and epoch
budget, verified against its ``predict()``, or ``predict()`` alone when no weights can
be read: :mod:`.reading`; a training function's return value, by shape and by the
training points: :mod:`.functions`) and checked as a variant (:class:`Estimator`).
"""

from .estimator import (
    EPOCHS_PROPERTY,
    ESTIMATOR_PROPERTIES,
    Estimator,
    classic_epochs,
    mlxtend_tracer,
    resolve_factory,
)
from .functions import TrainingFunction, is_training_function, read_function
from .reading import BIAS_NAMES, BUDGET_NAMES, WEIGHT_NAMES, Reading, read, set_budget

__all__ = [
    "BIAS_NAMES",
    "BUDGET_NAMES",
    "EPOCHS_PROPERTY",
    "ESTIMATOR_PROPERTIES",
    "WEIGHT_NAMES",
    "Estimator",
    "Reading",
    "TrainingFunction",
    "classic_epochs",
    "is_training_function",
    "mlxtend_tracer",
    "read",
    "read_function",
    "resolve_factory",
    "set_budget",
]
