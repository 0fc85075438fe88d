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


class DataAndStep:
    """Correct: made with its data, trained by ``fit(step)`` whose step has no default
    (``--param step=1`` gives it; without it the check asks), the bias kept apart, a
    ``predict`` of one point at a time."""

    def __init__(self, points, labels):
        self.points = np.asarray(points, dtype=float)
        self.labels = np.asarray(labels)

    def fit(self, step):
        w, b = np.zeros(self.points.shape[1]), 0.0
        changed = True
        while changed:
            changed = False
            for x, t in zip(self.points, self.labels):
                if t * (w @ x + b) <= 0:
                    w, b = w + step * t * x, b + step * t
                    changed = True
        self.w, self.b = w, b

    def predict(self, x):
        return 1 if np.asarray(x, dtype=float) @ self.w + self.b > 0 else -1


class DataAndSizes:
    """Correct, through the origin: made with its data and their sizes (``count`` points
    of ``width`` coordinates, checked), labels 0/1 taken as ``(-1, 1)[t]``, pure Python
    lists, ``train()`` repeating ``sweep()`` until it finds no mistake."""

    def __init__(self, rows, classes, count, width):
        assert count == len(rows) and width == len(rows[0])
        self.rows, self.classes = [list(map(float, r)) for r in rows], list(classes)
        self.w = [0.0] * width

    def sweep(self):
        mistakes = 0
        for r, c in zip(self.rows, self.classes):
            t = (-1, 1)[c]
            if t * sum(a * b for a, b in zip(self.w, r)) <= 0:
                self.w = [a + t * b for a, b in zip(self.w, r)]
                mistakes += 1
        return mistakes

    def train(self):
        while self.sweep():
            pass

    def predict(self, row):
        return int(sum(a * float(b) for a, b in zip(self.w, row)) > 0)


class ReturnsItsWeights:
    """Correct, with no method that predicts: made with its data, ``train()`` returns the
    weights and the bias it learned (the caller draws the line)."""

    def __init__(self, X, y):
        self.X, self.y = np.asarray(X, dtype=float), np.asarray(y)

    def output(self, w, b, x):
        return 1 if x @ w + b > 0 else -1

    def train(self):
        w, b = np.zeros(self.X.shape[1]), 0.0
        while True:
            wrong = 0
            for x, t in zip(self.X, self.y):
                if t * (x @ w + b) <= 0:
                    w, b, wrong = w + t * x, b + t, wrong + 1
            if not wrong:
                return w, b


class ReturnsItsWeightsBiasAway(ReturnsItsWeights):
    """Broken twin: its bias moves away from the point it corrects, and it gives up
    after 500 passes."""

    def train(self):
        w, b = np.zeros(self.X.shape[1]), 0.0
        for _ in range(500):
            wrong = 0
            for x, t in zip(self.X, self.y):
                if t * (x @ w + b) <= 0:
                    w, b, wrong = w + t * x, b - t, wrong + 1
            if not wrong:
                break
        return w, b
