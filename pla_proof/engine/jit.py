"""Compilation of the engine's inner loops with numba, when it is installed.

The loops are plain Python written in the subset numba compiles: with numba they run
at the speed of compiled code (cached on disk after the first call); without it, or
with ``PLA_PROOF_NO_JIT=1``, the very same functions run as Python.  There is one
source of each loop either way.  When the package was built with its loops compiled
ahead of time (:mod:`.aot`), a loop's first call takes the built one for its argument
types and numba is not imported at all.

>>> from pla_proof.engine.orders import permutation  # a compiled loop inside
>>> sorted(permutation(4, seed=7, epoch=0)), isinstance(HAVE_NUMBA, bool)
([0, 1, 2, 3], True)
"""

from __future__ import annotations

import functools
import importlib.util
import os
import sys
import time
import types
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

__all__ = [
    "HAVE_NUMBA",
    "compile_all",
    "compile_seconds",
    "interpreted",
    "jit",
    "jit_reassociating",
    "loaded",
    "resolved",
    "watch",
]

F = TypeVar("F", bound=Callable[..., Any])

_WANTED = os.environ.get("PLA_PROOF_NO_JIT", "") in ("", "0")

#: True when the loops are compiled (numba is installed and not switched off).
HAVE_NUMBA = _WANTED and importlib.util.find_spec("numba") is not None

# numba is imported when a compiled loop is first *called*, not when a module defining
# one is imported: a run that never needs one (small data take the per-step path) pays
# nothing for it.  Until then each loop is a stand-in that, on its first call, compiles
# every pending loop (numba then resolves the loops' calls to each other) and puts the
# compiled functions in place of the stand-ins in the modules that define them.
_PENDING: list[tuple[dict[str, Any], str, Callable[..., Any], dict[str, Any]]] = []
_ACTIVE = False
_CLOCK = {"seconds": 0.0}  # importing numba, compiling and loading the loops


def _activate() -> None:
    global _ACTIVE
    if _ACTIVE:
        return
    t0 = time.monotonic()
    from numba import njit

    _listen()
    compiled = {id(g[name]): njit(**opts)(fn) for g, name, fn, opts in _PENDING}
    for g, _name, _fn, _opts in _PENDING:
        for key, value in list(g.items()):
            if id(value) in compiled and getattr(value, "_pla_stub", False):
                g[key] = compiled[id(value)]
    _PENDING.clear()
    _ACTIVE = True
    _CLOCK["seconds"] += time.monotonic() - t0


def _listen() -> None:
    """Count the time numba holds its compiler lock: compiling a loop, or loading it
    from the cache (the outermost acquisition; the lock is re-entrant) -- ours, and any
    other code's (a variant's own numba functions)."""
    if _CLOCK.get("listening"):
        return
    _CLOCK["listening"] = 1.0
    from numba.core import event

    started: list[float] = []

    class Listener(event.Listener):  # type: ignore[misc]
        def on_start(self, ev: Any) -> None:
            started.append(time.monotonic())

        def on_end(self, ev: Any) -> None:
            if started:
                t0 = started.pop()
                if not started:
                    _CLOCK["seconds"] += time.monotonic() - t0

    event.register("numba:compiler_lock", Listener())  # type: ignore[no-untyped-call]


def compile_all() -> None:
    """Compile every loop now (or load it from numba's cache) instead of on its first
    call: the ahead-of-time build (:mod:`pla_proof.build_loops`) starts with this."""
    _activate()


def compile_seconds() -> float:
    """Seconds this process has spent loading the compiled loops: importing numba,
    compiling them or loading them from numba's cache (a time limit leaves them out).

    >>> compile_seconds() >= 0.0
    True
    """
    return _CLOCK["seconds"]


def watch() -> None:
    """Count numba's compile time from now on if other code imported numba first (a
    variant's own numba functions): a time limit calls this as it starts."""
    if "numba" in sys.modules and not _CLOCK.get("listening"):
        _listen()


def loaded() -> bool:
    """True once this process has loaded the compiled loops: the ones built with the
    package (:mod:`.aot`), or numba's (numba imported and the loops' stand-ins
    replaced)."""
    if _ACTIVE:
        return True
    aot = sys.modules.get(f"{__package__}.aot")
    return aot is not None and bool(getattr(aot, "_TABLE", None))


_INTERPRETED: dict[int, Callable[..., Any]] = {}


def interpreted(fn: F) -> F:
    """``fn`` run as Python, calling the Python code of the loops it calls in turn: the
    same results as the compiled loop without loading numba (the per-step path uses it
    for the small loops it needs while the compiled ones are not loaded).

    >>> from pla_proof.engine.shuffle import sample
    >>> import numpy as np
    >>> int(interpreted(sample)(np.uint64(3), 5, 10)) == int(sample(np.uint64(3), 5, 10))
    True
    """
    py = getattr(fn, "py_func", fn)
    done = _INTERPRETED.get(id(py))
    if done is not None:
        return done  # type: ignore[return-value]
    g = dict(py.__globals__)
    for key, value in list(g.items()):
        inner = getattr(value, "py_func", None)
        if inner is not None and getattr(inner, "__globals__", None) is py.__globals__:
            g[key] = types.FunctionType(inner.__code__, g, inner.__name__, inner.__defaults__)
    body = types.FunctionType(py.__code__, g, py.__name__, py.__defaults__)

    @functools.wraps(py)
    def run(*args: Any, **kwargs: Any) -> Any:
        with np.errstate(over="ignore"):
            return body(*args, **kwargs)

    _INTERPRETED[id(py)] = run
    return run  # type: ignore[return-value]


def _ahead_of_time(name: str, args: tuple[Any, ...]) -> Callable[..., Any] | None:
    """The loop compiled when the package was built, for these argument types
    (:mod:`.aot`); None when there is none (numba then compiles or loads it)."""
    from . import aot

    first = aot._TABLE is None
    found = aot.find(name, args)
    if first:
        _CLOCK["seconds"] += aot.load_seconds()
    if found is None:
        aot.MISSES.append(name)
    return found


def _lazy(fn: F, **opts: Any) -> F:
    opts = {"cache": True, "nogil": True, **opts}
    if _ACTIVE:
        from numba import njit

        done: F = njit(**opts)(fn)
        return done
    g = fn.__globals__
    name = fn.__name__
    qualified = f"{fn.__module__.rsplit('.', 1)[-1]}.{name}"  # as aot's index has it

    @functools.wraps(fn)
    def stub(*args: Any, **kwargs: Any) -> Any:
        if not _ACTIVE and not kwargs:
            ahead = _ahead_of_time(qualified, args)
            if ahead is not None:
                return ahead(*args)
        _activate()
        return g[name](*args, **kwargs)

    def resolve(args: tuple[Any, ...]) -> Callable[..., Any]:
        if not _ACTIVE:
            ahead = _ahead_of_time(qualified, args)
            if ahead is not None:
                return ahead
        return stub

    stub.py_func = fn  # type: ignore[attr-defined]
    stub.resolve = resolve  # type: ignore[attr-defined]
    stub._pla_stub = True  # type: ignore[attr-defined]
    _PENDING.append((g, name, fn, opts))
    return stub  # type: ignore[return-value]


def resolved(fn: Callable[..., Any], args: tuple[Any, ...]) -> Callable[..., Any]:
    """What ``fn(*args)`` runs: the loop built ahead of time for these argument types when
    there is one, else ``fn`` itself (numba's, or the interpreted function) -- for a
    caller that calls the same loop many times with arguments of the same types.

    >>> import numpy as np
    >>> from pla_proof.engine.kernel import rehash
    >>> callable(resolved(rehash, (np.zeros(1, np.int64),) * 4 + (np.zeros(1, np.int64),)))
    True
    """
    resolve = getattr(fn, "resolve", None)
    if resolve is None:
        return fn
    out: Callable[..., Any] = resolve(args)
    return out


def jit(fn: F) -> F:
    """Compile ``fn`` with numba (nopython, cached; on its first call) if available, else
    return it.

    The loops use wrapping 64-bit integer arithmetic on purpose (hashes, the random
    generator); run as Python, numpy's overflow warnings for those are silenced.
    """
    if not HAVE_NUMBA:
        return _quiet(fn)
    return _lazy(fn)


def jit_reassociating(fn: F) -> F:
    """:func:`jit`, allowing the compiler to reorder sums (SIMD dot products).

    Only for code whose float results are bounded for *any* summation order: a dot
    product's rounding error bound ``gamma_d sum |x_c w_c|`` holds for every order,
    and sums of integers below 2^53 are exact in every order.  Never for error-free
    transformations (TwoSum), which live in functions compiled with :func:`jit`.
    """
    if not HAVE_NUMBA:
        return _quiet(fn)
    return _lazy(fn, fastmath={"reassoc"})


def _quiet(fn: F) -> F:
    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        with np.errstate(over="ignore"):
            return fn(*args, **kwargs)

    run.py_func = fn  # type: ignore[attr-defined]
    return run  # type: ignore[return-value]
