"""A Perceptron class that keeps its weights in an ``int32`` array and updates them in place
by ``eta * y * x`` with ``eta = 0.1``: NumPy refuses to cast the float update into the
integer array (``UFuncTypeError``), so ``fit`` raises on its first update -- the shape of
code written for integer features and never run on anything else."""

import numpy as np


class IntWeightsPerceptron:
    def __init__(self, eta=0.1, n_iter=1000):
        self.eta = eta
        self.n_iter = n_iter

    def fit(self, X, y):
        self.w = np.zeros(X.shape[1], dtype=np.int32)
        self.b = 0.0
        for _ in range(self.n_iter):
            errors = 0
            for xi, yi in zip(X, y):
                if yi * (xi @ self.w + self.b) <= 0:
                    self.w += self.eta * yi * xi
                    self.b += self.eta * yi
                    errors += 1
            if errors == 0:
                break
        return self

    def predict(self, X):
        return np.where(X @ self.w + self.b > 0, 1, -1)
