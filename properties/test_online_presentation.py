"""A stateful test: Hypothesis presents points one at a time to an online Perceptron.

A hidden comparator u is drawn first; every presented point is on its correct side
(built, not filtered).  The online learner updates on each mistake.  After every rule
the proof's statements are evaluated -- through the lemma objects themselves -- with
the margin gamma and radius R of the points presented so far (each past update used a
point at least that far from the hyperplane and at most that far from the origin):

* L3 (progress)   u.w >= k gamma
* L7 (growth)     |w|^2 <= k R^2
* T  (bound)      k gamma^2 <= R^2 |u|^2 -- the online mistake bound
* the dual form   w = sum_i alpha_i y_i x_i with sum_i alpha_i = k.

Retraining the batch trainer on everything seen so far (while the bound is moderate) must
converge within the bound under every update order.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from pla_proof.data import Dataset
from pla_proof.numbers import dot, norm2
from pla_proof.proof.statements import lemma
from pla_proof.strategies import update_orders
from pla_proof.trainer import train

COORD = st.integers(-12, 12)
#: Retrain the batch trainer only while R^2 |u|^2 / gamma^2 is moderate (keeps runs short).
RETRAIN_MAX_BOUND = 2000


class PointsPresentedOneAtATime(RuleBasedStateMachine):
    """The online Perceptron with the proof's invariants checked after every rule."""

    u: tuple[int, ...]
    w: list[int]
    points: list[tuple[int, ...]]
    labels: list[int]
    alpha: list[int]
    k: int

    @initialize(data=st.data())
    def draw_hidden_comparator(self, data: Any) -> None:
        d = data.draw(st.integers(1, 5), label="d")
        u = data.draw(st.lists(st.integers(-4, 4), min_size=d, max_size=d), label="u")
        if not any(u):
            u[0] = 1
        self.u = tuple(u)
        self.w = [0] * d
        self.points, self.labels, self.alpha, self.k = [], [], [], 0

    def _present(self, i: int) -> None:
        x, y = self.points[i], self.labels[i]
        t = y * dot(self.w, x)
        if t <= 0:  # a mistake: the update of the algorithm
            w1 = [a + y * b for a, b in zip(self.w, x, strict=True)]
            self.k += 1
            self.alpha[i] += 1
            step = {
                "k": self.k,
                "t": t,
                "pu": dot(self.u, self.w),
                "pu1": dot(self.u, w1),
                "yux": y * dot(self.u, x),
                "n0": norm2(self.w),
                "n1": norm2(w1),
                "xx": norm2(x),
                "g": self.gamma,
                "R2": self.radius_squared,
                "uu": norm2(self.u),
            }
            for lem_id in ("DEF_TRIGGER", "A1_j", "A2_j", "L1", "L2", "L5", "L6"):
                assert lemma(lem_id).holds(step), f"{lem_id} fails at k={self.k}: {step}"
            self.w = w1

    @rule(
        v=st.lists(COORD, min_size=5, max_size=5),
        y=st.sampled_from([-1, 1]),
        closeness=st.integers(1, 3),
        far=st.sampled_from([1, 1, 1, 10, 10**6]),
    )
    def present_a_new_point(self, v: list[int], y: int, closeness: int, far: int) -> None:
        d = len(self.u)
        x = v[:d]
        uu = norm2(self.u)
        s = y * dot(self.u, x)
        if s < closeness:  # push along y u to margin in [closeness, closeness + |u|^2)
            lam = -((s - closeness) // uu)
            x = [a + lam * y * b for a, b in zip(x, self.u, strict=True)]
        point = tuple(far * a for a in x)
        self.points.append(point)
        self.labels.append(y)
        self.alpha.append(0)
        self._present(len(self.points) - 1)

    @precondition(lambda self: len(self.points) > 0)
    @rule(data=st.data())
    def present_a_seen_point_again(self, data: Any) -> None:
        self._present(data.draw(st.integers(0, len(self.points) - 1), label="point"))

    @precondition(lambda self: len(self.points) > 0 and self.bound <= RETRAIN_MAX_BOUND)
    @rule(order=update_orders(), seed=st.integers(0, 2**16))
    def retrain_the_batch_perceptron_on_all_points(self, order: Any, seed: int) -> None:
        data = Dataset(
            tuple(tuple(Fraction(a) for a in x) for x in self.points), tuple(self.labels)
        )
        run = train(data, rule=order, seed=seed, comparator=self.u)
        assert run.violation is None, run.violation.describe()
        assert run.status == "converged"
        assert run.bound is not None and run.updates <= run.bound

    @property
    def gamma(self) -> int:
        low: int = min(y * dot(self.u, x) for x, y in zip(self.points, self.labels, strict=True))
        return low

    @property
    def radius_squared(self) -> int:
        top: int = max(norm2(x) for x in self.points)
        return top

    @property
    def bound(self) -> Fraction:
        return Fraction(self.radius_squared * norm2(self.u), self.gamma**2)

    @invariant()
    def dual_form_holds(self) -> None:
        assert sum(self.alpha) == self.k
        for c in range(len(self.u)):
            total = sum(
                a * y * x[c] for a, y, x in zip(self.alpha, self.labels, self.points, strict=True)
            )
            assert self.w[c] == total

    @precondition(lambda self: len(self.points) > 0)
    @invariant()
    def progress_growth_and_the_mistake_bound_hold(self) -> None:
        values = {
            "k": self.k,
            "pu1": dot(self.u, self.w),
            "n1": norm2(self.w),
            "g": self.gamma,
            "R2": self.radius_squared,
            "uu": norm2(self.u),
        }
        for lem_id in ("L3", "L4", "L7", "T"):
            assert lemma(lem_id).holds(values), f"{lem_id} fails after {self.k} mistakes: {values}"


test_points_presented_one_at_a_time_keep_every_invariant = PointsPresentedOneAtATime.TestCase
