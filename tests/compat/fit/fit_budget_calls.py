"""A ``fit`` of one pass that goes on from where the last call ended (its weights made
at the first call): its budget is the number of calls, found by its behaviour (written
for the corpus after reading public code; none is copied)."""

import numpy as np


class OnePassOn:
    """Correct rule, one pass per ``fit``: the weights (bias last) are kept between calls,
    so calling ``fit`` again trains on; one call is too few for most data (``EPOCHS``)."""

    def __init__(self, rate=1.0):
        self.rate = rate
        self.theta = None

    def fit(self, X, y):
        Z = np.hstack([np.asarray(X, dtype=float), np.ones((len(X), 1))])
        if self.theta is None:
            self.theta = np.zeros(Z.shape[1])
        for z, t in zip(Z, y):
            if t * (z @ self.theta) <= 0:
                self.theta = self.theta + self.rate * t * z
        return self

    def predict(self, X):
        Z = np.hstack([np.asarray(X, dtype=float), np.ones((len(X), 1))])
        return np.where(Z @ self.theta > 0, 1, -1)
