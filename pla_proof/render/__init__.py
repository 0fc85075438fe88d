"""Rendering: the one number formatter, the JSON encoding, tables, progress, figures, pages.

Everything a command prints goes through this package, so that every output
handles any exact number (thousands of digits, ``1e400``, ``1e-400``) the same way.
The modules ``figures`` (matplotlib, behind the ``plot`` extra) and ``page`` (one
self-contained HTML lecture page) render a run record for teaching.

>>> from pla_proof.render import show
>>> show(10**400)
'1e+400'
"""

from .numbers import approx, exact, int_str, show, show_with_approx, sqrt_approx, to_float

__all__ = ["approx", "exact", "int_str", "show", "show_with_approx", "sqrt_approx", "to_float"]
