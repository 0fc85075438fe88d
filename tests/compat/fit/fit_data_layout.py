"""Training functions of one argument, the data (written for the corpus after reading
course code; none is copied): a matrix whose last column is the label, or a list of
``(x, y)`` pairs -- the layout found by behaviour."""

import numpy as np


def pla_columns(data, passes=1000):
    """Correct: ``data`` is ``x_1, ..., x_p, y`` per row; returns the weights, bias first."""
    X = np.hstack([np.ones((data.shape[0], 1)), data[:, :-1]])
    y = data[:, -1]
    w = np.zeros(X.shape[1])
    for _ in range(passes):
        wrong = 0
        for x, t in zip(X, y):
            if t * (w @ x) <= 0:
                w, wrong = w + t * x, wrong + 1
        if not wrong:
            break
    return w


def pla_pairs(samples):
    """Correct: ``samples`` is a list of ``(x, y)``; returns ``(w, b)``, no budget."""
    w, b = np.zeros(len(samples[0][0])), 0.0
    changed = True
    while changed:
        changed = False
        for x, t in samples:
            if t * (np.dot(w, x) + b) <= 0:
                w, b, changed = w + t * np.asarray(x, dtype=float), b + t, True
    return w, b


def pla_columns_no_bias_update(data, passes=1000):
    """Broken twin of ``pla_columns``: the bias weight is never updated."""
    X = np.hstack([np.ones((data.shape[0], 1)), data[:, :-1]])
    y = data[:, -1]
    w = np.zeros(X.shape[1])
    for _ in range(passes):
        for x, t in zip(X, y):
            if t * (w @ x) <= 0:
                w = w + t * x
                w[0] -= t
    return w
