"""Built-in data sets, by name (``students``, ``orthonormal:N``, ``xor``, ``maxviol:G``).

>>> builtin("orthonormal:2").X
((Fraction(1, 1), Fraction(0, 1)), (Fraction(0, 1), Fraction(1, 1)))
>>> builtin("no-such-name") is None
True
"""

from __future__ import annotations

from fractions import Fraction

from ..errors import InputError
from ..numbers import to_fraction
from .dataset import Dataset, from_arrays

__all__ = ["BUILTINS", "builtin", "is_builtin_name"]


def _students() -> Dataset:
    # Seed 002: subjects A..E, accept (+1) / decline (-1); trained with bias x -> (x, 1).
    X = [[10, 10, 10, 10, 10], [10, 10, 10, 10, 0], [0, 0, 15, 0, 0]]
    return from_arrays(X, [1, 1, -1], name="students", bias="augment")


def _orthonormal(arg: str) -> Dataset:
    n = _positive_int(arg, "orthonormal:N")
    if n > 2000:
        raise InputError("orthonormal:N supports N up to 2000")
    X = [[1 if i == j else 0 for j in range(n)] for i in range(n)]
    y = [1 if i % 2 == 0 else -1 for i in range(n)]
    return from_arrays(X, y, name=f"orthonormal:{n}")


def _xor() -> Dataset:
    X = [[0, 0], [1, 1], [1, 0], [0, 1]]
    return from_arrays(X, [-1, -1, 1, 1], name="xor", bias="augment")


def _maxviol(arg: str) -> Dataset:
    gamma = to_fraction(arg, what="maxviol:G margin") if arg else Fraction(1, 10)
    if not 0 < gamma <= 1:
        raise InputError(f"maxviol:G needs 0 < G <= 1, got {gamma}")
    X = [[gamma, Fraction(1, 2)], [gamma, Fraction(1)], [gamma, Fraction(-1)]]
    return from_arrays(X, [1, 1, 1], name=f"maxviol:{arg or '1/10'}")


def _positive_int(text: str, what: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise InputError(f"{what}: N must be a positive integer, got {text!r}") from None
    if n < 1:
        raise InputError(f"{what}: N must be a positive integer, got {n}")
    return n


BUILTINS: dict[str, str] = {
    "students": "seed 002's admission table (5 subjects, accept/decline), with bias (x, 1)",
    "orthonormal:N": "x_i = e_i in dimension N, alternating labels: attains k = R^2/gamma*^2 = N",
    "xor": "the four XOR points with bias (x, 1): not separable",
    "maxviol:G": "(G, 1/2), (G, 1), (G, -1), all +1: max-violation needs about 1/(2G^2) updates",
}


def is_builtin_name(spec: str) -> bool:
    """Whether ``spec`` names a built-in (``students``, ``xor``, ``orthonormal:N``,
    ``maxviol:G``), without building it.

    >>> is_builtin_name("xor"), is_builtin_name("orthonormal:3"), is_builtin_name("x.csv")
    (True, True, False)
    """
    name, colon, _ = spec.partition(":")
    return (name in ("students", "xor") and not colon) or name in ("orthonormal", "maxviol")


def builtin(spec: str) -> Dataset | None:
    """The built-in data set named by ``spec``, or ``None`` when no built-in has that name."""
    name, _, arg = spec.partition(":")
    if name == "students" and not arg:
        return _students()
    if name == "orthonormal":
        return _orthonormal(arg)
    if name == "xor" and not arg:
        return _xor()
    if name == "maxviol":
        return _maxviol(arg)
    return None
