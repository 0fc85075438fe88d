"""One weight vector per class, my own loop: if some wrong class scores at least the
true one, w_y += x and w_r -= x for the best wrong class r.  In the Frobenius inner
product the update z has |z|^2 = 2 |x|^2, so (C, g) = (2 R^2, gamma) for a comparator
U = (u_1, ..., u_m) with multiclass margin gamma."""

from fractions import Fraction

from hypothesis import strategies as st

from pla_proof.variants import Case, Claim, Measure, Record, Selector, Variant


def dot(a, b):
    return sum((p * q for p, q in zip(a, b)), Fraction(0))


@st.composite
def class_cases(draw):
    m = draw(st.integers(2, 3))
    U = [tuple(Fraction(draw(st.integers(-3, 3))) for _ in range(2)) for _ in range(m)]
    X, y = [], []
    for _ in range(draw(st.integers(1, 6))):
        x = tuple(Fraction(draw(st.integers(-4, 4))) for _ in range(2))
        s = [dot(r, x) for r in U]
        best = max(range(m), key=lambda c: s[c])
        if sum(1 for v in s if v == s[best]) == 1:
            X.append(x)
            y.append(best)
    if not X:
        U = [(Fraction(1), Fraction(0)), (Fraction(-1), Fraction(0))]
        X, y = [(Fraction(1), Fraction(0))], [0]
        m = 2
    gamma = min(
        dot(U[c], x) - max(dot(U[r], x) for r in range(len(U)) if r != c) for x, c in zip(X, y)
    )
    flat = tuple(v for row in U for v in row)
    return Case(tuple(X), tuple(y), flat, gamma, {"classes": len(U)}, "classes")


class MyMulticlass(Variant):
    name = "my-multiclass"
    order_rules = ("cyclic", "first", "random", "choose")
    growth = 2  # the twin claims 1

    def cases(self):
        return class_cases()

    def claim(self, case):
        return Claim(C=self.growth * case.radius_squared, g=case.gamma, uu=case.uu)

    def run(self, case, order):
        m, d = case.params["classes"], case.d
        W = [[Fraction(0)] * d for _ in range(m)]
        U = [case.u[r * d : (r + 1) * d] for r in range(m)]
        rec = Record()
        sel = Selector(order, case.n)

        def best_wrong(i):
            x, c = case.X[i], case.y[i]
            return max((r for r in range(m) if r != c), key=lambda r: (dot(W[r], x), -r))

        def score(i):
            x, c = case.X[i], case.y[i]
            return dot(W[c], x) - dot(W[best_wrong(i)], x)

        def uw():
            return sum((dot(U[r], W[r]) for r in range(m)), Fraction(0))

        def ww():
            return sum((dot(W[r], W[r]) for r in range(m)), Fraction(0))

        k = 0
        while True:
            j = sel.next(lambda i: score(i) <= 0, score)
            if j is None:
                break
            if k == 2000:  # my safety cap: an unfinished run proves nothing about SEP
                rec.complete = False
                break
            k += 1
            t, pu0, n0, r, c, x = score(j), uw(), ww(), best_wrong(j), case.y[j], case.X[j]
            W[c] = [a + v for a, v in zip(W[c], x)]
            W[r] = [a - v for a, v in zip(W[r], x)]
            if rec.add(Measure(k, j, t, pu0, uw(), n0, ww())):
                break
        low = min(score(i) for i in range(case.n))
        rec.end.update(m=low, j=[score(i) for i in range(case.n)].index(low))
        rec.output["W"] = tuple(tuple(row) for row in W)
        return rec


class MyMulticlassHalfGrowth(MyMulticlass):
    name = "my-multiclass-half-growth"
    growth = 1


variant = MyMulticlass()
broken = MyMulticlassHalfGrowth()
