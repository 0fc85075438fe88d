"""Pure-Python code written for lists: the bias input appended with ``x + [1]`` or
prepended with ``[1] + x`` -- on a NumPy row that adds 1 to every coordinate instead
(written for the corpus after reading course code; none is copied)."""

# ruff: noqa: RUF005  (list concatenation is the shape under test)


class AppendsOne:
    """Correct: labels -1/+1, the bias the last weight, lists throughout; ``predict`` of
    one point (a list)."""

    def fit(self, X, y):
        rows = [x + [1.0] for x in X]
        self.w = [0.0] * len(rows[0])
        changed = True
        while changed:
            changed = False
            for r, t in zip(rows, y):
                if t * sum(a * b for a, b in zip(self.w, r)) <= 0:
                    self.w = [a + t * b for a, b in zip(self.w, r)]
                    changed = True
        return self

    def predict(self, x):
        r = x + [1.0]
        return 1 if sum(a * b for a, b in zip(self.w, r)) > 0 else -1


def prepends_one(X, y, passes=1000):
    """Correct: a training function, the bias first, returns the weights as a list."""
    rows = [[1.0] + x for x in X]
    w = [0.0] * len(rows[0])
    for _ in range(passes):
        wrong = 0
        for r, t in zip(rows, y):
            if t * sum(a * b for a, b in zip(w, r)) <= 0:
                w = [a + t * b for a, b in zip(w, r)]
                wrong += 1
        if not wrong:
            break
    return w


class AppendsOneWrongSign(AppendsOne):
    """Broken twin: the update subtracts."""

    def fit(self, X, y):
        rows = [x + [1.0] for x in X]
        self.w = [0.0] * len(rows[0])
        for _ in range(100):
            for r, t in zip(rows, y):
                if t * sum(a * b for a, b in zip(self.w, r)) <= 0:
                    self.w = [a - t * b for a, b in zip(self.w, r)]
        return self
