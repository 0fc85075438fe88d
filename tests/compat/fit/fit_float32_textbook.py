"""The textbook class in float32: ``w_`` (bias first) starts at ones, ``eta = 0.1``, the
update ``eta * (target - predict(x))`` and a step ``>= 0``, stopping after a pass without
errors -- the shape of chapter code with ``dtype=np.float32`` added to save memory.  On
coordinates far below float32's resolution of its weights the updates round away."""

import numpy as np


class Float32Textbook:
    def __init__(self, eta=0.1, n_iter=1000):
        self.eta = eta
        self.n_iter = n_iter

    def fit(self, X, y):
        X = np.asarray(X, dtype=np.float32)
        self.w_ = np.ones(1 + X.shape[1], dtype=np.float32)
        self.errors_ = []
        for _ in range(self.n_iter):
            errors = 0
            for xi, target in zip(X, y):
                update = np.float32(self.eta * (target - self.predict(xi)))
                self.w_[1:] += update * xi
                self.w_[0] += update
                errors += int(update != 0.0)
            self.errors_.append(errors)
            if errors == 0:
                break
        return self

    def net_input(self, X):
        return np.dot(np.asarray(X, dtype=np.float32), self.w_[1:]) + self.w_[0]

    def predict(self, X):
        return np.where(self.net_input(X) >= 0.0, 1, -1)
