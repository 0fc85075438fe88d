"""Training functions whose start weights are a required parameter, one entry per
coordinate -- ``pla_from(points, labels, w)``: the caller passes ``np.zeros(d)``.  No
single ``--param w=...`` suits data of every dimension, so the check finds it by its
behaviour (given zeros of the data's dimension, it learns small separable data) and
makes zeros for each call.  ``pla_from`` is correct (through the origin, it returns the
number of updates first); ``pla_from_wrong_sign`` subtracts (``SEP`` fails);
``pla_rated`` needs a rate with no default, which a vector of zeros is not (it learns
nothing): the check asks for it (exit 2, ``--param rate=VALUE``).
"""

import numpy as np


def pla_from(points, labels, w, max_iter=10_000):
    count = 0
    while count < max_iter:
        wrong = np.flatnonzero(labels * (points @ w) <= 0)
        if wrong.size == 0:
            break
        i = wrong[0]
        w = w + labels[i] * points[i]
        count += 1
    return count, w


def pla_from_wrong_sign(points, labels, w, max_iter=10_000):
    count = 0
    while count < max_iter:
        wrong = np.flatnonzero(labels * (points @ w) <= 0)
        if wrong.size == 0:
            break
        i = wrong[0]
        w = w - labels[i] * points[i]
        count += 1
    return count, w


def pla_rated(points, labels, rate, max_iter=10_000):
    w = np.zeros(points.shape[1])
    for _ in range(max_iter):
        moved = False
        for x, t in zip(points, labels):
            if t * (x @ w) <= 0:
                w = w + rate * t * x
                moved = True
        if not moved:
            break
    return w
