"""A class with a bias attribute that ``fit`` never updates: ``bias`` starts at 0, is used
by ``net_input`` and ``predict``, and the line that should move it is missing -- so only
data separable through the origin are learned (unlike ``fit_origin_class.py``, which has
no bias at all and says so by its shape)."""

import numpy as np


class FrozenBias:
    def __init__(self, eta=1.0, n_iter=1000):
        self.eta = eta
        self.n_iter = n_iter

    def net_input(self, X):
        return np.dot(X, self.weights) + self.bias

    def fit(self, X, y):
        self.weights = np.zeros(X.shape[1])
        self.bias = 0.0
        for _ in range(self.n_iter):
            errors = 0
            for xi, target in zip(X, y):
                if target * self.net_input(xi) <= 0:
                    self.weights += self.eta * target * xi
                    errors += 1
            if errors == 0:
                break
        return self

    def predict(self, X):
        return np.where(self.net_input(X) > 0, 1, -1)
