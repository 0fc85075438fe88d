"""A through-the-origin training function returning ``theta`` alone, in the shape of an
online course's ``perceptron_origin(x, y, ...)`` exercise: no offset is learned or
returned, the loop stops after a pass without a mistake."""

import numpy as np


def perceptron_origin(x, y, max_iter=1000):
    theta = np.zeros(x.shape[1])
    for _ in range(max_iter):
        mistakes = 0
        for i in range(x.shape[0]):
            if y[i] * (theta @ x[i]) <= 0:
                theta = theta + y[i] * x[i]
                mistakes += 1
        if mistakes == 0:
            break
    return theta
