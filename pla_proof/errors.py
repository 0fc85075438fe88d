"""Errors the library raises on purpose.

``InputError`` is bad input: the command line prints its message on one line and
exits with code 2.  Anything else escaping the library is a bug.

>>> str(InputError("labels must be -1 or +1"))
'labels must be -1 or +1'
"""

from __future__ import annotations

__all__ = ["InputError", "SolverError"]


class InputError(ValueError):
    """Bad input: a data set, comparator, option or file the library refuses."""


class SolverError(RuntimeError):
    """A numerical solver failed or did not converge (never reported as an answer)."""
