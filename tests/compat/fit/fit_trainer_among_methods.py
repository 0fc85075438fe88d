"""A class sized by the data's dimension whose methods that take the points and their
labels are three: ``step(x, t)`` (one update), ``learn(X, T, rounds=10)`` (passes of
steps) and ``accuracy(X, T)`` (changes nothing).  No ``fit``, no ``predict``: the
trainer is the one that changes the object and that no other calls (``learn``), the
predictor ``output(x)`` for one point.  Plain lists, 0/1 labels, a random start."""

import random


class StepLearner:
    def __init__(self, width, rate=1.0):
        self.width = width
        self.w = [random.uniform(-0.5, 0.5) for _ in range(width)]
        self.b = random.uniform(-0.5, 0.5)
        self.rate = rate

    def output(self, x):
        s = self.b
        for i in range(self.width):
            s += self.w[i] * x[i]
        return 1 if s > 0.0 else 0

    def step(self, x, t):
        e = t - self.output(x)
        self.b += self.rate * e
        for i in range(self.width):
            self.w[i] += self.rate * e * x[i]
        return e

    def learn(self, X, T, rounds=10):
        for _ in range(rounds):
            if sum(abs(self.step(x, t)) for x, t in zip(X, T)) == 0:
                break

    def accuracy(self, X, T):
        return sum(self.output(x) == t for x, t in zip(X, T)) / len(T)


class StepLearnerEnough(StepLearner):
    def learn(self, X, T, rounds=100_000):
        super().learn(X, T, rounds)
