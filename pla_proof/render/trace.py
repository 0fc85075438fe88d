"""A :class:`pla_proof.tracing.Trace` as text (one row per update) and as JSON.

>>> from pla_proof import load, trace
>>> t = trace(load("orthonormal:2"))
>>> print(trace_text(t).splitlines()[-1][:40])
converged after 2 updates; w_3 = (1, -1)
>>> trace_json(t)["steps"][1]["w"]
[Fraction(1, 1), Fraction(-1, 1)]
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from .numbers import show, vector

if TYPE_CHECKING:
    from ..data import Dataset
    from ..monitor import Comparator
    from ..tracing import Trace, TraceStep
    from ..trainer import Run

__all__ = ["alpha_text", "trace_json", "trace_text"]


def _value(v: Any) -> Any:
    """An exact value as a Fraction (intervals of float mode stay intervals)."""
    return Fraction(v) if isinstance(v, int | Fraction) and not isinstance(v, bool) else v


def _vec(v: Sequence[Any]) -> str:
    return vector(v, show)


def alpha_text(alpha: Any, limit: int = 20) -> str:
    """A certificate's weights: all of them for small data, else the nonzero ones.

    >>> alpha_text([1, 1, 0])
    'alpha = (1, 1, 0)'
    >>> alpha_text([0] * 30 + [Fraction(1, 2)])
    'alpha_31 = 1/2, others 0 (1 nonzero of 31)'
    """
    if len(alpha) <= limit:
        return "alpha = (" + ", ".join(show(a) for a in alpha) + ")"
    support = [i for i, a in enumerate(alpha) if a]
    shown = ", ".join(f"alpha_{i + 1} = {show(alpha[i])}" for i in support[:limit])
    more = ", ..." if len(support) > limit else ""
    return f"{shown}{more}, others 0 ({len(support)} nonzero of {len(alpha)})"


# --- JSON ----------------------------------------------------------------------------------


def trace_json(t: Trace) -> dict[str, Any]:
    """The run as one JSON object (exact values as strings under ``exact``)."""
    r, data = t.run, t.data
    comp = r.comparator
    out: dict[str, Any] = {
        "status": r.status,
        "updates": r.updates,
        "bound": r.bound,
        "strict": comp.strict if comp else False,
        "data": {
            "name": data.name,
            "n": data.n,
            "d": data.d,
            "bias": data.bias.describe() if data.bias else None,
        },
        "rule": r.rule,
        "seed": r.seed,
        "mode": r.mode,
        "budget": r.budget,
        "w": list(r.w),
        "w_b": _w_b_json(r, data),
        "comparator": None if comp is None else _comparator_json(comp),
        "steps": [_step_json(s) for s in t.steps],
        "choices": [j + 1 for j in r.choices],
        "violation": None,
        "certificate": None,
    }
    if r.mode == "float":
        out["max_missed"] = r.max_missed
    if r.violation is not None:
        out["violation"] = _violation_json(r)
    if r.certificate is not None:
        out["certificate"] = {
            "alpha": [Fraction(a) for a in r.certificate.alpha],
            "source": r.certificate.source,
            "support": [i + 1 for i, a in enumerate(r.certificate.alpha) if a],
        }
    return out


def _w_b_json(r: Run, data: Dataset) -> dict[str, Any] | None:
    if data.bias is None:
        return None
    return {
        "w": [Fraction(v) for v in data.bias.split(r.w)[0]],
        "b": Fraction(data.bias.split(r.w)[1]),
        "decision": "w.x - b" if data.bias.name == "minus-one" else "w.x + b",
    }


def _comparator_json(comp: Comparator) -> dict[str, Any]:
    return {
        "u": [Fraction(v) for v in comp.u],
        "g": Fraction(comp.gamma),
        "uu": Fraction(comp.uu),
        "gamma_squared": Fraction(comp.gamma_squared_unit),
        "R2": Fraction(comp.radius_squared),
        "source": comp.source,
    }


def _violation_json(r: Run) -> dict[str, Any]:
    v = r.violation
    assert v is not None
    return {
        "lemma": v.lemma,
        "title": v.title,
        "statement": v.statement,
        "k": v.k,
        "j": None if v.j is None else v.j + 1,
        "lhs": _value(v.lhs),
        "op": v.op,
        "rhs": _value(v.rhs),
        "replay": ",".join(str(j + 1) for j in v.choices),
    }


def _step_json(s: TraceStep) -> dict[str, Any]:
    """One update: the point picked, w_{k+1} after it, the run vocabulary measured, and
    (exact mode) every run-time lemma instantiated on it."""
    v = s.values
    out: dict[str, Any] = {
        "k": s.k,
        "j": s.j + 1,
        "w": None if s.w is None else [_value(x) for x in s.w],
        "trigger": _value(v["t"]),
        "u_w": _value(v["pu1"]),
        "k_g": _value(v["k"] * v["g"]),
        "w_norm2": _value(v["n1"]),
        "k_R2": _value(v["k"] * v["R2"]),
        "values": {name: _value(val) for name, val in v.items()},
    }
    if s.checked:
        out["checks"] = [c.to_json() for c in s.checks]
    return out


# --- text ----------------------------------------------------------------------------------


def trace_text(t: Trace) -> str:
    """The run as text: the data, the comparator and the theorem's bound, one row per
    update, and how the run ended."""
    r, data = t.run, t.data
    bias = f", bias: {data.bias.describe()}" if data.bias else ""
    lines = [f"data {data.name}: n={data.n}, d={data.d}{bias}; rule {r.rule}, {r.mode} arithmetic"]
    if r.comparator is not None:
        lines += _comparator_lines(r.comparator)
        lines.append(_updates_table(t))
    else:
        lines.append("no comparator: invariants not checked per update")
    if r.mode == "float":
        lines.append(f"float guard: a violation smaller than {r.max_missed:.3g} could go unnoticed")
    lines += _ending_lines(r, data)
    return "\n".join(lines)


def _comparator_lines(comp: Comparator) -> list[str]:
    rel = "<" if comp.strict else "≤"
    ge = ">" if comp.strict else "≥"
    return [
        f"comparator u = {_vec(comp.u)} [{comp.source}], "
        f"‖u‖² = {show(comp.uu)}; margin g = {show(comp.gamma)} (y_i (u·x_i) {ge} g for "
        f"every i), unit margin γ = g/‖u‖ with γ² = {show(comp.gamma_squared_unit)}; "
        f"R² = max_i ‖x_i‖² = {show(comp.radius_squared)}",
        f"theorem: k {rel} R²/γ² = R²·‖u‖²/g² = {show(comp.bound)}",
        "k: the update, w_k → w_{k+1} = w_k + y_j x_j (w_1 = 0); j: the point picked, "
        "misclassified: y_j (w_k·x_j) ≤ 0",
    ]


def _updates_table(t: Trace) -> str:
    from .tables import table

    cols = ["k", "j", "y_j (w_k·x_j)", "u·w_{k+1}", "k·g", "‖w_{k+1}‖²", "k·R²", "w_{k+1}"]
    rows = []
    for s in t.steps:
        v = s.values
        rows.append(
            [
                s.k,
                s.j + 1,
                show(v["t"]),
                show(v["pu1"]),
                show(v["k"] * v["g"]),
                show(v["n1"]),
                show(v["k"] * v["R2"]),
                "" if s.w is None else _vec(s.w),
            ]
        )
    return table(cols, rows, indent="  ")


def _ending_lines(r: Run, data: Dataset) -> list[str]:
    """How the run ended: converged (and the bias convention's w and b), a violation,
    the budget, or a certificate that the data are not separable."""
    if r.status == "converged":
        held = "every invariant held" if r.comparator is not None else "final separation verified"
        lines = [
            f"converged after {r.updates} updates; w_{r.updates + 1} = {_vec(r.w)} separates "
            f"every point strictly (y_i (w·x_i) > 0 for every i); {held}"
        ]
        if data.bias is not None:
            w0, b = data.bias.split(r.w)
            sign = "-" if data.bias.name == "minus-one" else "+"
            lines.append(
                f"in the {data.bias.name} convention: w = {_vec(w0)}, "
                f"b = {show(b)}; decision w·x {sign} b > 0"
            )
        return lines
    if r.status == "violation" and r.violation is not None:
        bad = r.violation
        return [
            f"VIOLATION: {bad.describe()}",
            f"replay: --replay {','.join(str(j + 1) for j in bad.choices)}",
        ]
    if r.status == "budget_exhausted":
        return [f"budget exhausted: {r.updates} updates without separating the data"]
    if r.status == "not_separable" and r.certificate is not None:
        return [_not_separable_line(r)]
    return []


def _not_separable_line(r: Run) -> str:
    cert = r.certificate
    assert cert is not None
    alpha = alpha_text(cert.alpha)
    if cert.source == "cycle":
        how = f"the weights repeated after {r.updates} updates"
    else:
        how = (
            f"the budget of {r.budget} updates ran out, and the exact separability "
            f"check found a certificate ({cert.source})"
        )
    return f"not separable: {how}; {alpha} ≥ 0 gives Σ_i alpha_i y_i x_i = 0 (verified exactly)"
