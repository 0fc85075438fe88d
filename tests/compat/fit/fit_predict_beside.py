"""A training function with its predictor beside it, as course code pairs them:
``train(X, y) -> (w, b)`` and ``predict(X, w, b)`` in the same module.  The check
judges the pair: the predictor must give every training label (``PREDICT``) and agree
with the returned weights (``READ``)."""

import numpy as np


def train(X, y, max_epochs=1000):
    w, b = np.zeros(X.shape[1]), 0.0
    for _ in range(max_epochs):
        mistakes = 0
        for xi, yi in zip(X, y):
            if yi * (xi @ w + b) <= 0:
                w, b = w + yi * xi, b + yi
                mistakes += 1
        if mistakes == 0:
            break
    return w, b


def predict(X, w, b):
    return np.where(X @ w + b > 0, 1, -1)
