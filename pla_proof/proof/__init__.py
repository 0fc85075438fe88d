"""The proof as data (:mod:`.statements`) and its symbolic checkers.

* :mod:`.statements` -- the nodes of the proof and the run-time statements the monitor evaluates;
* :mod:`.obligations` -- what SymPy and Z3 must discharge, generated from the statements;
* :mod:`.identities` / :mod:`.implications` -- the SymPy and Z3 checkers;
* :mod:`.blueprint` -- check everything, time it, compare with the monitor, render.

Every name is imported on first use: the monitor needs only the run-time lemmas
(:mod:`.runtime`, no SymPy), a run pays neither for SymPy nor for Z3.

>>> from pla_proof.proof import check_all
>>> check_all().all_proved
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .blueprint import Blueprint, check_all
    from .obligations import TRUSTED_AXIOMS, Obligation, all_obligations, generic_instance
    from .statements import END_LEMMAS, LEMMAS, NODES, RUNTIME_LEMMAS, Lemma, lemma

__all__ = [
    "END_LEMMAS",
    "LEMMAS",
    "NODES",
    "RUNTIME_LEMMAS",
    "TRUSTED_AXIOMS",
    "Blueprint",
    "Lemma",
    "Obligation",
    "all_obligations",
    "check_all",
    "generic_instance",
    "lemma",
]

_LAZY = {
    **{n: "statements" for n in ("END_LEMMAS", "LEMMAS", "NODES", "RUNTIME_LEMMAS", "Lemma")},
    "lemma": "statements",
    "Blueprint": "blueprint",
    "check_all": "blueprint",
    "Obligation": "obligations",
    "TRUSTED_AXIOMS": "obligations",
    "all_obligations": "obligations",
    "generic_instance": "obligations",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
