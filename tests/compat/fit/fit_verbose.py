"""A Perceptron class that prints a line on every update, the shape of teaching code that
shows its work (``print(f"epoch ...: w = ...")``); ``w``/``b``, stops after a clean pass."""

import numpy as np


class VerbosePerceptron:
    def __init__(self, max_iter=1000):
        self.max_iter = max_iter

    def fit(self, X, y):
        self.w, self.b = np.zeros(X.shape[1]), 0.0
        for epoch in range(self.max_iter):
            mistakes = 0
            for i, (xi, yi) in enumerate(zip(X, y)):
                if yi * (np.dot(self.w, xi) + self.b) <= 0:
                    self.w = self.w + yi * xi
                    self.b += yi
                    mistakes += 1
                    print(f"epoch {epoch}, point {i}: w = {self.w}, b = {self.b}")
            print(f"epoch {epoch}: {mistakes} mistake(s)")
            if mistakes == 0:
                break
        return self

    def predict(self, X):
        return np.where(np.dot(X, self.w) + self.b > 0, 1, -1)
