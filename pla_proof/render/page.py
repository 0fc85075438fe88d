"""The lecture page: one self-contained HTML file that steps through a run and the proof.

The page holds the data, the run's settings and every run-time lemma of
:mod:`pla_proof.proof.statements` -- its statement in the proof's notation (MathML,
rendered by the browser) and its two sides as small expression trees -- and its own
exact engine (``assets/page.js``: BigInt rationals, the same selection rules as the
engine, its portable generator for the random rule).  It recomputes the run,
measures the run vocabulary at every update and evaluates each lemma on it, so a
student can add a point and watch the algorithm and the checks rerun.  Nothing is
loaded from the network (a Content-Security-Policy forbids it).

>>> from pla_proof.data import load
>>> from pla_proof.trainer import train
>>> data = load("orthonormal:3")
>>> p = payload(data, train(data, comparator=[1, -1, 1]))
>>> p["run"]["choices"], p["comparator"]["g"], [lem["id"] for lem in p["lemmas"]][:3]
([0, 1, 2], '1', ['DEF_TRIGGER', 'A1_j', 'A2_j'])
>>> p["lemmas"][5]["lhs"], p["lemmas"][5]["op"], p["lemmas"][5]["rhs"]
({'s': 'pu1'}, '>=', {'*': [{'s': 'g'}, {'s': 'k'}]})
"""

from __future__ import annotations

import html
from typing import Any

import sympy as sp

from ..data import Dataset
from ..data.builtins import describe
from ..errors import InputError
from ..proof import notation
from ..proof.statements import END_LEMMAS, RUNTIME_LEMMAS, Lemma
from ..trainer import Run
from .document import asset, document, json_script_text
from .mathml import to_mathml

__all__ = ["MAX_WORK", "notebook_html", "payload", "render_page"]

#: the page recomputes the run in the browser: at most this many point-updates (n·(k+1))
MAX_WORK = 2_000_000
_RULES = ("first", "cyclic", "random", "maxviol")


def _exact(v: Any) -> str:
    q = sp.Rational(v) if not isinstance(v, sp.Rational) else v
    return str(q.p) if q.q == 1 else f"{q.p}/{q.q}"


def expression_tree(e: sp.Basic) -> dict[str, Any]:
    """A statement's side as a small tree the page evaluates exactly.

    >>> from pla_proof.proof.statements import lemma
    >>> expression_tree(lemma("L6").sides()[0])
    {'+': [{'s': 'n1'}, {'*': [{'q': '-1'}, {'s': 'n0'}]}]}
    """
    if isinstance(e, sp.Symbol):
        return {"s": e.name}
    if isinstance(e, sp.Rational):
        return {"q": _exact(e)}
    if isinstance(e, sp.Add):
        return {"+": [expression_tree(a) for a in sp.Add.make_args(e)]}
    if isinstance(e, sp.Mul):
        return {"*": [expression_tree(a) for a in sp.Mul.make_args(e)]}
    if isinstance(e, sp.Pow) and e.exp.is_Integer and int(e.exp) >= 0:
        return {"^": [expression_tree(e.base), int(e.exp)]}
    raise ValueError(f"the page cannot evaluate {e!r}")


def _lemma(lem: Lemma, strict: bool) -> dict[str, Any]:
    lhs, op, rhs = lem.sides(strict=strict)
    return {
        "id": lem.id,
        "title": lem.title,
        "reading": lem.title,
        "text": notation.text(lem, strict),
        "latex": notation.latex(lem, strict),
        "mathml": to_mathml(notation.latex(lem, strict)),
        "op": op,
        "lhs": expression_tree(lhs),
        "rhs": expression_tree(rhs),
    }


def _symbols(strict: bool) -> list[dict[str, str]]:
    names: list[str] = []
    for lem in (*RUNTIME_LEMMAS, *END_LEMMAS):
        for s in notation.symbols_of(lem, strict):
            if s.name not in names:
                names.append(s.name)
    names += [n for n in ("gamma", "R") if n not in names]
    return [
        {
            "name": n,
            "text": notation.SYMBOLS[n].text,
            "mathml": to_mathml(notation.SYMBOLS[n].latex),
            "meaning": notation.SYMBOLS[n].meaning,
        }
        for n in names
    ]


def payload(data: Dataset, run: Run, *, command: str | None = None) -> dict[str, Any]:
    """Everything the page needs, exact values as strings."""
    if run.mode != "exact":
        raise InputError("the page replays exact runs only (--mode exact)")
    work = data.n * (run.updates + 1)
    if work > MAX_WORK:
        raise InputError(
            f"the page is for lecture-sized runs: {data.n} points x {run.updates} updates is "
            f"beyond {MAX_WORK:,} point-updates (use explain --markdown or trace instead)"
        )
    comp = run.comparator
    strict = comp.strict if comp is not None else False
    named = describe(data.name, data.original_d)
    bias = None
    if data.bias is not None:
        option = {"augment": f"augment:{_exact(data.bias.c)}", "minus-one": "minus-one"}
        bias = {
            "name": data.bias.name,
            "c": _exact(data.bias.c),
            "describe": data.bias.describe(),
            "option": option.get(data.bias.name, data.bias.name),
        }
    rule = run.rule if run.rule in _RULES else "replay"
    subtitle = (
        f"{data.n} points in {data.original_d} coordinates"
        + (f" (trained on (x, {_exact(data.bias.c)}): {data.bias.describe()})" if data.bias else "")
        + f"; rule {rule}"
        + (f", seed {run.seed}" if rule == "random" else "")
        + "; exact rational arithmetic"
        + (f"; made by {command}" if command else "")
    )
    return {
        "subtitle": subtitle,
        "data": {
            "name": data.name,
            "X": [[_exact(v) for v in x] for x in data.X],
            "y": list(data.y),
            "bias": bias,
            "raw_d": data.original_d,
            "features": list(named.features) or [f"x{i + 1}" for i in range(data.original_d)],
            "labels": list(named.labels),
        },
        "run": {
            "rule": rule,
            "seed": run.seed,
            "budget": run.budget,
            "strict": strict,
            "status": run.status,
            "updates": run.updates,
            "choices": list(run.choices),
            "w": [_exact(v) for v in run.w],
        },
        "comparator": None
        if comp is None
        else {
            "u": [_exact(v) for v in comp.u],
            "g": _exact(comp.gamma),
            "source": comp.source,
        },
        "lemmas": [_lemma(lem, strict) for lem in RUNTIME_LEMMAS],
        "sandwich_mathml": to_mathml(
            r"k\,\gamma " + ("<" if strict else r"\le") + r" u\cdot w_{k+1}/\|u\| \le \|w_{k+1}\| "
            r"\le \sqrt{k}\,R"
        ),
        "symbols": _symbols(strict),
    }


def render_page(data: Dataset, run: Run, *, command: str | None = None) -> str:
    """The whole page as one HTML string (inline CSS, JavaScript and data)."""
    body = json_script_text(payload(data, run, command=command))
    return document(
        f"The Perceptron proof, step by step: {data.name}",
        asset("page.css"),
        asset("page.js"),
        "<div id='pla-app'></div>",
        "<noscript>This page runs the Perceptron in the browser: it needs JavaScript.</noscript>",
        f"<script type='application/json' data-pla-payload='pla-app'>{body}</script>",
    )


def notebook_html(run: Run) -> str:
    """The page inline in a notebook: an ``<iframe>`` holding it (its own document, so its
    script and styles stay inside).

    >>> from pla_proof.data import load
    >>> from pla_proof.trainer import train
    >>> notebook_html(train(load("orthonormal:2"), mode="float"))
    '<p>pla-proof: no stepper for this run (the page replays exact runs only (--mode exact))</p>'
    """
    if run.data is None:
        raise ValueError("this run record does not carry its data")
    try:
        page = render_page(run.data, run)
    except InputError as exc:  # a float-mode or very long run: say why, show no stepper
        return f"<p>pla-proof: no stepper for this run ({html.escape(str(exc))})</p>"
    return (
        f'<iframe srcdoc="{html.escape(page, quote=True)}" title="pla-proof stepper" '
        'style="width: 100%; height: 1150px; border: 1px solid #ddd"></iframe>'
    )
