"""Training functions whose epoch budget is called ``T``, in the shape of an online
course's ``perceptron(feature_matrix, labels, T)`` returning ``(theta, theta_0)``: the
first stops after a clean pass within ``T = 1000``; its twin is the same code with
``T = 2``, too few passes for most data (an epoch budget, not a wrong update)."""

import numpy as np


def perceptron(feature_matrix, labels, T=1000):
    theta = np.zeros(feature_matrix.shape[1])
    theta_0 = 0.0
    for _ in range(T):
        clean = True
        for i in range(feature_matrix.shape[0]):
            if labels[i] * (np.dot(theta, feature_matrix[i]) + theta_0) <= 0:
                theta = theta + labels[i] * feature_matrix[i]
                theta_0 = theta_0 + labels[i]
                clean = False
        if clean:
            break
    return theta, theta_0


def perceptron_two_passes(feature_matrix, labels, T=2):
    theta = np.zeros(feature_matrix.shape[1])
    theta_0 = 0.0
    for _ in range(T):
        clean = True
        for i in range(feature_matrix.shape[0]):
            if labels[i] * (np.dot(theta, feature_matrix[i]) + theta_0) <= 0:
                theta = theta + labels[i] * feature_matrix[i]
                theta_0 = theta_0 + labels[i]
                clean = False
        if clean:
            break
    return theta, theta_0
