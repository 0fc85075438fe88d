"""Classes that must be told the data's dimension, as book and course code writes them:
the constructor sizes the weights (``np.zeros(inputs + 1)``), so no single value suits
data of every dimension.  Written for the corpus (none is copied)."""

import numpy as np


class InputSizedPerceptron:
    """Correct: the bias first in ``weights``, a fixed step, a pass budget."""

    def __init__(self, inputs, step=0.25):
        self.weights = np.zeros(inputs + 1)
        self.step = step

    def _net(self, row):
        return self.weights[0] + row @ self.weights[1:]

    def predict(self, rows):
        return np.array([1 if self._net(r) >= 0 else -1 for r in rows])

    def fit(self, rows, targets, passes=10000):
        for _ in range(passes):
            clean = True
            for row, t in zip(rows, targets):
                if t * self._net(row) <= 0:
                    self.weights[1:] += self.step * t * row
                    self.weights[0] += self.step * t
                    clean = False
            if clean:
                break
        return self


class InputSizedWrongSign(InputSizedPerceptron):
    """Broken twin: the update subtracts."""

    def fit(self, rows, targets, passes=1000):
        for _ in range(passes):
            for row, t in zip(rows, targets):
                if t * self._net(row) <= 0:
                    self.weights[1:] -= self.step * t * row
                    self.weights[0] -= self.step * t
        return self


class RandomStartOneRow:
    """Correct, with a budget too small for its start: weights drawn at random in the
    constructor (the bias last), a small rate, 0/1 labels with the step ``net > 0``,
    ``fit(X, y, rounds=10)``, and a ``predict`` written for one row at a time."""

    def __init__(self, n_features, lr=0.1):
        self.theta = np.random.standard_normal(n_features + 1) / np.sqrt(n_features)
        self.lr = lr

    def predict(self, x):
        net = (np.append(np.atleast_2d(x)[0], 1.0) @ self.theta).item()
        return 1 if net > 0 else 0

    def fit(self, X, y, rounds=10):
        for _ in range(rounds):
            for row, target in zip(X, y):
                guess = self.predict(row)
                if guess != target:
                    self.theta -= self.lr * (guess - target) * np.append(row, 1.0)
        return self
