"""``predict`` maps the sign of the score to a 0/1 label as ``(sign + 1) / 2``: a score of
exactly 0 answers 0.5, neither class.  ``TieAsPositive`` trains as if a score of 0 were
+1 (no update there), so it can stop with a point on its separator, which its own
``predict`` answers 0.5 (``PREDICT``, and the end claim, fail).  ``TieAsMistake``
updates at a score of 0, as the algorithm does: it passes."""

import numpy as np


class TieAsPositive:
    def __init__(self, passes=1000):
        self.passes = passes

    def _mistake(self, s, t):
        return (1 if s >= 0 else -1) != t

    def fit(self, X, y):
        X = np.hstack((X, np.ones((len(X), 1))))
        t = 2 * np.asarray(y) - 1
        self.w = np.zeros(X.shape[1])
        for _ in range(self.passes):
            clean = True
            for x, ti in zip(X, t):
                if self._mistake(x @ self.w, ti):
                    self.w += ti * x
                    clean = False
            if clean:
                break
        return self

    def predict(self, X):
        X = np.hstack((X, np.ones((len(X), 1))))
        return (np.sign(X @ self.w) + 1) / 2


class TieAsMistake(TieAsPositive):
    def _mistake(self, s, t):
        return t * s <= 0
