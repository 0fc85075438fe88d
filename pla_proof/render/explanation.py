"""An :class:`pla_proof.explanation.Explanation` as text, as a Markdown hand-out (LaTeX
maths), or as JSON; and the statements of a run that did not converge.

>>> from pla_proof import explain, load
>>> ex = explain(load("orthonormal:2"))
>>> print(render_text(ex, 10).splitlines()[0][:56])
The proof of Kalyanakrishnan's Theorem 3, on a real run:
>>> render_markdown(ex, 10).splitlines()[0]
'# The Perceptron convergence proof on `orthonormal:2`'
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..tracing import lemma_latex, lemma_text
from .numbers import approx, show, show_with_approx, sqrt_approx, vector
from .trace import alpha_text

if TYPE_CHECKING:
    from ..explanation import DecisionRule, Explanation
    from ..tracing import Instance

__all__ = [
    "explanation_json",
    "final_lines",
    "render_markdown",
    "render_text",
    "result_text",
    "rule_lines",
]

# --- numbers -------------------------------------------------------------------------------


def _num(v: Any) -> str:
    """One format for every number of a relation: the exact value, a decimal beside it."""
    return show_with_approx(v)


def _sqrt(v: Fraction) -> str:
    return sqrt_approx(v)


def _vec(v: Sequence[Any]) -> str:
    return vector(v, _num)


def _op(op: str) -> str:
    return {"==": "=", "<=": "≤", ">=": "≥"}.get(op, op)


# --- what the text says, in the proof's notation -------------------------------------------

Shown = list[tuple[int, int, list["Instance"]] | None]


def _selected(ex: Explanation, max_steps: int) -> tuple[Shown, int]:
    """At most ``max_steps`` updates in detail: the first half and the last; ``None``
    marks where the others were left out."""
    n = len(ex.steps)
    if n <= max_steps:
        return list(ex.steps), 0
    head, tail = (max_steps + 1) // 2, max_steps // 2
    shown: Shown = [*ex.steps[:head], None, *ex.steps[n - tail :]]
    return shown, n - max_steps


def rule_lines(ex: Explanation) -> list[str]:
    """The returned w as a decision rule in the data's own terms, and any criterion a
    source states for the data, checked exactly."""
    rule = ex.decision_rule()
    pos, neg = rule.positive, rule.negative
    if (pos, neg) != ("+1", "-1"):
        pos, neg = f"{pos} (+1)", f"{neg} (-1)"
    lines = [
        f"w_{ex.run.updates + 1} = {_vec(ex.run.w)}: decide {pos} when "
        f"{_linear(rule.w, rule.names, rule.offset)} > 0, else {neg}"
    ]
    lines += _criterion_lines(ex, rule)
    return lines


def _criterion_lines(ex: Explanation, rule: DecisionRule) -> list[str]:
    lines = []
    for crit in rule.criteria:
        cert = crit.certificate
        text = f"{_linear(crit.weights, rule.names, Fraction(0))} > {_num(crit.threshold)}"
        if cert.separates and cert.bound is not None:
            lines.append(
                f"{crit.source}, {text}, separates the data too: y_i (u·x_i) = "
                + ", ".join(_num(m) for m in crit.margins)
                + f" > 0 with u = {_vec(crit.u)}; as a comparator: g = {_num(cert.margin)}, "
                f"bound R²·‖u‖²/g² = {_num(cert.bound)} (u* gives the tightest, "
                f"{_num(ex.facts['bound'])})"
            )
        else:
            lines.append(
                f"{crit.source}, {text}, does NOT separate the data: point "
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


# --- plain text ----------------------------------------------------------------------------


def render_text(ex: Explanation, max_steps: int) -> str:
    """The walk-through as plain text: the data, the symbols, the assumptions, at most
    ``max_steps`` updates in detail, every lemma's smallest slack, the final step and
    the learned rule."""
    lines = _text_heading(ex)
    lines += _text_updates(ex, max_steps)
    lines.append("Every lemma at every update: the smallest slack")
    for s in ex.summary():
        lines.append(
            f"  {s.lemma.id:<12} {lemma_text(s.lemma, ex.strict):<44} "
            f"{'held' if s.held else 'FAILED'} at every update; smallest slack {_num(s.slack)} "
            f"(k = {s.k})"
        )
    lines.append("")
    lines += final_lines(ex)
    lines += ["", "The learned rule, in the data's own terms"]
    lines += [f"  {line}" for line in rule_lines(ex)]
    return "\n".join(lines)


def _text_heading(ex: Explanation) -> list[str]:
    """The title, the data, the symbols, the assumptions and the run's choices."""
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
    lines += [f"  {t}: {meaning}" for t, _, meaning in ex.symbols()]
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
    return lines


def _text_updates(ex: Explanation, max_steps: int) -> list[str]:
    """The updates shown in detail, each lemma instantiated with its slack."""
    data, run = ex.data, ex.run
    lines: list[str] = []
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
    return lines


def final_lines(ex: Explanation) -> list[str]:
    """The theorem's final step on this run, the end lemmas and the corollaries."""
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
    lines += ["", *_corollary_lines(ex)]
    return lines


def _corollary_lines(ex: Explanation) -> list[str]:
    """COS, DUAL, UNIT and (with a bias) BIAS on this run."""
    f = ex.facts
    k = f["k"]
    lt = "<" if ex.strict else "≤"
    w = f"w_{k + 1}"
    lines = [
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


def render_markdown(
    ex: Explanation, max_steps: int, figures: dict[str, str] | None = None, base: str = "."
) -> str:
    """The walk-through as a Markdown hand-out with LaTeX maths; ``figures`` (kind ->
    path, ``"page"`` for the lecture page) are linked relative to ``base``."""
    out = _md_heading(ex)
    out += _md_symbols_and_assumptions(ex)
    if figures:
        out += _md_figures(figures, base)
    out += ["## The updates", ""]
    out += _md_updates(ex, max_steps)
    out += _md_summary(ex)
    out += ["", "## The final step", ""]
    out += [
        f"- {line.strip()}"
        for line in final_lines(ex)[1:]
        if line.strip() and line.strip() != "Corollaries on this run"
    ]
    out += ["", "## The learned rule", ""]
    out += [f"- {line}" for line in rule_lines(ex)]
    out += _md_exercises(ex)
    return "\n".join(out)


def _md_heading(ex: Explanation) -> list[str]:
    """The title, what was run, and the data as a table (small data sets)."""
    data, run = ex.data, ex.run
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
    return out


def _md_symbols_and_assumptions(ex: Explanation) -> list[str]:
    f = ex.facts
    lt = r"<" if ex.strict else r"\le"
    ge = r">" if ex.strict else r"\ge"
    out = ["## Symbols", "", "| symbol | meaning |", "|---|---|"]
    out += [f"| ${_tex(tex)}$ | {_md(meaning)} |" for _, tex, meaning in ex.symbols()]
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
    return out


def _md_figures(figures: dict[str, str], base: str) -> list[str]:
    out = ["## Figures", ""]
    for kind, path in figures.items():
        if kind == "page":
            out.append(f"- The lecture page: [{os.path.basename(path)}]({_rel(path, base)})")
        else:
            out += [f"![{kind}]({_rel(path, base)})", ""]
    out.append("")
    return out


def _md_updates(ex: Explanation, max_steps: int) -> list[str]:
    """The updates shown in detail: one table of the lemmas per update."""
    from ..proof.runtime import RUNTIME_LEMMAS

    data, run = ex.data, ex.run
    out: list[str] = []
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
                f"| {c.lemma} | {_md(c.title)} | {_tex(lemma_latex(lem, ex.strict))} | "
                f"{_num(c.lhs)} | {_op(c.op)} | {_num(c.rhs)} | {_num(c.slack)}"
                f"{'' if c.holds else ' **FAILS**'} |"
            )
        out.append("")
    return out


def _md_summary(ex: Explanation) -> list[str]:
    out = [
        "## Summary: the smallest slack of each lemma",
        "",
        "| lemma | statement | held at every update | smallest slack | at $k$ |",
        "|---|---|:---:|---:|---:|",
    ]
    for s in ex.summary():
        out.append(
            f"| {s.lemma.id} | {_tex(lemma_latex(s.lemma, ex.strict))} | "
            f"{'yes' if s.held else '**no**'} | {_num(s.slack)} | {s.k} |"
        )
    return out


def _md_exercises(ex: Explanation) -> list[str]:
    return [
        "",
        "## Exercises",
        "",
        "1. Which lemma had the least slack? Why is the slack of L1 and L5 always 0?",
        "2. Re-run with `--rule maxviol` or `--rule random`: which numbers change, "
        "which bound does not?",
        r"3. The trigger is $y_j\,(w_k\cdot x_j) \le 0$, not $< 0$. What would happen at the "
        "first update ($w_1 = 0$)?",
        "",
        f"*Produced by `pla-proof explain {ex.data.name} --markdown`; the symbolic proof of "
        "every step is checked by `pla-proof verify`.*",
    ]


# --- a run that did not converge, and JSON --------------------------------------------------


def result_text(ex: Explanation) -> str:
    """What a run that did not converge shows: the data are not separable (with the
    certificate), the budget ran out, or a lemma failed."""
    data, run = ex.data, ex.run
    if run.status == "not_separable":
        return _not_separable_text(ex)
    if run.status == "budget_exhausted":
        return (
            f"{data.name}: no conclusion -- the budget of {run.budget} updates ran out "
            "before the Perceptron stopped (and no repeated weight vector proved the data "
            "non-separable). Raise --budget."
        )
    assert run.violation is not None
    return f"{data.name}: a lemma FAILED on this run: {run.violation.describe()}"


def _not_separable_text(ex: Explanation) -> str:
    data, run = ex.data, ex.run
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


def explanation_json(ex: Explanation) -> dict[str, Any]:
    """The ``--json`` object: the whole explanation of a converged run, else the
    status with the certificate, the message or the violation."""
    run = ex.run
    if run.status == "converged":
        return ex.to_json()
    if run.status == "not_separable":
        return {
            "status": run.status,
            "updates": run.updates,
            "certificate": None
            if run.certificate is None
            else [Fraction(a) for a in run.certificate.alpha],
        }
    if run.status == "budget_exhausted":
        return {"status": run.status, "updates": run.updates, "message": result_text(ex)}
    assert run.violation is not None
    return {"status": run.status, "violation": run.violation.describe()}
