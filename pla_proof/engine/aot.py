"""The compiled loops built ahead of time, when the package is built: finding and loading them.

numba compiles the engine's loops on their first call and caches them on disk; loading
them in a fresh process still costs numba's import (about 0.15 s), SciPy's BLAS bindings
and the cached code's linking (0.4-0.7 s in all).  So the package's build also compiles
the loops' entry points (the functions called from Python) for the argument types a
run gives them into one extension module, ``pla_proof.engine._loops``, with numba's
ahead-of-time compiler -- the same Python source compiled by the same compiler.  A
fresh process imports that module in a few milliseconds and numba not at all.

The module is used only when it was built from the engine's current source (a
fingerprint of ``pla_proof/engine/*.py`` -- each file's size, CRC-32 and Adler-32 -- is
recorded beside it), on a processor with every
feature of the one it was built for (Linux's ``/proc/cpuinfo`` flags; elsewhere that
is not checked), and only for calls whose
argument types it was built for (dtype, dimensions, layout, read-only flag of every
array -- a writable array may also take a loop built for a read-only one; the scalars'
types): any other call loads numba and the just-in-time compiled
loops as before, for the rest of the process.  ``PLA_PROOF_NO_AOT=1`` turns it off.

This module finds and loads the built loops at run time.  Building them is
:mod:`pla_proof.build_loops`'s job (``python -m pla_proof.build_loops build DIR``): it
runs the trainer on a small corpus to learn the argument types, from above the engine.

>>> key_of((np.zeros((2, 3), dtype=np.int8), 3, 0.5, np.uint64(7)))
(('int8', 2, 'C', False, True), 'int64', 'float64', 'uint64')
"""

from __future__ import annotations

import importlib
import marshal
import os
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

__all__ = [
    "ENTRIES",
    "FAST_INDEX",
    "MODULE",
    "cpu_flags",
    "fast_index",
    "find",
    "key_of",
    "load",
    "load_seconds",
    "sources_digest",
    "status",
]

#: The compiled loops called from Python: (module of pla_proof.engine, function).
ENTRIES: tuple[tuple[str, str], ...] = (
    ("kernel", "advance"),
    ("kernel", "rehash"),
    ("kernel", "visits_under"),
    ("kernel", "remember_also"),
    ("measure", "_grid_vocabulary"),
    ("measure", "residue_vocabulary"),
    ("measure", "replay_float"),
    ("measure", "given_vocabulary"),
    ("measure", "_enclose"),
    ("measure", "float_vocabulary"),
    ("evaluate", "enclosure_sides"),
    ("evaluate", "enclosure_verdicts"),
    ("evaluate", "residue_differences"),
    ("evaluate", "residue_signs"),
    ("shuffle", "fill_permutation"),
    ("shuffle", "sample"),
    ("prep", "int_row_norms"),
    ("prep", "int_max_square_norm"),
    ("prep", "matvec"),
    ("prep", "float_exponents"),
)

#: The extension module's name, and the index of its functions beside it.
MODULE = "pla_proof.engine._loops"
INDEX = "_loops.json"
#: The same index in :mod:`marshal`'s format (this interpreter's, as is the module).
FAST_INDEX = "_loops.index"
HERE = Path(__file__).resolve().parent

Key = tuple[Any, ...]


def sources_digest(folder: Path = HERE) -> str:
    """A fingerprint of the engine's source files (the loops and every constant they
    read): each file's name, size, CRC-32 and Adler-32 (:mod:`zlib`, loaded with numpy;
    a fraction of a millisecond, where SHA-256 took 2-5 ms of a first run, or more to
    import :mod:`hashlib`).  It tells an edited engine from the one the loops were
    built from; it is not a defence against a deliberate forgery (nor is a file beside
    the module).

    >>> len(sources_digest()) > 64
    True
    """
    parts = []
    for name in sorted(n for n in os.listdir(folder) if n.endswith(".py")):
        data = (Path(folder) / name).read_bytes()
        parts.append(f"{name}:{len(data)}:{zlib.crc32(data):08x}:{zlib.adler32(data):08x}")
    return ";".join(parts)


_NAMES: dict[Any, str] = {}  # dtype -> its name (``dtype.name`` is slow: 2 µs)


def _dtype_name(dt: Any) -> str:
    name = _NAMES.get(dt)
    if name is None:
        name = _NAMES[dt] = dt.name if dt.isnative else "non-native"
    return name


_ARRAYS: dict[tuple[Any, int, int], Key] = {}  # (dtype, ndim, flag bits) -> the array's key


def _arg_key(a: Any) -> Any:
    t = type(a)
    if t is np.ndarray or isinstance(a, np.ndarray):
        seen = (a.dtype, a.ndim, a.flags.num)
        key = _ARRAYS.get(seen)
        if key is None:
            f = a.flags
            layout = "C" if f.c_contiguous else ("F" if f.f_contiguous else "A")
            key = (_dtype_name(a.dtype), a.ndim, layout, not f.writeable, bool(f.aligned))
            if len(_ARRAYS) < 4096:
                _ARRAYS[seen] = key
        return key
    if t is bool:
        return "bool"
    if t is int:
        return "int64" if -(2**63) <= a < 2**63 else "big"
    if t is float:
        return "float64"
    if isinstance(a, np.generic):
        return _dtype_name(a.dtype)
    return t.__name__


def key_of(args: tuple[Any, ...]) -> Key:
    """The types of a call's arguments, as the index records them."""
    return tuple(_arg_key(a) for a in args)


_TABLE: dict[str, dict[Key, Callable[..., Any]]] | None = None
_STATE: dict[str, Any] = {"seconds": 0.0, "reason": "not looked for yet"}
#: Loops (``module.function``) called with argument types the module was not built
#: for, or not built at all (numba took them).
MISSES: list[str] = []


def _load() -> dict[str, dict[Key, Callable[..., Any]]]:
    global _TABLE
    t0 = time.monotonic()
    table: dict[str, dict[Key, Callable[..., Any]]] = {}
    _TABLE = table
    if os.environ.get("PLA_PROOF_NO_AOT", "") not in ("", "0"):
        _STATE["reason"] = "switched off (PLA_PROOF_NO_AOT)"
        return table
    index = _read_index()
    if index is None:
        _STATE["reason"] = "not built"
        return table
    if index.get("sources") != sources_digest():
        _STATE["reason"] = "built from other sources"
        return table
    built_for = index.get("cpu_flags")
    here = cpu_flags()
    if built_for and here is not None and not set(built_for) <= here:
        missing = ", ".join(sorted(set(built_for) - here)[:5])
        _STATE["reason"] = f"built for another CPU (this one lacks {missing})"
        return table
    try:
        module = importlib.import_module(MODULE)
    except ImportError as exc:
        _STATE["reason"] = f"cannot be imported: {exc}"
        return table
    try:
        loops = {
            name: {tuple(key): getattr(module, export) for key, export in rows}
            for name, rows in index["exports"].items()
        }
    except (KeyError, AttributeError, TypeError, ValueError) as exc:
        _STATE["reason"] = f"its index does not match the module ({type(exc).__name__}: {exc})"
        return table
    table.update(loops)
    _STATE["reason"] = "loaded"
    _STATE["seconds"] = time.monotonic() - t0
    return table


def load() -> bool:
    """Load the loops built with the package now (not at a loop's first call): True
    when they are there.  A fork server calls this before it forks workers, so that
    each worker inherits them (:mod:`pla_proof.engine.warm`)."""
    table = _TABLE if _TABLE is not None else _load()
    return bool(table)


def _read_index() -> dict[str, Any] | None:
    """The index: its copy in :mod:`marshal`'s format (read in microseconds, its keys
    already tuples) when it is there and from the same build as the JSON file, else
    the JSON file (importing :mod:`json` and converting it cost a first run 2-3 ms)."""
    try:
        fast = marshal.loads((HERE / FAST_INDEX).read_bytes())
        if isinstance(fast, dict) and fast.get("sources") == sources_digest():
            return fast
    except (OSError, ValueError, EOFError, TypeError):
        pass
    import json

    try:
        index = json.loads((HERE / INDEX).read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(index, dict):
        return None
    exports = index.get("exports")
    if isinstance(exports, dict):
        index["exports"] = {
            name: [(_key(key), export) for key, export in rows] if isinstance(rows, list) else rows
            for name, rows in exports.items()
        }
    return index


def fast_index(index: dict[str, Any]) -> bytes:
    """The index in :mod:`marshal`'s format (what the build writes beside the JSON
    file as :data:`FAST_INDEX`): each row's key as a tuple, as :func:`key_of` makes it.

    >>> row = [[["int8", 2, "C", True, True], "int64"], "advance__0"]
    >>> marshal.loads(fast_index({"exports": {"kernel.advance": [row]}}))["exports"]
    {'kernel.advance': [[(('int8', 2, 'C', True, True), 'int64'), 'advance__0']]}
    """
    exports = {
        name: [[_key(key), export] for key, export in rows]
        for name, rows in index.get("exports", {}).items()
    }
    return marshal.dumps({**index, "exports": exports})


def cpu_flags() -> set[str] | None:
    """The processor's feature flags as Linux lists them (``/proc/cpuinfo``), or None
    elsewhere: loops built for this machine's CPU (``host``) are not run on a CPU that
    lacks one of the build machine's features (an illegal instruction would end the
    process)."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith(("flags", "Features")):
                    return set(line.partition(":")[2].split())
    except OSError:
        return None
    return None


def _key(row: list[Any]) -> Key:
    """An index row's argument types as :func:`key_of` gives them (an array's as a
    tuple, a scalar's as its name)."""
    return tuple([tuple(a) if type(a) is list else a for a in row])


def find(name: str, args: tuple[Any, ...]) -> Callable[..., Any] | None:
    """The ahead-of-time compiled ``name`` (``module.function``, the module in
    :mod:`pla_proof.engine`) for these arguments' types, or None."""
    table = _TABLE if _TABLE is not None else _load()
    fns = table.get(name)
    if not fns:
        return None
    key = key_of(args)
    found = fns.get(key)
    if found is None:
        # a writable array may go where the loop was built for a read-only one (that
        # code never writes to it); never the other way round
        for built, fn in list(fns.items()):
            if len(built) == len(key) and all(map(_fits, key, built)):
                found = fns[key] = fn
                break
    return found


def _fits(arg: Any, built: Any) -> bool:
    """Can an argument of type ``arg`` be passed where the loop was built for ``built``?

    >>> _fits(("int8", 2, "C", False, True), ("int8", 2, "C", True, True))
    True
    >>> _fits(("int8", 2, "C", True, True), ("int8", 2, "C", False, True))
    False
    """
    if arg == built:
        return True
    return (
        isinstance(arg, tuple)
        and isinstance(built, tuple)
        and arg[:3] == built[:3]
        and arg[4] == built[4]
        and not arg[3]
        and built[3]
    )


def status() -> str:
    """Why the ahead-of-time loops are (not) used: 'loaded', 'not built', ...

    >>> isinstance(status(), str)
    True
    """
    if _TABLE is None:
        _load()
    return str(_STATE["reason"])


def load_seconds() -> float:
    """Seconds spent importing the ahead-of-time compiled module."""
    return float(_STATE["seconds"])
