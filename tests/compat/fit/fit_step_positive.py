"""Training functions on 0/1 labels whose unit step is ``score > 0``: a score of exactly
0 is class 0, so a point of class 0 may end at a score of 0 and be right (end claim
``SEP0N``).  Written for the corpus in the shape course code gives them: a pair
``(w, b)`` returned, a keyword budget, an update ``rate (target - output) x``."""

import numpy as np


def train_step(features, targets, rate=0.5, rounds=5000):
    weights = np.zeros(features.shape[1])
    offset = 0.0
    for _ in range(rounds):
        wrong = 0
        for row, target in zip(features, targets):
            output = 1 if row.dot(weights) + offset > 0 else 0
            if output != target:
                weights = weights + rate * (target - output) * row
                offset = offset + rate * (target - output)
                wrong += 1
        if wrong == 0:
            break
    return weights, offset


def train_step_frozen_offset(features, targets, rate=0.5, rounds=5000):
    """Broken twin: the offset is never moved (SEP0N fails on data needing a bias)."""
    weights = np.zeros(features.shape[1])
    offset = 0.0
    for _ in range(rounds):
        wrong = 0
        for row, target in zip(features, targets):
            output = 1 if row.dot(weights) + offset > 0 else 0
            if output != target:
                weights = weights + rate * (target - output) * row
                wrong += 1
        if wrong == 0:
            break
    return weights, offset


def train_random_start(features, targets, rate=0.1, rounds=5000):
    """Correct, its step ``score >= 0`` (a score of 0 is class 1: end claim ``SEP0``)
    from a random start of the weights (the offset from 0)."""
    weights = np.random.rand(features.shape[1])
    offset = 0.0
    for _ in range(rounds):
        wrong = 0
        for row, target in zip(features, targets):
            output = 1 if row @ weights + offset >= 0 else 0
            if output != target:
                weights = weights + rate * (target - output) * row
                offset = offset + rate * (target - output)
                wrong += 1
        if not wrong:
            break
    return weights, offset
