"""A voted Perceptron class in the shape of the paper's algorithm as students write it:
a list of prediction vectors over ``(x, 1)`` with their survival counts, ``epochs`` passes,
``predict`` the sign of the count-weighted vote of each vector's sign.  Checked with
``--output voted``."""

import numpy as np


class VotedPerceptron:
    def __init__(self, epochs=1000):
        self.epochs = epochs

    def fit(self, X, y):
        Xa = np.hstack([X, np.ones((len(X), 1))])
        self.V, self.C = [np.zeros(Xa.shape[1])], [0]
        for _ in range(self.epochs):
            for xi, yi in zip(Xa, y):
                if yi * (self.V[-1] @ xi) <= 0:
                    self.V.append(self.V[-1] + yi * xi)
                    self.C.append(1)
                else:
                    self.C[-1] += 1
        return self

    def predict(self, X):
        Xa = np.hstack([X, np.ones((len(X), 1))])
        votes = np.sign(Xa @ np.array(self.V).T) @ np.array(self.C)
        return np.where(votes > 0, 1, -1)


class VotedUnweighted(VotedPerceptron):
    """Broken: the vote forgets the survival counts (each vector votes once), so the
    last vector, which separates, never outweighs the early ones: however many passes,
    ``PREDICT`` fails."""

    def predict(self, X):
        Xa = np.hstack([X, np.ones((len(X), 1))])
        votes = np.sign(Xa @ np.array(self.V).T).sum(axis=1)
        return np.where(votes > 0, 1, -1)
