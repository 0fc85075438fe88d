"""Resolve a variant by built-in name, ``module:attribute`` or ``path/to/file.py:attribute``.

The attribute may be a :class:`~pla_proof.variants.protocol.variant.Variant` instance, a
subclass (instantiated with no arguments) or a zero-argument factory.

>>> resolve("classic").name
'classic'
>>> resolve("pla_proof.variants.catalog.classic:Classic").name
'classic'
>>> resolve("no-such-variant")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pla_proof.errors.InputError: unknown variant 'no-such-variant' (built-ins: classic, ...)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...errors import InputError
from ..boundary.loading import load_attribute, user_error
from ..protocol.variant import Variant

__all__ = ["BUILTIN", "FINDINGS", "builtin_names", "load_attribute", "resolve", "user_error"]

#: built-in name -> "module:attribute" (resolved lazily)
BUILTIN: dict[str, str] = {
    "classic": "pla_proof.variants.catalog.classic:Classic",
    "classic-strict": "pla_proof.variants.catalog.classic:ClassicStrict",
    "unit-ball": "pla_proof.variants.catalog.classic:UnitBall",
    "bias-augment": "pla_proof.variants.catalog.bias:BiasAugment",
    "bias-minus-one": "pla_proof.variants.catalog.bias:BiasMinusOne",
    "bias-separate": "pla_proof.variants.catalog.bias:BiasSeparate",
    "learning-rate": "pla_proof.variants.catalog.rate:LearningRate",
    "nonzero-start": "pla_proof.variants.catalog.start:NonzeroStart",
    "margin": "pla_proof.variants.catalog.margin:Margin",
    "normalised": "pla_proof.variants.catalog.normalised:Normalised",
    "dual": "pla_proof.variants.catalog.kernel:Dual",
    "kernel-poly": "pla_proof.variants.catalog.kernel:PolynomialKernel",
    "kernel-rbf": "pla_proof.variants.catalog.kernel:RBFKernel",
    "voted": "pla_proof.variants.catalog.averaged:Voted",
    "averaged": "pla_proof.variants.catalog.averaged:Averaged",
    "pocket": "pla_proof.variants.catalog.pocket:Pocket",
    "multiclass": "pla_proof.variants.catalog.multiclass:Multiclass",
    "seed004-listing": "pla_proof.variants.catalog.seed004:Seed004Listing",
    "sklearn-perceptron": "pla_proof.variants.catalog.sklearn_perceptron:SklearnPerceptron",
    "sklearn-default": "pla_proof.variants.catalog.sklearn_perceptron:SklearnDefault",
}


#: Built-ins whose claim is known to fail: findings about a real client, not catalog entries.
FINDINGS: dict[str, str] = {
    "sklearn-default": "scikit-learn's default stopping rule can end training before separating",
}


def builtin_names() -> list[str]:
    """The built-in variant names, in catalog order."""
    return list(BUILTIN)


def resolve(spec: str) -> Variant:
    """The variant named by ``spec`` (``InputError`` when it cannot be found)."""
    if spec in BUILTIN:
        return _load(BUILTIN[spec], spec)
    if spec.startswith("bug:"):
        from .bugs import BUGS

        name = spec[4:]
        if name not in BUGS:
            raise InputError(f"unknown seeded bug {name!r} (choose {', '.join(BUGS)})")
        return BUGS[name].variant()
    if ":" in spec:
        return _load(spec, spec)
    known = ", ".join(BUILTIN)
    raise InputError(
        f"unknown variant {spec!r} (built-ins: {known}; bugs: bug:NAME; or module:attribute)"
    )


def _load(target: str, spec: str) -> Variant:
    obj = load_attribute(target, spec)
    if (isinstance(obj, type) and issubclass(obj, Variant)) or (
        not isinstance(obj, Variant) and callable(obj)
    ):
        factory: Callable[[], Any] = obj
        try:
            obj = factory()
        except TypeError as exc:
            raise InputError(f"{spec!r}: cannot build a variant by calling it ({exc})") from None
        except Exception as exc:  # the user's constructor: the user's error
            raise InputError(f"{spec!r}: building it raised {user_error(exc)}") from None
    if not isinstance(obj, Variant):
        raise InputError(
            f"{spec!r} is not a variant (a pla_proof.variants.Variant instance or subclass)"
        )
    from ..protocol.hooks import check_hooks

    check_hooks(obj)
    return obj
