"""A margin perceptron with a learning rate, only declared: the compiled loop runs it."""

from fractions import Fraction

from pla_proof.variants import Claim, LinearVariant


class Declared(LinearVariant):
    name = "declared-margin-rate"
    summary = "y w.x <= 2 -> w += y x/3: (C, g) = (R^2/9 + 4/3, gamma/3)"
    margin_term = Fraction(4, 3)  # 2 eta tau; the twin forgets it

    def eta(self, case):
        return Fraction(1, 3)

    def tau(self, case):
        return Fraction(2)

    def claim(self, case):
        return Claim(C=case.radius_squared / 9 + self.margin_term, g=case.gamma / 3, uu=case.uu)


class DeclaredForgetsMargin(Declared):
    name = "declared-forgets-margin"
    margin_term = Fraction(0)


variant = Declared()
broken = DeclaredForgetsMargin()
