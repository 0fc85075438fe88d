"""Errors the library raises on purpose.

``InputError`` is bad input: the command line prints its message on one line and
exits with code 2.  ``HarnessFailure``: the checker's own machinery failed (a worker
process died outside users' code): one line saying what was done, exit 3.  Anything
else escaping the library is a bug.

>>> str(InputError("labels must be -1 or +1"))
'labels must be -1 or +1'
"""

from __future__ import annotations

__all__ = ["HarnessFailure", "InputError", "OutsideDomain", "SolverError"]


class InputError(ValueError):
    """Bad input: a data set, comparator, option or file the library refuses."""


class OutsideDomain(InputError):
    """A case a variant does not apply to: raised by a variant's ``claim(case)`` (or by
    the harness, for data that stop being separable once rounded to float64).  The
    checker skips such a case and counts it; every other exception from a variant's code
    is a failure of the variant (``RUNS``), never a skipped case."""


class SolverError(RuntimeError):
    """A numerical solver failed or did not converge (never reported as an answer)."""


class HarnessFailure(RuntimeError):
    """The search could not go on, through no fault of the code checked: a worker
    process died outside users' code (killed from outside, out of memory, ...).  The
    message says what died, how, and how much of the search was done; no verdict."""
