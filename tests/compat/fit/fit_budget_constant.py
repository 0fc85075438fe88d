"""A class whose epoch budget is a module-level constant, ``EPOCHS = 1000``, read by
``fit`` (the shape of a script turned into a module: hyper-parameters in capitals at the
top); ``weights``/``bias``, stops after a clean pass."""

import numpy as np

EPOCHS = 1000
LEARNING_RATE = 1.0


class ConstantEpochs:
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
