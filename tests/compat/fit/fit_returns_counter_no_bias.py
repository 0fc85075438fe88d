"""A training function with no bias that returns ``(w, accuracy_per_pass,
converged_at)``: ``converged_at`` is 0 where it did not converge (data that need a
bias) and the pass where it did.  Beside it, ``classify(x, w)`` labels one point
(a score of 0 is +1, as its training takes it).  The count is no bias."""

import numpy as np


def classify(x, w):
    return 1 if x @ w >= 0 else -1


def train_no_bias(X, y, passes=1000):
    w = np.zeros(X.shape[1])
    accuracy_per_pass, converged_at = [], 0
    for k in range(passes):
        before = w.copy()
        right = 0
        for x, t in zip(X, y):
            error = t - classify(x, w)
            right += error == 0
            w = w + error * x
        accuracy_per_pass.append(right / len(y))
        if np.array_equal(w, before):
            converged_at = k
            break
    return w, accuracy_per_pass, converged_at
