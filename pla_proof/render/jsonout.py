"""The JSON encoding shared by every ``--json`` output: one representation per kind.

* an **exact number** (a coordinate, a weight, a margin, a bound, a slack) is an
  object ``{"exact": "p/q", "float": x}``: the exact rational in lowest terms as a
  string, and beside it the nearest float64 (``null`` when the value is beyond
  float64's range, so no JSON ever holds an infinity);
* a **count or index** (k, j, n, d, updates, seeds) is a JSON integer;
* a **float-mode enclosure** is ``{"lo": x, "hi": y}`` (outward-rounded floats);
* a **measured float** (seconds, a rounding-error bound) is a JSON number.

Every object a command prints starts with ``"schema": "pla-proof/COMMAND"`` and
``"schema_version"``; the schemas ship in :mod:`pla_proof.schemas`.

>>> from fractions import Fraction
>>> encode({"bound": Fraction(465429, 67825), "updates": 3})
{'bound': {'exact': '465429/67825', 'float': 6.862204201990417}, 'updates': 3}
>>> dumps({"w": [Fraction(-1, 2)], "huge": Fraction(10**400)})[:52]
'{"w":[{"exact":"-1/2","float":-0.5}],"huge":{"exact"'
>>> dumps({"huge": Fraction(10**400)})[-19:]
'000","float":null}}'
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import sys
from collections.abc import Iterator, Mapping
from fractions import Fraction
from typing import IO, Any

from ..userprints import user_output
from .numbers import exact, to_float

__all__ = ["SCHEMA_VERSION", "document_only", "dumps", "emit", "encode", "number"]

#: bumped whenever a field changes meaning or disappears (adding fields does not)
SCHEMA_VERSION = 1

#: integers beyond this are not counts: passing one is a bug (exact values are Fractions)
_MAX_COUNT = 2**53


def number(v: Any) -> dict[str, Any]:
    """An exact number as ``{"exact": "p/q", "float": x | None}``.

    >>> number(3)
    {'exact': '3', 'float': 3.0}
    """
    return {"exact": exact(v), "float": to_float(v)}


def encode(obj: Any) -> Any:
    """``obj`` with every value in its JSON representation (see the module doc)."""
    if obj is None or isinstance(obj, bool | str):
        return obj
    if isinstance(obj, Fraction):
        return number(obj)
    if isinstance(obj, int):
        if abs(obj) >= _MAX_COUNT:
            raise TypeError(f"integer {obj:.3e} is not a count: pass exact values as Fraction")
        return obj
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, Mapping):
        return {str(k): encode(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [encode(v) for v in obj]
    interval = sys.modules.get("pla_proof.interval")
    if interval is not None and isinstance(obj, interval.Interval):
        return {"lo": obj.lo, "hi": obj.hi}
    np = sys.modules.get("numpy")
    if np is not None:
        if isinstance(obj, np.integer):
            return encode(int(obj))
        if isinstance(obj, np.floating):
            return encode(float(obj))
        if isinstance(obj, np.ndarray):
            return encode(obj.tolist())
    raise TypeError(f"cannot encode {type(obj).__name__} as JSON")


def dumps(obj: Any) -> str:
    """One line of JSON; huge exact values are written in full."""
    text = json.dumps(encode(obj), separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return text


#: Where the command's JSON document goes while users' code may print
#: (:func:`document_only`); None: standard output.
_DOCUMENT: list[IO[str]] = []


@contextlib.contextmanager
def document_only() -> Iterator[None]:
    """Standard output holds the JSON document and nothing else: while the command
    runs, whatever else is written there -- a user's ``print``, a library's message, a
    child process's output -- goes to standard error instead; what is printed through
    Python's ``sys.stdout`` there, line by line, headed by ``[user] ``
    (:data:`pla_proof.userprints.USER_PREFIX`).

    >>> with document_only():
    ...     print("Round 0:50 training")  # standard error: "[user] Round 0:50 training"
    ...     emit({"ok": True}, "check")
    {"schema":"pla-proof/check","schema_version":1,"ok":true}
    """
    out = sys.stdout
    saved: int | None = None
    try:
        fd = out.fileno()
    except (AttributeError, OSError, ValueError):  # captured, not a file (tests, notebooks)
        fd = -1
    if fd == 1:
        out.flush()
        saved = os.dup(1)
        os.dup2(2, 1)  # what children and C code write to fd 1 goes to standard error
        document: IO[str] = os.fdopen(os.dup(saved), "w", encoding="utf-8", closefd=True)
    else:
        document = out
    _DOCUMENT.append(document)
    try:
        with user_output(sys.stderr):
            yield
    finally:
        _DOCUMENT.pop()
        if saved is not None:
            document.flush()
            document.close()
            sys.stderr.flush()
            os.dup2(saved, 1)
            os.close(saved)


def emit(obj: Mapping[str, Any], command: str, out: IO[str] | None = None) -> None:
    """Write ``obj`` as one JSON line, headed by its schema name and version."""
    head = {"schema": f"pla-proof/{command}", "schema_version": SCHEMA_VERSION}
    if out is None or out is sys.stdout:  # standard output: the document's stream
        stream = _DOCUMENT[-1] if _DOCUMENT else sys.stdout
    else:
        stream = out
    stream.write(dumps({**head, **obj}))
    stream.write("\n")
