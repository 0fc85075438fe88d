"""An epoch budget held in the default argument of an inner helper that ``fit`` calls,
``_train(X, y, passes=1000)``, the shape of a refactored tutorial class with nothing in
``__init__`` (scikit-learn's ``coef_``/``intercept_`` names).  ``OnePassHelper`` is the
same code with ``passes=1``."""

import numpy as np


class HelperDefault:
    def _train(self, X, y, passes=1000):
        w, b = np.zeros(X.shape[1]), 0.0
        for _ in range(passes):
            wrong = 0
            for xi, yi in zip(X, y):
                if yi * (w @ xi + b) <= 0:
                    w, b = w + yi * xi, b + yi
                    wrong += 1
            if not wrong:
                break
        return w, b

    def fit(self, X, y):
        self.coef_, self.intercept_ = self._train(X, y)
        return self

    def predict(self, X):
        return np.where(X @ self.coef_ + self.intercept_ > 0, 1, -1)


class OnePassHelper:
    def _train(self, X, y, passes=1):
        w, b = np.zeros(X.shape[1]), 0.0
        for _ in range(passes):
            wrong = 0
            for xi, yi in zip(X, y):
                if yi * (w @ xi + b) <= 0:
                    w, b = w + yi * xi, b + yi
                    wrong += 1
            if not wrong:
                break
        return w, b

    def fit(self, X, y):
        self.coef_, self.intercept_ = self._train(X, y)
        return self

    def predict(self, X):
        return np.where(X @ self.coef_ + self.intercept_ > 0, 1, -1)
