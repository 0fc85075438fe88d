"""Built-in data sets, by name (``students``, ``orthonormal:N``, ``xor``, ``xor-x1x2``,
``demo2d``, ``maxviol:G``), with what the sources call their columns and labels.

>>> builtin("orthonormal:2").X
((Fraction(1, 1), Fraction(0, 1)), (Fraction(0, 1), Fraction(1, 1)))
>>> builtin("no-such-name") is None
True
>>> describe("students").features, describe("students").labels[-1]
(('A', 'B', 'C', 'D', 'E'), 'decline')
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..errors import InputError
from ..numbers import to_fraction
from .dataset import Dataset, from_arrays

__all__ = ["BUILTINS", "Criterion", "Description", "builtin", "describe", "is_builtin_name"]


def _students() -> Dataset:
    # Lin's slides: subjects A..E, accept (+1) / decline (-1); trained with bias x -> (x, 1).
    X = [[10, 10, 10, 10, 10], [10, 10, 10, 10, 0], [0, 0, 15, 0, 0]]
    return from_arrays(X, [1, 1, -1], name="students", bias="augment")


def _xor_x1x2() -> Dataset:
    # Kalyanakrishnan's note, section 4: the XOR points become separable with the extra
    # feature x1*x2.
    X = [[a, b, a * b] for a, b in ([0, 0], [1, 1], [1, 0], [0, 1])]
    return from_arrays(X, [-1, -1, 1, 1], name="xor-x1x2", bias="augment")


#: demo2d: two classes in the plane, separable by a line that misses the origin.
_DEMO2D_POSITIVE: list[list[int | str]] = [[1, 3], [2, 4], [3, "7/2"], [3, 2], [4, 3], [2, "5/2"]]
_DEMO2D_NEGATIVE: list[list[int | str]] = [["1/2", 1], [1, 0], [2, "1/2"], [3, 0], ["3/2", "3/2"]]


def _demo2d() -> Dataset:
    # The shape of the course page's step-by-step demo (2-D points, two classes, a bias learned
    # with the course page's own convention x -> (x, -1), b <- b - y); the page gives no
    # coordinates, so these are our own, chosen to take a dozen updates.
    X: list[list[int | str]] = []
    y: list[int] = []
    for i, pos in enumerate(_DEMO2D_POSITIVE):  # alternate the labels
        X.append(pos)
        y.append(1)
        if i < len(_DEMO2D_NEGATIVE):
            X.append(_DEMO2D_NEGATIVE[i])
            y.append(-1)
    return from_arrays(X, y, name="demo2d", bias="minus-one")


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
    "students": "Lin's admission table (5 subjects, accept/decline), with bias (x, 1)",
    "orthonormal:N": "x_i = e_i in dimension N, alternating labels: attains k = R^2/gamma*^2 = N",
    "xor": "the four XOR points with bias (x, 1): not separable",
    "xor-x1x2": (
        "Kalyanakrishnan's fix of XOR: the feature x1*x2 added, with bias (x, 1): separable"
    ),
    "demo2d": "11 points in the plane in the shape of the course page's demo, bias (x, -1)",
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
    if name == "xor-x1x2" and not arg:
        return _xor_x1x2()
    if name == "demo2d" and not arg:
        return _demo2d()
    if name == "maxviol":
        return _maxviol(arg)
    return None


@dataclass(frozen=True)
class Criterion:
    """A decision rule a source states for a data set: ``sum_c weights_c x_c > threshold``."""

    weights: tuple[Fraction, ...]
    threshold: Fraction
    source: str


@dataclass(frozen=True)
class Description:
    """What a source calls a data set's columns and labels (``labels[0]`` for +1,
    ``labels[1]`` for -1), and the criteria it states for them."""

    features: tuple[str, ...]
    labels: tuple[str, str] = ("+1", "-1")
    criteria: tuple[Criterion, ...] = ()


_DESCRIPTIONS: dict[str, Description] = {
    "students": Description(
        ("A", "B", "C", "D", "E"),
        ("accept", "decline"),
        (
            Criterion(
                tuple(Fraction(v) for v in (1, 1, 2, 1, 0)),
                Fraction(40),
                "Lin's sample criterion",
            ),
        ),
    ),
    "xor-x1x2": Description(("x1", "x2", "x1·x2")),
}


def describe(name: str, d: int | None = None) -> Description:
    """Column and label names for the data set called ``name`` (``x1..xd`` and ``+1``/``-1``
    when no source names them; ``d`` is the number of raw columns).

    >>> describe("orthonormal:3", 3).features
    ('x1', 'x2', 'x3')
    """
    found = _DESCRIPTIONS.get(name)
    if found is not None:
        return found
    return Description(tuple(f"x{i + 1}" for i in range(d or 0)))
