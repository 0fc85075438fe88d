"""A through-the-origin Perceptron class with no bias anywhere, in the shape of a course
homework's "perceptron through the origin": a weight vector ``w`` only, an update while
``y (w.x) <= 0``, stopping after a clean pass."""

import numpy as np


class OriginPerceptron:
    def __init__(self, max_iter=1000):
        self.max_iter = max_iter

    def fit(self, X, y):
        X = np.asarray(X, dtype=float)
        self.w = np.zeros(X.shape[1])
        for _ in range(self.max_iter):
            changed = False
            for x_i, y_i in zip(X, y):
                if y_i * np.dot(self.w, x_i) <= 0:
                    self.w = self.w + y_i * x_i
                    changed = True
            if not changed:
                break
        return self

    def predict(self, X):
        return np.where(np.asarray(X, dtype=float) @ self.w > 0, 1, -1)
