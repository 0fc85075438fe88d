"""Scratch arrays kept from one chunk (and one run) to the next.

A monitored run on float data measures each chunk into a few large tables (the residues
of the vocabulary, its enclosures, the relations' differences): about 2 MB for 5,000
updates.  Fresh from the allocator, every 4 KiB page of them costs a page fault on
first touch, and glibc hands the memory back to the system after each run (its trim
threshold follows the largest block freed), so a run paid those faults every time --
about 800 a run, 2 ms on a 14 ms run.  The tables live only while the monitor checks
their chunk: they are taken from this pool and given back once the check is done.

Ownership is explicit: :func:`take` hands out an array no one else holds, and its taker
gives it back with :func:`give` when it no longer reads it (and holds no view of it);
an array not given back is simply garbage.  The pool is per thread (threads never share
a buffer) and bounded (:data:`LIMIT` bytes a thread; a larger request is allocated as
usual and never kept).

>>> a = take((2, 3), np.int64)
>>> a.shape, a.dtype == np.int64
((2, 3), True)
>>> give(a)
>>> b = take((3, 2), np.int64)  # the same memory again
>>> b.base is a.base
True
>>> give(b)
"""

from __future__ import annotations

import threading
import weakref
from typing import Any

import numpy as np

__all__ = ["LIMIT", "give", "take", "zeroed"]

#: Bytes of scratch buffers one thread keeps at most (a buffer over an eighth of it is
#: never kept).
LIMIT = 32 << 20


class _Pool(threading.local):
    """One thread's kept buffers by size class (``2^c`` bytes), their total, and the
    buffers it has handed out (by identity; weakly: a buffer never given back is freed
    as usual once no one holds it)."""

    def __init__(self) -> None:
        self.free: dict[int, list[np.ndarray]] = {}
        self.kept = 0
        self.out: weakref.WeakValueDictionary[int, np.ndarray] = weakref.WeakValueDictionary()


_POOL = _Pool()


def take(shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    """An uninitialised array of ``shape`` and ``dtype``: a view of a kept buffer when
    one is large enough (and not more than four times too large), else a new one."""
    dt = np.dtype(dtype)
    count = 1
    for s in shape:
        count *= int(s)
    nbytes = count * dt.itemsize
    if nbytes > LIMIT // 8:
        return np.empty(shape, dtype=dt)
    pool = _POOL
    c = max(12, (nbytes - 1).bit_length())  # a power of two: reused across sizes
    buf = None
    for cls in (c, c + 1, c + 2):
        kept = pool.free.get(cls)
        if kept:
            buf = kept.pop()  # (the latest given back: its memory the likeliest in cache)
            pool.kept -= buf.nbytes
            break
    if buf is None:
        buf = np.empty(1 << c, dtype=np.uint8)
    pool.out[id(buf)] = buf
    out: np.ndarray = buf[:nbytes].view(dt).reshape(shape)
    return out


def zeroed(n: int, dtype: Any) -> np.ndarray:
    """:func:`take` ``n`` zeros.

    >>> zeroed(3, np.int8).tolist()
    [0, 0, 0]
    """
    dt = np.dtype(dtype)
    if n * dt.itemsize > LIMIT // 8:  # never kept: the system's zero pages, touched lazily
        return np.zeros(n, dtype=dt)
    a = take((n,), dt)
    a[:] = 0
    return a


def give(a: np.ndarray) -> None:
    """Give back an array :func:`take` handed out (any other array is left alone)."""
    pool = _POOL
    root = a.base if a.base is not None else a  # (numpy keeps the owner as a view's base)
    if pool.out.get(id(root)) is not root:
        return
    del pool.out[id(root)]
    if pool.kept + root.nbytes <= LIMIT:
        pool.free.setdefault(root.nbytes.bit_length() - 1, []).append(root)
        pool.kept += root.nbytes
