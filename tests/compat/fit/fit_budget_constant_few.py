"""The module-level-constant shape of ``fit_budget_constant.py`` with ``EPOCHS = 2``: a
correct update, too few passes for most data (an epoch budget, not a wrong update)."""

import numpy as np

EPOCHS = 2
LEARNING_RATE = 1.0


class ConstantEpochsFew:
    def fit(self, X, y):
        self.weights = np.zeros(X.shape[1])
        self.bias = 0.0
        for _ in range(EPOCHS):
            errors = 0
            for x, target in zip(X, y):
                if target * (np.dot(self.weights, x) + self.bias) <= 0:
                    self.weights += LEARNING_RATE * target * x
                    self.bias += LEARNING_RATE * target
                    errors += 1
            if errors == 0:
                break
        return self

    def predict(self, X):
        return np.where(np.dot(X, self.weights) + self.bias > 0, 1, -1)
