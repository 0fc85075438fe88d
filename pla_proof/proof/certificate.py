"""Coq certificates of runs and separators: the data, the choices and the weights as
Coq terms over Q, with a lemma Coq's kernel checks by computation (``vm_compute``).

A *run certificate* (``pla-proof trace DATA --coq-certificate FILE.v``) states that
replaying the recorded choices from ``w = 0`` makes every update on a violator
(``y_p w.x_p <= 0``) and ends on the recorded weights, that those weights separate every
point strictly, and that the number of updates ``k`` satisfies ``k g^2 <= R^2 |u|^2`` for
the comparator ``u`` (``g = min_p y_p u.x_p > 0``).  A *separator certificate*
(``pla-proof certify DATA WEIGHTS --coq-certificate FILE.v``) states that the weights
separate every point and that the bound they imply, ``R^2 |w|^2 / g^2``, is the value
printed.  Labels are checked to be +-1 and rows to have the stated length.

>>> from fractions import Fraction as F
>>> text = separator_certificate([(F(1),), (F(-2),)], [1, -1], [F(1, 2)])
>>> "Lemma certificate" in text and "(1 # 2)" in text
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

__all__ = ["integral", "q", "run_certificate", "separator_certificate"]

_PRELUDE = r"""Require Import QArith Qminmax List Bool.
Import ListNotations.
Open Scope Q_scope.

Fixpoint dotq (a b : list Q) : Q :=
  match a, b with x :: a', z :: b' => Qred (x * z + dotq a' b') | _, _ => 0 end.
Fixpoint step (c : Q) (x w : list Q) : list Q :=
  match x, w with a :: x', b :: w' => Qred (c * a + b) :: step c x' w' | _, _ => [] end.
Fixpoint eqlist (a b : list Q) : bool :=
  match a, b with
  | x :: a', z :: b' => Qeq_bool x z && eqlist a' b'
  | [], [] => true
  | _, _ => false
  end.
Fixpoint separates (Xs : list (list Q)) (Ys : list Q) (w : list Q) : bool :=
  match Xs, Ys with
  | x :: Xs', y :: Ys' => negb (Qle_bool (y * dotq w x) 0) && separates Xs' Ys' w
  | [], [] => true
  | _, _ => false
  end.
Fixpoint min_margin (m : Q) (Xs : list (list Q)) (Ys : list Q) (u : list Q) : Q :=
  match Xs, Ys with
  | x :: Xs', y :: Ys' => min_margin (Qmin m (y * dotq u x)) Xs' Ys' u
  | _, _ => m
  end.
Definition margin (Xs : list (list Q)) (Ys : list Q) (u : list Q) : Q :=
  match Xs, Ys with
  | x :: Xs', y :: Ys' => min_margin (y * dotq u x) Xs' Ys' u
  | _, _ => 0
  end.
Definition radius2 (Xs : list (list Q)) : Q := fold_left (fun m x => Qmax m (dotq x x)) Xs 0.
Definition labels_ok (Ys : list Q) : bool := forallb (fun y => Qeq_bool (y * y) 1) Ys.
Definition rows_ok (d : nat) (Xs : list (list Q)) : bool :=
  forallb (fun x => Nat.eqb (length x) d) Xs.
"""


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


def _data(X: Sequence[Sequence[Any]], y: Sequence[int], name: str) -> list[str]:
    rows = ";\n  ".join(_vector(x) for x in X)
    return [
        f"(* the data: {name}, n = {len(X)}, d = {len(X[0]) if X else 0} *)",
        f"Definition d : nat := {len(X[0]) if X else 0}.",
        f"Definition X : list (list Q) := [\n  {rows}].",
        f"Definition Y : list Q := {_vector(y)}.",
    ]


def run_certificate(
    X: Sequence[Sequence[Any]],
    y: Sequence[int],
    choices: Sequence[int],
    w: Sequence[Any],
    u: Sequence[Any],
    *,
    name: str = "data",
) -> str:
    """The certificate of a run: the points ``X``, labels ``y``, the 0-based ``choices``
    (the point of each update, in order), the final ``w`` and the comparator ``u``."""
    u = integral(u)
    lines = [
        f"(* A run of the Perceptron on {name}, checked by Coq's kernel by computation.",
        "   Written by `pla-proof trace --coq-certificate`; compile with coqc. *)",
        _PRELUDE,
        *_data(X, y, name),
        "(* the point of each update (0-based), in order *)",
        "Definition choices : list N := [" + "; ".join(f"{c}%N" for c in choices) + "].",
        f"Definition W : list Q := {_vector(w)}.",
        "(* the comparator, scaled to coprime integers (the bound is scale-free) *)",
        f"Definition U : list Q := {_vector(u)}.",
        r"""
(* replay from w = 0: every update on a violator (y w.x <= 0), or None *)
Fixpoint replay (w : list Q) (cs : list N) : option (list Q) :=
  match cs with
  | [] => Some w
  | p :: cs' =>
      let x := nth (N.to_nat p) X [] in
      let y := nth (N.to_nat p) Y 0 in
      if Nat.ltb (N.to_nat p) (length X) && Qle_bool (y * dotq w x) 0
      then replay (step y x w) cs' else None
  end.

Definition run_ok : bool :=
  match replay (repeat 0 d) choices with Some w => eqlist w W | None => false end.
Definition k : Q := inject_Z (Z.of_nat (length choices)).
Definition g : Q := margin X Y U.
Definition bound_ok : bool :=
  negb (Qle_bool g 0) && Qle_bool (k * g * g) (radius2 X * dotq U U).

Lemma certificate :
  labels_ok Y = true /\ rows_ok d X = true /\ run_ok = true /\
  separates X Y W = true /\ bound_ok = true.
Proof. repeat split; vm_compute; reflexivity. Qed.
""",
    ]
    return "\n".join(lines)


def separator_certificate(
    X: Sequence[Sequence[Any]],
    y: Sequence[int],
    w: Sequence[Any],
    *,
    name: str = "data",
) -> str:
    """The certificate of an external separator ``w``: it separates every point, and the
    bound it implies, ``R^2 |w|^2 / g^2`` with ``g = min_p y_p w.x_p``, is the value
    stated (computed here exactly and checked by Coq)."""
    R2 = max((sum((Fraction(v) ** 2 for v in x), Fraction(0)) for x in X), default=Fraction(0))
    g = min((yi * sum((Fraction(a) * b for a, b in zip(w, x, strict=True)), Fraction(0)))
             for x, yi in zip(X, y, strict=True))  # fmt: skip
    ww = sum((Fraction(v) ** 2 for v in w), Fraction(0))
    bound = R2 * ww / (g * g) if g != 0 else Fraction(0)
    lines = [
        f"(* A separator of {name}, checked by Coq's kernel by computation.",
        "   Written by `pla-proof certify --coq-certificate`; compile with coqc. *)",
        _PRELUDE,
        *_data(X, y, name),
        f"Definition W : list Q := {_vector(w)}.",
        "(* the bound R^2 |w|^2 / g^2 it implies for every run of the Perceptron *)",
        f"Definition B : Q := {q(bound)}.",
        r"""
Definition g : Q := margin X Y W.

Lemma certificate :
  labels_ok Y = true /\ rows_ok d X = true /\ separates X Y W = true /\
  Qeq_bool (radius2 X * dotq W W / (g * g)) B = true.
Proof. repeat split; vm_compute; reflexivity. Qed.
""",
    ]
    return "\n".join(lines)
