"""pla_proof's ``hypothesis`` entry point: strategies for pla_proof's types.

Hypothesis imports this module when it is itself imported.  It lives outside the
``pla_proof`` package so that ``import hypothesis`` does not import pla_proof (and SymPy)
in every project of an environment: the strategies are registered (by
:func:`pla_proof.testing.types.register_type_strategies`) as soon as ``pla_proof`` has
been imported, or at once if it already is -- unless ``pla_proof.strategies`` is what
imported Hypothesis: then once that module has finished (it calls :func:`strategies_ready`).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Sequence
from types import ModuleType

__all__ = ["setup_hook", "strategies_ready"]

_PACKAGE = "pla_proof"
_STRATEGIES = "pla_proof.strategies"
_WAITING: list[bool] = []  # the registration waits for pla_proof.strategies to finish


def _register(ready: bool = False) -> None:
    module = sys.modules.get(_STRATEGIES)
    spec = getattr(module, "__spec__", None)
    if not ready and module is not None and getattr(spec, "_initializing", False):
        # pla_proof.strategies is what imported hypothesis: its names are not all there
        # yet, so the registration waits for it (strategies_ready(), at its end)
        _WAITING.append(True)
        return
    from pla_proof.testing.types import register_type_strategies

    register_type_strategies()


def strategies_ready() -> None:
    """Called at the end of ``pla_proof.strategies``: register if that was waiting."""
    if _WAITING:
        _WAITING.clear()
        _register(ready=True)  # (its names are all defined by now)


class _AfterPackageImport(importlib.abc.MetaPathFinder):
    """Registers the strategies once the ``pla_proof`` package has finished importing."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != _PACKAGE:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        loader = spec.loader if spec is not None else None
        if loader is None:
            return spec
        run = loader.exec_module

        def exec_module(module: ModuleType) -> None:
            run(module)
            _register()

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def setup_hook() -> None:
    """Register now if ``pla_proof`` is imported, else as soon as it is."""
    if _PACKAGE in sys.modules:
        _register()
    elif not any(isinstance(f, _AfterPackageImport) for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterPackageImport())
