"""Classes with ``fit`` and nothing else: no ``predict``, and ``fit`` returns nothing --
what it learned stays on the object (``self.w``, ``self.b``, beside a history of its
mistakes per pass).  Read as a training function returning the attributes the fit made
or changed that hold ``d``, ``d + 1`` or one number; its points are classified by those
weights.  ``KeepsWeights`` is correct; ``KeepsWeightsBiasSlip`` adds the rate to the
bias at every visit, mistake or not (``SEP`` fails).
"""

import numpy as np


class KeepsWeights:
    def __init__(self, rate=1.0, epochs=1000):
        self.rate, self.epochs = rate, epochs

    def fit(self, X, y):
        self.w, self.b, self.mistakes = np.zeros(X.shape[1]), 0.0, []
        for _ in range(self.epochs):
            wrong = 0
            for x, t in zip(X, y):
                if t * (self.w @ x + self.b) <= 0:
                    self.w = self.w + self.rate * t * x
                    self.b = self.b + self.rate * t
                    wrong += 1
            self.mistakes.append(wrong)
            if not wrong:
                break


class KeepsWeightsBiasSlip(KeepsWeights):
    def fit(self, X, y):
        self.w, self.b, self.mistakes = np.zeros(X.shape[1]), 0.0, []
        for _ in range(self.epochs):
            wrong = 0
            for x, t in zip(X, y):
                if t * (self.w @ x + self.b) <= 0:
                    self.w = self.w + self.rate * t * x
                    wrong += 1
                self.b = self.b + self.rate * t
            self.mistakes.append(wrong)
            if not wrong:
                break
