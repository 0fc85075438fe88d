"""Classes whose learning rate has a name the reading does not know (``alpha``, ``step``):
trainable row by row with ``partial_fit``, so their runs are traced and the claim is
scaled by their step -- measured, not read from the name.  Written for the corpus."""

import numpy as np


class AlphaPerceptron:
    def __init__(self, alpha=0.5, n_epochs=5000):
        self.alpha = alpha
        self.n_epochs = n_epochs

    def partial_fit(self, X, y, classes=None):
        X = np.asarray(X, dtype=float)
        if not hasattr(self, "coef_"):
            self.coef_ = np.zeros(X.shape[1])
            self.intercept_ = 0.0
        for xi, yi in zip(X, y):
            if yi * (xi @ self.coef_ + self.intercept_) <= 0:
                self.coef_ = self.coef_ + self.alpha * yi * xi
                self.intercept_ += self.alpha * yi
        return self

    def fit(self, X, y):
        X = np.asarray(X, dtype=float)
        self.coef_ = np.zeros(X.shape[1])
        self.intercept_ = 0.0
        for _ in range(self.n_epochs):
            before = self.coef_.copy(), self.intercept_
            self.partial_fit(X, y)
            if np.array_equal(before[0], self.coef_) and before[1] == self.intercept_:
                break
        return self

    def predict(self, X):
        return np.where(np.asarray(X, dtype=float) @ self.coef_ + self.intercept_ > 0, 1, -1)


class StepThroughOrigin:
    """No bias; the rate called ``step``, a quarter."""

    def __init__(self, step=0.25, max_passes=5000):
        self.step = step
        self.max_passes = max_passes

    def partial_fit(self, X, y, classes=None):
        X = np.asarray(X, dtype=float)
        if not hasattr(self, "w"):
            self.w = np.zeros(X.shape[1])
        for xi, yi in zip(X, y):
            if yi * (xi @ self.w) <= 0:
                self.w = self.w + self.step * yi * xi
        return self

    def fit(self, X, y):
        self.w = np.zeros(np.asarray(X).shape[1])
        for _ in range(self.max_passes):
            before = self.w.copy()
            self.partial_fit(X, y)
            if np.array_equal(before, self.w):
                break
        return self

    def predict(self, X):
        return np.where(np.asarray(X, dtype=float) @ self.w > 0, 1, -1)
