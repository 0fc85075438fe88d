"""Loading users' code: a variant file or module, a ``fit(X, y)`` class, named as
``module:attribute`` or ``path/file.py:attribute``.  An error while it loads is the
user's: one line naming the file, the line and the error (:func:`user_error`).

>>> load_attribute("pla_proof.variants.protocol:LinearVariant", "x").__name__
'LinearVariant'
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import traceback
from typing import Any

from ...errors import InputError

__all__ = [
    "import_user_module",
    "is_machinery",
    "load_attribute",
    "origin",
    "user_error",
    "users_modules",
]

#: the modules of users' code this process imported (by name; the file of one loaded from
#: a path, else None): a process that ran users' code forks no workers
#: (:mod:`pla_proof.variants.checking.workers` starts clean ones, which load these again)
_USERS: dict[str, str | None] = {}


def users_modules() -> dict[str, str | None]:
    """The users' modules this process imported, in order: name -> file of one loaded
    from a ``.py`` path (``None``: importable by name).

    >>> isinstance(users_modules(), dict)
    True
    """
    return dict(_USERS)


def load_attribute(target: str, spec: str) -> Any:
    """The object ``module:attribute`` (dotted attributes allowed) names; ``spec`` is
    what the user wrote, for the one-line error."""
    module_name, _, attr = target.rpartition(":")
    if not module_name or not attr:
        raise InputError(f"{spec!r}: expected module:attribute")
    module = import_user_module(module_name, spec)
    obj: Any = module
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise InputError(
                f"{spec!r}: module {module_name!r} has no attribute {attr!r}"
            ) from None
    return obj


def import_user_module(module_name: str, spec: str) -> Any:
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
        _USERS[name] = os.path.abspath(module_name)
        try:
            loader_spec.loader.exec_module(module)
        except Exception as exc:
            sys.modules.pop(name, None)
            raise InputError(user_error(exc, os.path.abspath(module_name))) from None
        return module
    if module_name.partition(".")[0] != "pla_proof":  # (imported or not: its code may have run)
        _USERS.setdefault(module_name, None)
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and module_name.startswith(exc.name):
            raise InputError(f"{spec!r}: no module named {module_name!r}") from None
        if exc.name in ("sklearn",):
            raise InputError(
                f"{spec!r} needs scikit-learn: pip install 'pla_proof[sklearn]'"
            ) from None
        raise InputError(user_error(exc, origin(module_name))) from None
    except Exception as exc:
        raise InputError(user_error(exc, origin(module_name))) from None


def origin(module_name: str) -> str | None:
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
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if not is_machinery(f.filename)]
    mine = [f for f in frames if path is not None and os.path.abspath(f.filename) == path]
    if not (mine or frames):
        return text
    chosen = (mine or frames)[-1]
    return f"{chosen.filename}:{chosen.lineno}: {text}"


#: pla_proof's own folder: frames in it are never the user's
_PACKAGE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def is_machinery(filename: str) -> bool:
    return filename.startswith("<frozen") or os.path.abspath(filename).startswith(_PACKAGE + os.sep)
