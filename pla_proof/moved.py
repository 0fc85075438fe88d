"""Modules that moved, importable from their old places.

A moved module keeps working under its old name: ``import pla_proof.variants.harness``
gives the module that now holds what it held (the same object, not a copy), so a
variant file or a test written against an older layout keeps running.  The table
below is the one record of where each went (the CHANGELOG lists the same moves).

>>> import importlib
>>> old = importlib.import_module("pla_proof.variants.registry")
>>> old is importlib.import_module("pla_proof.variants.catalog.registry")
True
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from collections.abc import Sequence
from types import ModuleType

__all__ = ["MOVED", "install"]

#: old module -> the module that holds its public names now
MOVED: dict[str, str] = {
    "pla_proof.engine._aot": "pla_proof.engine.aot",  # building the loops: pla_proof.build_loops
    "pla_proof.engine._jit": "pla_proof.engine.jit",
    "pla_proof.monitor.residues": "pla_proof.engine.residues",
    "pla_proof.variants.claims": "pla_proof.variants.protocol.claim",
    "pla_proof.variants.hooks": "pla_proof.variants.protocol.hooks",
    "pla_proof.variants.selector": "pla_proof.variants.protocol.selector",
    "pla_proof.variants.cases": "pla_proof.variants.protocol.cases",
    "pla_proof.variants.measures": "pla_proof.variants.protocol.measures",
    "pla_proof.variants.harness": "pla_proof.variants.checking",
    "pla_proof.variants.parallel": "pla_proof.variants.checking.search",
    "pla_proof.variants.campaign": "pla_proof.variants.checking.campaign",
    "pla_proof.variants.files": "pla_proof.variants.checking.files",
    "pla_proof.variants.reading": "pla_proof.variants.estimators.reading",
    "pla_proof.variants.declared": "pla_proof.variants.proving.declared",
    "pla_proof.proof.instances": "pla_proof.variants.proving.instances",
    "pla_proof.variants.registry": "pla_proof.variants.catalog.registry",
    "pla_proof.variants.bugs": "pla_proof.variants.catalog.bugs",
    **{
        f"pla_proof.variants.{name}": f"pla_proof.variants.catalog.{name}"
        for name in (
            "averaged",
            "bias",
            "classic",
            "exact_exp",
            "kernel",
            "margin",
            "multiclass",
            "normalised",
            "pocket",
            "rate",
            "seed004",
            "sklearn_perceptron",
            "start",
        )
    },
}


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds a moved module under its old name and loads the new one in its place."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
        /,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return importlib.import_module(MOVED[spec.name])

    def exec_module(self, module: ModuleType) -> None:
        pass  # the new module ran when it was imported


def install() -> None:
    """Make the old names importable (idempotent; ``import pla_proof`` calls it)."""
    if not any(isinstance(f, _Alias) for f in sys.meta_path):
        sys.meta_path.append(_Alias())
