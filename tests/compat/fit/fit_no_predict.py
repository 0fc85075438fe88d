"""Classes with no ``predict``: their labels come from another method (the shape of older
course code and books, ``classify(X)``), found by its behaviour.

``LabelsByClassify``: a correct Perceptron, the bias as a column of ones in front of the
data, ``classify(X)`` answering -1/+1.  ``LabelsByClassifyWrongSign``: the same, its
update subtracting ``y x`` (a real mistake: ``SEP``, ``PREDICT`` and ``STOP`` fail).
``TwoLabelMethods`` answers the probe's labels from two methods (``classify`` and
``label_of``): behaviour cannot tell which predicts, so the check asks (exit 2, naming
both).  ``TrainAndClassify`` has neither ``fit`` nor ``predict``: it trains with
``train(X, y)`` (found the same way; ``TwoTrainers`` has two such methods: a question).
``OneWrongMethod``'s second method answers the opposite labels: the one that
predicts its training labels is taken.
"""

import numpy as np


class _Scored:
    def __init__(self, passes=1000):
        self.passes = passes

    def _with_ones(self, X):
        X = np.asarray(X, dtype=float)
        return np.column_stack([np.ones(len(X)), X])

    def _learn(self, X, labels):
        Z = self._with_ones(X)
        self.theta = np.zeros(Z.shape[1])
        for _ in range(self.passes):
            wrong = 0
            for z, t in zip(Z, labels):
                if t * np.dot(self.theta, z) <= 0:
                    self.theta = self.theta + self._step(t, z)
                    wrong += 1
            if not wrong:
                return self
        return self

    def _step(self, t, z):
        return t * z

    def classify(self, X):
        return np.where(self._with_ones(X) @ self.theta > 0, 1, -1)


class LabelsByClassify(_Scored):
    def fit(self, X, labels):
        return self._learn(X, labels)


class LabelsByClassifyWrongSign(LabelsByClassify):
    def _step(self, t, z):
        return -t * z


class TwoLabelMethods(LabelsByClassify):
    def label_of(self, X):
        return np.sign(self._with_ones(X) @ self.theta)


class OneWrongMethod(LabelsByClassify):
    def flipped(self, X):
        return -self.classify(X)


class TrainAndClassify(_Scored):
    """Neither ``fit`` nor ``predict``: ``train(X, y)`` and ``classify(X)``."""

    def train(self, X, labels):
        return self._learn(X, labels)


class TwoTrainers(TrainAndClassify):
    def learn(self, X, labels):
        return self.train(X, labels)


class FitReturnsWeights:
    """Correct, with no method that answers labels: ``fit`` returns ``(w, b)``, and its
    one other method needs the weights given (read as a training function)."""

    def __init__(self, epochs=1000):
        self.epochs = epochs

    def activation(self, w, b, x):
        return 1 if x @ w + b > 0 else -1

    def fit(self, X, y):
        X = np.asarray(X, dtype=float)
        w, b = np.zeros(X.shape[1]), 0.0
        for _ in range(self.epochs):
            wrong = 0
            for x, t in zip(X, y):
                if t * (x @ w + b) <= 0:
                    w, b, wrong = w + t * x, b + t, wrong + 1
            if not wrong:
                break
        return w, b
