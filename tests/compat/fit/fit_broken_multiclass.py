"""A multi-class style Perceptron (one weight row per class over ``(x, 1)``, ``argmax``)
whose ``classify(x, label)`` also trains when given a label, and whose ``fit`` calls it a
second time after a mistake "to record the prediction after the update" -- with the old
guess as the label, which undoes the update that fixed the point.  From zero weights it
never learns, counts no mistake, and stops after one pass: ``predict`` answers the first
class everywhere."""

import numpy as np


class UndoneMulticlass:
    def __init__(self, max_iter=100):
        self.max_iter = max_iter

    def classify(self, x, label=None):
        guess = int(np.argmax(self.W @ x))
        if label is not None and guess != label:
            self.W[label] += x
            self.W[guess] -= x
        return guess

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        Xa = np.hstack([X, np.ones((len(X), 1))])
        targets = np.searchsorted(self.classes_, y)
        self.W = np.zeros((len(self.classes_), Xa.shape[1]))
        for _ in range(self.max_iter):
            mistakes = 0
            for xi, t in zip(Xa, targets):
                guess = self.classify(xi, t)
                if guess != t:
                    guess = self.classify(xi, guess)  # the prediction after the update
                mistakes += int(guess != t)
            if mistakes == 0:
                break
        return self

    def predict(self, X):
        Xa = np.hstack([X, np.ones((len(X), 1))])
        return self.classes_[np.argmax(Xa @ self.W.T, axis=1)]
