"""A Perceptron class whose loop is compiled with ``numba.njit(parallel=True)``, the shape
of speed-up posts: the classic cyclic loop over ``(x, 1)``, and after each pass the
mistakes counted in a ``prange`` loop (a reduction) to decide whether to stop; it keeps
``coef_``/``intercept_``.  The class exists only where numba can be imported."""

import numpy as np

try:
    from numba import njit, prange
except ImportError:  # pragma: no cover - the corpus test skips this file then
    njit = None

if njit is not None:

    @njit(parallel=True)
    def _train(X, y, max_iter):
        n, d = X.shape
        w = np.zeros(d + 1)
        for _ in range(max_iter):
            for i in range(n):
                if y[i] * (np.dot(w[:d], X[i]) + w[d]) <= 0:
                    w[:d] += y[i] * X[i]
                    w[d] += y[i]
            wrong = 0
            for i in prange(n):
                if y[i] * (np.dot(w[:d], X[i]) + w[d]) <= 0:
                    wrong += 1
            if wrong == 0:
                break
        return w

    class NumbaPerceptron:
        def __init__(self, max_iter=1000):
            self.max_iter = max_iter

        def fit(self, X, y):
            w = _train(
                np.ascontiguousarray(X, dtype=np.float64), np.asarray(y, np.float64), self.max_iter
            )
            self.coef_, self.intercept_ = w[:-1], w[-1]
            return self

        def predict(self, X):
            return np.where(np.asarray(X) @ self.coef_ + self.intercept_ > 0, 1, -1)
