"""Counterexample files: the data as CSV (label last, readable by
:func:`pla_proof.data.read_csv` when labels are -1/+1) plus a JSON file with the
whole case, the order and the failure, which ``pla-proof check VARIANT --replay``
runs again.

>>> from fractions import Fraction as F
>>> case = Case(((F(1, 2),),), (1,), (F(1),), F(1, 2), {"w0": (F(0),), "c": F(3)})
>>> case_from_json(case_to_json(case)) == case
True
"""

from __future__ import annotations

import json
import os
import re
import shlex
from fractions import Fraction
from typing import Any

from ...errors import InputError
from ..boundary.calls import call_hook
from ..protocol.claim import Failure
from ..protocol.variant import Case, Order, Record, Variant
from .report import Counterexample
from .run import run_case

__all__ = [
    "case_from_json",
    "case_to_json",
    "load_counterexample",
    "replay_commands",
    "save_counterexample",
    "slug",
]


def _q(v: Fraction) -> str:
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


def _enc(v: Any) -> Any:
    if isinstance(v, bool | str) or v is None:
        return v
    if isinstance(v, int):
        return v
    if isinstance(v, Fraction):
        return {"q": _q(v)}
    if isinstance(v, list | tuple):
        return [_enc(a) for a in v]
    if isinstance(v, dict):
        return {str(k): _enc(a) for k, a in v.items()}
    return {"repr": repr(v)}


def _dec(v: Any) -> Any:
    if isinstance(v, dict):
        if set(v) == {"q"}:
            return Fraction(v["q"])
        return {k: _dec(a) for k, a in v.items()}
    if isinstance(v, list):
        return tuple(_dec(a) for a in v)
    return v


def case_to_json(case: Case) -> dict[str, Any]:
    """The case as a JSON-ready dict (exact numbers as strings)."""
    return {
        "name": case.name,
        "X": [[_q(v) for v in x] for x in case.X],
        "y": list(case.y),
        "u": [_q(v) for v in case.u],
        "gamma": _q(case.gamma),
        "params": _enc(dict(case.params)),
    }


def case_from_json(obj: dict[str, Any]) -> Case:
    """Inverse of :func:`case_to_json` (``InputError`` on a malformed object)."""
    try:
        X = tuple(tuple(Fraction(v) for v in x) for x in obj["X"])
        y = tuple(int(v) for v in obj["y"])
        u = tuple(Fraction(v) for v in obj["u"])
        gamma = Fraction(obj["gamma"])
        params = _dec(obj.get("params", {}))
    except (KeyError, TypeError, ValueError, ZeroDivisionError) as exc:
        raise InputError(f"malformed case in counterexample file ({exc})") from None
    if not X or len(X) != len(y):
        raise InputError("malformed case in counterexample file (points and labels)")
    return Case(X, y, u, gamma, params, str(obj.get("name", "case")))


def order_to_json(order: Order) -> dict[str, Any]:
    return {"rule": order.rule, "seed": order.seed, "picks": list(order.picks)}


def order_from_json(obj: dict[str, Any]) -> Order:
    try:
        return Order(
            str(obj["rule"]), int(obj.get("seed", 0)), tuple(int(v) for v in obj.get("picks", ()))
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"malformed order in counterexample file ({exc})") from None


def slug(spec: str) -> str:
    """A file-name-safe form of a variant spec."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", spec).strip("_") or "variant"


def replay_commands(
    spec: str, variant: Variant, ce: Counterexample, csv_path: str, json_path: str
) -> dict[str, str | None]:
    """``{"check": ..., "trace": ... or None}``: commands that replay a counterexample
    (the file records the mode it was found in; ``check --replay`` reads it)."""
    args = getattr(variant, "cli_args", None)
    named = args() if callable(args) else [spec]
    check = " ".join(shlex.quote(p) for p in ["pla-proof", "check", *named, "--replay", json_path])
    trace = None
    args = call_hook(variant.trace_args, "trace_args", ce.case)
    if args is not None:
        parts = ["pla-proof", "trace", csv_path, *args]
        if ce.record.choices:
            parts += ["--replay", ",".join(str(j + 1) for j in ce.record.choices)]
        trace = " ".join(shlex.quote(p) for p in parts)
    return {"check": check, "trace": trace}


def fact_of(spec: str, prop: str, ce: Counterexample, mode: str = "exact") -> dict[str, Any]:
    """The counterexample as the shared database keeps it (and as its ``.json`` file
    holds it, with the replay commands): the variant as written, the property, the mode,
    the failure, the case, the order and the choices made."""
    return {
        "variant": spec,
        "property": prop,
        "mode": mode,
        "failure": ce.failure.describe(),
        "case": case_to_json(ce.case),
        "order": order_to_json(ce.order),
        "choices": [j + 1 for j in ce.record.choices],
    }


def save_counterexample(
    spec: str, variant: Variant, prop: str, ce: Counterexample, out: str, mode: str = "exact"
) -> dict[str, Any]:
    """Write ``<out>/<variant>-<prop>.csv`` and ``.json`` (``mode``: the mode the
    claim failed in, which a replay uses); return paths and commands."""
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as exc:
        raise InputError(f"{out}: cannot create the output directory ({exc.strerror})") from None
    base = os.path.join(out, f"{slug(spec)}-{slug(prop)}")
    csv_path, json_path = base + ".csv", base + ".json"
    cmds = replay_commands(spec, variant, ce, csv_path, json_path)
    d = ce.case.d
    lines = [
        f"# counterexample to {prop} for variant {spec}: {ce.failure.describe()}",
        f"# order: {ce.order.describe()}; replay: {cmds['check']}",
        ",".join([*(f"x{i + 1}" for i in range(d)), "y"]),
    ]
    lines += [
        ",".join([*(_q(v) for v in x), str(yi)]) for x, yi in zip(ce.case.X, ce.case.y, strict=True)
    ]
    obj = {**fact_of(spec, prop, ce, mode), "replay": cmds}
    try:
        with open(csv_path, "w", encoding="utf-8") as fh:
            fh.write("\n".join(lines) + "\n")
        with open(json_path, "w", encoding="utf-8") as fh:
            json.dump(obj, fh, indent=1)
            fh.write("\n")
    except OSError as exc:
        raise InputError(f"{out}: cannot write counterexample files ({exc.strerror})") from None
    return {"csv": csv_path, "json": json_path, **cmds}


def load_counterexample(path: str) -> tuple[Case, Order, dict[str, Any]]:
    """Read a counterexample JSON file written by :func:`save_counterexample`."""
    try:
        with open(path, encoding="utf-8") as fh:
            obj = json.load(fh)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"{path}: not a counterexample JSON file ({exc})") from None
    if not isinstance(obj, dict) or "case" not in obj:
        raise InputError(f"{path}: not a counterexample JSON file (no 'case')")
    return case_from_json(obj["case"]), order_from_json(obj.get("order", {"rule": "cyclic"})), obj


def replay(variant: Variant, case: Case, order: Order) -> tuple[Record, dict[str, Failure | None]]:
    """Run the variant on a saved case again and evaluate its claim (as the search ran
    it: :func:`~pla_proof.variants.checking.run.run_case`)."""
    return run_case(variant, case, order)
