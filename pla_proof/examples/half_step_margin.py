"""A user's variant: half-size steps with a safety margin of 1 (the docs' example)."""

from fractions import Fraction

from pla_proof.variants import Claim, LinearVariant


class HalfStepMargin(LinearVariant):
    """Update while y w.x <= 1, by half a step: w <- w + y x / 2."""

    name = "half-step-margin"
    summary = "y w.x <= 1 -> w += y x/2: (C, g) = (R^2/4 + 1, gamma/2)"

    def triggers(self, w, x, y):
        return y * sum(a * b for a, b in zip(w, x, strict=True)) <= 1

    def step(self, w, x, y):
        return [Fraction(1, 2) * y * v for v in x]

    def claim(self, case):
        # growth: 2 (1/2) y w.x + |x|^2/4 <= 1 + R^2/4;  progress: u.(y x/2) >= gamma/2
        return Claim(C=case.radius_squared / 4 + 1, g=case.gamma / 2, uu=case.uu)


variant = HalfStepMargin()


class ForgetfulHalfStepMargin(HalfStepMargin):
    """The same rule with a wrong claim: the margin's growth term 2 (1/2) 1 forgotten."""

    name = "half-step-margin-forgetful"
    summary = "y w.x <= 1 -> w += y x/2, claiming (C, g) = (R^2/4, gamma/2): wrong"

    def claim(self, case):
        return Claim(C=case.radius_squared / 4, g=case.gamma / 2, uu=case.uu)


#: ``pla-proof check pla_proof.examples.half_step_margin:forgetful`` fails (and is not proved)
forgetful = ForgetfulHalfStepMargin()
