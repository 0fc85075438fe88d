"""A plain-Python-lists Perceptron class (no NumPy in ``fit``), the shape of a first-course
"from scratch" notebook, whose update has the wrong sign: it subtracts ``rate * y * x``
where the algorithm adds it, so every update moves the boundary the wrong way."""


class ListPerceptronWrongSign:
    def __init__(self, rate=1.0, max_iter=1000):
        self.rate = rate
        self.max_iter = max_iter

    def net(self, x):
        return sum(w * v for w, v in zip(self.weights, x)) + self.bias

    def fit(self, X, y):
        rows, labels = [list(map(float, r)) for r in X], [int(t) for t in y]
        self.weights, self.bias = [0.0] * len(rows[0]), 0.0
        for _ in range(self.max_iter):
            mistakes = 0
            for x, target in zip(rows, labels):
                if target * self.net(x) <= 0:
                    self.weights = [w - self.rate * target * v for w, v in zip(self.weights, x)]
                    self.bias -= self.rate * target
                    mistakes += 1
            if mistakes == 0:
                break
        return self

    def predict(self, X):
        return [1 if self.net(list(map(float, x))) > 0 else -1 for x in X]
