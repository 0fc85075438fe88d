"""A training function whose **start comes first**, before the points and labels --
``pocket_from(w0, X, y, T=1000)`` (the caller passes ``np.zeros(d)``): through the
origin, it returns ``(w, mistakes)``.  The parameters that take the points and labels,
and the start, are found by behaviour (the start made zeros for each call).
``pocket_from_wrong_sign`` subtracts (``SEP`` fails).
"""

import numpy as np


def pocket_from(w0, X, y, T=1000):
    w = np.array(w0, dtype=float)
    for _ in range(T):
        mistakes = 0
        for x, t in zip(X, y):
            if t * (w @ x) <= 0:
                w = w + t * x
                mistakes += 1
        if not mistakes:
            break
    return w, mistakes


def pocket_from_wrong_sign(w0, X, y, T=1000):
    w = np.array(w0, dtype=float)
    for _ in range(T):
        mistakes = 0
        for x, t in zip(X, y):
            if t * (w @ x) <= 0:
                w = w - t * x
                mistakes += 1
        if not mistakes:
            break
    return w, mistakes
