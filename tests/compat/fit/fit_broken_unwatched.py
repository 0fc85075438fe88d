"""Broken training functions and a compiled class: their weights are local variables
(or live in compiled code) while they train, so the diagnosis sees them one budget at a
time (the returned weights after 0, 1, 2, ... passes).  Written for the diagnosis
table in the shapes course code gives them: ``(theta, theta_0)`` returned, a pass budget
``T``; each has one mistake the table names."""

import numpy as np

try:
    from numba import njit
except ImportError:  # pragma: no cover - the test skips the compiled row then
    njit = None


def perceptron_subtracts(feature_matrix, labels, T=50):
    """The update subtracts ``y x`` (and ``y`` from the offset)."""
    theta = np.zeros(feature_matrix.shape[1])
    theta_0 = 0.0
    for _ in range(T):
        for i in range(feature_matrix.shape[0]):
            if labels[i] * (np.dot(theta, feature_matrix[i]) + theta_0) <= 0:
                theta = theta - labels[i] * feature_matrix[i]
                theta_0 = theta_0 - labels[i]
    return theta, theta_0


def perceptron_adds_x(feature_matrix, labels, T=50):
    """The update adds ``x`` (and 1): the label is tested but not applied."""
    theta = np.zeros(feature_matrix.shape[1])
    theta_0 = 0.0
    for _ in range(T):
        for i in range(feature_matrix.shape[0]):
            if labels[i] * (np.dot(theta, feature_matrix[i]) + theta_0) <= 0:
                theta = theta + feature_matrix[i]
                theta_0 = theta_0 + 1
    return theta, theta_0


def perceptron_positive_only(feature_matrix, labels, T=50):
    """Only the points of label +1 are ever updated (``labels[i] > 0`` tested first)."""
    theta = np.zeros(feature_matrix.shape[1])
    theta_0 = 0.0
    for _ in range(T):
        for i in range(feature_matrix.shape[0]):
            score = np.dot(theta, feature_matrix[i]) + theta_0
            if labels[i] > 0 and labels[i] * score <= 0:
                theta = theta + labels[i] * feature_matrix[i]
                theta_0 = theta_0 + labels[i]
    return theta, theta_0


if njit is not None:

    @njit
    def _train_frozen(X, y, n_passes):
        n, d = X.shape
        w = np.zeros(d)
        b = 0.0
        for _ in range(n_passes):
            for i in range(n):
                if y[i] * (np.dot(w, X[i]) + b) <= 0:
                    w += y[i] * X[i]
        return w, b

    class NumbaFrozenBias:
        """A class whose compiled loop never moves its bias."""

        def __init__(self, n_passes=50):
            self.n_passes = n_passes

        def fit(self, X, y):
            self.w_, self.b_ = _train_frozen(
                np.ascontiguousarray(X, dtype=np.float64), np.asarray(y, np.float64), self.n_passes
            )
            return self

        def predict(self, X):
            return np.where(np.asarray(X) @ self.w_ + self.b_ > 0, 1, -1)
