"""The former name of :mod:`pla_proof.engine.jit`, kept so that imports written before
the rename keep working (a file, not an entry of :mod:`pla_proof.moved`, while code of
the package still imports it by this name: type checkers read files)."""

from .jit import HAVE_NUMBA, compile_seconds, interpreted, jit, jit_reassociating, loaded, watch

__all__ = [
    "HAVE_NUMBA",
    "compile_seconds",
    "interpreted",
    "jit",
    "jit_reassociating",
    "loaded",
    "watch",
]
