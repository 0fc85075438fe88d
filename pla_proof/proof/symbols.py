"""Every symbol of the proof, defined once: how it is written (text, LaTeX) and what it
means -- plain data, shared by the SymPy renderer (:mod:`.notation`) and the run path.

>>> SYMBOLS["pu1"].text, SYMBOLS["R2"].latex
('u·w_{k+1}', 'R^2')
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["SYMBOLS", "Notation"]


@dataclass(frozen=True)
class Notation:
    """How one symbol is written (text, LaTeX) and what it means."""

    name: str
    text: str
    latex: str
    meaning: str
    #: the text/LaTeX form is one token (no operator inside): no parentheses needed
    atomic: bool = True


def _n(name: str, txt: str, tex: str, meaning: str, atomic: bool = True) -> Notation:
    return Notation(name, txt, tex, meaning, atomic)


#: Every symbol of the proof, defined once: the run vocabulary first (what a run
#: measures at update ``k``, ``w_k -> w_{k+1}`` on point ``j``), then the textbook forms.
SYMBOLS: dict[str, Notation] = {
    s.name: s
    for s in (
        _n("k", "k", "k", "index of this update (w_k → w_{k+1}); k = 1 is the first update"),
        _n("t", "y_j (w_k·x_j)", r"y_j\,(w_k\cdot x_j)", "trigger value of the picked point j",
           False),
        _n("pu", "u·w_k", r"u\cdot w_k", "progress before the update", False),
        _n("pu1", "u·w_{k+1}", r"u\cdot w_{k+1}", "progress after the update", False),
        _n("yux", "y_j (u·x_j)", r"y_j\,(u\cdot x_j)", "margin of the picked point under u",
           False),
        _n("n0", "‖w_k‖²", r"\|w_k\|^2", "squared norm before the update"),
        _n("n1", "‖w_{k+1}‖²", r"\|w_{k+1}\|^2", "squared norm after the update"),
        _n("xx", "‖x_j‖²", r"\|x_j\|^2", "squared norm of the picked point"),
        _n("g", "g", "g",
           "homogeneous margin of the comparator: g = min_i y_i u·x_i (not divided by ‖u‖)"),
        _n("R2", "R²", "R^2", "squared radius: R² = max_i ‖x_i‖²"),
        _n("uu", "‖u‖²", r"\|u\|^2", "squared norm of the comparator u"),
        _n("m", "m", "m", "at the end of a run: m = min_i y_i w·x_i for the returned w"),
        _n("C", "C", "C", "growth constant of the generic lemma: ‖w_{k+1}‖² − ‖w_k‖² ≤ C"),
        _n("ps", "u·w_1", r"u\cdot w_1", "progress at the start w_1 (0 when w_1 = 0)", False),
        _n("ns", "‖w_1‖²", r"\|w_1\|^2", "squared norm at the start w_1 (0 when w_1 = 0)"),
        _n("gamma", "γ", r"\gamma", "unit margin: γ = g/‖u‖, the margin of u/‖u‖"),
        _n("R", "R", "R", "radius: R = max_i ‖x_i‖"),
        _n("N", "N", "N", "Kalyanakrishnan's name for ‖w_{k+1}‖²"),
        _n("nu", "‖u‖", r"\|u\|", "norm of the comparator"),
        _n("y", "y", "y", "label of the picked point, y ∈ {−1, +1}"),
        _n("d", "d", "d", "dimension of the data (with the bias coordinate, if any)"),
        _n("eta", "η", r"\eta", "learning rate, η > 0"),
        _n("theta", "θ", r"\theta", "bias of the comparator"),
        _n("c", "c", "c", "augmentation constant of the bias coordinate, c > 0"),
        _n("cos2", "cos²∠(w_{k+1}, u)", r"\cos^2\angle(w_{k+1}, u)",
           "squared cosine of the angle between w_{k+1} and u", False),
        _n("gamma2", "γ²", r"\gamma^2", "squared unit margin"),
        _n("R2h", "R̂²", r"\hat R^2", "squared radius of the augmented data"),
        _n("uuh", "‖û‖²", r"\|\hat u\|^2", "squared norm of the augmented comparator"),
        _n("alpha", "α", r"\alpha", "dual form: α_p counts the updates on point p"),
    )
}  # fmt: skip
