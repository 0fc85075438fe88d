"""A class sized by its constructor with no ``fit`` and no ``predict``: ``train(X, y)``
trains, and ``forward(x, target=None)`` takes **one point** and returns a pair -- its
label and the change an update would make (zeros without a target).  Its labels are
read from the pair's first item, point by point.  ``ForwardPair`` is correct (score 0
is -1, so a negative point may end at 0: ``SEP0N``); ``ForwardPairWrongSign`` subtracts
the change (``SEP`` fails).
"""

import numpy as np


class ForwardPair:
    def __init__(self, inputs, rate=1.0, epochs=1000):
        self.W = np.zeros(inputs + 1)
        self.rate, self.epochs = rate, epochs

    def forward(self, x, target=None):
        x1 = np.append(x, 1.0)
        label = 1 if self.W @ x1 > 0 else -1
        if target is None:
            return label, np.zeros_like(self.W)
        return label, self.rate * (target - label) * x1

    def step(self, change):
        self.W = self.W + change

    def train(self, X, y):
        for _ in range(self.epochs):
            moved = False
            for x, t in zip(X, y):
                _, change = self.forward(x, t)
                if change.any():
                    self.step(change)
                    moved = True
            if not moved:
                break
        return self


class ForwardPairWrongSign(ForwardPair):
    def step(self, change):
        self.W = self.W - change
