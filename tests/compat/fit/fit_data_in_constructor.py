"""Classes made with their training data, ``Perceptron(X, y)``, then trained by a method
of no arguments -- a layout of course code (written for the corpus after reading public
code; none is copied): correct, and a broken twin."""

import numpy as np


class DataFirst:
    """Correct: the data stored by the constructor, ``learn()`` loops until a clean
    pass, the bias kept apart."""

    def __init__(self, features, targets):
        self.features = np.asarray(features, dtype=float)
        self.targets = np.asarray(targets)
        self.w = np.zeros(self.features.shape[1])
        self.b = 0.0

    def learn(self):
        while True:
            mistakes = 0
            for x, t in zip(self.features, self.targets):
                if t * (x @ self.w + self.b) <= 0:
                    self.w = self.w + t * x
                    self.b += t
                    mistakes += 1
            if not mistakes:
                return self.w, self.b

    def predict(self, X):
        return np.where(np.asarray(X) @ self.w + self.b > 0, 1, -1)


class DataFirstFrozenBias(DataFirst):
    """Broken twin: the bias is never updated."""

    def learn(self):
        for _ in range(1000):
            mistakes = 0
            for x, t in zip(self.features, self.targets):
                if t * (x @ self.w + self.b) <= 0:
                    self.w = self.w + t * x
                    mistakes += 1
            if not mistakes:
                break
        return self.w, self.b
