"""Two training functions whose data are **not** their first parameters.

``pla_rate_first(eta, samples, cap=5000)``: a rate with no default, then the data in one
argument -- a list of ``(x, y)`` pairs -- and a cap on the updates.  The rate cannot be
chosen by behaviour: the check asks for it by name, naming ``samples`` as the data; given
``--param eta=1`` it passes.  ``pla_rate_first_wrong_sign`` subtracts the update: ``SEP``.

``pocket_between(points, w, labels, T=1000)``: the start between the points and the
labels (the caller passes zeros), through the origin: found by behaviour, it passes.
"""

import numpy as np


def pla_rate_first(eta, samples, cap=5000):
    w = np.zeros(len(samples[0][0]) + 1)
    made = 0
    while made < cap:
        wrong = [(np.append(x, 1.0), t) for x, t in samples if t * (np.append(x, 1.0) @ w) <= 0]
        if not wrong:
            break
        x, t = wrong[0]
        w = w + eta * t * x
        made += 1
    return w


def pla_rate_first_wrong_sign(eta, samples, cap=5000):
    w = np.zeros(len(samples[0][0]) + 1)
    made = 0
    while made < cap:
        wrong = [(np.append(x, 1.0), t) for x, t in samples if t * (np.append(x, 1.0) @ w) <= 0]
        if not wrong:
            break
        x, t = wrong[0]
        w = w - eta * t * x
        made += 1
    return w


def pocket_between(points, w, labels, T=1000):
    w = np.array(w, dtype=float)
    for _ in range(T):
        mistakes = 0
        for x, t in zip(points, labels):
            if t * (np.dot(w, x)) <= 0:
                w = w + t * np.asarray(x, dtype=float)
                mistakes += 1
        if not mistakes:
            break
    return w
