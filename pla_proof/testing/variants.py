"""check_variant() and check_estimator(): a variant's claims, or any ``fit(X, y)``
class's, searched from a pytest suite (examples in :mod:`pla_proof.testing`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..variants.catalog.registry import resolve
from ..variants.checking import DEFAULT_SHRINK_RUNS, CheckReport, search
from ..variants.protocol.variant import Variant

__all__ = ["VariantCheck", "check_estimator", "check_variant"]


@dataclass
class VariantCheck:
    """The outcome of :func:`check_variant` (the full report is ``.report``)."""

    report: CheckReport

    @property
    def ok(self) -> bool:
        return self.report.ok

    def __repr__(self) -> str:
        r = self.report
        return f"CheckReport(variant={r.variant!r}, ok={self.ok}, properties={len(r.properties)})"


def check_variant(
    variant: Variant | str,
    *,
    examples: int = 100,
    seed: int = 0,
    expect_failure: str | None = None,
    shrink_runs: int | None = DEFAULT_SHRINK_RUNS,
) -> VariantCheck:
    """Search for counterexamples to every property of ``variant``'s claim.

    ``variant``: a :class:`~pla_proof.variants.Variant` or a spec (built-in name,
    ``bug:NAME``, ``module:attribute``).  Raises ``AssertionError`` listing every
    failing property with its shrunk counterexample -- or, with
    ``expect_failure=PROP``, unless the variant is *caught by* ``PROP`` (the first
    property to fail on the minimal counterexample the search finds).  A search that
    checked too little to pass (no run, more than a tenth of the cases skipped, a claimed
    property no run evaluated) raises ``AssertionError`` too, with the reasons.
    ``shrink_runs``: runs each search round may spend shrinking a failure.
    """
    v = resolve(variant) if isinstance(variant, str) else variant
    if expect_failure is not None:
        report = search(v, examples=examples, seed=seed, first_only=True, shrink_runs=shrink_runs)
        if report.caught_by != expect_failure:
            got = report.caught_by or "nothing (every claim held)"
            raise AssertionError(
                f"{v.name}: expected to be caught by {expect_failure}, caught by {got}"
            )
        return VariantCheck(report)
    report = search(v, examples=examples, seed=seed, shrink_runs=shrink_runs)
    _raise_failures(v.name, report)
    return VariantCheck(report)


def check_estimator(
    factory: Any,
    *,
    examples: int = 100,
    seed: int = 0,
    mode: str = "float",
    labels: str = "auto",
    rate: Any = None,
    trace: Any = "auto",
    epochs: int | None = None,
    weights: str | None = None,
    bias: str | None = None,
    output: str | None = None,
    expect_failure: str | None = None,
    shrink_runs: int | None = DEFAULT_SHRINK_RUNS,
) -> VariantCheck:
    """Check any ``fit(X, y)`` estimator class (or zero-argument factory), or a training
    function ``f(X, y, ...) -> w | (w, b) | (b, w)``, as a Perceptron: per-update claims
    where a trace exists (``partial_fit``, or a ``trace=tracer`` hook such as
    :func:`pla_proof.variants.estimators.estimator.mlxtend_tracer`), final separation,
    its own ``predict`` and its stopping rule (see
    :mod:`pla_proof.variants.estimators.estimator`).  Float mode by default: a claim fails only
    when it fails for every value float rounding allows.  Raises ``AssertionError``
    listing each failing property with its counterexample (or, with
    ``expect_failure=PROP``, unless that property fails), and when the search checked
    too little to pass.  The implementation is read as it is written -- its weights and
    bias (a dual class's through its coefficients with the linear kernel), label coding,
    sign(0) and epoch budget are found on probe fits and verified against its own
    ``predict`` (:mod:`pla_proof.variants.estimators.reading`); a function's return value
    by its shape and the training points (:mod:`pla_proof.variants.estimators.functions`);
    a class whose weights cannot be read is checked through ``predict`` alone (the end
    claim unchecked).  ``weights``, ``bias``, ``labels`` name what the probes would find,
    ``epochs`` sets the epoch budget (``InputError`` when it cannot be read).
    """
    from ..variants.estimators.estimator import Estimator

    v = Estimator(
        factory,
        labels=labels,
        rate=rate,
        trace=trace,
        epochs=epochs,
        weights=weights,
        bias=bias,
        output=output,
    )
    report = search(v, examples=examples, seed=seed, mode=mode, shrink_runs=shrink_runs)
    if expect_failure is not None:
        if (
            report.result(expect_failure).ok
            if expect_failure in {p.id for p in report.properties}
            else True
        ):
            _raise_failures(v.name, report)  # nothing checked, or other failures
            raise AssertionError(f"{v.name}: expected {expect_failure} to fail, it held")
        return VariantCheck(report)
    _raise_failures(v.name, report)
    return VariantCheck(report)


def _raise_failures(name: str, report: CheckReport) -> None:
    if not report.failed and report.unchecked:
        reasons = "".join(f"\n  skipped {c}: {r}" for r, c in report.skip_reasons.items())
        raise AssertionError(
            f"{name}: nothing was checked -- " + "; ".join(report.unchecked) + reasons
        )
    if not report.ok:
        lines = [f"{name}: {len(report.failed)} of {len(report.properties)} properties fail"]
        for p in report.failed:
            ce = p.counterexample
            assert ce is not None
            pts = "; ".join(
                f"({', '.join(str(a) for a in x)}) y={yi}"
                for x, yi in zip(ce.case.X, ce.case.y, strict=True)
            )
            lines.append(
                f"  {ce.failure.describe()} -- {ce.case.n} point(s): {pts}; "
                f"order {ce.order.describe()}"
            )
        raise AssertionError("\n".join(lines))
