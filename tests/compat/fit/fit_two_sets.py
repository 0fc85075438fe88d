"""Training functions that take no labels: the points of each class as two arrays.

``train_sets(positives, negatives, passes=1000)``: the positive class first, a bias, the
textbook update; ``train_negatives_first(negatives, positives)``: the other order.  Both
are found by behaviour (given ``(X, y)`` they raise: the labels are taken for a second
set of points) and pass.  ``sets_positives_only``: updates on the positive class only,
``SEP``."""

import numpy as np


def _rows(positives, negatives):
    return [(np.asarray(x, dtype=float), 1) for x in positives] + [
        (np.asarray(x, dtype=float), -1) for x in negatives
    ]


def train_sets(positives, negatives, passes=1000):
    rows = _rows(positives, negatives)
    w, b = np.zeros(np.shape(positives)[1]), 0.0
    for _ in range(passes):
        changed = False
        for x, t in rows:
            if t * (w @ x + b) <= 0:
                w, b, changed = w + t * x, b + t, True
        if not changed:
            break
    return w, b


def train_negatives_first(negatives, positives, passes=1000):
    return train_sets(positives, negatives, passes)


def sets_positives_only(positives, negatives, passes=1000):
    rows = _rows(positives, negatives)
    w, b = np.zeros(np.shape(positives)[1]), 0.0
    for _ in range(passes):
        changed = False
        for x, t in rows:
            if t > 0 and t * (w @ x + b) <= 0:
                w, b, changed = w + t * x, b + t, True
        if not changed:
            break
    return w, b
