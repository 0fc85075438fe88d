"""A pure-Python class whose start is made **inside** its trainer, away from zero
(``[0.2] * (d + 1)``, rate 0.1), with a threshold input of -1 appended to each point;
0/1 labels, ``predict`` answers 1 only where ``0 < score``, and training uses
``predict``, so a negative point may end at a score of exactly 0 (right by its
``predict``).  The probe that shows a stop at 0 runs from zero, which cannot be set
before its trainer runs: behaviour cannot say, and a negative point at 0 is not held
against it (``SEP0N``).  From its start it is slow on some data: not wrong.
"""


class ListThreshold:
    def __init__(self):
        self.weights = []

    def train(self, inputs, labels):
        rows = [x + [-1] for x in inputs]  # noqa: RUF005 (lists: an array would add -1)
        self.weights = [0.2] * len(rows[0])
        for _ in range(1000):
            errors = 0
            for row, label in zip(rows, labels):
                delta = label - self.predict(row[:-1])
                if delta:
                    errors += 1
                    for i, v in enumerate(row):
                        self.weights[i] += 0.1 * v * delta
            if not errors:
                break

    def predict(self, point):
        row = point + [-1]  # noqa: RUF005 (lists)
        return int(sum(w * v for w, v in zip(self.weights, row)) > 0)
