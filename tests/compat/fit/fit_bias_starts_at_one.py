"""A 0/1 class with the step ``s > 0``, its bias made 1 by the constructor (not by
``fit``), a rate of 0.01: it stops with a negative point at a score of exactly 0 as its
``predict`` takes it (class 0), so its end claim is ``SEP0N``, read by fitting it from a
zero start (from its own start the score ends a rounding away from 0)."""

import numpy as np


class BiasStartsAtOne:
    def __init__(self, epochs=200, rate=0.01):
        self.epochs = epochs
        self.rate = rate
        self.bias = 1.0

    def _step(self, s):
        return 1 if s > 0 else 0

    def fit(self, X, y):
        self.w = np.zeros(X.shape[1])
        for _ in range(self.epochs):
            for x, t in zip(X, y):
                error = t - self._step(x @ self.w + self.bias)
                self.w += self.rate * error * x
                self.bias += self.rate * error
        return self

    def predict(self, X):
        return np.array([self._step(x @ self.w + self.bias) for x in X])
