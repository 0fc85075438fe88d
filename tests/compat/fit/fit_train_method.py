"""Classes trained by a method that is not ``fit``, in the shapes course code gives them
(written for the corpus after reading public code; none is copied): the weights sized
by the constructor and trained by ``train(X, y)``; ``train(samples, labels, rate,
rounds)`` with no defaults, predicting one 1-D sample at a time, coordinate by
coordinate (correct, and a broken twin); and a ``fit`` that always raises, predicting
only through ``_predict``."""

import numpy as np


class SizedTrainer:
    """Correct: ``zeros(n_inputs + 1)`` (the bias first), ``train(X, y)`` with a pass
    budget, a one-row ``predict`` answering 0/1."""

    def __init__(self, n_inputs, epochs=500):
        self.epochs = epochs
        self.weights = np.zeros(n_inputs + 1)

    def predict(self, x):
        return 1 if float(np.dot(np.ravel(x), self.weights[1:]) + self.weights[0]) >= 0 else 0

    def train(self, X, y):
        for _ in range(self.epochs):
            wrong = 0
            for x, t in zip(X, y):
                e = t - self.predict(x)
                if e:
                    self.weights[1:] += e * x
                    self.weights[0] += e
                    wrong += 1
            if not wrong:
                break


class CourseTrainer:
    """Correct: ``train(samples, labels, rate, rounds)``, every parameter required; the
    weights made at the first call (the bias last), plain lists; ``output(sample)`` for
    one sample, read coordinate by coordinate."""

    def __init__(self):
        self.w = None

    def net(self, sample):
        total = self.w[-1]
        for i in range(len(self.w) - 1):
            total += self.w[i] * sample[i]
        return total

    def output(self, sample):
        return 1 if self.net(sample) > 0 else 0

    def train(self, samples, labels, rate, rounds):
        self.w = [0.0] * (len(samples[0]) + 1)
        for _ in range(rounds):
            errors = 0
            for sample, label in zip(samples, labels):
                e = label - self.output(sample)
                if e:
                    errors += 1
                    for i in range(len(self.w) - 1):
                        self.w[i] += rate * e * sample[i]
                    self.w[-1] += rate * e
            if errors == 0:
                break


class CourseTrainerLastOnly(CourseTrainer):
    """Broken twin: a pass ends training when the *last* sample of the pass had no
    error, whatever the others had."""

    def train(self, samples, labels, rate, rounds):
        self.w = [0.0] * (len(samples[0]) + 1)
        for _ in range(rounds):
            e = 0
            for sample, label in zip(samples, labels):
                e = label - self.output(sample)
                for i in range(len(self.w) - 1):
                    self.w[i] += rate * e * sample[i]
                self.w[-1] += rate * e
            if e == 0:
                break


class HelperTypo:
    """Broken: ``fit`` calls a helper under a name the class does not have (it raises on
    every input); its only predictor is ``_predict``."""

    def __init__(self, lr=0.1, n_iters=100):
        self.lr, self.n_iters = lr, n_iters
        self.step = self._step
        self.w, self.b = None, 0.0

    def fit(self, X, y):
        self.w, self.b = np.zeros(X.shape[1]), 0.0
        for _ in range(self.n_iters):
            for x, t in zip(X, y):
                guess = self.stepper(x @ self.w + self.b)
                self.w += self.lr * (t - guess) * x
                self.b += self.lr * (t - guess)
        return self

    def _predict(self, X):
        return self._step(X @ self.w + self.b)

    def _step(self, z):
        return np.where(z >= 0, 1, 0)


#: the correct class again, checked with ``rounds=2``: a budget too small, EPOCHS alone
CourseTrainerFewRounds = CourseTrainer
