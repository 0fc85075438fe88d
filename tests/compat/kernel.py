"""A kernel perceptron by hand: dual coefficients and the kernel x.z + (x.z)^2, whose
feature map is phi(x) = (x, x (x) x).  The comparator U = (u, 0) has U.phi(x) = u.x, so
the case's margin carries over; u.w and |w|^2 are measured through kernel values."""

from fractions import Fraction

from pla_proof.variants import Claim, Measure, Record, Selector, Variant, hard_cases


def dot(a, b):
    return sum((p * q for p, q in zip(a, b)), Fraction(0))


def K(a, b):
    s = dot(a, b)
    return s + s * s


class QuadraticKernel(Variant):
    name = "quadratic-kernel"
    summary = "dual perceptron, K(x, z) = x.z + (x.z)^2: (C, g) = (max K(x, x), gamma)"
    with_square = True  # the twin forgets the quadratic part of K(x, x) in its claim

    def cases(self):
        return hard_cases(max_n=6, max_d=3, max_coord=4, max_bound=50)

    def claim(self, case):
        C = max(K(x, x) if self.with_square else dot(x, x) for x in case.X)
        return Claim(C=C, g=case.gamma, uu=case.uu)

    def run(self, case, order):
        X, y, u, n = case.X, case.y, case.u, case.n
        G = [[K(a, b) for b in X] for a in X]
        alpha = [0] * n
        rec = Record()
        sel = Selector(order, n)

        def f(i):  # the decision value at x_i
            return sum((alpha[j] * y[j] * G[j][i] for j in range(n)), Fraction(0))

        def uw():  # U.w = sum_j alpha_j y_j u.x_j
            return sum((alpha[j] * y[j] * dot(u, X[j]) for j in range(n)), Fraction(0))

        def ww():
            return sum(
                (alpha[i] * alpha[j] * y[i] * y[j] * G[i][j] for i in range(n) for j in range(n)),
                Fraction(0),
            )

        k = 0
        while True:
            j = sel.next(lambda i: y[i] * f(i) <= 0, lambda i: y[i] * f(i))
            if j is None:
                break
            if k == 300:  # my safety cap: an unfinished run proves nothing about SEP
                rec.complete = False
                break
            k += 1
            t, pu0, n0 = y[j] * f(j), uw(), ww()
            alpha[j] += 1
            if rec.add(Measure(k, j, t, pu0, uw(), n0, ww())):
                break
        rec.output["alpha"] = tuple(alpha)
        return rec

    def decision(self, case, output):
        alpha = output["alpha"]
        return [
            sum((a * yj * K(xj, x) for a, yj, xj in zip(alpha, case.y, case.X)), Fraction(0))
            for x in case.X
        ]


class QuadraticKernelWrongClaim(QuadraticKernel):
    name = "quadratic-kernel-wrong-claim"
    with_square = False


variant = QuadraticKernel()
broken = QuadraticKernelWrongClaim()
