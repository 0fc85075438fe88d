"""A 0/1 training function returning one vector with the bias in front, and a
predictor beside it written for one point, the weights first: ``classify(weights,
row)`` (a step at 0).  Plain Python: lists in, lists out."""


def fit_weights(rows, labels, n_epoch=500, rate=1.0):
    weights = [0.0] * (len(rows[0]) + 1)
    for _ in range(n_epoch):
        errors = 0
        for row, label in zip(rows, labels):
            error = label - classify(weights, row)
            if error:
                errors += 1
                weights[0] += rate * error
                for i in range(len(row)):
                    weights[i + 1] += rate * error * row[i]
        if errors == 0:
            break
    return weights


def classify(weights, row):
    activation = weights[0]
    for i in range(len(row)):
        activation += weights[i + 1] * row[i]
    return 1 if activation >= 0.0 else 0


def classify_wrong(weights, row):
    # (not beside fit_weights: a module's predictor that answers the opposite labels
    # is never chosen over one that answers the training labels)
    return 1 - classify(weights, row)
