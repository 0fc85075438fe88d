"""Perceptron classes written the ways people commonly write them, and broken twins.

Each class is a plain ``fit(X, y)``/``predict(X)`` class in one of the common shapes,
written for these docs; ``pla-proof check --fit pla_proof.examples.perceptrons:NAME``
checks it as it is written (docs/variants.md, "Perceptron classes as people write
them", shows what the check finds in each):

====================  ==============================================================
``Textbook``          the bias in ``w_[0]`` (``w_`` has d + 1 numbers), labels -1/+1,
                      ``update = eta (target - predict(x))``, ``predict`` = 1 where the
                      net input is >= 0, a fixed ``n_iter = 10`` epochs
``Scratch``           ``weights`` and ``bias``, labels mapped to 0/1 inside ``fit``, a
                      unit step ``x >= 0`` as activation, ``n_iters = 1000`` epochs
``SignPerceptron``    ``w`` and ``b``, updates while ``y (w.x + b) <= 0``, stops after an
                      epoch without mistakes (at most ``max_iter``), ``predict`` =
                      ``np.sign`` (a score of 0 is neither class)
``ThetaPerceptron``   ``theta`` over ``(1, x)`` (bias first), a learning rate, ``predict``
                      = 1 only where the score is > 0
====================  ==============================================================

and their broken twins (each a one-line change): ``TextbookUpdateSign`` (the update
subtracts), ``TextbookBiasUpdate`` (the bias is never updated), ``ScratchLabelCoding``
(``fit`` forgets to map -1/+1 to the 0/1 its step function answers).  The budget twin is
``Textbook`` itself: its 10 epochs stop before separating data that need more.

>>> import numpy as np
>>> X, y = np.array([[2.0, 1.0], [-1.0, -2.0]]), np.array([1, -1])
>>> Textbook().fit(X, y).predict(X).tolist(), Scratch().fit(X, y).predict(X).tolist()
([1, -1], [1, 0])
"""

import numpy as np

__all__ = [
    "Scratch",
    "ScratchLabelCoding",
    "SignPerceptron",
    "Textbook",
    "TextbookBiasUpdate",
    "TextbookUpdateSign",
    "ThetaPerceptron",
]


class Textbook:
    """Perceptron with the bias in ``w_[0]``; ``n_iter`` passes over the data."""

    def __init__(self, eta=0.01, n_iter=10):
        self.eta = eta
        self.n_iter = n_iter

    def fit(self, X, y):
        self.w_ = np.zeros(1 + X.shape[1])
        self.errors_ = []
        for _ in range(self.n_iter):
            errors = 0
            for xi, target in zip(X, y):
                update = self.eta * (target - self.predict(xi))
                self.w_[1:] += update * xi
                self.w_[0] += update
                errors += int(update != 0.0)
            self.errors_.append(errors)
        return self

    def net_input(self, X):
        return np.dot(X, self.w_[1:]) + self.w_[0]

    def predict(self, X):
        return np.where(self.net_input(X) >= 0.0, 1, -1)


class Scratch:
    """Perceptron "from scratch": ``weights``/``bias``, 0/1 labels, a unit step."""

    def __init__(self, learning_rate=0.01, n_iters=1000):
        self.lr = learning_rate
        self.n_iters = n_iters
        self.weights = None
        self.bias = None

    @staticmethod
    def activation(x):
        return np.where(x >= 0, 1, 0)

    def fit(self, X, y):
        n_features = X.shape[1]
        self.weights = np.zeros(n_features)
        self.bias = 0.0
        y_ = np.where(y > 0, 1, 0)
        for _ in range(self.n_iters):
            for idx, x_i in enumerate(X):
                y_predicted = self.activation(np.dot(x_i, self.weights) + self.bias)
                update = self.lr * (y_[idx] - y_predicted)
                self.weights += update * x_i
                self.bias += update
        return self

    def predict(self, X):
        return self.activation(np.dot(X, self.weights) + self.bias)


class SignPerceptron:
    """Perceptron with ``w``/``b`` and ``np.sign``: updates while ``y (w.x + b) <= 0``."""

    def __init__(self, max_iter=1000):
        self.max_iter = max_iter

    def fit(self, X, y):
        self.w = np.zeros(X.shape[1])
        self.b = 0.0
        for _ in range(self.max_iter):
            mistakes = 0
            for x_i, y_i in zip(X, y):
                if y_i * (self.w @ x_i + self.b) <= 0:
                    self.w += y_i * x_i
                    self.b += y_i
                    mistakes += 1
            if mistakes == 0:
                break
        return self

    def predict(self, X):
        return np.sign(X @ self.w + self.b)


class ThetaPerceptron:
    """Perceptron over ``(1, x)``: ``theta[0]`` is the bias; predicts 1 only for a score
    above 0."""

    def __init__(self, lr=0.5, epochs=500):
        self.lr = lr
        self.epochs = epochs

    @staticmethod
    def _ones(X):
        return np.c_[np.ones(len(X)), X]

    def fit(self, X, y):
        Xb = self._ones(X)
        self.theta = np.zeros(Xb.shape[1])
        for _ in range(self.epochs):
            changed = False
            for i in range(len(Xb)):
                if y[i] * (Xb[i] @ self.theta) <= 0:
                    self.theta += self.lr * y[i] * Xb[i]
                    changed = True
            if not changed:
                break
        return self

    def predict(self, X):
        return np.where(self._ones(X) @ self.theta > 0, 1, -1)


class TextbookUpdateSign(Textbook):
    """Broken twin: the update moves away from the target."""

    def fit(self, X, y):
        self.w_ = np.zeros(1 + X.shape[1])
        for _ in range(self.n_iter):
            for xi, target in zip(X, y):
                update = self.eta * (self.predict(xi) - target)
                self.w_[1:] += update * xi
                self.w_[0] += update
        return self


class TextbookBiasUpdate(Textbook):
    """Broken twin: the bias ``w_[0]`` is never updated."""

    def fit(self, X, y):
        self.w_ = np.zeros(1 + X.shape[1])
        for _ in range(self.n_iter):
            for xi, target in zip(X, y):
                update = self.eta * (target - self.predict(xi))
                self.w_[1:] += update * xi
        return self


class ScratchLabelCoding(Scratch):
    """Broken twin: ``fit`` uses the -1/+1 labels as they come, against a step function
    that answers 0/1."""

    def fit(self, X, y):
        self.weights = np.zeros(X.shape[1])
        self.bias = 0.0
        for _ in range(self.n_iters):
            for idx, x_i in enumerate(X):
                y_predicted = self.activation(np.dot(x_i, self.weights) + self.bias)
                update = self.lr * (y[idx] - y_predicted)
                self.weights += update * x_i
                self.bias += update
        return self
