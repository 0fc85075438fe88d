"""A training function written for labels as a column, ``y`` of shape ``(n, 1)`` (the
shape of batch and matrix code whose weights are a ``(d, 1)`` column): given a flat
vector of labels it raises (``y[i, 0]``), given a column it learns.  The check finds the
shape by its behaviour and passes the labels as a column (the reading line says so):
``train_column`` passes.
"""

import numpy as np


def train_column(X, y, epochs=1000):
    w = np.zeros((X.shape[1], 1))
    b = 0.0
    for _ in range(epochs):
        wrong = 0
        for i in range(len(X)):
            if y[i, 0] * (X[i] @ w + b).item() <= 0:
                w += y[i, 0] * X[i].reshape(-1, 1)
                b += y[i, 0]
                wrong += 1
        if not wrong:
            break
    return w, b
