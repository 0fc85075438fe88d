"""Importing this module loads the engine's compiled loops (those built with the
package, :func:`pla_proof.engine.aot.load`): a fork server imports it before it forks
workers, so that each worker starts with them loaded instead of running its first
small cases on the per-step path while they are not (a part of a search run in a
process of its own ran 2-3 times longer for that).

>>> from pla_proof.engine import jit
>>> LOADED == jit.loaded()
True
"""

from __future__ import annotations

from .aot import load

__all__ = ["LOADED"]

#: whether the loops built with the package were there to load
LOADED = load()
