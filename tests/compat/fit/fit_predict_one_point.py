"""A ``predict`` written for one point, ``np.sign(np.dot(self.w, x) + b)``: on a matrix
of n points in n dimensions it does not raise but contracts the wrong axis (written for
the corpus after reading public code; none is copied)."""

import numpy as np


class OnePointDot:
    """Correct; its ``predict`` takes one point (asked point by point on square data)."""

    def __init__(self, passes=1000):
        self.passes = passes

    def fit(self, X, y):
        X = np.asarray(X, dtype=float)
        self.w, self.b = np.zeros(X.shape[1]), 0.0
        for _ in range(self.passes):
            wrong = 0
            for x, t in zip(X, y):
                if t * (np.dot(self.w, x) + self.b) <= 0:
                    self.w, self.b, wrong = self.w + t * x, self.b + t, wrong + 1
            if not wrong:
                break
        return self

    def predict(self, x):
        return np.sign(np.dot(self.w, x) + self.b)
