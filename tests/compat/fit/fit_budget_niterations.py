"""A class with camelCase parameters, its epoch budget named ``nIterations``, in the shape
of code ported from Java or MATLAB coursework: ``W`` with the bias as its last entry, the
inputs augmented with a column of ones.  ``FewIterations`` is the same class with
``nIterations = 2``."""

import numpy as np


class PerceptronNI:
    def __init__(self, learningRate=1.0, nIterations=1000):
        self.learningRate = learningRate
        self.nIterations = nIterations

    def augment(self, X):
        return np.hstack([np.asarray(X, dtype=float), np.ones((len(X), 1))])

    def fit(self, X, y):
        Xa = self.augment(X)
        self.W = np.zeros(Xa.shape[1])
        for _ in range(self.nIterations):
            nErrors = 0
            for xi, yi in zip(Xa, y):
                if yi * np.dot(self.W, xi) <= 0:
                    self.W += self.learningRate * yi * xi
                    nErrors += 1
            if nErrors == 0:
                break
        return self

    def predict(self, X):
        return np.where(self.augment(X) @ self.W > 0, 1, -1)


class FewIterations(PerceptronNI):
    def __init__(self, learningRate=1.0, nIterations=2):
        super().__init__(learningRate, nIterations)
