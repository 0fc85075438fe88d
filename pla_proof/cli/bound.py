"""``pla-proof bound DATA``: the optimal margin, the tight bound, and what the rules do.

Exit codes: 0 the bound was computed and every run stayed within it (each run is
monitored against u* at every update); 1 a run violated an invariant, or the
solver's answer failed its exact check (solver error); 2 bad input; 3 the data are
not separable (a verified Gordan certificate is printed) or a run hit ``--budget``.
"""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from ..render.numbers import approx, show_with_approx
from ..render.tables import table
from .common import (
    RULES,
    add_data_arguments,
    alpha_text,
    emit_json,
    fmt,
    fmt_vector,
    load_data,
    progress,
)

if TYPE_CHECKING:
    from ..data import Dataset
    from ..geometry import AffineMargin, OptimalMargin
    from ..trainer import Certificate

DEFAULT_BUDGET = 10_000


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_data_arguments(p)
    p.add_argument(
        "--seeds",
        type=int,
        default=3,
        help="number of seeds for the random rule (default 3: seeds 0, 1, 2)",
    )
    p.add_argument(
        "--budget",
        type=int,
        default=DEFAULT_BUDGET,
        help=f"maximum updates per run (default {DEFAULT_BUDGET})",
    )
    p.add_argument(
        "--no-runs", action="store_true", help="only the geometry: do not train with each rule"
    )


def run(args: argparse.Namespace) -> int:
    if args.seeds < 0:
        raise InputError(f"--seeds must be >= 0, got {args.seeds}")
    if args.budget < 0:
        raise InputError(f"--budget must be >= 0, got {args.budget}")
    data = load_data(args)
    from ..errors import SolverError
    from ..geometry import NotSeparable, OptimalMargin, affine_margin, separability
    from ..trainer import Certificate

    progress("computing the optimal margin")
    try:
        res = separability(data)
        affine: AffineMargin | None = None
        affine_note = ""
        if isinstance(res, OptimalMargin) and data.bias is not None:
            try:
                affine = affine_margin(data)
            except NotSeparable:  # cannot happen when the augmented data are separable
                affine_note = "the class hulls meet"
            if affine is None and not affine_note:
                affine_note = "unbounded (every label is the same)"
    except SolverError as exc:
        print(f"pla-proof bound: solver error: {exc}", file=sys.stderr)
        return 1
    if isinstance(res, Certificate):
        if args.json:
            emit_json({"data": _data_json(data), "separable": False, **_cert_json(res, data)})
        else:
            _print_certificate(res, data)
        return 3
    runs = [] if args.no_runs else _runs(data, res, args.seeds, args.budget)
    if args.json:
        emit_json(_json(data, res, affine, affine_note, runs))
    else:
        _print(data, res, affine, affine_note, runs)
    if any(r["status"] == "violation" for r in runs):
        return 1
    if any(r["status"] == "budget_exhausted" for r in runs):
        return 3
    return 0


def _runs(data: Dataset, om: OptimalMargin, seeds: int, budget: int) -> list[dict[str, Any]]:
    from ..trainer import train

    comp = om.comparator(data)
    cap = min(budget, int(om.bound) + 1)  # the monitor reports any step beyond the bound
    out = []
    for rule in RULES:
        for seed in range(seeds) if rule == "random" else [None]:
            progress(f"running rule {rule}" + ("" if seed is None else f", seed {seed}"))
            r = train(data, rule=rule, seed=seed or 0, budget=cap, comparator=comp)
            out.append(
                {
                    "rule": rule,
                    "seed": seed,
                    "updates": r.updates,
                    "status": r.status,
                    "violation": r.violation.describe() if r.violation is not None else None,
                }
            )
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


def _json(
    data: Dataset,
    om: OptimalMargin,
    affine: AffineMargin | None,
    note: str,
    runs: list[dict[str, Any]],
) -> dict[str, Any]:
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
        "runs": runs,
        "certificate": None,
    }
    if data.bias is not None:
        out["affine"] = _affine_json(affine, note)
    return out


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


def _vec(v: tuple[Fraction, ...] | tuple[int, ...]) -> str:
    return fmt_vector([Fraction(x) for x in v])


def _approx(v: Fraction) -> str:
    return show_with_approx(v)


def _print_header(data: Dataset) -> None:
    bias = f", bias: {data.bias.describe()}" if data.bias else ""
    print(f"data {data.name}: n={data.n}, d={data.d}{bias}")


def _print_certificate(cert: Certificate, data: Dataset) -> None:
    _print_header(data)
    print("NOT SEPARABLE through the origin: no w has y_i w.x_i > 0 for every i.")
    print(f"Gordan certificate (from {cert.source}), verified exactly:")
    print(f"  {alpha_text(cert.alpha)}")
    print("  alpha >= 0, alpha != 0, sum_i alpha_i y_i x_i = 0")
    if cert.source == "zero point":
        i = next(i for i, a in enumerate(cert.alpha) if a)
        print(f"  (point {i + 1} is the zero vector: y w.x = 0 for every w)")
    if data.bias is not None:
        print("  the bias coordinate gives sum_i alpha_i y_i = 0: the classes' convex hulls meet")


def _print(
    data: Dataset,
    om: OptimalMargin,
    affine: AffineMargin | None,
    note: str,
    runs: list[dict[str, Any]],
) -> None:
    _print_header(data)
    print(f"R^2 = {_approx(om.radius_squared)}   (max_i |x_i|^2 over the vectors trained on)")
    print(f"optimal margin through the origin: gamma*^2 = |p*|^2 = {_approx(om.gamma_squared)}")
    direction = om.u_integer
    short = max(abs(v) for v in direction) < 10**6
    print(f"  u* = p* = {_vec(om.u)}" + (f"   direction {_vec(direction)}" if short else ""))
    sup = om.support
    shown = ", ".join(f"{i + 1} ({fmt(om.weights[i])})" for i in sup[:12])
    more = f", ... ({len(sup)} in all)" if len(sup) > 12 else ""
    print(f"  support points (weights): {shown}{more}")
    print(
        "  verified exactly: p* = sum_i lambda_i y_i x_i with lambda >= 0, sum 1, "
        "and every y_i u*.x_i >= |u*|^2"
    )
    print(f"  method: {om.method}")
    print(f"tight bound R^2/gamma*^2 = {_approx(om.bound)}")
    if data.bias is not None:
        if affine is None:
            print(f"affine margin on the original coordinates: {note}")
        else:
            print(
                f"affine margin on the original coordinates (exact): u = {_vec(affine.u)}, "
                f"theta = {fmt(affine.theta)}, y_i (u.x_i + theta) >= {fmt(affine.margin)}"
            )
            print(
                f"  unit u: gamma^2 = {_approx(affine.gamma_squared)}, "
                f"theta^2 = {_approx(affine.theta_squared_unit)}, "
                f"R^2 = {_approx(affine.radius_squared)}, c = {fmt(affine.c)}"
            )
            print(
                "  augmented bound (R^2 + c^2)(1 + theta^2/c^2)/gamma^2 = "
                f"{_approx(affine.augmented_bound)}"
            )
    if not runs:
        return
    print("updates of each rule, every update checked against u*:")
    rows = [
        [
            r["rule"],
            "-" if r["seed"] is None else r["seed"],
            r["updates"],
            approx(100 * Fraction(r["updates"]) / om.bound, 3) + "%",
            r["status"],
        ]
        for r in runs
    ]
    print(
        table(
            ["rule", "seed", "updates", "of bound", "status"],
            rows,
            align=["left", "right", "right", "right", "left"],
            indent="  ",
        )
    )
    for r in runs:
        if r["violation"]:
            print(f"  {r['rule']}: {r['violation']}")
