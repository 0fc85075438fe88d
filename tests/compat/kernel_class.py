"""A kernel Perceptron class: dual coefficients ``alpha``, the training points and
labels, the kernel (1 + x.z)^2, no weight vector anywhere.  ``pla-proof check --fit
kernel_class.py:variant`` checks it through ``predict`` alone (PREDICT, STOP, EPOCHS; the
end claim on weights is unchecked).  Its broken twin caches kernel rows under the wrong
key (``i % 2``): from the third point on, ``fit`` updates on stale kernel values, stops
believing it is done, and ``predict`` gets a training label wrong."""

import numpy as np


class KernelPerceptron:
    def __init__(self, degree=2, max_iter=1000):
        self.degree = degree
        self.max_iter = max_iter

    def kernel(self, A, B):
        return (1.0 + A @ B.T) ** self.degree

    def row(self, X, i):
        return self.kernel(X, X[i : i + 1])[:, 0]

    def fit(self, X, y):
        self.X_, self.y_ = X, y
        self.alpha = np.zeros(len(X))
        for _ in range(self.max_iter):
            mistakes = 0
            for i in range(len(X)):
                if y[i] * np.sum(self.alpha * y * self.row(X, i)) <= 0:
                    self.alpha[i] += 1
                    mistakes += 1
            if mistakes == 0:
                break
        return self

    def predict(self, X):
        return np.where((self.alpha * self.y_) @ self.kernel(self.X_, X) > 0, 1, -1)


class KernelRowCache(KernelPerceptron):
    def fit(self, X, y):
        self.X_, self.y_ = X, y
        self.alpha = np.zeros(len(X))
        cache = {}
        for _ in range(self.max_iter):
            mistakes = 0
            for i in range(len(X)):
                if i % 2 not in cache:  # the key should be i
                    cache[i % 2] = self.row(X, i)
                if y[i] * np.sum(self.alpha * y * cache[i % 2]) <= 0:
                    self.alpha[i] += 1
                    mistakes += 1
            if mistakes == 0:
                break
        return self


variant = KernelPerceptron
broken = KernelRowCache
