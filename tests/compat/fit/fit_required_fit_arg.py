"""A class whose ``fit`` takes its epoch count with no default, ``fit(X, y, n_epochs)``,
as notebooks often write it: the check asks for it by name (``--param n_epochs=...``),
then finds it as the budget.  Written for the corpus."""

import numpy as np


class EpochsRequired:
    def __init__(self, lr=1.0):
        self.lr = lr

    def fit(self, X, y, n_epochs):
        self.coef = np.zeros(X.shape[1])
        self.offset = 0.0
        for _ in range(n_epochs):
            errors = 0
            for x, t in zip(X, y):
                if t * (x @ self.coef + self.offset) <= 0:
                    self.coef = self.coef + self.lr * t * x
                    self.offset += self.lr * t
                    errors += 1
            if errors == 0:
                break
        return self

    def predict(self, X):
        return np.where(X @ self.coef + self.offset > 0, 1, -1)
