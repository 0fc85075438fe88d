"""A linear variant that states the predictor it returns: f(x) = w.x - 1/2 for a run
that updates while y w.x <= 1 (its margin leaves room for the shift)."""

from fractions import Fraction

from pla_proof.variants import Case, Claim, LinearVariant


class ShiftedOutput(LinearVariant):
    name = "shifted-output"
    summary = "y w.x <= 1 -> w += y x; returns f(x) = w.x - shift on labels that allow it"
    shift = Fraction(1, 2)

    def tau(self, case):
        return Fraction(1)

    def accepts(self, case):
        return all(v == 1 for v in case.y)  # one label: the shift keeps every f(x) > 0

    def domain(self, base):
        # (y x, +1) is separated by the same u with the same margin
        return base.map(
            lambda c: Case(
                tuple(tuple(yi * v for v in x) for x, yi in zip(c.X, c.y)),
                tuple(1 for _ in c.y),
                c.u,
                c.gamma,
                c.params,
                c.name,
            )
        )

    def claim(self, case):
        return Claim(C=case.radius_squared + 2, g=case.gamma, uu=case.uu)

    def decision(self, case, output):
        w = output["w"]
        return [sum(a * b for a, b in zip(w, x)) - self.shift for x in case.X]


class ShiftedTooFar(ShiftedOutput):
    name = "shifted-too-far"
    shift = Fraction(1000)


variant = ShiftedOutput()
broken = ShiftedTooFar()
