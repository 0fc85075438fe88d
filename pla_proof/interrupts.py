"""Where a time limit may interrupt a run: never inside the compiler, never inside a
garbage-collector callback.

Both time limits -- the search's per-run limit (a ``SIGALRM`` handler raising
``RunTimeout``) and the command's ``--time-limit`` (an asynchronous ``BudgetExceeded``)
-- raise an exception wherever the thread happens to be.  Two places must not receive
it: numba's and LLVM's compilation or loading of a compiled loop (they would be left
half-built: a segmentation fault followed when LLVM later disposed of a module) or the
import of the loops built with the package, and a
callback the garbage collector runs -- a ``gc.callbacks`` entry or a weak reference's
callback (Python prints the exception as "ignored" and drops it, so the run would go
on).  There each limit waits and tries again 50 ms later.

>>> import sys
>>> safe_to_interrupt(sys._getframe())
True
"""

from __future__ import annotations

import gc
import os
from typing import Any

__all__ = ["in_compiler", "in_gc_callback", "safe_to_interrupt"]

_COMPILER_DIRS = (f"{os.sep}numba{os.sep}", f"{os.sep}llvmlite{os.sep}")
#: the engine's loading of its compiled loops: numba's, or the ones built with the package
_LOADERS = {
    (os.path.join("pla_proof", "engine", "jit.py"), "_activate"),
    (os.path.join("pla_proof", "engine", "aot.py"), "_load"),
}
#: the standard library's weak-reference helpers, whose callbacks the collector runs
_WEAKREF_FILES = (f"{os.sep}weakref.py", f"{os.sep}_weakrefset.py")


def in_compiler(frame: Any) -> bool:
    """True when ``frame`` (or a caller) is numba or llvmlite code, or the engine's
    loading of its compiled loops."""
    depth = 0
    while frame is not None and depth < 400:
        name = frame.f_code.co_filename
        if any(name.endswith(f) and frame.f_code.co_name == c for f, c in _LOADERS):
            return True
        if any(d in name for d in _COMPILER_DIRS):
            return True
        frame, depth = frame.f_back, depth + 1
    return False


def in_gc_callback(frame: Any) -> bool:
    """True inside a callback the garbage collector runs: a ``gc.callbacks`` entry
    (Hypothesis registers one) or the standard library's weak-reference helpers
    (``WeakSet``'s and ``WeakValueDictionary``'s removal callbacks)."""
    codes = {getattr(cb, "__code__", None) for cb in gc.callbacks} - {None}
    depth = 0
    while frame is not None and depth < 400:
        if frame.f_code in codes or frame.f_code.co_filename.endswith(_WEAKREF_FILES):
            return True
        frame, depth = frame.f_back, depth + 1
    return False


def safe_to_interrupt(frame: Any) -> bool:
    """Neither in the compiler nor in a garbage-collector callback."""
    return frame is None or not (in_compiler(frame) or in_gc_callback(frame))
