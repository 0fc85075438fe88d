"""Strategies for the library's types, registered with Hypothesis (``hypothesis`` entry point).

With pla_proof installed, ``st.from_type(Dataset)`` -- and so ``@given(data=...)`` with a
type annotation, ``st.builds`` and the ghostwriter -- draw from the public strategies of
:mod:`pla_proof.strategies`:

=====================  ======================================================================
type                   strategy
=====================  ======================================================================
``SeparableCase``      ``separable_datasets`` or ``edge_case_datasets`` (every kind and
                       margin; the bound capped at 10 000 updates, the trainer's default
                       budget, so ``train`` always converges on them)
``NonSeparableCase``   ``non_separable_datasets`` (every pattern and kind)
``Dataset``            the data of either
``Comparator``         the generator's comparator of a ``SeparableCase``
``Certificate``        the Gordan certificate of a ``NonSeparableCase``
``HypothesisChooser``  ``hypothesis_choosers()``: Hypothesis picks each violator
=====================  ======================================================================

Hypothesis runs its ``hypothesis`` entry points when it is imported; pla_proof's is the
top-level module ``_pla_proof_hypothesis`` (outside the package, so that ``import
hypothesis`` does not import pla_proof and SymPy in every project of an environment),
which calls :func:`register_type_strategies` once ``pla_proof`` has been imported.

>>> from hypothesis import find, strategies as st
>>> from pla_proof.data import Dataset
>>> find(st.from_type(Dataset), lambda d: d.n >= 2).n
2
"""

from __future__ import annotations

__all__ = ["MAX_BOUND", "register_type_strategies"]

#: The cap on ``R^2 |u|^2 / gamma^2`` of registered separable cases.
MAX_BOUND = 10_000


def _register() -> None:
    from hypothesis import strategies as st

    from ..data import Dataset
    from ..monitor import Comparator
    from ..strategies import (
        HypothesisChooser,
        NonSeparableCase,
        SeparableCase,
        edge_case_datasets,
        hypothesis_choosers,
        non_separable_datasets,
        separable_datasets,
    )
    from ..trainer import Certificate

    separable = st.one_of(
        separable_datasets(kind=None, margin=None, max_bound=MAX_BOUND),
        edge_case_datasets(kind=None, max_bound=MAX_BOUND),
    )
    non_separable = non_separable_datasets(kind=None)
    st.register_type_strategy(SeparableCase, separable)
    st.register_type_strategy(NonSeparableCase, non_separable)
    st.register_type_strategy(
        Dataset, st.one_of(separable.map(lambda c: c.data), non_separable.map(lambda c: c.data))
    )
    st.register_type_strategy(Comparator, separable.map(lambda c: c.comparator()))
    st.register_type_strategy(Certificate, non_separable.map(lambda c: c.certificate()))
    st.register_type_strategy(HypothesisChooser, hypothesis_choosers())


def register_type_strategies() -> None:
    """Register the strategies of the table above (idempotent)."""
    _register()
