"""Testing with pla_proof: check a Perceptron variant from your own pytest suite, the
pytest plugin (profiles, a shared example database, time budgets, the suite report,
fixtures) and Hypothesis strategies registered for the library's types.

>>> from pla_proof.testing import check_variant
>>> check_variant("classic", examples=20)  # raises AssertionError when a claim fails
CheckReport(variant='classic', ok=True, properties=9)
>>> check_variant("bug:plus-x", examples=20, expect_failure="G2")
CheckReport(variant='bug:plus-x', ok=False, properties=9)

Modules: :mod:`~pla_proof.testing.plugin` (the pytest plugin, loaded by ``pytest -p
pla_proof``), :mod:`~pla_proof.testing.profiles`, :mod:`~pla_proof.testing.database`,
:mod:`~pla_proof.testing.types` (the ``hypothesis`` entry point); the time budget of
the ``campaign`` profile is :mod:`pla_proof.campaign`, shared with ``pla-proof check
--minutes``.  The variant harness is imported on first use, so that the plugin, which
pytest loads in every run, stays light.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .variants import VariantCheck, check_estimator, check_variant

__all__ = ["VariantCheck", "check_estimator", "check_variant"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        value = getattr(importlib.import_module(f"{__name__}.variants"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
