"""Training functions that count *updates*, not passes, in the shape of a learning-from-
data homework's PLA: each round scans for the first misclassified point and updates on
it, at most ``updates`` rounds; one vector is returned, bias last.  ``pla_two_updates`` is
the same code with ``updates = 2``."""

import numpy as np


def pla(X, y, updates=100000):
    Xa = np.column_stack([X, np.ones(len(X))])
    w = np.zeros(Xa.shape[1])
    for _ in range(updates):
        wrong = np.flatnonzero(y * (Xa @ w) <= 0)
        if wrong.size == 0:
            break
        i = wrong[0]
        w = w + y[i] * Xa[i]
    return w


def pla_two_updates(X, y, updates=2):
    Xa = np.column_stack([X, np.ones(len(X))])
    w = np.zeros(Xa.shape[1])
    for _ in range(updates):
        wrong = np.flatnonzero(y * (Xa @ w) <= 0)
        if wrong.size == 0:
            break
        i = wrong[0]
        w = w + y[i] * Xa[i]
    return w
