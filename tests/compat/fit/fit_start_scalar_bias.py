"""Training functions whose start is required: weights **and a bias of its own**, a
number -- ``train_from(X, Y, w, b)`` -- and one taking its data in one argument, a list
of ``(x, y)`` pairs, with the same start: ``perceptron_pairs(data, w, b)``.  The check
finds each start by its behaviour (zeros of the data's dimension for ``w``, the number
0.0 for ``b``) and the layout of the data by its behaviour too.  The twins put the bias
outside the label's product (``y * (w . x) + b``), a mistake: ``SEP`` fails.
"""

import numpy as np


def train_from(X, Y, w, b, epochs=1000):
    for _ in range(epochs):
        moved = False
        for x, t in zip(X, Y):
            if t * (np.dot(w, x) + b) <= 0:
                w = w + t * x
                b = b + t
                moved = True
        if not moved:
            break
    return w, b


def train_from_bias_outside(X, Y, w, b, epochs=1000):
    for _ in range(epochs):
        moved = False
        for x, t in zip(X, Y):
            if t * np.dot(w, x) + b <= 0:
                w = w + t * x
                b = b + t
                moved = True
        if not moved:
            break
    return w, b


def perceptron_pairs(data, w, b, rate=0.5, epochs=1000):
    for _ in range(epochs):
        errors = 0
        for x, t in data:
            if t * (np.dot(x, w) + b) <= 0:
                w = w + rate * t * x
                b = b + rate * t
                errors += 1
        if errors == 0:
            break
    return w, b


def perceptron_pairs_bias_outside(data, w, b, rate=0.5, epochs=1000):
    for _ in range(epochs):
        errors = 0
        for x, t in data:
            if t * np.dot(x, w) + b <= 0:
                w = w + rate * t * x
                b = b + rate * t
                errors += 1
        if errors == 0:
            break
    return w, b
