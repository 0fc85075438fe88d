"""``pla-proof trace DATA``: a monitored run, one row per update."""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..render.tables import table
from .common import (
    add_data_arguments,
    add_run_arguments,
    alpha_text,
    certificate_when_stuck,
    comparator_from_args,
    emit_json,
    fmt,
    load_data,
    progress,
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


def run(args: argparse.Namespace) -> int:
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
    return EXIT[result.status]


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
            "gamma": Fraction(comp.gamma),
            "R2": Fraction(comp.radius_squared),
            "source": comp.source,
        },
        "steps": [
            {
                "k": s.k,
                "j": s.j + 1,
                "trigger": s.values["t"],
                "u_w": s.values["pu1"],
                "k_gamma": s.values["k"] * s.values["g"],
                "w_norm2": s.values["n1"],
                "k_R2": s.values["k"] * s.values["R2"],
            }
            for s in r.steps
        ],
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
    return Fraction(v) if isinstance(v, int | Fraction) else v


def print_run(r: Run, data: Dataset) -> None:
    comp = r.comparator
    bias = f", bias: {data.bias.describe()}" if data.bias else ""
    print(f"data {data.name}: n={data.n}, d={data.d}{bias}; rule {r.rule}, {r.mode} arithmetic")
    if comp is not None:
        rel = "<" if comp.strict else "<="
        print(
            f"comparator u = ({', '.join(fmt(v) for v in comp.u)}) [{comp.source}], "
            f"gamma = {fmt(comp.gamma)}, |u|^2 = {fmt(comp.uu)}, R^2 = {fmt(comp.radius_squared)}; "
            f"theorem: k {rel} R^2|u|^2/gamma^2 = {fmt(comp.bound)}"
        )
        cols = ["k", "j", "y_j w_k.x_j", "u.w", "k*gamma", "|w|^2", "k*R^2", "bound"]
        bound = fmt(comp.bound)
        rows = [
            [
                s.k,
                s.j + 1,
                fmt(s.values["t"]),
                fmt(s.values["pu1"]),
                fmt(s.values["k"] * s.values["g"]),
                fmt(s.values["n1"]),
                fmt(s.values["k"] * s.values["R2"]),
                bound,
            ]
            for s in r.steps
        ]
        print(table(cols, rows, indent="  "))
    else:
        print("no comparator: invariants not checked per update")
    if r.mode == "float":
        print(f"float guard: a violation smaller than {r.max_missed:.3g} could go unnoticed")
    w = ", ".join(fmt(v) for v in r.w)
    if r.status == "converged":
        held = "every invariant held" if comp is not None else "final separation verified"
        print(
            f"converged after {r.updates} updates; w = ({w}) separates every point strictly; {held}"
        )
        if data.bias is not None:
            w0, b = data.bias.split(r.w)
            sign = "-" if data.bias.name == "minus-one" else "+"
            print(
                f"in the {data.bias.name} convention: w = ({', '.join(fmt(v) for v in w0)}), "
                f"b = {fmt(b)}; decision w.x {sign} b > 0"
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
        print(
            f"not separable: {how}; {alpha} >= 0 gives sum_i alpha_i y_i x_i = 0 (verified exactly)"
        )
