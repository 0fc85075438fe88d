"""``pla-proof explain [DATA]``: Kalyanakrishnan's proof walked through on a real run.

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
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from ..render.numbers import approx, show, show_with_approx, sqrt_approx
from .common import (
    add_data_arguments,
    add_run_arguments,
    alpha_text,
    certificate_when_stuck,
    comparator_from_args,
    emit_json,
    load_data,
)

if TYPE_CHECKING:
    from ..data import Dataset
    from ..proof.runtime import RunLemma
    from ..proof.statements import Lemma
    from ..trainer import Run

EXIT = {"converged": 0, "violation": 1, "budget_exhausted": 3, "not_separable": 3}


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
    p.add_argument(
        "--html",
        metavar="FILE",
        help="write the lecture page: one self-contained HTML file stepping through the run",
    )
    p.add_argument(
        "--figures",
        metavar="DIR",
        help="write every figure that applies (PNG) into DIR (needs the plot extra)",
    )


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


def _text(lem: Any, strict: bool) -> str:
    """A lemma in the proof's notation: generated for the run-time lemmas (no SymPy)."""
    if hasattr(type(lem), "notation"):
        out: str = lem.notation(strict)
        return out
    from ..proof import notation

    return notation.text(lem, strict)


def _latex(lem: Any, strict: bool) -> str:
    if hasattr(type(lem), "notation"):
        out: str = lem.latex(strict)
        return out
    from ..proof import notation

    return notation.latex(lem, strict)


def instantiate(lem: Lemma | RunLemma, values: dict[str, Any], strict: bool) -> Instance:
    """Evaluate ``lem``'s own compiled relation on measured values."""
    from ..proof.runtime import compare

    lhs_fn, op, rhs_fn = lem.evaluator(strict=strict)
    lhs = lhs_fn(**{n: values[n] for n in lhs_fn.__pla_args__})  # type: ignore[attr-defined]
    rhs = rhs_fn(**{n: values[n] for n in rhs_fn.__pla_args__})  # type: ignore[attr-defined]
    return Instance(lem.id, lem.title, _text(lem, strict), lhs, op, rhs, compare(lhs, op, rhs))


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
    from ..proof.runtime import END_LEMMAS, RUNTIME_LEMMAS

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


# --- numbers -------------------------------------------------------------------------------


def _num(v: Any) -> str:
    """One format for every number of a relation: the exact value, a decimal beside it."""
    return show_with_approx(v)


def _sqrt(v: Fraction) -> str:
    return sqrt_approx(v)


def _vec(v: Sequence[Any]) -> str:
    from ..render.numbers import vector

    return vector(v, _num)


# --- what the text says, in the proof's notation -------------------------------------------

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


def _summary(ex: Explanation) -> list[tuple[RunLemma, bool, Any, int]]:
    """Per lemma: held everywhere, smallest slack and the update where it occurred."""
    from ..proof.runtime import RUNTIME_LEMMAS

    out = []
    for idx, lem in enumerate(RUNTIME_LEMMAS):
        inst = [(k, checks[idx]) for k, _, checks in ex.steps]
        k_min, tight = min(inst, key=lambda p: p[1].slack)
        out.append((lem, all(c.holds for _, c in inst), tight.slack, k_min))
    return out


def _op(op: str) -> str:
    return {"==": "=", "<=": "≤", ">=": "≥"}.get(op, op)


def _symbols(ex: Explanation) -> list[tuple[str, str, str]]:
    """(text, LaTeX, meaning) of every symbol the statements use, plus γ and R."""
    from ..proof.runtime import END_LEMMAS, RUNTIME_LEMMAS
    from ..proof.symbols import SYMBOLS

    names: list[str] = []
    for lem in (*RUNTIME_LEMMAS, *END_LEMMAS):
        for name in lem.symbols(ex.strict):
            if name not in names:
                names.append(name)
    names += [n for n in ("gamma", "R") if n not in names]
    out = [
        (
            "u",
            "u",
            f"the comparator: a separating vector of any length (here {ex.facts['u_source']})",
        )
    ]
    out += [(SYMBOLS[n].text, SYMBOLS[n].latex, SYMBOLS[n].meaning) for n in names]
    return out


def _rule_lines(ex: Explanation) -> list[str]:
    """The returned w as a decision rule in the data's own terms, and any criterion a
    source states for the data, checked exactly."""
    from ..data.builtins import describe
    from ..geometry.certify import certify
    from ..numbers import dot

    data, run = ex.data, ex.run
    named = describe(data.name, data.original_d)
    names = named.features or tuple(f"x{i + 1}" for i in range(data.original_d))
    if data.bias is not None:
        w, b = data.bias.split(run.w)
        sign = -1 if data.bias.name == "minus-one" else 1
        offset = sign * Fraction(b)
    else:
        w, offset = tuple(run.w), Fraction(0)
    pos, neg = named.labels
    if (pos, neg) != ("+1", "-1"):
        pos, neg = f"{pos} (+1)", f"{neg} (-1)"
    lines = [
        f"w_{run.updates + 1} = {_vec(run.w)}: decide {pos} when "
        f"{_linear(w, names, offset)} > 0, else {neg}"
    ]
    for crit in named.criteria:
        u = [*crit.weights, -crit.threshold / data.bias.c] if data.bias else list(crit.weights)
        cert = certify(data, u)
        margins = [yi * dot(cert.w, x) for x, yi in zip(data.X, data.y, strict=True)]
        rule = f"{_linear(crit.weights, names, Fraction(0))} > {_num(crit.threshold)}"
        if cert.separates and cert.bound is not None:
            lines.append(
                f"{crit.source}, {rule}, separates the data too: y_i (u·x_i) = "
                + ", ".join(_num(m) for m in margins)
                + f" > 0 with u = {_vec(u)}; as a comparator: g = {_num(cert.margin)}, "
                f"bound R²·‖u‖²/g² = {_num(cert.bound)} (u* gives the tightest, "
                f"{_num(ex.facts['bound'])})"
            )
        else:
            lines.append(
                f"{crit.source}, {rule}, does NOT separate the data: point "
                f"{(cert.first_misclassified or 0) + 1} has y_i (u·x_i) = "
                f"{_num(cert.first_value or 0)} <= 0"
            )
    return lines


def _linear(w: Sequence[Any], names: Sequence[str], offset: Fraction) -> str:
    """``10A + 10B − 5C + 10D + 10E`` (zero terms left out), plus a constant if any."""
    out = ""
    for a, name in zip(w, names, strict=True):
        a = Fraction(a)
        if a == 0:
            continue
        mag = abs(a)
        coef = "" if mag == 1 else (show(mag) if mag.denominator == 1 else f"({show(mag)})")
        sep = "·" if len(name) > 1 and coef else ""
        term = f"{coef}{sep}{name}"
        out += (" − " if a < 0 else " + ") + term if out else ("−" if a < 0 else "") + term
    if offset != 0 or not out:
        out += (" − " if offset < 0 else " + ") + _num(abs(offset)) if out else _num(offset)
    return out


def _data_rows(ex: Explanation, limit: int = 12) -> list[list[str]] | None:
    """The data as a table (raw columns and the label's name), for small data sets."""
    from ..data.builtins import describe

    data = ex.data
    if data.n > limit or data.original_d > 8:
        return None
    named = describe(data.name, data.original_d)
    names = named.features or tuple(f"x{i + 1}" for i in range(data.original_d))
    word = {1: named.labels[0], -1: named.labels[1]}
    rows = [["i", *names, "y"]]
    for i, (x, yi) in enumerate(zip(data.without_bias().X, data.y, strict=True)):
        rows.append(
            [
                str(i + 1),
                *(str(v) for v in x),
                f"{yi:+d}" + (f" ({word[yi]})" if word[yi] not in ("+1", "-1") else ""),
            ]
        )
    return rows


def render_text(ex: Explanation, max_steps: int) -> str:

    f, data, run = ex.facts, ex.data, ex.run
    rel = "<" if ex.strict else "≤"
    ge = ">" if ex.strict else "≥"
    lines = [
        f"The proof of Kalyanakrishnan's Theorem 3, on a real run: {data.name} "
        f"({data.n} points in {data.original_d} coordinates"
        + (f", trained on (x, {data.bias.c}): {data.bias.describe()}" if data.bias else "")
        + f"), rule {run.rule}, exact rational arithmetic",
        "",
    ]
    table = _data_rows(ex)
    if table is not None:
        widths = [max(len(r[c]) for r in table) for c in range(len(table[0]))]
        lines.append("The data")
        lines += [
            "  " + "  ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)) for r in table
        ]
        lines.append("")
    lines.append("Symbols")
    lines += [f"  {t}: {meaning}" for t, _, meaning in _symbols(ex)]
    lines += [
        "",
        "Assumptions, with this run's numbers",
        f"  comparator u = {_vec(f['u'])} ({f['u_source']}), ‖u‖² = {_num(f['uu'])}",
        f"  A1 margin:  y_i (u·x_i) {ge} g = {_num(f['g'])} for every i; unit margin "
        f"γ = g/‖u‖, γ² = g²/‖u‖² = {_num(f['gamma_unit_squared'])} (γ ≈ "
        f"{_sqrt(f['gamma_unit_squared'])})",
        f"  A2 radius:  ‖x_i‖² ≤ R² = {_num(f['R2'])} for every i (R ≈ {_sqrt(f['R2'])})",
        f"  Theorem 3 promises k {rel} R²/γ² = R²·‖u‖²/g² = {_num(f['bound'])} updates.",
        "",
        f"The run: {run.updates} update(s), picking j = "
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
            f"Update k = {k}: point j = {j + 1} (y_j = {yj:+d}) is misclassified, so "
            f"w_{k + 1} = w_{k} {'+' if yj > 0 else '−'} x_{j + 1} = {_vec(run.w_after(k))}"
        )
        for c in checks:
            mark = "holds" if c.holds else "FAILS"
            lines.append(f"  {c.lemma:<12} {c.title}")
            lines.append(
                f"  {'':<12}   {c.statement}:  {_num(c.lhs)} {_op(c.op)} {_num(c.rhs)}"
                f"   slack {_num(c.slack)}  {mark}"
            )
        lines.append("")
    lines.append("Every lemma at every update: the smallest slack")
    for lem, ok, slack, k_min in _summary(ex):
        lines.append(
            f"  {lem.id:<12} {_text(lem, ex.strict):<44} "
            f"{'held' if ok else 'FAILED'} at every update; smallest slack {_num(slack)} "
            f"(k = {k_min})"
        )
    lines.append("")
    lines += _final_text(ex)
    lines += ["", "The learned rule, in the data's own terms"]
    lines += [f"  {line}" for line in _rule_lines(ex)]
    return "\n".join(lines)


def _final_text(ex: Explanation) -> list[str]:
    f = ex.facts
    k = f["k"]
    lt = "<" if ex.strict else "≤"
    gt = ">" if ex.strict else "≥"
    w = f"w_{k + 1}"
    lines = [
        f"The final step (k = {k} updates, weights {w})",
        f"  (1) from L3: u·{w} = {_num(f['u_dot_w'])} {gt} k·g = {_num(k * f['g'])}, so "
        f"(k·g)² = {_num(f['k2g2'])} {lt} (u·{w})² = {_num(f['pu1_squared'])}",
        f"  (2) from L4: (u·{w})² = {_num(f['pu1_squared'])} ≤ ‖u‖²·‖{w}‖² = {_num(f['uu_n1'])}",
        f"  (3) from L7: ‖{w}‖² = {_num(f['w_norm2'])} ≤ k·R² = {_num(k * f['R2'])}, so "
        f"‖u‖²·‖{w}‖² ≤ k·R²·‖u‖² = {_num(f['uu_kR2'])}",
        f"  chain: k²·g² = {_num(f['k2g2'])} {lt} {_num(f['pu1_squared'])} ≤ {_num(f['uu_n1'])}"
        f" ≤ {_num(f['uu_kR2'])} = k·R²·‖u‖²",
        f"  divide by k > 0: k·g² = {_num(f['kg2'])} {lt} R²·‖u‖² = {_num(f['R2uu'])}",
        f"  Theorem 3:  k = {k} {lt} R²/γ² = {_num(f['bound'])};  slack {_num(f['bound_slack'])}"
        " updates" + ("  (the bound is attained)" if f["bound_slack"] == 0 else ""),
    ]
    for c in ex.end:
        lines.append(
            f"  {c.lemma}: the returned {w} = {_vec(f['w'])} separates: m = min_i y_i ({w}·x_i) = "
            f"{_num(c.lhs)} > 0 (point {f['worst_point']})  {'holds' if c.holds else 'FAILS'}"
        )
    lines += [
        "",
        "Corollaries on this run",
        f"  COS  cos²∠({w}, u) = (u·{w})²/(‖u‖²·‖{w}‖²) = {_num(f['cos2'])} ≥ k·γ²/R² = "
        f"{_num(f['cos2_bound'])};  cos ≈ {_sqrt(f['cos2'])} ≥ √k·γ/R ≈ "
        f"{_sqrt(f['cos2_bound'])}",
        f"  DUAL {w} = Σ_i α_i y_i x_i with α = ({', '.join(str(a) for a in f['alpha'])}): "
        f"{_vec(f['dual_w'])} {'=' if f['dual_w'] == f['w'] else '≠'} {w}; "
        f"Σ_i α_i = {f['alpha_sum']} {'=' if f['alpha_sum'] == k else '≠'} k",
    ]
    if f["R2"] <= 1:
        lines.append(
            f"  UNIT the data lie in the unit ball (R² = {_num(f['R2'])} ≤ 1): "
            f"k = {k} {lt} 1/γ² = {_num(1 / f['gamma_unit_squared'])}"
        )
    else:
        lines.append(
            f"  UNIT scaled into the unit ball (x/R): γ' = γ/R, and k {lt} 1/γ'² = "
            f"R²/γ² = {_num(f['bound'])} -- the same bound"
        )
    if "bias" in f:
        b = f["bias"]
        minus = ex.data.bias is not None and ex.data.bias.name == "minus-one"
        sign = "−" if minus else "+"
        lines.append(
            f"  BIAS {b['convention']}: w = {_vec(b['w'])}, b = {_num(b['b'])}; "
            f"decision ⟨(x, c), ŵ⟩ = w·x {sign} b; "
            f"R̂² = {_num(b['R2_hat'])} = R² + c² = {_num(b['R2_raw'])} + {_num(b['c2'])}"
        )
    return lines


# --- Markdown: the hand-out, with LaTeX maths --------------------------------------------


def _tex(latex: str) -> str:
    """LaTeX for a Markdown table: ``\\|`` (a pipe, which would end the cell) as ``\\Vert``."""
    return latex.replace(r"\|", r"\Vert ")


def _md_num(v: Any) -> str:
    return _num(v)


def render_markdown(
    ex: Explanation, max_steps: int, figures: dict[str, str] | None = None, base: str = "."
) -> str:
    from ..proof.runtime import RUNTIME_LEMMAS

    f, data, run = ex.facts, ex.data, ex.run
    lt = r"<" if ex.strict else r"\le"
    ge = r">" if ex.strict else r"\ge"
    out = [
        f"# The Perceptron convergence proof on `{data.name}`",
        "",
        f"Kalyanakrishnan's Theorem 3, checked step by step on a real run: {data.n} points in "
        f"{data.original_d} coordinates"
        + (f" (trained on $(x, {data.bias.c})$: {data.bias.describe()})" if data.bias else "")
        + f", selection rule *{run.rule}*, exact rational arithmetic. "
        "Every number below was measured on the run and every relation is the proof's own "
        "statement, evaluated on those numbers.",
        "",
    ]
    table = _data_rows(ex)
    if table is not None:
        out += ["## The data", ""]
        out.append("| " + " | ".join(table[0]) + " |")
        out.append("|" + "---:|" * len(table[0]))
        out += ["| " + " | ".join(r) + " |" for r in table[1:]]
        out.append("")
    out += ["## Symbols", "", "| symbol | meaning |", "|---|---|"]
    out += [f"| ${_tex(tex)}$ | {_md(meaning)} |" for _, tex, meaning in _symbols(ex)]
    out += [
        "",
        "## Assumptions",
        "",
        f"- Comparator $u = {_tex_vec(f['u'])}$ ({f['u_source']}), $\\Vert u\\Vert^2 = "
        f"{_tex_num(f['uu'])}$.",
        f"- **A1 (margin)**: $y_i\\,(u\\cdot x_i) {ge} g = {_tex_num(f['g'])}$ for every $i$; "
        f"the unit margin is $\\gamma = g/\\Vert u\\Vert$, $\\gamma^2 = "
        f"{_tex_num(f['gamma_unit_squared'])}$ "
        f"($\\gamma \\approx {_sqrt(f['gamma_unit_squared'])}$).",
        f"- **A2 (radius)**: $\\Vert x_i\\Vert^2 \\le R^2 = {_tex_num(f['R2'])}$ "
        f"($R \\approx {_sqrt(f['R2'])}$).",
        f"- **Theorem 3** promises $k {lt} R^2/\\gamma^2 = R^2\\,\\Vert u\\Vert^2/g^2 = "
        f"{_tex_num(f['bound'])}$ updates.",
        "",
    ]
    if figures:
        out += ["## Figures", ""]
        for kind, path in figures.items():
            if kind == "page":
                out.append(f"- The lecture page: [{os.path.basename(path)}]({_rel(path, base)})")
            else:
                out += [f"![{kind}]({_rel(path, base)})", ""]
        out.append("")
    out += ["## The updates", ""]
    shown, skipped = _selected(ex, max_steps)
    for item in shown:
        if item is None:
            out += [f"*… {skipped} more updates (see the summary).*", ""]
            continue
        k, j, checks = item
        yj = data.y[j]
        out += [
            f"### Update $k = {k}$: point $j = {j + 1}$ ($y_j = {yj:+d}$)",
            "",
            f"$w_{{{k + 1}}} = w_{{{k}}} {'+' if yj > 0 else '-'} x_{{{j + 1}}} = "
            f"{_tex_vec(run.w_after(k))}$",
            "",
            "| lemma | what it says | statement | left | | right | slack |",
            "|---|---|---|---:|:---:|---:|---:|",
        ]
        for lem, c in zip(RUNTIME_LEMMAS, checks, strict=True):
            out.append(
                f"| {c.lemma} | {_md(c.title)} | {_tex(_latex(lem, ex.strict))} | "
                f"{_md_num(c.lhs)} | {_op(c.op)} | {_md_num(c.rhs)} | {_md_num(c.slack)}"
                f"{'' if c.holds else ' **FAILS**'} |"
            )
        out.append("")
    out += [
        "## Summary: the smallest slack of each lemma",
        "",
        "| lemma | statement | held at every update | smallest slack | at $k$ |",
        "|---|---|:---:|---:|---:|",
    ]
    for lem, ok, slack, k_min in _summary(ex):
        out.append(
            f"| {lem.id} | {_tex(_latex(lem, ex.strict))} | {'yes' if ok else '**no**'} "
            f"| {_md_num(slack)} | {k_min} |"
        )
    out += ["", "## The final step", ""]
    out += [
        f"- {line.strip()}"
        for line in _final_text(ex)[1:]
        if line.strip() and line.strip() != "Corollaries on this run"
    ]
    out += ["", "## The learned rule", ""]
    out += [f"- {line}" for line in _rule_lines(ex)]
    out += [
        "",
        "## Exercises",
        "",
        "1. Which lemma had the least slack? Why is the slack of L1 and L5 always 0?",
        "2. Re-run with `--rule maxviol` or `--rule random`: which numbers change, "
        "which bound does not?",
        r"3. The trigger is $y_j\,(w_k\cdot x_j) \le 0$, not $< 0$. What would happen at the "
        "first update ($w_1 = 0$)?",
        "",
        f"*Produced by `pla-proof explain {data.name} --markdown`; the symbolic proof of every "
        "step is checked by `pla-proof verify`.*",
    ]
    return "\n".join(out)


def _md(cell: str) -> str:
    """Escape a table cell for Markdown (``|`` would end the cell)."""
    return cell.replace("|", "\\|")


def _tex_num(v: Any) -> str:
    v = Fraction(v)
    if v.denominator == 1:
        return str(v.numerator)
    sign = "-" if v < 0 else ""
    return f"{sign}\\tfrac{{{abs(v.numerator)}}}{{{v.denominator}}} \\approx {approx(v)}"


def _tex_vec(v: Sequence[Any]) -> str:
    return "(" + ", ".join(str(Fraction(x)) for x in v) + ")"


def _rel(path: str, base: str) -> str:
    return os.path.relpath(path, base).replace(os.sep, "/")


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
            + ": alpha ≥ 0, alpha ≠ 0, with Σ_i alpha_i y_i x_i = 0 "
            + ("(checked exactly)" if cert.verify(data) else "(check FAILED)")
            + ": a u with y_i (u·x_i) > 0 for every i would give "
            "0 = u·0 = Σ_i alpha_i y_i (u·x_i) > 0."
        )
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    if args.steps < 0:
        raise InputError(f"--steps must be >= 0, got {args.steps}")
    data = load_data(args)
    from ..trainer import train  # after the data: bad input is refused before SymPy loads

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
            for path in _write_extras(args, data, result).values():
                print(f"wrote {path}", file=sys.stderr)
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
        written = _write_extras(args, data, result)
        if args.json:
            emit_json(ex.to_json(), out)
        elif args.markdown:
            base = os.path.dirname(os.path.abspath(args.output)) if args.output else os.getcwd()
            print(render_markdown(ex, args.steps, figures=written, base=base), file=out)
        elif written and args.output is None:
            for path in written.values():
                print(f"wrote {path}", file=out)
        else:
            print(render_text(ex, args.steps), file=out)
        ok = all(c.holds for _, _, checks in ex.steps for c in checks) and all(
            c.holds for c in ex.end
        )
        return 0 if ok else 1
    finally:
        if out is not sys.stdout:
            out.close()


def _write_extras(args: argparse.Namespace, data: Dataset, result: Run) -> dict[str, str]:
    """The page (``--html``) and the figures (``--figures``): what was written, by name."""
    written: dict[str, str] = {}
    if args.figures:
        from ..render import figures

        figures.require_matplotlib()
        try:
            os.makedirs(args.figures, exist_ok=True)
        except OSError as exc:
            raise InputError(f"{args.figures}: cannot create ({exc.strerror})") from None
        kinds = figures.applicable(data)
        if result.status != "converged":  # only the updates can be drawn: no margin, no bound
            kinds = tuple(k for k in kinds if k == "hyperplane")
        for kind in kinds:
            path = os.path.join(args.figures, f"{kind}.png")
            written[kind] = figures.write(kind, data, result, path, seed=args.seed)
    if args.html:
        from ..render.page import render_page

        page = render_page(data, result, command=_command(args))
        try:
            with open(args.html, "w", encoding="utf-8") as fh:
                fh.write(page)
        except OSError as exc:
            raise InputError(f"{args.html}: cannot write ({exc.strerror})") from None
        written["page"] = args.html
    return written


def _command(args: argparse.Namespace) -> str:
    parts = ["pla-proof explain", args.data]
    if args.rule != "cyclic":
        parts.append(f"--rule {args.rule}")
    if args.rule == "random":
        parts.append(f"--seed {args.seed}")
    if args.strict:
        parts.append("--strict")
    return " ".join(parts)


def _open(path: str) -> Any:
    try:
        return open(path, "w", encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{path}: cannot write ({exc.strerror})") from None
