"""A variant that only applies to integer points in the plane: its step refuses
anything else, so a case outside its domain would be a false alarm."""

from fractions import Fraction

from hypothesis import strategies as st

from pla_proof.variants import Case, Claim, LinearVariant


@st.composite
def plane_cases(draw):
    u = (Fraction(draw(st.integers(1, 3))), Fraction(draw(st.integers(-3, 3))))
    X, y = [], []
    for _ in range(draw(st.integers(1, 6))):
        x = (Fraction(draw(st.integers(-5, 5))), Fraction(draw(st.integers(-5, 5))))
        s = u[0] * x[0] + u[1] * x[1]
        if s == 0:
            x = (x[0] + 1, x[1])
            s = u[0] * x[0] + u[1] * x[1]
        if s != 0:
            X.append(x)
            y.append(1 if s > 0 else -1)
    if not X:
        X, y = [(Fraction(1), Fraction(0))], [1]
    gamma = min(yi * (u[0] * x[0] + u[1] * x[1]) for x, yi in zip(X, y))
    return Case(tuple(X), tuple(y), u, gamma, {}, "plane")


class PlaneOnly(LinearVariant):
    name = "plane-only"
    growth = 1  # the twin claims half the growth

    def cases(self):
        return plane_cases()

    def accepts(self, case):
        return case.d == 2 and all(v.denominator == 1 for x in case.X for v in x)

    def step(self, w, x, y):
        if len(x) != 2 or any(Fraction(v).denominator != 1 for v in x):
            raise ValueError("only integer points in the plane")
        return [y * v for v in x]

    def claim(self, case):
        return Claim(C=case.radius_squared * self.growth, g=case.gamma, uu=case.uu)


class PlaneOnlyHalfGrowth(PlaneOnly):
    name = "plane-only-half-growth"
    growth = Fraction(1, 2)


variant = PlaneOnly()
broken = PlaneOnlyHalfGrowth()
