"""Resolve a variant by built-in name, ``module:attribute`` or ``path/to/file.py:attribute``.

The attribute may be a :class:`~pla_proof.variants.protocol.Variant` instance, a
subclass (instantiated with no arguments) or a zero-argument factory.

>>> resolve("classic").name
'classic'
>>> resolve("pla_proof.variants.classic:Classic").name
'classic'
>>> resolve("no-such-variant")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pla_proof.errors.InputError: unknown variant 'no-such-variant' (built-ins: classic, ...)
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import traceback
from collections.abc import Callable
from typing import Any

from ..errors import InputError
from .protocol import Variant

__all__ = ["BUILTIN", "FINDINGS", "builtin_names", "load_attribute", "resolve", "user_error"]

#: built-in name -> "module:attribute" (resolved lazily)
BUILTIN: dict[str, str] = {
    "classic": "pla_proof.variants.classic:Classic",
    "classic-strict": "pla_proof.variants.classic:ClassicStrict",
    "unit-ball": "pla_proof.variants.classic:UnitBall",
    "bias-augment": "pla_proof.variants.bias:BiasAugment",
    "bias-minus-one": "pla_proof.variants.bias:BiasMinusOne",
    "bias-separate": "pla_proof.variants.bias:BiasSeparate",
    "learning-rate": "pla_proof.variants.rate:LearningRate",
    "nonzero-start": "pla_proof.variants.start:NonzeroStart",
    "margin": "pla_proof.variants.margin:Margin",
    "normalised": "pla_proof.variants.normalised:Normalised",
    "dual": "pla_proof.variants.kernel:Dual",
    "kernel-poly": "pla_proof.variants.kernel:PolynomialKernel",
    "kernel-rbf": "pla_proof.variants.kernel:RBFKernel",
    "voted": "pla_proof.variants.averaged:Voted",
    "averaged": "pla_proof.variants.averaged:Averaged",
    "pocket": "pla_proof.variants.pocket:Pocket",
    "multiclass": "pla_proof.variants.multiclass:Multiclass",
    "seed004-listing": "pla_proof.variants.seed004:Seed004Listing",
    "sklearn-perceptron": "pla_proof.variants.sklearn_perceptron:SklearnPerceptron",
    "sklearn-default": "pla_proof.variants.sklearn_perceptron:SklearnDefault",
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


def load_attribute(target: str, spec: str) -> Any:
    """The object ``module:attribute`` (dotted attributes allowed) names; ``spec`` is
    what the user wrote, for the one-line error."""
    module_name, _, attr = target.rpartition(":")
    if not module_name or not attr:
        raise InputError(f"{spec!r}: expected module:attribute")
    module = _import(module_name, spec)
    obj: Any = module
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise InputError(
                f"{spec!r}: module {module_name!r} has no attribute {attr!r}"
            ) from None
    return obj


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
    from .hooks import check_hooks

    check_hooks(obj)
    return obj


def _import(module_name: str, spec: str) -> Any:
    """The user's module (a ``.py`` path or an importable name).  An error while it is
    imported -- a syntax error, a failing import, an exception at import time -- is the
    user's: an ``InputError`` naming the file, the line and the error."""
    if module_name.endswith(".py"):
        if not os.path.isfile(module_name):
            raise InputError(f"{spec!r}: no such file {module_name!r}")
        name = "_pla_user_" + os.path.splitext(os.path.basename(module_name))[0]
        loader_spec = importlib.util.spec_from_file_location(name, module_name)
        if loader_spec is None or loader_spec.loader is None:  # pragma: no cover
            raise InputError(f"{spec!r}: cannot load {module_name!r}")
        module = importlib.util.module_from_spec(loader_spec)
        sys.modules[name] = module
        try:
            loader_spec.loader.exec_module(module)
        except Exception as exc:
            sys.modules.pop(name, None)
            raise InputError(user_error(exc, os.path.abspath(module_name))) from None
        return module
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and module_name.startswith(exc.name):
            raise InputError(f"{spec!r}: no module named {module_name!r}") from None
        if exc.name in ("sklearn",):
            raise InputError(
                f"{spec!r} needs scikit-learn: pip install 'pla_proof[sklearn]'"
            ) from None
        raise InputError(user_error(exc, _origin(module_name))) from None
    except Exception as exc:
        raise InputError(user_error(exc, _origin(module_name))) from None


def _origin(module_name: str) -> str | None:
    """The file of an importable module (None when it cannot be told)."""
    try:
        found = importlib.util.find_spec(module_name)
    except Exception:
        return None
    return None if found is None or not found.origin else os.path.abspath(found.origin)


def user_error(exc: BaseException, path: str | None = None) -> str:
    """An exception from the user's code as one line: ``file:line: Type: message``, at
    the deepest line of ``path`` (the user's file) in its traceback, else of any file
    outside pla_proof and Python's import machinery; a syntax error at its own line.

    >>> try:
    ...     compile("x = (", "mine.py", "exec")
    ... except SyntaxError as e:
    ...     print(user_error(e))
    mine.py:1: SyntaxError: '(' was never closed
    """
    msg = str(exc).strip().splitlines()
    text = f"{type(exc).__name__}: {msg[0]}" if msg else type(exc).__name__
    if isinstance(exc, SyntaxError):
        where = f"{exc.filename}:{exc.lineno}" if exc.filename else ""
        text = f"SyntaxError: {exc.msg}"
        return f"{where}: {text}" if where else text
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if not _machinery(f.filename)]
    mine = [f for f in frames if path is not None and os.path.abspath(f.filename) == path]
    if not (mine or frames):
        return text
    chosen = (mine or frames)[-1]
    return f"{chosen.filename}:{chosen.lineno}: {text}"


_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _machinery(filename: str) -> bool:
    return filename.startswith("<frozen") or os.path.abspath(filename).startswith(_PACKAGE + os.sep)
