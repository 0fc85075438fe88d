"""The pocket algorithm with ratchet (Gallant 1990; Muselli 1997) on data that need
not be separable: PLA updates on random picks; the pocket keeps the weights with
the longest run of correct picks, and (ratchet) only replaces them by weights with
strictly fewer training errors.  Claims: every PLA step grows ``|w|^2`` by at most
``R^2`` (G1; no margin exists to claim G2), and the pocket's training errors never
increase (``RATCHET``).

>>> from pla_proof.variants.checking import run_case
>>> from pla_proof.variants.protocol.variant import Order
>>> rec, res = run_case(Pocket(), Pocket().examples()[0], Order("random", 1))
>>> rec.output["pocket_errors"][-1] <= 2, all(f is None for f in res.values())
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, ClassVar

from ...numbers import dot, norm2
from ..protocol.cases import labelled_points
from ..protocol.variant import Case, Claim, Measure, Order, Record, Variant

__all__ = ["Pocket"]


def errors(w: Sequence[Any], case: Case) -> int:
    """Training errors of ``w`` (a point with ``y w.x <= 0`` counts as an error)."""
    return sum(1 for x, yi in zip(case.X, case.y, strict=True) if yi * dot(w, x) <= 0)


class Pocket(Variant):
    """Pocket with ratchet; ``iterations_per_point`` random picks per point."""

    name: ClassVar[str] = "pocket"
    summary: ClassVar[str] = (
        "pocket with ratchet on any data: G1 with C = R^2; pocket errors never increase"
    )
    source: ClassVar[str] = "Gallant 1990; Muselli 1997; the DSC 255 handout"
    order_rules: ClassVar[tuple[str, ...]] = ("random",)
    extra_properties: ClassVar[dict[str, str]] = {
        "RATCHET": "the pocket's training errors never increase"
    }
    ratchet: ClassVar[bool] = True
    iterations_per_point: ClassVar[int] = 30

    def cases(self) -> Any:
        return labelled_points()

    def examples(self) -> Sequence[Case]:
        F = Fraction
        X = ((F(0), F(0), F(1)), (F(1), F(1), F(1)), (F(1), F(0), F(1)), (F(0), F(1), F(1)))
        return [Case(X, (-1, -1, 1, 1), (F(0),) * 3, F(0), {}, "xor")]

    def claim(self, case: Case) -> Claim:
        return Claim(C=case.radius_squared, end=None)

    def run(self, case: Case, order: Order) -> Record:
        from ...engine.drive import drive
        from ...engine.rule import CLASSIC

        data = case.dataset()
        n = case.n
        picks = self.iterations_per_point * n
        dec = drive(
            data,
            CLASSIC,
            seed=order.seed,
            budget=picks,
            sample=True,
            max_epochs=self.iterations_per_point,
            detect_cycles=False,
        )
        rec = Record()
        # replay the picks: the weights after each update, the pocket between them
        w: list[Any] = [Fraction(0)] * case.d
        pocket, pocket_run, pocket_err = list(w), 0, errors(w, case)
        history = [pocket_err]
        run_len, previous = 0, -1
        visits = [int(v) for v in dec.visits]
        for k, (j, v) in enumerate(zip(dec.choices.tolist(), [*visits], strict=True), 1):
            pocket, pocket_run, pocket_err, run_len = self._correct_picks(
                case, w, v - previous - 1, run_len, pocket, pocket_run, pocket_err, history
            )
            x, yj = case.X[j], case.y[j]
            t = yj * dot(w, x)
            w1 = [a + yj * b for a, b in zip(w, x, strict=True)]
            if rec.add(Measure(k, j, t, Fraction(0), Fraction(0), norm2(w), norm2(w1))):
                w = w1
                break
            w, run_len, previous = w1, 0, v
        else:
            pocket, pocket_run, pocket_err, run_len = self._correct_picks(
                case, w, picks - previous - 1, run_len, pocket, pocket_run, pocket_err, history
            )
        rec.visits = visits[: len(rec.choices)]
        bad = next((i for i in range(1, len(history)) if history[i] > history[i - 1]), None)
        rec.checks["RATCHET"] = (
            None
            if bad is None
            else f"pocket errors went {history[bad - 1]} -> {history[bad]} (history {history})"
        )
        rec.output.update(pocket=tuple(pocket), pocket_errors=history)
        rec.end["m"] = min(yi * dot(pocket, x) for x, yi in zip(case.X, case.y, strict=True))
        return rec

    def _correct_picks(
        self,
        case: Case,
        w: list[Any],
        count: int,
        run_len: int,
        pocket: list[Any],
        pocket_run: int,
        pocket_err: int,
        history: list[int],
    ) -> tuple[list[Any], int, int, int]:
        """``count`` correct picks at ``w``: the run grows, and the pocket takes ``w`` when
        its run is the longest (with the ratchet: only with strictly fewer errors)."""
        e: int | None = None
        for _ in range(count):
            run_len += 1
            if run_len > pocket_run:
                if e is None:
                    e = errors(w, case)
                if not self.ratchet or e < pocket_err:
                    pocket, pocket_run, pocket_err = list(w), run_len, e
                    history.append(e)
                elif self.ratchet:
                    run_len += count - 1 - _  # the rest of the run changes nothing
                    break
        return pocket, pocket_run, pocket_err, run_len
