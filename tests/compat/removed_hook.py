"""A variant written for 0.1.0 that states its predictor's margin with end_margin, a
hook the protocol no longer calls: it must be refused, not silently ignored."""

from pla_proof.variants import LinearVariant


class OldPredictor(LinearVariant):
    name = "old-predictor"

    def end_margin(self, w, case):
        margins = [yi * (sum(a * b for a, b in zip(w, x)) - 1000) for x, yi in zip(case.X, case.y)]
        return min(margins), margins.index(min(margins))


variant = OldPredictor()
