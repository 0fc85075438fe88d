"""A variant written for pla_proof 0.1.0: its loop picks with Selector.pick(violators,
scores, k), as the 0.1.0 docs showed."""

from fractions import Fraction

from pla_proof.variants import Claim, Measure, Record, Selector, Variant, hard_cases


def dot(a, b):
    return sum((p * q for p, q in zip(a, b)), Fraction(0))


class Picked(Variant):
    name = "picked"
    protocol = 1
    step_size = Fraction(1)  # the twin takes steps of 2 and claims steps of 1

    def cases(self):
        return hard_cases(max_bound=200)

    def claim(self, case):
        return Claim(C=case.radius_squared, g=case.gamma, uu=case.uu)

    def run(self, case, order):
        w = [Fraction(0)] * case.d
        rec = Record()
        sel = Selector(order, case.n)
        for k in range(1, 1002):
            scores = [yi * dot(w, x) for x, yi in zip(case.X, case.y)]
            violators = [i for i, s in enumerate(scores) if s <= 0]
            if not violators:
                break
            if k == 1001:  # my safety cap
                rec.complete = False
                break
            j = sel.pick(violators, scores, k)
            new = [a + self.step_size * case.y[j] * b for a, b in zip(w, case.X[j])]
            rec.add(
                Measure(k, j, scores[j], dot(case.u, w), dot(case.u, new), dot(w, w), dot(new, new))
            )
            w = new
        rec.output["w"] = tuple(w)
        return rec


class PickedDoubleStep(Picked):
    name = "picked-double-step"
    step_size = Fraction(2)


variant = Picked()
broken = PickedDoubleStep()
