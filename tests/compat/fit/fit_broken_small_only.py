"""Code that works on the small data it was written for and raises on more (written for
the corpus after reading homework code; none is copied): what it returns is read where
it runs, and its error is the finding (``RUNS``), not an unreadable return."""

import numpy as np


def train_five_slots(X, y, passes=100):
    """Broken: one mistake counter per point in a list of five (homework data had five
    points): IndexError from the sixth point on."""
    w, b = np.zeros(X.shape[1]), 0.0
    for _ in range(passes):
        mistakes = [0, 0, 0, 0, 0]
        for i, (x, t) in enumerate(zip(X, y)):
            if t * (x @ w + b) <= 0:
                w, b = w + t * x, b + t
                mistakes[i] += 1
        if not sum(mistakes):
            break
    return w, b


class ReportsUndefined:
    """Broken: its last line prints a name it never defined (NameError after every fit);
    given 0/1 labels its loop never ends (a 0 label never counts as right)."""

    def train(self, X, y):
        X = np.asarray(X, dtype=float)
        self.w, self.b = np.zeros(X.shape[1]), 0.0
        done = False
        while not done:
            done = True
            for x, t in zip(X, y):
                if t * (x @ self.w + self.b) <= 0:
                    self.w, self.b, done = self.w + t * x, self.b + t, False
        print("trained:", weights)  # noqa: F821

    def predict(self, X):
        return np.where(np.asarray(X, dtype=float) @ self.w + self.b > 0, 1, -1)
