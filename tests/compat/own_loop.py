"""The classic algorithm in a loop of my own, honouring the checker's order."""

from fractions import Fraction

from pla_proof.variants import Claim, Measure, Record, Selector, Variant, hard_cases


def dot(a, b):
    return sum((p * q for p, q in zip(a, b)), Fraction(0))


class MyLoop(Variant):
    name = "my-loop"
    summary = "the classic algorithm, my own loop: (C, g) = (R^2, gamma)"
    order_rules = ("cyclic", "first", "maxviol", "random", "choose")
    sign = 1  # the twin sets -1

    def cases(self):
        return hard_cases(max_bound=200)

    def claim(self, case):
        return Claim(C=case.radius_squared, g=case.gamma, uu=case.uu)

    def run(self, case, order):
        X, y, u = case.X, case.y, case.u
        w = [Fraction(0)] * case.d
        rec = Record()
        sel = Selector(order, case.n)

        def margin(i):
            return y[i] * dot(w, X[i])

        k = 0
        while True:
            j = sel.next(lambda i: margin(i) <= 0, margin)
            if j is None:
                break
            if k == 1000:  # my safety cap: an unfinished run proves nothing about SEP
                rec.complete = False
                break
            k += 1
            new = [a + self.sign * y[j] * b for a, b in zip(w, X[j])]
            m = Measure(k, j, margin(j), dot(u, w), dot(u, new), dot(w, w), dot(new, new))
            w = new
            if rec.add(m):
                break
        rec.output["w"] = tuple(w)
        return rec


class MyLoopWrongSign(MyLoop):
    name = "my-loop-wrong-sign"
    sign = -1


variant = MyLoop()
broken = MyLoopWrongSign()
