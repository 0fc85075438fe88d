"""The diagnosis page (``pla-proof check ... --html FILE``): one self-contained HTML file
that shows, for each failing property's counterexample, where the implementation leaves
the algorithm.

The points are drawn (on a line in 1-D, in the plane in 2-D, projected onto the first
two coordinates beyond), with the implementation's separator and the algorithm's at the
chosen step; the two trajectories stand side by side as a stepper (buttons, a slider,
"divergence" and "end"), with the words of the divergence and the inequality it breaks.
Nothing is loaded from the network (a Content-Security-Policy forbids it).

>>> from fractions import Fraction as F
>>> d = {"property": "G2", "mechanism": "sign-reversed", "words": "w", "lemma": [],
...      "observed": "o", "reference": "r", "why": "", "update": 1, "point": 1,
...      "points": [[F(2), F(1)]], "labels": [-1], "bias": True,
...      "trajectory": [[F(0), F(0)], [F(2), F(1)]],
...      "reference_trajectory": [[F(0), F(0)], [F(-2), F(-1)]]}
>>> p = payload("bug:x", [d])
>>> p["diagnoses"][0]["trajectory"][1], p["diagnoses"][0]["dims"]
([{'e': '2', 'f': 2.0}, {'e': '1', 'f': 1.0}], 1)
>>> "<script" in render_diagnosis_page("bug:x", [d])
True
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from .document import asset, document, json_script_text
from .numbers import exact, to_float

__all__ = ["payload", "render_diagnosis_page"]


def _num(v: Any) -> dict[str, Any]:
    q = Fraction(v)
    return {"e": exact(q), "f": to_float(q)}


def _vectors(vs: Sequence[Sequence[Any]] | None) -> list[list[dict[str, Any]]]:
    return [[_num(a) for a in v] for v in (vs or [])]


def payload(
    variant: str, diagnoses: Sequence[Mapping[str, Any]], command: str | None = None
) -> dict[str, Any]:
    """What the page shows: each diagnosis (its JSON form), numbers as exact strings
    with floats beside them for drawing."""
    out = []
    for d in diagnoses:
        points = _vectors(d.get("points"))
        bias = bool(d.get("bias"))
        dims = (len(points[0]) - (1 if bias else 0)) if points else 0
        out.append(
            {
                "property": d["property"],
                "mechanism": d["mechanism"],
                "words": d.get("words") or "",
                "why": d.get("why") or "",
                "lemma": list(d.get("lemma") or []),
                "observed": d.get("observed") or "",
                "reference": d.get("reference") or "",
                "update": d.get("update"),
                "step": d.get("step", d.get("update")),
                "point": d.get("point"),
                "points": points,
                "labels": list(d.get("labels") or []),
                "bias": bias,
                "dims": dims,
                "trajectory": _vectors(d.get("trajectory")),
                "reference_trajectory": _vectors(d.get("reference_trajectory")),
            }
        )
    return {"variant": variant, "command": command or "", "diagnoses": out}


def render_diagnosis_page(
    variant: str, diagnoses: Sequence[Mapping[str, Any]], command: str | None = None
) -> str:
    """The whole page as one HTML string (inline CSS, JavaScript and data)."""
    body = json_script_text(payload(variant, diagnoses, command))
    title = f"Where {variant} leaves the Perceptron"
    return document(
        title,
        asset("diagnosis.css"),
        asset("diagnosis.js"),
        f"<h1>{html.escape(title)}</h1>\n<div id='pla-diagnosis'></div>",
        "<noscript>This page draws the runs in the browser: it needs JavaScript.</noscript>",
        f"<script type='application/json' id='pla-diagnosis-data'>{body}</script>",
    )
