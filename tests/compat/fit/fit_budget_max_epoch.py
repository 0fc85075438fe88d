"""A class whose ``fit`` takes a ``max_epoch`` keyword that in fact counts updates (a
misnomer seen in tutorial code): ``fit(X, y, max_epoch=100000)`` stops after a clean pass
or after ``max_epoch`` updates; weights ``w`` and bias ``b``."""

import numpy as np


class MaxEpochPerceptron:
    def __init__(self, eta=1.0):
        self.eta = eta

    def fit(self, X, y, max_epoch=100000):
        self.w = np.zeros(X.shape[1])
        self.b = 0.0
        k = 0
        while k < max_epoch:
            errors = 0
            for xi, yi in zip(X, y):
                if yi * (xi @ self.w + self.b) <= 0:
                    self.w += self.eta * yi * xi
                    self.b += self.eta * yi
                    errors += 1
                    k += 1
                    if k >= max_epoch:
                        break
            if errors == 0:
                break
        return self

    def predict(self, X):
        return np.sign(X @ self.w + self.b)
