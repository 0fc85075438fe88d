"""The built-in variants (one module each, with its source), the seeded bugs the
checker must catch (:mod:`.bugs`), and the registry that resolves a name, a seeded bug
or a user's ``module:attribute`` to a variant (:mod:`.registry`).
"""

from .registry import BUILTIN, builtin_names, resolve

__all__ = ["BUILTIN", "builtin_names", "resolve"]
