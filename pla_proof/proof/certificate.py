"""Coq certificates of runs and separators that apply the theorem to the data.

A certificate is a ``.v`` file that ``Require``s the library ``PlaPerceptron`` (the
development and the algorithm inside Coq, :mod:`pla_proof.proof.algorithm`, written beside
it) and proves, by Coq's kernel, on the data written into it:

* that the data are well formed (labels +-1, rows of one length) and that ``gamma`` (the
  margin of the comparator ``(u, th)``) and ``R2`` (the radius of the augmented points
  ``(x, c)``) are the numbers stated;
* **the theorem instantiated on the data** (``every_run``): every run of the Perceptron
  from ``w = 0`` -- any violator at each update, in any order -- makes at most
  ``floor(R^2 |(u, th)|^2 / gamma^2)`` updates (``every_perceptron_run`` of
  ``algorithm.v``: ``convergence.v``'s ``run``, bounded by the development's generic lemma);
* for a *run certificate* (``pla-proof trace DATA --coq-certificate FILE.v``): the run
  itself, computed by Coq (``vm_compute``) -- for the cyclic rule with the algorithm's own
  ``Fixpoint`` ``cyclic``, for another rule by replaying its recorded points -- made ``k``
  updates, ``k`` is within the bound, and the weights it ends on separate the data;
* for a *separator certificate* (``pla-proof certify DATA WEIGHTS --coq-certificate``):
  the weights separate every point and the bound they imply is the value printed.

A data set with a bias convention ``(x, c)`` is written as its points ``x`` with the bias
input ``c`` (the algorithm's decision ``w.x + c b``); weights and comparator split into
``(w, b)`` and ``(u, th)``.

>>> from fractions import Fraction as F
>>> text = separator_certificate([(F(1),), (F(-2),)], [1, -1], [F(1, 2)])
>>> "Theorem every_run" in text and "(1 # 2)" in text
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

__all__ = [
    "LIBRARY",
    "bound_numbers",
    "gordan_certificate",
    "integral",
    "q",
    "run_certificate",
    "separator_certificate",
]

#: the library a certificate needs (:mod:`pla_proof.proof.algorithm`)
LIBRARY = "PlaPerceptron"

_PRELUDE = f"""Require Import Reals {LIBRARY} QArith Qround List.
Import ListNotations.
Open Scope Q_scope.
"""


#: a computed equation checked once, by the kernel's virtual machine at ``Qed`` (the
#: tactic ``vm_compute`` would evaluate it a second time)
_BY_KERNEL = "vm_cast_no_check (eq_refl ({}))."


def q(v: Any) -> str:
    """A rational as a Coq ``Q`` literal.

    >>> q(Fraction(-3, 4)), q(2)
    ('(-3 # 4)', '(2 # 1)')
    """
    f = Fraction(v)
    return f"({f.numerator} # {f.denominator})"


def integral(v: Sequence[Any]) -> list[int]:
    """``v`` times the positive rational that makes its coordinates coprime integers
    (the comparator's direction is all the bound depends on; integers keep Coq's
    arithmetic over Q fast: no gcd of long denominators).

    >>> integral([Fraction(1, 3), Fraction(-2, 9), 0])
    [3, -2, 0]
    """
    fs = [Fraction(a) for a in v]
    den = math.lcm(*(f.denominator for f in fs)) if fs else 1
    ints = [int(f * den) for f in fs]
    g = math.gcd(*ints) if any(ints) else 1
    return [a // g for a in ints]


def _vector(v: Sequence[Any]) -> str:
    return "[" + "; ".join(q(a) for a in v) + "]"


def _split(v: Sequence[Any], bias: Any) -> tuple[list[Any], Any]:
    """``(w, b)`` of augmented weights (the last coordinate is the bias's), or ``(w, 0)``."""
    return (list(v[:-1]), v[-1]) if bias is not None else (list(v), 0)


def bound_numbers(
    X: Sequence[Sequence[Any]], y: Sequence[int], c: Any, u: Sequence[Any], th: Any
) -> tuple[Fraction, Fraction, Fraction, Fraction, int]:
    """``gamma``, ``R2`` and ``floor(R2 |(u, th)|^2 / gamma^2)`` as Coq computes them."""
    fc = Fraction(c)
    g = min(
        (yi * (sum((Fraction(a) * b for a, b in zip(u, x, strict=True)), Fraction(0)) + fc * th)
         for x, yi in zip(X, y, strict=True)),
        default=Fraction(0),
    )  # fmt: skip
    R2 = max((sum((Fraction(v) ** 2 for v in x), Fraction(0)) + fc * fc for x in X),
             default=Fraction(0))  # fmt: skip
    R2 = max(R2, Fraction(0))
    uu = sum((Fraction(v) ** 2 for v in u), Fraction(0)) + Fraction(th) ** 2
    ratio = R2 * uu / (g * g) if g != 0 else Fraction(0)
    return g, R2, uu, ratio, math.floor(ratio)


def _data_head(
    rows: Sequence[Sequence[Any]], y: Sequence[int], c: Any, name: str, what: str, command: str
) -> list[str]:
    """A certificate's first lines: what it is and how to check it, the library's
    prelude, and the data (points ``rows``, labels ``y``, bias input ``c``)."""
    d = len(rows[0]) if rows else 0
    return [
        f"(* {what} on {name}, checked by Coq's kernel.",
        f"   Written by `pla-proof {command} --coq-certificate`.  It needs the library",
        f"   {LIBRARY}.v (the development and the algorithm inside Coq, written beside it):",
        f"   in this directory, run  coqc {LIBRARY}.v  once, then  coqc THIS_FILE.v.",
        "   That it compiles is not the whole check: a proof replaced by Admitted, an added",
        "   Axiom or a weakened statement compile too.  Check it as a reviewer would with",
        "     pla-proof audit THIS_FILE.v [DATA]",
        "   (against pla_proof's own library, the statements and numbers recomputed from the",
        "   data, and Print Assumptions of every final theorem) *)",
        _PRELUDE,
        f"(* the data: {name}, n = {len(rows)}, d = {d}; c is the bias input (the data's",
        "   bias coordinate (x, c); 0: none), the decision is w.x + c b *)",
        "Definition X : list (list Q) := [\n  " + ";\n  ".join(_vector(x) for x in rows) + "].",
        f"Definition Y : list Q := {_vector(y)}.",
        f"Definition c : Q := {q(c)}.",
    ]


def _head(
    X: Sequence[Sequence[Any]],
    y: Sequence[int],
    bias: Any,
    U: Sequence[Any],
    TH: Any,
    name: str,
    what: str,
    command: str,
) -> tuple[list[str], int]:
    c = bias if bias is not None else 0
    rows = [list(x[:-1]) for x in X] if bias is not None else [list(x) for x in X]
    g, R2, _, _, bound = bound_numbers(rows, y, c, U, TH)
    lines = [
        *_data_head(rows, y, c, name, what, command),
        "",
        "(* the comparator (u, th) *)",
        f"Definition U : list Q := {_vector(U)}.",
        f"Definition TH : Q := {q(TH)}.",
        "",
        "(* the numbers of the bound: its margin gamma = min_p y_p (u.x_p + c th), the squared",
        "   radius R2 = max_p |x_p|^2 + c^2, and floor(R2 (|u|^2 + th^2) / gamma^2) *)",
        f"Definition gamma : Q := {q(g)}.",
        f"Definition R2 : Q := {q(R2)}.",
        "",
        "Lemma data_well_formed : well_formed X Y (length U) = true.",
        "Proof. vm_compute. reflexivity. Qed.",
        "Lemma gamma_is_the_margin : margin_of X Y c U TH == gamma.",
        "Proof. vm_compute. reflexivity. Qed.",
        "Lemma gamma_positive : 0 < margin_of X Y c U TH.",
        "Proof. vm_compute. reflexivity. Qed.",
        "Lemma R2_is_the_radius : radius_of X c == R2.",
        "Proof. vm_compute. reflexivity. Qed.",
        f"Lemma the_bound : floor_bound X Y c U TH = {bound}%Z.",
        "Proof. vm_compute. reflexivity. Qed.",
        "Lemma the_bound_from_gamma_and_R2 :",
        f"  Qfloor (R2 * (qdot U U + TH * TH) / (gamma * gamma)) = {bound}%Z.",
        "Proof. vm_compute. reflexivity. Qed.",
        "",
        "(* THE THEOREM on these data (every_perceptron_run, from the development's generic",
        "   lemma): every run of the development's Perceptron (convergence.v's run) from",
        "   w = 0 -- any violator at each update, in any order -- makes at most",
        f"   floor(R2 |(u, th)|^2 / gamma^2) = {bound} updates *)",
        "Theorem every_run : forall k w,",
        "  run (S (length U)) (length X) (points_R X c) (labels_R Y) k w ->",
        f"  (Z.of_nat k <= {bound})%Z.",
        "Proof.",
        "  intros k w H. rewrite <- the_bound.",
        "  exact (every_perceptron_run X Y c U TH data_well_formed gamma_positive k w H).",
        "Qed.",
    ]
    return lines, bound


def run_certificate(
    X: Sequence[Sequence[Any]],
    y: Sequence[int],
    choices: Sequence[int],
    w: Sequence[Any],
    u: Sequence[Any],
    *,
    name: str = "data",
    bias: Any = None,
    cyclic: bool = False,
) -> str:
    """The certificate of a run: the points ``X`` (as trained: with the bias column when
    ``bias`` is the bias input ``c``), labels ``y``, the 0-based ``choices`` (the point of
    each update, in order), the final ``w`` and the comparator ``u``.  ``cyclic``: the run
    is the cyclic rule's from ``w = 0``, computed by the algorithm's ``Fixpoint``; else
    its choices are replayed."""
    U, TH = _split(integral(u), bias)
    W, B = _split(w, bias)
    k = len(choices)
    lines, bound = _head(X, y, bias, U, TH, name, "A run of the Perceptron", "trace")
    lines.append("")
    if cyclic:
        lines += [
            f"(* the run: the cyclic Perceptron from w = 0 (the Fixpoint cyclic, at most {k + 1}",
            "   passes), computed by Coq; it returned these weights after k updates *)",
            f"Definition W : list Q := {_vector(W)}.",
            f"Definition B : Q := {q(B)}.",
            f"Lemma the_run : cyclic {k + 1} X Y c (qzeros (length U)) 0 = Some (W, B, {k}%nat).",
            f"Proof. {_BY_KERNEL.format(f'Some (W, B, {k}%nat)')} Qed.",
            "",
            f"(* and this run is one of them: it made k = {k} updates, at most the bound, and",
            "   the weights it returned separate every point *)",
            "Theorem this_run :",
            f"  cyclic {k + 1} X Y c (qzeros (length U)) 0 = Some (W, B, {k}%nat) /\\",
            f"  (Z.of_nat {k} <= {bound})%Z /\\",
            "  forall x y, In (x, y) (combine X Y) -> 0 < y * (qdot W x + c * B).",
            "Proof.",
            f"  destruct (cyclic_from_zero X Y c U TH {k + 1} W B {k} data_well_formed",
            "    gamma_positive the_run) as [K S]. rewrite the_bound in K.",
            "  split; [exact the_run | split; assumption].",
            "Qed.",
        ]
    else:
        lines += [
            "(* the run: the point of each update (0-based), in order, replayed from w = 0 by",
            "   Coq (each one a violator when chosen); it ends on these weights *)",
            "Definition choices : list N := [" + "; ".join(f"{int(j)}%N" for j in choices) + "].",
            f"Definition W : list Q := {_vector(W)}.",
            f"Definition B : Q := {q(B)}.",
            "Lemma the_run : replay (combine X Y) c (qzeros (length U)) 0 choices = Some (W, B).",
            f"Proof. {_BY_KERNEL.format('Some (W, B)')} Qed.",
            "Lemma the_run_separates : separates (combine X Y) c W B = true.",
            f"Proof. {_BY_KERNEL.format('true')} Qed.",
            "(* the weights it ends on separate every point strictly (the validator is",
            "   proved right: separates_correct) *)",
            "Theorem the_run_separates_strictly :",
            "  forall x y, In (x, y) (combine X Y) -> 0 < y * (qdot W x + c * B).",
            "Proof. exact (proj1 (separates_correct _ _ _ _) the_run_separates). Qed.",
            "",
            f"(* and this run is one of them: it made k = {k} updates, at most the bound *)",
            "Theorem this_run :",
            "  replay (combine X Y) c (qzeros (length U)) 0 choices = Some (W, B) /\\",
            f"  length choices = {k}%nat /\\ (Z.of_nat {k} <= {bound})%Z.",
            "Proof.",
            "  assert (L : length choices = " + f"{k}%nat) by reflexivity.",
            "  split; [exact the_run | split; [exact L|]]. rewrite <- L, <- the_bound.",
            "  exact (replay_from_zero X Y c U TH choices W B data_well_formed gamma_positive",
            "    the_run).",
            "Qed.",
        ]
    return "\n".join(lines) + "\n"


def separator_certificate(
    X: Sequence[Sequence[Any]],
    y: Sequence[int],
    w: Sequence[Any],
    *,
    name: str = "data",
    bias: Any = None,
) -> str:
    """The certificate of an external separator ``w`` (as trained: its last coordinate the
    bias's when ``bias`` is the bias input ``c``): it separates every point, the bound it
    implies for every run, ``R^2 |w|^2 / g^2`` with ``g = min_p y_p w.x_p``, is the value
    stated, and the theorem instantiated with ``w`` as the comparator proves it."""
    U, TH = _split(w, bias)
    rows = [list(x[:-1]) for x in X] if bias is not None else [list(x) for x in X]
    c = bias if bias is not None else 0
    _, _, _, ratio, _ = bound_numbers(rows, y, c, U, TH)
    lines, _ = _head(X, y, bias, U, TH, name, "A separator", "certify")
    lines += [
        "",
        "(* the weights separate every point, and the bound they imply, R2 |w|^2 / gamma^2,",
        "   is B *)",
        f"Definition B : Q := {q(ratio)}.",
        "Lemma separator : separates (combine X Y) c U TH = true.",
        f"Proof. {_BY_KERNEL.format('true')} Qed.",
        "(* ... strictly, every point (the validator is proved right: separates_correct) *)",
        "Theorem separator_strict :",
        "  forall x y, In (x, y) (combine X Y) -> 0 < y * (qdot U x + c * TH).",
        "Proof. exact (proj1 (separates_correct _ _ _ _) separator). Qed.",
        "Lemma bound_value : radius_of X c * (qdot U U + TH * TH) /",
        "  (margin_of X Y c U TH * margin_of X Y c U TH) == B.",
        "Proof. vm_compute. reflexivity. Qed.",
    ]
    return "\n".join(lines) + "\n"


def gordan_certificate(
    X: Sequence[Sequence[Any]],
    y: Sequence[int],
    alpha: Sequence[Any],
    *,
    name: str = "data",
    bias: Any = None,
) -> str:
    """The certificate that the data are **not** separable: a Gordan certificate ``alpha``
    (``alpha >= 0``, ``alpha != 0``, ``sum_i alpha_i y_i (x_i, c) = 0``; the points ``X`` as
    trained, with the bias column last when ``bias`` is the bias input ``c``), checked by
    Coq's kernel; its theorems: no ``(u, th)`` separates the data (``no_separator``), and
    the cyclic Perceptron returns ``None`` for every budget, start and bias
    (``never_returns``).

    >>> text = gordan_certificate([(1, 1), (-1, 1)], [1, 1], [1, 1], bias=1)
    >>> "Theorem never_returns" in text and "Definition A : list Q := [(1 # 1); (1 # 1)]." in text
    True
    """
    c = bias if bias is not None else 0
    rows = [list(x[:-1]) for x in X] if bias is not None else [list(x) for x in X]
    d = len(rows[0]) if rows else 0
    lines = [
        *_data_head(rows, y, c, name, "Non-separable data", "trace"),
        "",
        "(* a Gordan certificate: one weight per point, all >= 0, not all 0, and",
        "   sum_i A_i y_i (x_i, c) = 0 *)",
        f"Definition A : list Q := {_vector(alpha)}.",
        "",
        f"Lemma data_well_formed : well_formed X Y {d} = true.",
        "Proof. vm_compute. reflexivity. Qed.",
        f"Lemma the_certificate : gordan_ok (combine X Y) A c {d} = true.",
        f"Proof. {_BY_KERNEL.format('true')} Qed.",
        "",
        "(* no (u, th) separates these data: sum_i A_i y_i (u.x_i + c th) would be both",
        "   0 and > 0 (gordan_no_separator) *)",
        f"Theorem no_separator : ~ separable X Y c {d}.",
        f"Proof. exact (gordan_not_separable X Y c {d} A data_well_formed the_certificate). Qed.",
        "",
        "(* and the cyclic Perceptron returns None for every budget, start and bias",
        "   (not_separable_never_returns) *)",
        "Theorem never_returns :",
        f"  forall E w0 b0, length w0 = {d}%nat -> cyclic E X Y c w0 b0 = None.",
        "Proof.",
        "  intros E w0 b0 L. apply (gordan_never_returns X Y c A); rewrite L;",
        "    [exact data_well_formed | exact the_certificate].",
        "Qed.",
    ]
    return "\n".join(lines) + "\n"
