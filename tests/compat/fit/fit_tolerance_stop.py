"""An early stop of the implementation's own making: a pass whose weights moved by less
than a tolerance ends the training (the shape of lab code that checks "convergence" by
the size of the change).  ``MeanChangeStop`` stops when the mean absolute change of its
weights over a pass is below 0.1 -- a pass with one update on a point of small
coordinates ends it with points still mispredicted (``PREDICT``, ``STOP``).
``NoChangeStop``, its correct twin, stops only after a pass with no update at all.
"""

import numpy as np


class MeanChangeStop:
    def __init__(self, rate=0.1, epochs=10_000, tolerance=0.1):
        self.rate = rate
        self.epochs = epochs
        self.tolerance = tolerance

    def fit(self, X, y):
        X = np.asarray(X, dtype=float)
        self.weights = np.zeros(X.shape[1] + 1)
        for _ in range(self.epochs):
            before = self.weights.copy()
            for row, target in zip(X, y):
                z = np.append(row, 1.0)
                guess = 1 if z @ self.weights > 0 else 0
                self.weights = self.weights + self.rate * (target - guess) * z
            if self._settled(before):
                break
        return self

    def _settled(self, before):
        return np.mean(np.abs(self.weights - before)) < self.tolerance

    def predict(self, X):
        X = np.asarray(X, dtype=float)
        return (X @ self.weights[:-1] + self.weights[-1] > 0).astype(int)


class NoChangeStop(MeanChangeStop):
    def _settled(self, before):
        return np.array_equal(self.weights, before)
