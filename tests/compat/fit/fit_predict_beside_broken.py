"""A correct training function whose predictor beside it thresholds the score at 1
instead of 0: points the weights classify right with a score between 0 and 1 are
predicted -1 (``PREDICT`` and ``READ`` fail; the returned weights separate)."""

import numpy as np


def perceptron_train(X, Y, epochs=1000):
    w = np.zeros(X.shape[1])
    b = 0.0
    for _ in range(epochs):
        changed = False
        for x, t in zip(X, Y):
            if t * (np.dot(w, x) + b) <= 0:
                w += t * x
                b += t
                changed = True
        if not changed:
            break
    return w, b


def perceptron_predict(X, w, b):
    out = []
    for x in X:
        a = np.dot(w, x) + b
        out.append(1 if a >= 1 else -1)
    return np.array(out)
