"""``pla-proof explain [DATA]``: seed 000's proof walked through on a real run.

Every run-time lemma of :mod:`pla_proof.proof.statements` is instantiated with
the numbers the monitor measured at each update (``Run.steps[i].values``) and
evaluated by the lemma's own compiled relation; the slack of each inequality
is shown.  The final step of the theorem, its corollaries (angle, dual form,
bias, unit ball) and the separation of the returned ``w`` follow.  Plain text
by default; ``--markdown`` writes a hand-out.  Non-separable data end with a
clear statement and exit 3.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from ..render.numbers import approx, sqrt_approx
from .common import (
    add_data_arguments,
    add_run_arguments,
    alpha_text,
    certificate_when_stuck,
    comparator_from_args,
    emit_json,
    fmt,
    load_data,
)

if TYPE_CHECKING:
    from ..data import Dataset
    from ..proof.statements import Lemma
    from ..trainer import Run

EXIT = {"converged": 0, "violation": 1, "budget_exhausted": 3, "not_separable": 3}

#: The textbook reading of each run-time lemma (the statement itself is printed too).
READING = {
    "DEF_TRIGGER": "the picked point is misclassified: y_j w_k.x_j <= 0",
    "A1_j": "margin of the picked point: y_j u.x_j >= gamma",
    "A2_j": "radius of the picked point: |x_j|^2 <= R^2",
    "L1": "progress identity: u.w_{k+1} = u.w_k + y_j u.x_j",
    "L2": "progress inequality: u.w_{k+1} - u.w_k >= gamma",
    "L3": "P_k: u.w_{k+1} >= k gamma",
    "L4": "Cauchy-Schwarz: (u.w_{k+1})^2 <= |u|^2 |w_{k+1}|^2",
    "L5": "norm expansion: |w_{k+1}|^2 = |w_k|^2 + 2 y_j w_k.x_j + |x_j|^2",
    "L6": "growth inequality: |w_{k+1}|^2 - |w_k|^2 <= R^2",
    "L7": "Q_k: |w_{k+1}|^2 <= k R^2",
    "T": "bound so far: k gamma^2 <= R^2 |u|^2",
}


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_data_arguments(p, data_required=False)
    add_run_arguments(p)
    p.add_argument(
        "--steps",
        type=int,
        default=10,
        metavar="N",
        help="show at most N updates in detail (default 10): the first and the last ones; "
        "the summary covers every update",
    )
    p.add_argument("--markdown", action="store_true", help="write a Markdown hand-out")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")


# --- instantiating a lemma ---------------------------------------------------------------


@dataclass(frozen=True)
class Instance:
    """One lemma evaluated on one update's numbers."""

    lemma: str
    title: str
    statement: str
    lhs: Any
    op: str
    rhs: Any
    holds: bool

    @property
    def slack(self) -> Any:
        """How much room the relation left (0 for an identity that holds)."""
        if self.op in ("<=", "<"):
            return self.rhs - self.lhs
        if self.op in (">=", ">"):
            return self.lhs - self.rhs
        return self.lhs - self.rhs

    def to_json(self) -> dict[str, Any]:
        return {
            "lemma": self.lemma,
            "statement": self.statement,
            "lhs": _exact(self.lhs),
            "op": self.op,
            "rhs": _exact(self.rhs),
            "slack": _exact(self.slack),
            "holds": self.holds,
        }


def instantiate(lem: Lemma, values: dict[str, Any], strict: bool) -> Instance:
    """Evaluate ``lem``'s own compiled relation on measured values."""
    from ..proof.obligations import text
    from ..proof.statements import compare

    lhs_fn, op, rhs_fn = lem.evaluator(strict=strict)
    lhs = lhs_fn(**{n: values[n] for n in lhs_fn.__pla_args__})  # type: ignore[attr-defined]
    rhs = rhs_fn(**{n: values[n] for n in rhs_fn.__pla_args__})  # type: ignore[attr-defined]
    return Instance(
        lem.id, lem.title, text(lem.statement(strict=strict)), lhs, op, rhs, compare(lhs, op, rhs)
    )


# --- the explanation as data ---------------------------------------------------------------


@dataclass
class Explanation:
    data: Dataset
    run: Run
    strict: bool
    steps: list[tuple[int, int, list[Instance]]]
    end: list[Instance]
    facts: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.run.status,
            "data": {
                "name": self.data.name,
                "n": self.data.n,
                "d": self.data.d,
                "bias": self.data.bias.describe() if self.data.bias else None,
            },
            "rule": self.run.rule,
            "strict": self.strict,
            "updates": self.run.updates,
            "steps": [
                {"k": k, "j": j + 1, "checks": [c.to_json() for c in checks]}
                for k, j, checks in self.steps
            ],
            "end": [c.to_json() for c in self.end],
            "facts": {key: v if key in _COUNTS else _jsonable(v) for key, v in self.facts.items()},
        }


#: facts that are counts or indices (JSON integers); every other number is exact
_COUNTS = frozenset({"k", "alpha", "alpha_sum", "worst_point"})


def _exact(v: Any) -> Any:
    return Fraction(v) if isinstance(v, int | Fraction) and not isinstance(v, bool) else v


def _jsonable(v: Any) -> Any:
    if isinstance(v, list | tuple):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {k: _jsonable(x) for k, x in v.items()}
    return _exact(v)


def explain_run(data: Dataset, run: Run) -> Explanation:
    """Instantiate every lemma on every update of a converged, monitored run."""
    from ..numbers import dot
    from ..proof.statements import END_LEMMAS, RUNTIME_LEMMAS

    comp = run.comparator
    if comp is None:
        raise InputError("the run has no comparator to instantiate the lemmas with")
    strict = comp.strict
    steps = [
        (s.k, s.j, [instantiate(lem, s.values, strict) for lem in RUNTIME_LEMMAS])
        for s in run.steps
    ]
    # the returned w: margin m = min_i y_i w.x_i, evaluated by the end lemmas
    margins = [yi * dot(run.w, x) for x, yi in zip(data.X, data.y, strict=True)]
    m = min(margins)
    end = [instantiate(lem, {"m": m}, strict) for lem in END_LEMMAS]
    last = run.steps[-1].values
    k = run.updates
    g, R2, uu = comp.gamma, comp.radius_squared, comp.uu
    pu1, n1 = Fraction(last["pu1"]), Fraction(last["n1"])  # type: ignore[arg-type]
    facts: dict[str, Any] = {
        "k": k,
        "g": g,
        "R2": R2,
        "uu": uu,
        "u": list(comp.u),
        "u_source": comp.source,
        "w": list(run.w),
        "u_dot_w": pu1,
        "w_norm2": n1,
        "k2g2": k * k * g * g,
        "pu1_squared": pu1 * pu1,
        "uu_n1": uu * n1,
        "uu_kR2": uu * k * R2,
        "kg2": k * g * g,
        "R2uu": R2 * uu,
        "bound": comp.bound,
        "bound_slack": comp.bound - k,
        "gamma_unit_squared": g * g / uu,
        "min_margin": m,
        "worst_point": margins.index(m) + 1,
        "cos2": pu1 * pu1 / (uu * n1),
        "cos2_bound": k * g * g / (uu * R2),
        "alpha": list(run.alpha),
        "alpha_sum": sum(run.alpha),
        "dual_w": _dual(data, run.alpha),
    }
    if data.bias is not None:
        w, b = data.bias.split(run.w)
        raw = data.without_bias()
        facts["bias"] = {
            "convention": data.bias.describe(),
            "w": list(w),
            "b": b,
            "c": data.bias.c,
            "R2_raw": raw.radius_squared,
            "R2_hat": data.radius_squared,
            "c2": data.bias.c**2,
        }
    return Explanation(data, run, strict, steps, end, facts)


def _dual(data: Dataset, alpha: list[int]) -> list[Fraction]:
    out = [Fraction(0)] * data.d
    for a, x, yi in zip(alpha, data.X, data.y, strict=True):
        for c in range(data.d):
            out[c] += a * yi * x[c]
    return out


# --- rendering -------------------------------------------------------------------------------


def _vec(v: list[Any]) -> str:
    return "(" + ", ".join(fmt(x) for x in v) + ")"


def _approx(v: Fraction) -> str:
    return approx(v)


def _sqrt(v: Fraction) -> str:
    return sqrt_approx(v)


Shown = list[tuple[int, int, list[Instance]] | None]


def _selected(ex: Explanation, max_steps: int) -> tuple[Shown, int]:
    """At most ``max_steps`` updates in detail: the first half and the last; ``None``
    marks where the others were left out."""
    n = len(ex.steps)
    if n <= max_steps:
        return list(ex.steps), 0
    head, tail = (max_steps + 1) // 2, max_steps // 2
    shown: Shown = [*ex.steps[:head], None, *ex.steps[n - tail :]]
    return shown, n - max_steps


def _summary(ex: Explanation) -> list[tuple[str, str, bool, Any, int]]:
    """Per lemma: statement, held everywhere, smallest slack and the update where it occurred."""
    from ..proof.statements import RUNTIME_LEMMAS

    out = []
    for idx, lem in enumerate(RUNTIME_LEMMAS):
        inst = [(k, checks[idx]) for k, _, checks in ex.steps]
        k_min, tight = min(inst, key=lambda p: p[1].slack)
        out.append((lem.id, tight.statement, all(c.holds for _, c in inst), tight.slack, k_min))
    return out


def _md(cell: str) -> str:
    """Escape a table cell for Markdown (``|`` would end the cell)."""
    return cell.replace("|", "\\|")


def _op_word(op: str) -> str:
    return {"==": "="}.get(op, op)


def render_text(ex: Explanation, max_steps: int) -> str:
    f, data, run = ex.facts, ex.data, ex.run
    rel = "<" if ex.strict else "<="
    lines = [
        f"The proof of seed 000's Theorem 3, on a real run: {data.name} "
        f"(n = {data.n} points, d = {data.d} coordinates trained on"
        + (f", bias {data.bias.describe()}" if data.bias else "")
        + f"), rule {run.rule}",
        "",
        "Assumptions, with this run's numbers",
        f"  comparator u = {_vec(f['u'])} ({f['u_source']}), |u|^2 = {fmt(f['uu'])}",
        f"  A1 margin:  y_i u.x_i {'>' if ex.strict else '>='} g = {fmt(f['g'])} for every i "
        f"(unit margin gamma = g/|u|, gamma^2 = {fmt(f['gamma_unit_squared'])}, "
        f"gamma = {_sqrt(f['gamma_unit_squared'])})",
        f"  A2 radius:  |x_i|^2 <= R^2 = {fmt(f['R2'])} for every i (R = {_sqrt(f['R2'])})",
        f"  Theorem 3 promises k {rel} R^2/gamma^2 = R^2 |u|^2/g^2 = {fmt(f['bound'])}"
        + (f" = {_approx(f['bound'])}" if f["bound"].denominator != 1 else "")
        + " updates.",
        "",
        f"The run: {run.updates} update(s), choices j = "
        + ", ".join(str(j + 1) for j in run.choices[:40])
        + (" ..." if len(run.choices) > 40 else ""),
        "",
    ]
    shown, skipped = _selected(ex, max_steps)
    for item in shown:
        if item is None:
            lines.append(f"... {skipped} more updates (smallest slacks below) ...")
            lines.append("")
            continue
        k, j, checks = item
        yj = data.y[j]
        lines.append(
            f"Update k = {k}: point j = {j + 1} (y_j = {yj:+d}), w_{k + 1} = w_{k} "
            f"{'+' if yj > 0 else '-'} x_{j + 1}"
        )
        for c in checks:
            mark = "holds" if c.holds else "FAILS"
            lines.append(f"  {c.lemma:<12} {READING.get(c.lemma, c.title)}")
            lines.append(
                f"  {'':<12}   {c.statement}:  {fmt(c.lhs)} {_op_word(c.op)} {fmt(c.rhs)}"
                f"   slack {fmt(c.slack)}  {mark}"
            )
        lines.append("")
    lines.append("Every lemma at every update: the smallest slack")
    for lem_id, statement, ok, slack, k_min in _summary(ex):
        lines.append(
            f"  {lem_id:<12} {statement:<26} {'held' if ok else 'FAILED'} at every update; "
            f"smallest slack {fmt(slack)} (k = {k_min})"
        )
    lines.append("")
    lines += _final_text(ex)
    return "\n".join(lines)


def _final_text(ex: Explanation) -> list[str]:
    f = ex.facts
    k = f["k"]
    lt = "<" if ex.strict else "<="
    lines = [
        f"The final step (k = {k} updates)",
        f"  (1) from P_k:       u.w_{k + 1} = {fmt(f['u_dot_w'])} {'>' if ex.strict else '>='} "
        f"k g = {fmt(k * f['g'])}, so (k g)^2 = {fmt(f['k2g2'])} {lt} "
        f"(u.w)^2 = {fmt(f['pu1_squared'])}",
        f"  (2) Cauchy-Schwarz: (u.w)^2 = {fmt(f['pu1_squared'])} <= |u|^2 |w|^2 = "
        f"{fmt(f['uu_n1'])}",
        f"  (3) from Q_k:       |w|^2 = {fmt(f['w_norm2'])} <= k R^2 = {fmt(k * f['R2'])}, "
        f"so |u|^2 |w|^2 <= k R^2 |u|^2 = {fmt(f['uu_kR2'])}",
        f"  chain: k^2 g^2 = {fmt(f['k2g2'])} {lt} {fmt(f['pu1_squared'])} <= {fmt(f['uu_n1'])} "
        f"<= {fmt(f['uu_kR2'])} = k R^2 |u|^2",
        f"  divide by k > 0: k g^2 = {fmt(f['kg2'])} {lt} R^2 |u|^2 = {fmt(f['R2uu'])}",
        f"  Theorem 3:  k = {k} {lt} R^2/gamma^2 = {fmt(f['bound'])}"
        + (f" = {_approx(f['bound'])}" if f["bound"].denominator != 1 else "")
        + f";  slack {fmt(f['bound_slack'])}"
        + (f" = {_approx(f['bound_slack'])}" if f["bound_slack"].denominator != 1 else "")
        + " updates"
        + ("  (the bound is attained)" if f["bound_slack"] == 0 else ""),
    ]
    for c in ex.end:
        lines.append(
            f"  {c.lemma}: the returned w = {_vec(f['w'])} separates: min_i y_i w.x_i = "
            f"{fmt(c.lhs)} > 0 (point {f['worst_point']})  {'holds' if c.holds else 'FAILS'}"
        )
    lines += [
        "",
        "Corollaries on this run",
        f"  COS  cos^2 angle(w, u) = (u.w)^2/(|u|^2 |w|^2) = {fmt(f['cos2'])} >= k gamma^2/R^2 = "
        f"{fmt(f['cos2_bound'])};  cos = {_sqrt(f['cos2'])} >= sqrt(k) gamma/R = "
        f"{_sqrt(f['cos2_bound'])}",
        f"  DUAL w = sum_i alpha_i y_i x_i with alpha = {_vec(f['alpha'])}: "
        f"{_vec(f['dual_w'])} {'=' if f['dual_w'] == f['w'] else '!='} w; "
        f"sum alpha_i = {f['alpha_sum']} {'=' if f['alpha_sum'] == k else '!='} k",
    ]
    if f["R2"] <= 1:
        lines.append(
            f"  UNIT the data lie in the unit ball (R^2 = {fmt(f['R2'])} <= 1): "
            f"k = {k} {lt} 1/gamma^2 = {fmt(1 / f['gamma_unit_squared'])}"
        )
    else:
        lines.append(
            f"  UNIT scaled into the unit ball (x / R): gamma' = gamma/R, and k {lt} 1/gamma'^2 = "
            f"R^2/gamma^2 = {fmt(f['bound'])} -- the same bound"
        )
    if "bias" in f:
        b = f["bias"]
        lines.append(
            f"  BIAS {b['convention']}: w = {_vec(b['w'])}, b = {fmt(b['b'])}; "
            f"decision <(x, c), w-hat> = w.x + b; R-hat^2 = {fmt(b['R2_hat'])} = "
            f"R^2 + c^2 = {fmt(b['R2_raw'])} + {fmt(b['c2'])}"
        )
    return lines


def render_markdown(ex: Explanation, max_steps: int) -> str:
    f, data, run = ex.facts, ex.data, ex.run
    lt = "<" if ex.strict else "≤"
    ge = ">" if ex.strict else "≥"
    out = [
        f"# The Perceptron convergence proof on `{data.name}`",
        "",
        f"Seed 000's Theorem 3, checked step by step on a real run: {data.n} points in "
        f"{data.d} coordinates"
        + (f" ({data.bias.describe()})" if data.bias else "")
        + f", selection rule *{run.rule}*, exact rational arithmetic. "
        "Every number below was measured on the run and every relation is the proof's own "
        "statement (`pla_proof.proof.statements`), evaluated on those numbers.",
        "",
        "## Assumptions",
        "",
        f"- Comparator u = {_vec(f['u'])} ({f['u_source']}), |u|² = {fmt(f['uu'])}.",
        f"- **A1 (margin)**: y_i u·x_i {ge} g = {fmt(f['g'])} for every i; the unit margin is "
        f"γ = g/|u|, γ² = {fmt(f['gamma_unit_squared'])} (γ ≈ {_sqrt(f['gamma_unit_squared'])}).",
        f"- **A2 (radius)**: ‖x_i‖² ≤ R² = {fmt(f['R2'])} (R ≈ {_sqrt(f['R2'])}).",
        f"- **Theorem 3** promises k {lt} R²/γ² = R²|u|²/g² = {fmt(f['bound'])}"
        + (f" ≈ {_approx(f['bound'])}" if f["bound"].denominator != 1 else "")
        + " updates.",
        "",
        "## The updates",
        "",
    ]
    shown, skipped = _selected(ex, max_steps)
    for item in shown:
        if item is None:
            out += [f"*… {skipped} more updates (see the summary).*", ""]
            continue
        k, j, checks = item
        yj = data.y[j]
        out += [
            f"### Update k = {k}: point {j + 1} (y = {yj:+d})",
            "",
            "| lemma | what it says | statement | left | | right | slack |",
            "|---|---|---|---:|:---:|---:|---:|",
        ]
        for c in checks:
            reading = _md(READING.get(c.lemma, c.title))
            out.append(
                f"| {c.lemma} | {reading} | `{c.statement}` | {fmt(c.lhs)} "
                f"| {_op_word(c.op)} | {fmt(c.rhs)} | {fmt(c.slack)}"
                f"{'' if c.holds else ' **FAILS**'} |"
            )
        out.append("")
    out += [
        "## Summary: the smallest slack of each lemma",
        "",
        "| lemma | statement | held at every update | smallest slack | at k |",
        "|---|---|:---:|---:|---:|",
    ]
    for lem_id, statement, ok, slack, k_min in _summary(ex):
        out.append(
            f"| {lem_id} | `{statement}` | {'yes' if ok else '**no**'} | {fmt(slack)} | {k_min} |"
        )
    out += ["", "## The final step", "", "```"]
    out += [line.strip() for line in _final_text(ex)[1:7]]
    out += ["```", ""]
    rest = _final_text(ex)[7:]
    out += [
        f"- {line.strip()}"
        for line in rest
        if line.strip() and line.strip() != "Corollaries on this run"
    ]
    out += [
        "",
        "## Exercises",
        "",
        "1. Which lemma had the least slack? Why is the slack of L1 and L5 always 0?",
        "2. Re-run with `--rule maxviol` or `--rule random`: which numbers change, "
        "which bound does not?",
        "3. The trigger is `y w·x ≤ 0`, not `< 0`. What would happen at the first update (w = 0)?",
        "",
        f"*Produced by `pla-proof explain {data.name} --markdown`; the symbolic proof of every "
        "step is checked by `pla-proof verify`.*",
    ]
    return "\n".join(out)


def _not_separable_text(data: Dataset, run: Run) -> str:
    lines = [
        f"{data.name}: the data are NOT linearly separable"
        + (
            " (through the origin, with the bias coordinate)"
            if data.bias
            else " through the origin"
        )
        + " -- the Perceptron never stops ("
        + (
            f"it cycled after {run.updates} updates)."
            if run.certificate is None or run.certificate.source == "cycle"
            else f"the budget of {run.budget} updates ran out; the exact separability "
            "check found the certificate below)."
        ),
        "Assumption A1 fails for every u, so Theorem 3 says nothing about this data set.",
    ]
    cert = run.certificate
    if cert is not None:
        lines.append(
            "Certificate (Gordan's alternative): "
            + alpha_text(cert.alpha)
            + ": alpha >= 0, alpha != 0, with sum_i alpha_i y_i x_i = 0 "
            + ("(checked exactly)" if cert.verify(data) else "(check FAILED)")
            + ": a u with y_i u.x_i > 0 for all i would give 0 = u.0 = sum_i alpha_i y_i u.x_i > 0."
        )
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    if args.steps < 0:
        raise InputError(f"--steps must be >= 0, got {args.steps}")
    data = load_data(args)
    from ..trainer import train

    comp = comparator_from_args(args, data)
    result = train(
        data,
        rule=args.rule,
        seed=args.seed,
        budget=args.budget,
        comparator=comp,
        strict=args.strict,
        gamma=args.gamma,
    )
    if result.status == "budget_exhausted":
        cert = certificate_when_stuck(data)
        if cert is not None:
            result.status, result.certificate = "not_separable", cert
    out = sys.stdout if args.output is None else _open(args.output)
    try:
        if result.status == "not_separable":
            if args.json:
                emit_json(
                    {
                        "status": result.status,
                        "updates": result.updates,
                        "certificate": None
                        if result.certificate is None
                        else [Fraction(a) for a in result.certificate.alpha],
                    },
                    out,
                )
            else:
                print(_not_separable_text(data, result), file=out)
            return EXIT[result.status]
        if result.status == "budget_exhausted":
            msg = (
                f"{data.name}: no conclusion -- the budget of {result.budget} updates ran out "
                "before the Perceptron stopped (and no repeated weight vector proved the data "
                "non-separable). Raise --budget."
            )
            if args.json:
                emit_json({"status": result.status, "updates": result.updates, "message": msg}, out)
            else:
                print(msg, file=out)
            return EXIT[result.status]
        if result.status == "violation" and result.violation is not None:
            if args.json:
                emit_json({"status": result.status, "violation": result.violation.describe()}, out)
            else:
                print(
                    f"{data.name}: a lemma FAILED on this run: {result.violation.describe()}",
                    file=out,
                )
            return EXIT[result.status]
        ex = explain_run(data, result)
        if args.json:
            emit_json(ex.to_json(), out)
        elif args.markdown:
            print(render_markdown(ex, args.steps), file=out)
        else:
            print(render_text(ex, args.steps), file=out)
        ok = all(c.holds for _, _, checks in ex.steps for c in checks) and all(
            c.holds for c in ex.end
        )
        return 0 if ok else 1
    finally:
        if out is not sys.stdout:
            out.close()


def _open(path: str) -> Any:
    try:
        return open(path, "w", encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{path}: cannot write ({exc.strerror})") from None
