"""An epoch budget held in a default argument of ``fit`` itself, ``fit(X, y,
n_passes=1000)``, with an empty ``__init__`` (the shape of notebook classes that pass the
training options to ``fit``); ``w``/``b``, stops after a clean pass."""

import numpy as np


class FitDefault:
    def fit(self, X, y, n_passes=1000):
        self.w, self.b = np.zeros(X.shape[1]), 0.0
        for _ in range(n_passes):
            wrong = 0
            for xi, yi in zip(X, y):
                if yi * (self.w @ xi + self.b) <= 0:
                    self.w, self.b = self.w + yi * xi, self.b + yi
                    wrong += 1
            if not wrong:
                break
        return self

    def predict(self, X):
        return np.where(X @ self.w + self.b > 0, 1, -1)
