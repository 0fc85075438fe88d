"""Perceptron classes that shuffle the training set each epoch with the global NumPy
generator and no seed, the shape of the "shuffle to prevent cycles" option of library-
style classes.  ``ShufflingPerceptron`` shuffles one index array (correct);
``MisalignedShuffle`` shuffles copies of ``X`` and ``y`` separately, so the labels it
trains on belong to other points and ``predict`` gets training labels wrong."""

import numpy as np


class ShufflingPerceptron:
    def __init__(self, eta=1.0, epochs=1000):
        self.eta = eta
        self.epochs = epochs

    def fit(self, X, y):
        self.w_, self.b_ = np.zeros(X.shape[1]), 0.0
        idx = np.arange(len(y))
        for _ in range(self.epochs):
            np.random.shuffle(idx)
            errors = 0
            for i in idx:
                if y[i] * (X[i] @ self.w_ + self.b_) <= 0:
                    self.w_ += self.eta * y[i] * X[i]
                    self.b_ += self.eta * y[i]
                    errors += 1
            if errors == 0:
                break
        return self

    def predict(self, X):
        return np.where(X @ self.w_ + self.b_ > 0, 1, -1)


class MisalignedShuffle(ShufflingPerceptron):
    def __init__(self, eta=1.0, epochs=100):
        super().__init__(eta, epochs)

    def fit(self, X, y):
        self.w_, self.b_ = np.zeros(X.shape[1]), 0.0
        X_, y_ = X.copy(), np.array(y)
        for _ in range(self.epochs):
            np.random.shuffle(X_)
            np.random.shuffle(y_)  # a second, independent permutation
            errors = 0
            for xi, yi in zip(X_, y_):
                if yi * (xi @ self.w_ + self.b_) <= 0:
                    self.w_ += self.eta * yi * xi
                    self.b_ += self.eta * yi
                    errors += 1
            if errors == 0:
                break
        return self
