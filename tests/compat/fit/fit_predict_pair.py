"""A ``predict`` written for one point that returns a pair, ``(label, score)``: the
label is its answer.  0/1 labels, the step ``score > 0``, the bias first in ``w``, sized
by the constructor, trained by ``train``."""

import numpy as np


class LabelAndScore:
    def __init__(self, inputs, epochs=1000, rate=1.0):
        self.epochs = epochs
        self.rate = rate
        self.w = np.zeros(inputs + 1)

    def predict(self, x):
        score = np.dot(x, self.w[1:]) + self.w[0]
        return (1 if score > 0 else 0), score

    def train(self, X, y):
        for _ in range(self.epochs):
            changed = False
            for x, t in zip(X, y):
                error = t - self.predict(x)[0]
                if error:
                    self.w[1:] += self.rate * error * x
                    self.w[0] += self.rate * error
                    changed = True
            if not changed:
                break
