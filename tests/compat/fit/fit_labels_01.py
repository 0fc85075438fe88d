"""Two 0/1 Perceptron classes that do not refuse -1/+1 labels: ``predict`` answers 0/1
through a unit step and the update is ``rate * (target - prediction)``.  ``StepPerceptron``
is the shape of the from-scratch video tutorials (``weights``/``bias``, ``n_iters`` passes,
no early stop); ``ZeroOneTextbook`` the shape of the textbook chapter (``w_`` with the bias
first, stops after a pass without errors)."""

import numpy as np


def unit_step(z):
    return np.where(z >= 0, 1, 0)


class StepPerceptron:
    def __init__(self, lr=0.01, n_iters=1000):
        self.lr = lr
        self.n_iters = n_iters

    def fit(self, X, y):
        self.weights = np.zeros(X.shape[1])
        self.bias = 0.0
        for _ in range(self.n_iters):
            for idx, x_i in enumerate(X):
                y_pred = unit_step(np.dot(x_i, self.weights) + self.bias)
                update = self.lr * (y[idx] - y_pred)
                self.weights += update * x_i
                self.bias += update
        return self

    def predict(self, X):
        return unit_step(np.dot(X, self.weights) + self.bias)


class ZeroOneTextbook:
    def __init__(self, eta=0.1, n_iter=1000):
        self.eta = eta
        self.n_iter = n_iter

    def fit(self, X, y):
        self.w_ = np.zeros(1 + X.shape[1])
        for _ in range(self.n_iter):
            errors = 0
            for xi, target in zip(X, y):
                update = self.eta * (target - self.predict(xi))
                self.w_[1:] += update * xi
                self.w_[0] += update
                errors += int(update != 0.0)
            if errors == 0:
                break
        return self

    def predict(self, X):
        return np.where(np.dot(X, self.w_[1:]) + self.w_[0] >= 0.0, 1, 0)
