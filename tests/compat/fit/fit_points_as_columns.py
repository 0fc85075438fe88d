"""A training function written for points as the **columns** of its matrix (``d x n``:
``d = X.shape[0]``, ``X[:, i]`` the i-th point), as linear-algebra course code holds
them, returning ``(w, b, mistakes per pass)``.  Given the check's rows it reads a
vector of ``n`` numbers for its weights; given ``X.T`` (found by behaviour) it passes.
``columns_wrong_bias``: the bias moved against the label, ``SEP``."""

import numpy as np


def columns_perceptron(A, labels, w=None, b=0.0, sweeps=400):
    d, n = A.shape
    w = np.zeros(d) if w is None else w
    per_sweep = []
    for _ in range(sweeps):
        wrong = 0
        for i in range(n):
            if labels[i] * (A[:, i] @ w + b) <= 0:
                w = w + labels[i] * A[:, i]
                b = b + labels[i]
                wrong += 1
        per_sweep.append(wrong)
        if not wrong:
            break
    return w, b, per_sweep


def columns_wrong_bias(A, labels, w=None, b=0.0, sweeps=400):
    d, n = A.shape
    w = np.zeros(d) if w is None else w
    per_sweep = []
    for _ in range(sweeps):
        wrong = 0
        for i in range(n):
            if labels[i] * (A[:, i] @ w + b) <= 0:
                w = w + labels[i] * A[:, i]
                b = b - labels[i]
                wrong += 1
        per_sweep.append(wrong)
        if not wrong:
            break
    return w, b, per_sweep
