"""A class whose update loop is hard-coded to two features (``for j in range(2)``), the
shape of code written for a 2-D plotting demo and then reused: on one feature it raises
``IndexError`` (``RUNS``); on three or more, the weights of the other features never move,
so data that need them are never separated (``PREDICT``, ``STOP``, the end claim).
``train_two_features``: the same mistake in a training function (``RUNS``)."""

import numpy as np


class TwoFeatureLoop:
    def __init__(self, eta=1.0, n_iter=1000):
        self.eta = eta
        self.n_iter = n_iter

    def fit(self, X, y):
        self.w = np.zeros(X.shape[1])
        self.b = 0.0
        for _ in range(self.n_iter):
            errors = 0
            for xi, target in zip(X, y):
                if target * (np.dot(self.w, xi) + self.b) <= 0:
                    for j in range(2):
                        self.w[j] += self.eta * target * xi[j]
                    self.b += self.eta * target
                    errors += 1
            if errors == 0:
                break
        return self

    def predict(self, X):
        return np.where(np.dot(X, self.w) + self.b > 0, 1, -1)


def train_two_features(points, targets, passes=1000):
    """A training function whose weights are made for two features (``np.zeros(2)``):
    on the probe's three features its own dot product raises, which is a finding
    (``RUNS``, exit 1, with its line), not a question to the user."""
    theta = np.zeros(2)
    offset = 0.0
    for _ in range(passes):
        mistakes = 0
        for p, t in zip(points, targets):
            if t * (np.dot(theta, p) + offset) <= 0:
                theta = theta + t * p
                offset += t
                mistakes += 1
        if mistakes == 0:
            break
    return theta, offset
