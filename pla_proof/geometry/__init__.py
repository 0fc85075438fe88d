"""Geometry of the theorem: optimal margin, certificates, and checks on data.

* :mod:`.margin` -- the exact optimal margin through the origin, the affine margin,
  Gordan certificates (solver proposes, exact arithmetic verifies).
* :mod:`.certify` -- validate an external separator exactly.
* :mod:`.online` -- the non-separable mistake bound of Freund and Schapire and the
  running sandwich ``k min_i y_i u.x_i <= u.w_k <= |w_k| <= sqrt(k) R``.

>>> from pla_proof.data import load
>>> optimal_margin(load("orthonormal:3")).bound
Fraction(3, 1)
"""

from .certify import Certification, certify
from .margin import (
    AffineMargin,
    NotSeparable,
    OptimalMargin,
    affine_margin,
    gordan_certificate,
    integer_form,
    optimal_comparator,
    optimal_margin,
    separability,
)
from .online import (
    MistakeBound,
    SandwichRow,
    freund_schapire,
    mistake_bound_holds,
    one_pass,
    running_sandwich,
)

__all__ = [
    "AffineMargin",
    "Certification",
    "MistakeBound",
    "NotSeparable",
    "OptimalMargin",
    "SandwichRow",
    "affine_margin",
    "certify",
    "freund_schapire",
    "gordan_certificate",
    "integer_form",
    "mistake_bound_holds",
    "one_pass",
    "optimal_comparator",
    "optimal_margin",
    "running_sandwich",
    "separability",
]
