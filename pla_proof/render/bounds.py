"""A :class:`pla_proof.bounds.TightBound` as text and as JSON.

>>> from pla_proof import load, tight_bound
>>> print(bound_text(tight_bound(load("orthonormal:2"), runs=False)).splitlines()[-1])
tight bound R^2/gamma*^2 = 2
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from .numbers import approx, show, show_with_approx, vector
from .trace import alpha_text

if TYPE_CHECKING:
    from ..bounds import TightBound
    from ..data import Dataset
    from ..geometry import AffineMargin
    from ..trainer import Certificate

__all__ = ["bound_json", "bound_text"]


# --- JSON ----------------------------------------------------------------------------------


def bound_json(tb: TightBound) -> dict[str, Any]:
    """The bound (or the certificate) as one JSON object."""
    data = tb.data
    if not tb.separable:
        cert: Any = tb.separation
        return {"data": _data_json(data), "separable": False, **_cert_json(cert, data)}
    om = tb.margin
    out: dict[str, Any] = {
        "data": _data_json(data),
        "separable": True,
        "R2": om.radius_squared,
        "gamma2": om.gamma_squared,
        "u": [Fraction(v) for v in om.u],
        "u_integer": [Fraction(v) for v in om.u_integer],
        "support": [i + 1 for i in om.support],
        "weights": [Fraction(om.weights[i]) for i in om.support],
        "bound": om.bound,
        "verified": True,
        "method": om.method,
        "affine": None,
        "runs": [r.to_json() for r in tb.runs],
        "certificate": None,
    }
    if data.bias is not None:
        out["affine"] = _affine_json(tb.affine, tb.affine_note)
    return out


def _data_json(data: Dataset) -> dict[str, Any]:
    return {
        "name": data.name,
        "n": data.n,
        "d": data.d,
        "bias": data.bias.describe() if data.bias else None,
    }


def _cert_json(cert: Certificate, data: Dataset) -> dict[str, Any]:
    return {
        "R2": data.radius_squared,
        "certificate": {
            "alpha": [Fraction(a) for a in cert.alpha],
            "source": cert.source,
            "support": [i + 1 for i, a in enumerate(cert.alpha) if a],
            "verified": cert.verify(data),
            "bias_sum_zero": data.bias is not None,
        },
    }


def _affine_json(am: AffineMargin | None, note: str) -> dict[str, Any]:
    if am is None:
        return {"available": False, "note": note}
    return {
        "available": True,
        "exact": am.exact,
        "u": [Fraction(v) for v in am.u],
        "theta": Fraction(am.theta),
        "margin": Fraction(am.margin),
        "gamma2": Fraction(am.gamma_squared),
        "theta2_unit": Fraction(am.theta_squared_unit),
        "R2": Fraction(am.radius_squared),
        "c": Fraction(am.c),
        "augmented_bound": Fraction(am.augmented_bound),
    }


# --- text ----------------------------------------------------------------------------------


def _vec(v: tuple[Fraction, ...] | tuple[int, ...]) -> str:
    return vector([Fraction(x) for x in v], show)


def _approx(v: Fraction) -> str:
    return show_with_approx(v)


def _header(data: Dataset) -> str:
    bias = f", bias: {data.bias.describe()}" if data.bias else ""
    return f"data {data.name}: n={data.n}, d={data.d}{bias}"


def bound_text(tb: TightBound) -> str:
    """The bound as text: the margin, u*, the support, the affine margin and the runs
    (or the certificate that the data are not separable)."""
    if not tb.separable:
        cert: Any = tb.separation
        return _certificate_text(cert, tb.data)
    lines = _margin_lines(tb)
    if tb.data.bias is not None:
        lines += _affine_lines(tb.affine, tb.affine_note)
    if tb.runs:
        lines += _runs_lines(tb)
    return "\n".join(lines)


def _certificate_text(cert: Certificate, data: Dataset) -> str:
    lines = [
        _header(data),
        "NOT SEPARABLE through the origin: no w has y_i w.x_i > 0 for every i.",
        f"Gordan certificate (from {cert.source}), verified exactly:",
        f"  {alpha_text(cert.alpha)}",
        "  alpha >= 0, alpha != 0, sum_i alpha_i y_i x_i = 0",
    ]
    if cert.source == "zero point":
        i = next(i for i, a in enumerate(cert.alpha) if a)
        lines.append(f"  (point {i + 1} is the zero vector: y w.x = 0 for every w)")
    if data.bias is not None:
        lines.append(
            "  the bias coordinate gives sum_i alpha_i y_i = 0: the classes' convex hulls meet"
        )
    return "\n".join(lines)


def _margin_lines(tb: TightBound) -> list[str]:
    om = tb.margin
    direction = om.u_integer
    short = max(abs(v) for v in direction) < 10**6
    sup = om.support
    shown = ", ".join(f"{i + 1} ({show(om.weights[i])})" for i in sup[:12])
    more = f", ... ({len(sup)} in all)" if len(sup) > 12 else ""
    return [
        _header(tb.data),
        f"R^2 = {_approx(om.radius_squared)}   (max_i |x_i|^2 over the vectors trained on)",
        f"optimal margin through the origin: gamma*^2 = |p*|^2 = {_approx(om.gamma_squared)}",
        f"  u* = p* = {_vec(om.u)}" + (f"   direction {_vec(direction)}" if short else ""),
        f"  support points (weights): {shown}{more}",
        "  verified exactly: p* = sum_i lambda_i y_i x_i with lambda >= 0, sum 1, "
        "and every y_i u*.x_i >= |u*|^2",
        f"  method: {om.method}",
        f"tight bound R^2/gamma*^2 = {_approx(om.bound)}",
    ]


def _affine_lines(affine: AffineMargin | None, note: str) -> list[str]:
    if affine is None:
        return [f"affine margin on the original coordinates: {note}"]
    return [
        f"affine margin on the original coordinates (exact): u = {_vec(affine.u)}, "
        f"theta = {show(affine.theta)}, y_i (u.x_i + theta) >= {show(affine.margin)}",
        f"  unit u: gamma^2 = {_approx(affine.gamma_squared)}, "
        f"theta^2 = {_approx(affine.theta_squared_unit)}, "
        f"R^2 = {_approx(affine.radius_squared)}, c = {show(affine.c)}",
        "  augmented bound (R^2 + c^2)(1 + theta^2/c^2)/gamma^2 = "
        f"{_approx(affine.augmented_bound)}",
    ]


def _runs_lines(tb: TightBound) -> list[str]:
    from .tables import table

    om = tb.margin
    rows = [
        [
            r.rule,
            "-" if r.seed is None else r.seed,
            r.updates,
            approx(100 * Fraction(r.updates) / om.bound, 3) + "%",
            r.status,
        ]
        for r in tb.runs
    ]
    lines = [
        "updates of each rule, every update checked against u*:",
        table(
            ["rule", "seed", "updates", "of bound", "status"],
            rows,
            align=["left", "right", "right", "right", "left"],
            indent="  ",
        ),
    ]
    lines += [f"  {r.rule}: {r.violation}" for r in tb.runs if r.violation]
    return lines
