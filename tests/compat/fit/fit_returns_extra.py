"""Training functions that return more than their weights, as homework and blog code
does: ``(w, accuracy_per_pass, converged_at)`` with the bias first in ``w``;
``(w, b, n_updates)``; ``(w, b, history)`` with a copy of ``(w, b)`` after each update."""

import numpy as np


def perceptron_with_accuracy(X, y, max_iter=1000):
    Xa = np.hstack([np.ones((X.shape[0], 1)), X])
    w = np.zeros(Xa.shape[1])
    accuracy_per_pass, converged_at = [], None
    for epoch in range(max_iter):
        for xi, yi in zip(Xa, y):
            if yi * (w @ xi) <= 0:
                w = w + yi * xi
        accuracy_per_pass.append(float(np.mean(y * (Xa @ w) > 0)))
        if accuracy_per_pass[-1] == 1.0:
            converged_at = epoch + 1
            break
    return w, accuracy_per_pass, converged_at


def train_counting(X, y, lr=1.0, epochs=1000):
    w, b, n_updates = np.zeros(X.shape[1]), 0.0, 0
    for _ in range(epochs):
        before = n_updates
        for xi, yi in zip(X, y):
            if yi * (np.dot(w, xi) + b) <= 0:
                w, b, n_updates = w + lr * yi * xi, b + lr * yi, n_updates + 1
        if n_updates == before:
            break
    return w, b, n_updates


def train_history(X, y, epochs=1000):
    w, b, history = [0.0] * X.shape[1], 0.0, []
    for _ in range(epochs):
        mistakes = 0
        for xi, yi in zip(X.tolist(), y.tolist()):
            if yi * (sum(wj * xj for wj, xj in zip(w, xi)) + b) <= 0:
                w = [wj + yi * xj for wj, xj in zip(w, xi)]
                b += yi
                history.append((list(w), b))
                mistakes += 1
        if mistakes == 0:
            break
    return w, b, history
