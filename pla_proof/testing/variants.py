"""check_variant(): a variant's claims searched from a pytest suite (examples in
:mod:`pla_proof.testing`)."""

from __future__ import annotations

from dataclasses import dataclass

from ..variants.harness import CheckReport, search
from ..variants.protocol import Variant
from ..variants.registry import resolve

__all__ = ["VariantCheck", "check_variant"]


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
) -> VariantCheck:
    """Search for counterexamples to every property of ``variant``'s claim.

    ``variant``: a :class:`~pla_proof.variants.Variant` or a spec (built-in name,
    ``bug:NAME``, ``module:attribute``).  Raises ``AssertionError`` listing every
    failing property with its shrunk counterexample -- or, with
    ``expect_failure=PROP``, unless the variant is *caught by* ``PROP`` (the first
    property to fail on the minimal counterexample the search finds).
    """
    v = resolve(variant) if isinstance(variant, str) else variant
    if expect_failure is not None:
        report = search(v, examples=examples, seed=seed, first_only=True)
        if report.caught_by != expect_failure:
            got = report.caught_by or "nothing (every claim held)"
            raise AssertionError(
                f"{v.name}: expected to be caught by {expect_failure}, caught by {got}"
            )
        return VariantCheck(report)
    report = search(v, examples=examples, seed=seed)
    if not report.ok:
        lines = [f"{v.name}: {len(report.failed)} of {len(report.properties)} properties fail"]
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
    return VariantCheck(report)
