"""``passes_to_predict``: after that many passes of the exact algorithm (cyclic, from
zero), the averaged and the voted outputs predict every training point at every later
pass -- checked against a plain simulation of both outputs, pass by pass."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from pla_proof.variants.estimators.outputs import passes_to_predict

Points = list[tuple[Fraction, ...]]


def _predicting(X: Points, y: list[int], output: str, passes: int) -> list[bool]:
    """Whether the output predicts every training point at the end of each pass."""
    d = len(X[0])
    w = [Fraction(0)] * d
    vectors, counts, out = [list(w)], [0], []
    for _ in range(passes):
        for x, t in zip(X, y, strict=True):
            if t * sum(a * b for a, b in zip(w, x, strict=True)) <= 0:
                w = [a + t * b for a, b in zip(w, x, strict=True)]
                vectors.append(list(w))
                counts.append(1)
            else:
                counts[-1] += 1
        scores = []
        for x, t in zip(X, y, strict=True):
            dots = [sum(a * b for a, b in zip(v, x, strict=True)) for v in vectors]
            if output == "averaged":
                scores.append(t * sum(c * s for c, s in zip(counts, dots, strict=True)))
            else:
                signs = [(s > 0) - (s < 0) for s in dots]
                scores.append(t * sum(c * s for c, s in zip(counts, signs, strict=True)))
        out.append(min(scores) > 0)
    return out


def _cases(k: int) -> list[tuple[Points, list[int]]]:
    rng = random.Random(7)
    cases: list[tuple[Points, list[int]]] = []
    while len(cases) < k:
        d = rng.choice((1, 2, 3))
        u = [rng.randint(-3, 3) for _ in range(d)]
        if not any(u):
            continue
        X: Points = []
        y: list[int] = []
        while len(X) < rng.randint(1, 7):
            x = tuple(Fraction(rng.randint(-6, 6), rng.randint(1, 3)) for _ in range(d))
            s = sum(a * b for a, b in zip(u, x, strict=True))
            if s:
                X.append(x)
                y.append(1 if s > 0 else -1)
        cases.append((X, y))
    return cases


@pytest.mark.parametrize("output", ["averaged", "voted"])
def test_from_the_passes_found_on_the_output_predicts_every_training_point(output: str) -> None:
    for X, y in _cases(60):
        P = passes_to_predict(X, y, output)
        assert P is not None
        assert all(_predicting(X, y, output, P + 25)[P - 1 :]), (X, y, P)


def test_the_simulation_rejects_a_pass_count_too_small() -> None:
    """The check above can fail: a point the early vectors outvote is mispredicted
    before the last vector's count outgrows them."""
    X: Points = [(Fraction(2), Fraction(1)), (Fraction(3), Fraction(1))]  # (x, 1): a bias
    y = [-1, 1]
    P = passes_to_predict(X, y, "averaged")
    assert P is not None and P > 2
    assert not _predicting(X, y, "averaged", P)[0]


def test_too_many_updates_is_none() -> None:
    X = [(Fraction(1), Fraction(1)), (Fraction(1, 1000), Fraction(1))]
    assert passes_to_predict(X, [-1, 1], "voted", budget=3) is None
