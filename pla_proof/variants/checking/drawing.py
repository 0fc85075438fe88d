"""The cases a search runs, drawn through the boundary: the variant's fixed examples
(:func:`fixed_cases`) and the strategy of its cases and orders (:func:`strategy_of`).

These hooks -- ``cases()``, ``orders()``, ``domain()``, ``examples()``, ``accepts()`` --
run before any run of the variant: whatever they do wrong (raise, return something
else than a strategy, never return) is a :class:`~pla_proof.variants.boundary.HookError`
naming the hook and the user's line (exit 2 on the command line), never a failure of a
property and never "a bug in pla_proof".

>>> from pla_proof.variants import LinearVariant
>>> class NoCases(LinearVariant):
...     def cases(self):
...         return None
>>> try:
...     strategy_of(NoCases(), 5.0)
... except HookError as e:
...     print(str(e).split(";")[0])
cases() returned None
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np
from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from ..boundary.calls import HookError, call_before_runs, defined_at, raised_in
from ..boundary.limits import TOTAL_FACTOR, RunTimeout, time_limit
from ..protocol.variant import Case, Order, Variant
from ..proving.declared import check_assumptions, declared_assumptions, declared_parameters

__all__ = ["HookEscape", "a_case", "declarations", "drawing", "fixed_cases", "strategy_of"]

_STRATEGY = "a Hypothesis strategy of Case (e.g. hard_cases() or a strategy built on it)"


class HookEscape(BaseException):
    """A hook called while Hypothesis draws a case went wrong: it leaves the search at
    once (a ``BaseException``, which Hypothesis does not take for a failure to shrink)
    and becomes the :class:`HookError` it carries."""

    def __init__(self, error: HookError) -> None:
        super().__init__(str(error))
        self.error = error


def strategy_of(variant: Variant, limit: float | None) -> Any:
    """The strategy of ``(case, order)`` the search draws from: the variant's
    ``cases()`` filtered by its ``accepts()``, and its ``orders()``."""
    cases = call_before_runs(
        variant.cases, "cases", limit, expect=SearchStrategy, expected=_STRATEGY
    )
    if type(variant).accepts is not Variant.accepts:
        cases = cases.filter(lambda c: _accepts(variant, c, limit, escape=True))
    orders = call_before_runs(
        variant.orders,
        "orders",
        limit,
        expect=SearchStrategy,
        expected="a Hypothesis strategy of Order",
    )
    return st.tuples(cases, orders)


def a_case(variant: Variant, case: Any) -> Case:
    """A drawn case, which must be a :class:`Case` (checked where the search takes it,
    not by a ``map`` of the strategy: that would change what Hypothesis draws)."""
    if not isinstance(case, Case):
        raise HookEscape(
            HookError(
                f"cases() drew {case!r}{defined_at(variant.cases)}; expected a Hypothesis "
                "strategy of Case (its cases are Case objects)"
            )
        )
    return case


def declarations(variant: Variant, limit: float | None) -> None:
    """What the variant declares for the proof of its claim (``parameters``,
    ``assumes``), read before any run: a :class:`HookError` when it is not what the
    protocol says (or raises, or never returns), or when its assumptions cannot hold."""
    call_before_runs(declared_parameters, "parameters", limit, variant)
    call_before_runs(declared_assumptions, "assumes", limit, variant)
    call_before_runs(check_assumptions, "assumes", limit, variant)


def _accepts(variant: Variant, case: Case, limit: float | None, *, escape: bool) -> bool:
    try:
        return bool(
            call_before_runs(
                variant.accepts,
                "accepts",
                limit,
                case,
                expect=lambda v: isinstance(v, bool | np.bool_),
                expected="a bool (is the case one the claim is about?)",
            )
        )
    except HookError as exc:
        if escape:  # inside Hypothesis's drawing: leave it at once
            raise HookEscape(exc) from None
        raise


def fixed_cases(
    variant: Variant,
    extra_cases: Sequence[tuple[Case, Order]] = (),
    limit: float | None = None,
) -> list[tuple[Case, Order]]:
    """The fixed examples of a search (each in the cyclic and first orders the variant
    accepts), then ``extra_cases`` (e.g. counterexamples replayed from a database)."""
    examples = call_before_runs(
        variant.examples,
        "examples",
        limit,
        expect=lambda v: isinstance(v, Sequence | Iterator) and not isinstance(v, str),
        expected="a sequence of Case",
    )
    examples = list(examples)
    bad = next((c for c in examples if not isinstance(c, Case)), None)
    if bad is not None:
        raise HookError(
            f"examples() returned a {type(bad).__name__} among its cases"
            f"{defined_at(variant.examples)}; expected Case objects"
        )
    fixed = [(c, Order(r)) for c in examples for r in ("cyclic", "first")]
    fixed = [(c, o) for c, o in fixed if o.rule in variant.order_rules]
    return [(c, o) for c, o in [*fixed, *extra_cases] if _accepts(variant, c, limit, escape=False)]


@contextmanager
def drawing(limit: float | None) -> Iterator[Callable[[], None]]:
    """Watch Hypothesis's drawing of cases: ``tick()`` at the start and end of each run;
    drawing that makes no progress for the per-run limit (times :data:`TOTAL_FACTOR`)
    is a :class:`HookError` naming the variant's case hooks.  A user's hook that raises
    while a case is drawn (a filter or a map of its own strategy) is one too."""
    last = [time.monotonic()]

    def tick() -> None:
        last[0] = time.monotonic()

    total = None if limit is None else TOTAL_FACTOR * limit
    try:
        with time_limit(total, progress=lambda: last[0]):
            yield tick
    except RunTimeout:
        raise HookError(
            f"drawing a case did not return in {total:g} s: its cases(), domain() or "
            "accepts() never returns"
        ) from None
    except HookEscape as exc:
        raise exc.error from None


def drawing_error(exc: BaseException) -> HookError:
    """An exception raised by users' code while a case was drawn (not by a run)."""
    return HookError(f"drawing a case: {raised_in(exc)}")
