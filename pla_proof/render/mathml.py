"""MathML from the proof's LaTeX, so that a page shows formulas with no network and no
library: browsers render MathML natively.

Only the LaTeX that :mod:`pla_proof.proof.notation` writes is understood (letters,
numbers, ``_``/``^``, ``\\cdot``, ``\\|``, ``\\frac``, ``\\left(``, Greek letters,
relations, ...); anything else is refused rather than shown wrongly.

>>> print(to_mathml(r"g^2 \\le R"))
<math display="inline"><mrow><msup><mi>g</mi><mn>2</mn></msup><mo>≤</mo><mi>R</mi></mrow></math>
>>> to_mathml(r"\\foo")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: unknown LaTeX command \\foo in ...
"""

from __future__ import annotations

import re
from html import escape

__all__ = ["to_mathml"]

_IDENT = {
    r"\gamma": "γ", r"\eta": "η", r"\theta": "θ", r"\delta": "δ", r"\alpha": "α",
    r"\cos": "cos", r"\sin": "sin",
}  # fmt: skip
_OPS = {
    r"\cdot": "·", r"\le": "≤", r"\ge": "≥", r"\ne": "≠", r"\lnot": "¬", r"\land": "∧",
    r"\lor": "∨", r"\iff": "⇔", r"\implies": "⇒", r"\angle": "∠", r"\|": "‖",
    r"\sum": "∑", "-": "−", "+": "+", "=": "=", "<": "<", ">": ">", "(": "(", ")": ")",
    ",": ",", "/": "/", "|": "|",
}  # fmt: skip
_TOKEN = re.compile(r"\\[A-Za-z]+|\\[|,;!]|[{}^_]|\d+|[A-Za-z]|\S")


class _Parser:
    def __init__(self, tex: str):
        self.tex = tex
        self.tokens: list[str] = _TOKEN.findall(tex)
        self.pos = 0

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> str:
        tok = self.tokens[self.pos]
        self.pos += 1
        return tok

    def row(self, stop: str | None = None) -> str:
        items = []
        while self.peek() is not None and self.peek() != stop:
            items.append(self.scripted())
        if stop is not None:
            if self.peek() != stop:
                raise ValueError(f"missing {stop!r} in {self.tex!r}")
            self.take()
        return "".join(items)

    def group(self) -> str:
        """``{...}`` as one mrow, or the next single atom."""
        if self.peek() == "{":
            self.take()
            return f"<mrow>{self.row('}')}</mrow>"
        return self.atom()

    def scripted(self) -> str:
        base = self.atom()
        sub = sup = None
        while self.peek() in ("_", "^"):
            mark = self.take()
            arg = self.group()
            if mark == "_":
                sub = arg
            else:
                sup = arg
        if sub is not None and sup is not None:
            return f"<msubsup>{base}{sub}{sup}</msubsup>"
        if sub is not None:
            return f"<msub>{base}{sub}</msub>"
        if sup is not None:
            return f"<msup>{base}{sup}</msup>"
        return base

    def atom(self) -> str:
        tok = self.take()
        if tok == "{":
            return f"<mrow>{self.row('}')}</mrow>"
        if tok.isdigit():
            return f"<mn>{tok}</mn>"
        if len(tok) == 1 and tok.isalpha():
            return f"<mi>{tok}</mi>"
        if tok in (r"\,", r"\;", r"\!"):
            width = {r"\,": "0.17em", r"\;": "0.28em", r"\!": "0em"}[tok]
            return f'<mspace width="{width}"/>'
        if tok in (r"\frac", r"\tfrac"):
            return f"<mfrac>{self.group()}{self.group()}</mfrac>"
        if tok == r"\sqrt":
            return f"<msqrt>{self.group()}</msqrt>"
        if tok == r"\hat":
            return f'<mover accent="true">{self.group()}<mo>^</mo></mover>'
        if tok in (r"\left", r"\right"):
            fence = self.take()
            return f'<mo stretchy="false">{escape(_OPS.get(fence, fence))}</mo>'
        if tok in _IDENT:
            return f"<mi>{_IDENT[tok]}</mi>"
        if tok in ("(", ")"):
            return f'<mo stretchy="false">{tok}</mo>'
        if tok in _OPS:
            return f"<mo>{escape(_OPS[tok])}</mo>"
        if tok.startswith("\\"):
            raise ValueError(f"unknown LaTeX command {tok} in {self.tex!r}")
        raise ValueError(f"unexpected {tok!r} in {self.tex!r}")


def to_mathml(tex: str) -> str:
    """Inline MathML for one formula (``$...$`` delimiters are dropped)."""
    body = tex.strip()
    if body.startswith("$") and body.endswith("$"):
        body = body.strip("$")
    return f'<math display="inline"><mrow>{_Parser(body).row()}</mrow></math>'
