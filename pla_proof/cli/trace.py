"""``pla-proof trace DATA``: a monitored run, one row per update."""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..render.tables import table
from .common import (
    add_coq_certificate_argument,
    add_data_arguments,
    add_run_arguments,
    alpha_text,
    certificate_when_stuck,
    check_coq_path,
    comparator_from_args,
    emit_json,
    fmt,
    fmt_vector,
    load_data,
    progress,
    write_coq_certificate,
)

if TYPE_CHECKING:
    from ..data import Dataset
    from ..trainer import Run

EXIT = {"converged": 0, "violation": 1, "budget_exhausted": 3, "not_separable": 3}


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_data_arguments(p)
    add_run_arguments(p)
    p.add_argument(
        "--mode", choices=["exact", "float"], default="exact", help="number mode (default exact)"
    )
    p.add_argument(
        "--replay", metavar="J1,J2,...", help="replay a recorded order of 1-based point indices"
    )
    add_coq_certificate_argument(p, "the run (its choices, the final w, the comparator)")


def run(args: argparse.Namespace) -> int:
    if args.coq_certificate:
        check_coq_path(args.coq_certificate)
    data = load_data(args)
    from ..trainer import train  # after the data: bad input is refused before SymPy loads

    comp = comparator_from_args(args, data)
    rule: Any = args.rule
    if args.replay:
        from ..errors import InputError

        try:
            order = [int(v) - 1 for v in args.replay.replace(",", " ").split()]
        except ValueError:
            raise InputError("--replay needs comma-separated 1-based point indices") from None

        def rule(violators: list[int], k: int) -> int:
            if k - 1 >= len(order):
                return violators[0]
            j = order[k - 1]
            if j not in violators:
                raise InputError(f"--replay: point {j + 1} is not a violator at update {k}")
            return j

    result = train(
        data,
        rule=rule,
        seed=args.seed,
        budget=args.budget,
        comparator=comp,
        strict=args.strict,
        gamma=args.gamma,
        mode=args.mode,
    )
    if args.replay:
        result.rule = "replay"
    if result.status == "budget_exhausted":
        cert = certificate_when_stuck(data)
        if cert is not None:
            result.status, result.certificate = "not_separable", cert
    progress("writing the output")
    if args.json:
        emit_json(run_to_json(result, data))
    else:
        print_run(result, data)
    if args.coq_certificate:
        _certificate(args.coq_certificate, result, data)
    return EXIT[result.status]


def _certificate(path: str, r: Run, data: Dataset) -> None:
    """The run's Coq certificate (a run that separated the data, in exact mode)."""
    if r.status != "converged" or r.mode != "exact":
        print(
            f"pla-proof trace: no Coq certificate written: the run {r.status.replace('_', ' ')}"
            + (" (float mode)" if r.mode != "exact" else ""),
            file=sys.stderr,
        )
        return
    from ..proof.certificate import run_certificate

    u = r.comparator.u if r.comparator is not None else r.w
    text = run_certificate(data.X, data.y, r.choices, r.w, u, name=data.name)
    write_coq_certificate(path, text)


def run_to_json(r: Run, data: Dataset) -> dict[str, Any]:
    """The run as one JSON object (exact values as strings under ``exact``)."""
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
        "w_b": None
        if data.bias is None
        else {
            "w": [Fraction(v) for v in data.bias.split(r.w)[0]],
            "b": Fraction(data.bias.split(r.w)[1]),
            "decision": "w.x - b" if data.bias.name == "minus-one" else "w.x + b",
        },
        "comparator": None
        if comp is None
        else {
            "u": [Fraction(v) for v in comp.u],
            "g": Fraction(comp.gamma),
            "uu": Fraction(comp.uu),
            "gamma_squared": Fraction(comp.gamma_squared_unit),
            "R2": Fraction(comp.radius_squared),
            "source": comp.source,
        },
        "steps": [_step_json(r, s, w) for s, w in zip(r.steps, _path(r), strict=False)],
        "choices": [j + 1 for j in r.choices],
        "violation": None,
        "certificate": None,
    }
    if r.mode == "float":
        out["max_missed"] = r.max_missed
    v = r.violation
    if v is not None:
        out["violation"] = {
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
    if r.certificate is not None:
        out["certificate"] = {
            "alpha": [Fraction(a) for a in r.certificate.alpha],
            "source": r.certificate.source,
            "support": [i + 1 for i, a in enumerate(r.certificate.alpha) if a],
        }
    return out


def _value(v: Any) -> Any:
    """An exact value as a Fraction (intervals of float mode stay intervals)."""
    return Fraction(v) if isinstance(v, int | Fraction) and not isinstance(v, bool) else v


def _path(r: Run) -> list[tuple[Fraction, ...] | None]:
    """w_{k+1} after each update (``None`` where the record carries no data)."""
    try:
        return list(r.w_path()[1:])
    except ValueError:
        return [None] * len(r.steps)


def _step_json(r: Run, s: Any, w_next: tuple[Fraction, ...] | None) -> dict[str, Any]:
    """One update: the point picked, w_{k+1} after it, the run vocabulary measured, and
    (exact mode) every run-time lemma instantiated on it."""
    v = s.values
    comp = r.comparator
    out: dict[str, Any] = {
        "k": s.k,
        "j": s.j + 1,
        "w": None if w_next is None else [_value(x) for x in w_next],
        "trigger": _value(v["t"]),
        "u_w": _value(v["pu1"]),
        "k_g": _value(v["k"] * v["g"]),
        "w_norm2": _value(v["n1"]),
        "k_R2": _value(v["k"] * v["R2"]),
        "values": {name: _value(val) for name, val in v.items()},
    }
    if r.mode == "exact" and comp is not None:
        from ..proof.runtime import RUNTIME_LEMMAS
        from .explain import instantiate

        out["checks"] = [instantiate(lem, v, comp.strict).to_json() for lem in RUNTIME_LEMMAS]
    return out


def print_run(r: Run, data: Dataset) -> None:
    comp = r.comparator
    bias = f", bias: {data.bias.describe()}" if data.bias else ""
    print(f"data {data.name}: n={data.n}, d={data.d}{bias}; rule {r.rule}, {r.mode} arithmetic")
    if comp is not None:
        rel = "<" if comp.strict else "≤"
        ge = ">" if comp.strict else "≥"
        print(
            f"comparator u = {fmt_vector(comp.u)} [{comp.source}], "
            f"‖u‖² = {fmt(comp.uu)}; margin g = {fmt(comp.gamma)} (y_i (u·x_i) {ge} g for "
            f"every i), unit margin γ = g/‖u‖ with γ² = {fmt(comp.gamma_squared_unit)}; "
            f"R² = max_i ‖x_i‖² = {fmt(comp.radius_squared)}"
        )
        print(f"theorem: k {rel} R²/γ² = R²·‖u‖²/g² = {fmt(comp.bound)}")
        print(
            "k: the update, w_k → w_{k+1} = w_k + y_j x_j (w_1 = 0); j: the point picked, "
            "misclassified: y_j (w_k·x_j) ≤ 0"
        )
        cols = ["k", "j", "y_j (w_k·x_j)", "u·w_{k+1}", "k·g", "‖w_{k+1}‖²", "k·R²", "w_{k+1}"]
        rows = []
        for s, w_next in zip(r.steps, _path(r), strict=False):
            v = s.values
            rows.append(
                [
                    s.k,
                    s.j + 1,
                    fmt(v["t"]),
                    fmt(v["pu1"]),
                    fmt(v["k"] * v["g"]),
                    fmt(v["n1"]),
                    fmt(v["k"] * v["R2"]),
                    "" if w_next is None else fmt_vector(w_next),
                ]
            )
        print(table(cols, rows, indent="  "))
    else:
        print("no comparator: invariants not checked per update")
    if r.mode == "float":
        print(f"float guard: a violation smaller than {r.max_missed:.3g} could go unnoticed")
    w = fmt_vector(r.w)
    if r.status == "converged":
        held = "every invariant held" if comp is not None else "final separation verified"
        print(
            f"converged after {r.updates} updates; w_{r.updates + 1} = {w} separates every point "
            f"strictly (y_i (w·x_i) > 0 for every i); {held}"
        )
        if data.bias is not None:
            w0, b = data.bias.split(r.w)
            sign = "-" if data.bias.name == "minus-one" else "+"
            print(
                f"in the {data.bias.name} convention: w = {fmt_vector(w0)}, "
                f"b = {fmt(b)}; decision w·x {sign} b > 0"
            )
    elif r.status == "violation" and r.violation is not None:
        bad = r.violation
        print(f"VIOLATION: {bad.describe()}")
        print(f"replay: --replay {','.join(str(j + 1) for j in bad.choices)}")
    elif r.status == "budget_exhausted":
        print(f"budget exhausted: {r.updates} updates without separating the data")
    elif r.status == "not_separable" and r.certificate is not None:
        cert = r.certificate
        alpha = alpha_text(cert.alpha)
        if cert.source == "cycle":
            how = f"the weights repeated after {r.updates} updates"
        else:
            how = (
                f"the budget of {r.budget} updates ran out, and the exact separability "
                f"check found a certificate ({cert.source})"
            )
        print(f"not separable: {how}; {alpha} ≥ 0 gives Σ_i alpha_i y_i x_i = 0 (verified exactly)")
