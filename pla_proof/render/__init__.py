"""Rendering: the one number formatter, the JSON encoding, tables and progress.

Everything a command prints goes through this package, so that every output
handles any exact number (thousands of digits, ``1e400``, ``1e-400``) the same way.

>>> from pla_proof.render import show
>>> show(10**400)
'1e+400'
"""

from .numbers import approx, exact, int_str, show, show_with_approx, sqrt_approx, to_float

__all__ = ["approx", "exact", "int_str", "show", "show_with_approx", "sqrt_approx", "to_float"]
