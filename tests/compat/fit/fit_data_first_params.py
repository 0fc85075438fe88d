"""A training function that takes its data as **one matrix of rows, the label last**,
and then a rate and an epoch count with no default -- ``train_rows(rows, rate,
epochs)``.  Its data's layout is found by behaviour; the rate and the epochs cannot be
chosen by behaviour, so the check asks for exactly those two by name (exit 2), and with
them given it passes.  Labels 0/1, the bias first in the returned list.
"""


def train_rows(rows, rate, epochs):
    weights = [0.0] * len(rows[0])
    for _ in range(epochs):
        errors = 0
        for row in rows:
            score = weights[0] + sum(w * x for w, x in zip(weights[1:], row[:-1]))
            said = 1.0 if score >= 0.0 else 0.0
            error = row[-1] - said
            if error:
                errors += 1
                weights[0] += rate * error
                for i in range(1, len(weights)):
                    weights[i] += rate * error * row[i - 1]
        if not errors:
            break
    return weights
