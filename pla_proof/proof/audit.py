"""A certificate checked the way a sceptical reviewer checks it.

``coqc FILE.v`` exiting 0 is not enough: a proof replaced by ``Admitted`` or resting on
an added ``Axiom`` compiles too, a statement can be edited into a weaker one (a larger
bound is still true), and the library written beside the file may itself have been
edited.  :func:`audit` therefore

1. reads the certificate's data (``X``, ``Y``, ``c``, ``U``, ``TH``, and a run's ``W``,
   ``B``, ``choices``), refusing a file that contains a command no certificate needs
   (``Axiom``, ``Parameter``, ``Admitted``, ``admit``, ``Unset``, ``Load``, ...);
2. recomputes, exactly, what the data imply: the margin ``gamma``, the radius ``R2``,
   the bound ``floor(R2 |(u, th)|^2 / gamma^2)``, a separator's ratio;
3. compiles the file against **this package's** library (:func:`compiled_library`),
   never a copy beside it;
4. has Coq check that each final theorem states exactly what a certificate of its kind
   states, on these data and these numbers (``Check (this_run : ...)``, after checking
   that the file's definitions are these literals);
5. and requires ``Print Assumptions`` of each final theorem to be closed, or exactly the
   documented axioms (:data:`ALLOWED`: the reals' two classical axioms, which the
   generic lemma's route through ``R`` brings).

>>> sorted(ALLOWED)[0]
'ClassicalDedekindReals.sig_forall_dec'
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from ..errors import InputError
from .algorithm import LIBRARY, compiled_library
from .certificate import bound_numbers, q
from .coq import ALLOWED, assumptions_of

__all__ = ["ALLOWED", "Audit", "assumptions_of", "audit"]

#: Commands no certificate written by pla_proof contains (outside comments).
_FORBIDDEN = re.compile(
    r"\b(Axiom|Axioms|Parameter|Parameters|Conjecture|Hypothesis|Hypotheses|Variable|"
    r"Variables|Admitted|admit|give_up|Unset|Load|LoadPath|Declare\s+ML|Extract|"
    r"Local\s+Axiom|Context|Set\s+Impredicative|Set\s+Universe)\b"
)


@dataclass(frozen=True)
class Audit:
    """What :func:`audit` found: ``ok`` and, when not, the first ``reason``; the kind of
    certificate, the theorems checked, the axioms they rest on, the seconds taken."""

    path: str
    ok: bool
    reason: str = ""
    kind: str = ""
    theorems: tuple[str, ...] = ()
    axioms: tuple[str, ...] = ()
    numbers: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0


def _strip_comments(text: str) -> str:
    """The text without Coq comments (which nest)."""
    out, depth, i = [], 0, 0
    while i < len(text):
        if text.startswith("(*", i):
            depth, i = depth + 1, i + 2
        elif text.startswith("*)", i) and depth:
            depth, i = depth - 1, i + 2
        else:
            if not depth:
                out.append(text[i])
            i += 1
    return "".join(out)


def _definition(code: str, name: str) -> str:
    found = re.findall(rf"^Definition {name} : [^\n]*?:=(.*?)\.\s*$", code, re.M | re.S)
    if len(found) != 1:
        raise ValueError(f"no definition {name}" if not found else f"{name} defined twice")
    return str(found[0]).strip()


def _qs(body: str) -> list[Fraction]:
    return [Fraction(int(n), int(d)) for n, d in re.findall(r"\((-?\d+) # (\d+)\)", body)]


def _rows(body: str) -> list[list[Fraction]]:
    inner = body.strip()
    if not (inner.startswith("[") and inner.endswith("]")):
        raise ValueError("X is not a list of rows")
    return [_qs(r) for r in re.findall(r"\[([^\[\]]*)\]", inner[1:-1])]


def _vector(v: Sequence[Fraction]) -> str:
    return "[" + "; ".join(q(a) for a in v) + "]"


def _statements(kind: str, k: int, bound: int, ratio: Fraction) -> dict[str, str]:
    """Each final theorem of a certificate of ``kind``, stated on the certificate's
    definitions (``C.X`` ...) with the numbers recomputed here."""
    every = (
        "forall k w, run (S (length C.U)) (length C.X) (points_R C.X C.c) (labels_R C.Y) k w "
        f"-> (Z.of_nat k <= {bound})%Z"
    )
    strict = "forall x y, In (x, y) (combine C.X C.Y) -> 0 < y * (qdot {w} x + C.c * {b})"
    if kind == "cyclic run":
        return {
            "every_run": every,
            "this_run": (
                f"cyclic {k + 1} C.X C.Y C.c (qzeros (length C.U)) 0 = Some (C.W, C.B, {k}%nat)"
                f" /\\ (Z.of_nat {k} <= {bound})%Z /\\ " + strict.format(w="C.W", b="C.B")
            ),
        }
    if kind == "replayed run":
        return {
            "every_run": every,
            "this_run": (
                "replay (combine C.X C.Y) C.c (qzeros (length C.U)) 0 C.choices = "
                f"Some (C.W, C.B) /\\ length C.choices = {k}%nat /\\ "
                f"(Z.of_nat {k} <= {bound})%Z"
            ),
            "the_run_separates_strictly": strict.format(w="C.W", b="C.B"),
        }
    return {
        "every_run": every,
        "separator_strict": strict.format(w="C.U", b="C.TH"),
        "bound_value": (
            "radius_of C.X C.c * (qdot C.U C.U + C.TH * C.TH) / "
            f"(margin_of C.X C.Y C.c C.U C.TH * margin_of C.X C.Y C.c C.U C.TH) == {q(ratio)}"
        ),
    }


def _coqc(binary: str, args: list[str], cwd: Path, timeout: float) -> tuple[int, str]:
    try:
        proc = subprocess.run(
            [binary, *args], cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        return 124, f"coqc timed out after {timeout:g} s"
    return proc.returncode, proc.stdout + proc.stderr


def _last(out: str) -> str:
    lines = [x.strip() for x in out.strip().splitlines() if x.strip()]
    return " ".join(lines[-3:])[:300]


def audit(
    path: str | Path,
    *,
    data: tuple[Sequence[Sequence[Fraction]], Sequence[int], Fraction] | None = None,
    coqc: str | None = None,
    timeout: float = 600,
) -> Audit:
    """Check the certificate at ``path`` (see the module docs); ``data``: the points,
    labels and bias input it must be about.  A missing file or ``coqc`` is an
    ``InputError``; everything about the file itself is in the :class:`Audit`."""
    start = time.perf_counter()
    where = Path(path)
    try:
        text = where.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{path}: cannot read the certificate ({exc.strerror})") from None

    def rejected(reason: str, **kw: object) -> Audit:
        return Audit(str(path), False, reason, seconds=time.perf_counter() - start, **kw)  # type: ignore[arg-type]

    code = _strip_comments(text)
    bad = _FORBIDDEN.search(code)
    if bad:
        return rejected(f"it contains `{bad.group(0)}`, which no certificate needs")
    if "Lemma the_run : cyclic" in code:
        kind = "cyclic run"
    elif "Definition choices" in code:
        kind = "replayed run"
    elif "Lemma separator :" in code:
        kind = "separator"
    elif "Lemma the_certificate : gordan_ok" in code:
        kind = "non-separable data"
    else:
        return rejected("not a pla-proof certificate: no run, separator or Gordan certificate")
    try:
        X = _rows(_definition(code, "X"))
        Y = _qs(_definition(code, "Y"))
        c = _qs(_definition(code, "c"))[0]
    except (ValueError, IndexError) as exc:
        return rejected(f"its definitions cannot be read ({exc})", kind=kind)
    if data is not None:
        rows, labels, bias = data
        if [list(map(Fraction, r)) for r in rows] != X or [Fraction(v) for v in labels] != Y:
            return rejected("its points or labels are not the data given", kind=kind)
        if Fraction(bias) != c:
            return rejected(f"its bias input c = {c} is not the data's ({bias})", kind=kind)
    if kind == "non-separable data":
        d = len(X[0]) if X else 0
        if any(len(x) != d for x in X) or len(X) != len(Y) or not X:
            return rejected("its rows and labels do not have matching lengths", kind=kind)
        statements = {
            "no_separator": f"~ separable C.X C.Y C.c {d}",
            "never_returns": (
                f"forall E w0 b0, length w0 = {d}%nat -> cyclic E C.X C.Y C.c w0 b0 = None"
            ),
        }
        numbers = {"n": str(len(X)), "d": str(d)}
        return _in_coq(path, text, kind, statements, numbers, {"X": X, "Y": Y, "c": c},
                       coqc, timeout, start)  # fmt: skip
    try:
        U = _qs(_definition(code, "U"))
        TH = _qs(_definition(code, "TH"))[0]
        gamma = _qs(_definition(code, "gamma"))[0]
        R2 = _qs(_definition(code, "R2"))[0]
        run = kind != "separator"
        W = _qs(_definition(code, "W")) if run else []
        B = _qs(_definition(code, "B"))[0] if run else Fraction(0)
        if kind == "cyclic run":
            m = re.search(r"Lemma the_run : cyclic \d+ .*?= Some \(W, B, (\d+)%nat\)\.", code)
            if m is None:
                raise ValueError("the run's number of updates cannot be read")
            k = int(m.group(1))
        elif kind == "replayed run":
            k = len(re.findall(r"\d+%N", _definition(code, "choices")))
        else:
            k = 0
    except (ValueError, IndexError) as exc:
        return rejected(f"its definitions cannot be read ({exc})", kind=kind)
    if any(len(x) != len(U) for x in X) or len(X) != len(Y):
        return rejected("its rows, labels and comparator do not have matching lengths", kind=kind)
    g, r2, _, ratio, bound = bound_numbers(X, [int(v) for v in Y], c, U, TH)
    numbers = {"gamma": str(g), "R2": str(r2), "bound": str(bound), "k": str(k)}
    if g <= 0:
        return rejected(f"its comparator does not separate the data (margin {g})", kind=kind)
    if gamma != g:
        return rejected(f"it states gamma = {gamma}; the data's margin is {g}", kind=kind)
    if r2 != R2:
        return rejected(f"it states R2 = {R2}; the data's squared radius is {r2}", kind=kind)
    statements = _statements(kind, k, bound, ratio)
    literals: dict[str, object] = {"X": X, "Y": Y, "c": c, "U": U, "TH": TH}
    if kind != "separator":
        literals |= {"W": W, "B": B}
    return _in_coq(path, text, kind, statements, numbers, literals, coqc, timeout, start)


_TYPES = {"X": "list (list Q)", "Y": "list Q", "c": "Q", "U": "list Q", "TH": "Q", "W": "list Q"}


def _literal(name: str, value: object) -> str:
    if name == "X":
        return "[" + "; ".join(_vector(x) for x in value) + "]"  # type: ignore[attr-defined]
    if isinstance(value, list):
        return _vector(value)
    return q(value)


def _in_coq(
    path: str | Path,
    text: str,
    kind: str,
    statements: dict[str, str],
    numbers: dict[str, str],
    literals: dict[str, object],
    coqc: str | None,
    timeout: float,
    start: float,
) -> Audit:
    """Steps 3 to 5: compile against the package's library, check the definitions are
    the ``literals``, each final theorem states its ``statements``, and its assumptions."""

    def rejected(reason: str, **kw: object) -> Audit:
        return Audit(str(path), False, reason, kind=kind, numbers=numbers,
                     seconds=time.perf_counter() - start, **kw)  # type: ignore[arg-type]  # fmt: skip

    binary = coqc or shutil.which("coqc")
    if binary is None:
        raise InputError("coqc not found: install Coq (Debian package 'coq') to check it")
    lib = compiled_library(coqc=binary, timeout=timeout)
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        (home / "C.v").write_text(text, encoding="utf-8")
        rc, out = _coqc(binary, ["-q", "-Q", str(lib), "", "C.v"], home, timeout)
        if rc != 0:
            return rejected(f"Coq rejects it against pla_proof's library {LIBRARY}: {_last(out)}")
        lines = [
            f"Require Import Reals {LIBRARY} QArith Qround List.",
            "Import ListNotations.",
            "Open Scope Q_scope.",
            "Require C.",
        ]
        # (definitions, not Check: coqc prints nothing for them, only the assumptions)
        lines += [
            f"Definition is_{n} : C.{n} = ({_literal(n, v)} : {_TYPES.get(n, 'Q')}) := eq_refl."
            for n, v in literals.items()
        ]
        for name, stmt in statements.items():
            lines += [
                f"Definition states_{name} : {stmt} := C.{name}.",
                f"Print Assumptions C.{name}.",
            ]
        (home / "Audit.v").write_text("\n".join(lines) + "\n", encoding="utf-8")
        rc, out = _coqc(binary, ["-q", "-Q", str(lib), "", "-Q", ".", "", "Audit.v"], home, timeout)
    if rc != 0:
        missing = re.search(r"The reference C\.(\w+) was not found", out)
        if missing:
            why = f"it has no theorem {missing.group(1)}"
        elif re.search(r"is_(X|Y|c|U|TH|W|B)\b", out):
            why = f"its definitions are not the literals it shows: {_last(out)}"
        else:
            why = f"a final theorem does not state what a {kind} certificate states: {_last(out)}"
        return rejected(why)
    axioms = sorted(set(assumptions_of(out)))
    extra = [a for a in axioms if a not in ALLOWED]
    if extra:
        return rejected(
            f"its theorems rest on {', '.join(extra)}, beyond the documented axioms",
            axioms=tuple(axioms),
        )
    return Audit(
        str(path),
        True,
        kind=kind,
        theorems=tuple(statements),
        axioms=tuple(axioms),
        numbers=numbers,
        seconds=time.perf_counter() - start,
    )
