"""A through-the-origin training function that starts from a random vector
(``np.random.standard_normal``, unseeded) and returns its weights with the passes it
made, counted by its loop variable -- ``return w, p + 1`` -- so that with a budget of
0 it raises (the loop never ran).  Its start cannot be read, and it is not zero: the
theorem's bound from zero does not cap what it may need.  A budget too small is
``EPOCHS`` alone, never ``SEP``.
"""

import numpy as np


def pla_random_start(X, y, rate=1.0, passes=50):
    w = np.random.standard_normal(X.shape[1])
    for p in range(passes):  # noqa: B007 (p is returned: the passes made)
        moved = False
        for xi, yi in zip(X, y):
            if yi * np.dot(w, xi) <= 0:
                w = w + rate * yi * xi
                moved = True
        if not moved:
            break
    return w, p + 1
