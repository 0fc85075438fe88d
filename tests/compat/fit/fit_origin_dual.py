"""A homogeneous dual Perceptron class: mistake counts ``alpha`` over its training points,
the linear kernel and no bias, in the shape of a lecture's kernel-perceptron notebook run
with ``kernel=np.dot``."""

import numpy as np


def linear(a, b):
    return np.dot(a, b)


class LinearKernelPerceptron:
    def __init__(self, kernel=linear, max_iter=1000):
        self.kernel = kernel
        self.max_iter = max_iter

    def fit(self, X, y):
        n = len(X)
        self.X_, self.y_ = np.asarray(X, dtype=float), np.asarray(y)
        K = np.array([[self.kernel(self.X_[i], self.X_[j]) for j in range(n)] for i in range(n)])
        self.alpha = np.zeros(n)
        for _ in range(self.max_iter):
            mistakes = 0
            for i in range(n):
                if self.y_[i] * np.sum(self.alpha * self.y_ * K[:, i]) <= 0:
                    self.alpha[i] += 1
                    mistakes += 1
            if mistakes == 0:
                break
        return self

    def predict(self, X):
        X = np.asarray(X, dtype=float)
        scores = [np.sum(self.alpha * self.y_ * (self.X_ @ x)) for x in X]
        return np.where(np.array(scores) > 0, 1, -1)
