"""Classes that keep a **threshold** instead of a bias: ``predict`` answers 1 where
``w . x > theta`` (the score is ``w . x - theta``), and a mistake on a positive point
lowers the threshold.  Read as the bias ``-theta`` by its behaviour (``+theta`` does not
give its answers).  ``ThresholdPerceptron`` (-1/+1, zero start) is correct;
``ThresholdFromOnes`` (0/1, weights start at ones, rate 0.1, a fit keyword ``epochs``)
is correct and slow on small coordinates from its start; ``ThresholdWrongSign`` moves
the threshold the wrong way (``SEP`` fails).
"""

import numpy as np


class ThresholdPerceptron:
    def __init__(self, epochs=1000):
        self.epochs = epochs

    def fit(self, X, y):
        self.w, self.theta = np.zeros(X.shape[1]), 0.0
        for _ in range(self.epochs):
            errors = 0
            for xi, yi in zip(X, y):
                if yi * (self.w @ xi - self.theta) <= 0:
                    self.w = self.w + yi * xi
                    self.theta = self.theta - yi
                    errors += 1
            if errors == 0:
                break
        return self

    def predict(self, X):
        return np.where(X @ self.w > self.theta, 1, -1)


class ThresholdFromOnes:
    def fit(self, X, y, epochs=10, rate=0.1):
        self.w, self.limit = np.ones(X.shape[1]), 0.0
        for _ in range(epochs):
            for xi, yi in zip(X, y):
                said = 1 if self.w @ xi >= self.limit else 0
                if said != yi:
                    self.w = self.w + rate * (yi - said) * xi
                    self.limit = self.limit - rate * (yi - said)
        return self

    def predict(self, X):
        return np.array([1 if self.w @ x >= self.limit else 0 for x in X])


class ThresholdWrongSign(ThresholdPerceptron):
    def fit(self, X, y):
        self.w, self.theta = np.zeros(X.shape[1]), 0.0
        for _ in range(self.epochs):
            errors = 0
            for xi, yi in zip(X, y):
                if yi * (self.w @ xi - self.theta) <= 0:
                    self.w = self.w + yi * xi
                    self.theta = self.theta + yi
                    errors += 1
            if errors == 0:
                break
        return self
