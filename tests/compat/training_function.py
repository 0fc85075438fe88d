"""A Perceptron as a training function, the shape of the textbooks' primal form
(Li Hang, "Statistical Learning Methods", chapter 2): ``perceptron(X, y, eta=1,
max_iter=1000) -> (w, b)``.  ``pla-proof check --fit training_function.py:variant``
reads it as a training function returning ``(w, b)``; its broken twin forgets to move
the bias."""

import numpy as np


def perceptron(X, y, eta=1.0, max_iter=1000):
    w = np.zeros(X.shape[1])
    b = 0.0
    for _ in range(max_iter):
        mistakes = 0
        for xi, yi in zip(X, y):
            if yi * (np.dot(w, xi) + b) <= 0:
                w = w + eta * yi * xi
                b = b + eta * yi
                mistakes += 1
        if mistakes == 0:
            break
    return w, b


def perceptron_frozen_bias(X, y, eta=1.0, max_iter=1000):
    w = np.zeros(X.shape[1])
    b = 0.0
    for _ in range(max_iter):
        mistakes = 0
        for xi, yi in zip(X, y):
            if yi * (np.dot(w, xi) + b) <= 0:
                w = w + eta * yi * xi  # the bias is never updated
                mistakes += 1
        if mistakes == 0:
            break
    return w, b


variant = perceptron
broken = perceptron_frozen_bias
