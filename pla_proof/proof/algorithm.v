(* ===================================================================== *)
(* The algorithm inside Coq: the cyclic Perceptron over Q, executable,   *)
(* and what the development proves about it.                             *)
(*                                                                       *)
(* Written by hand; compiled after the development (convergence.v, with  *)
(* the generated step lemmas before it) as one library, PlaPerceptron.v  *)
(* (pla_proof.proof.algorithm).  Over Q: lists of rationals, labels +-1, *)
(* any start (w0, b0) and a bias input c (decision w.x + c b; c = 0: no  *)
(* bias).  The theorems over Q are proved over Q, axiom-free: the        *)
(* argument of the development's generic_bound (T_G), redone with        *)
(* rationals.  Those about the development's runs over R go to R through *)
(* Q2R (a ring morphism) and apply generic_bound itself.                 *)
(* ===================================================================== *)

Require Import Reals QArith Qreals Qround List Lia Lra.
Require Lqa.
Require Coq.Strings.String Coq.Numbers.DecimalString.
Import ListNotations.

Local Open Scope Q_scope.

(* w.x over Q: the shorter list decides the length *)
Fixpoint qdot (a b : list Q) : Q :=
  match a, b with x :: a', z :: b' => x * z + qdot a' b' | _, _ => 0 end.

(* w + t x, coordinate by coordinate (reduced, so the numbers stay small) *)
Fixpoint qaxpy (t : Q) (x w : list Q) : list Q :=
  match x, w with a :: x', v :: w' => Qred (t * a + v) :: qaxpy t x' w' | _, _ => [] end.

(* one cyclic pass over the points (x, y) in order, from weights w and bias b, with
   the bias input c (decision w.x + c b; c = 0: no bias): on y (w.x + c b) <= 0,
   w <- w + y x and b <- b + y c.  The weights, the bias and m + the updates made. *)
Fixpoint pass (c : Q) (w : list Q) (b : Q) (m : nat) (D : list (list Q * Q))
  : list Q * Q * nat :=
  match D with
  | [] => (w, b, m)
  | (x, y) :: D' =>
      if Qle_bool (y * (qdot w x + c * b)) 0
      then pass c (qaxpy y x w) (Qred (y * c + b)) (S m) D'
      else pass c w b m D'
  end.

(* THE ALGORITHM: at most E passes (epochs) over the points 1..n in order, from (w, b)
   after k updates.  Some (w, b, k) when a pass makes no update; None when the budget of
   E passes runs out first. *)
Fixpoint perceptron_q (E : nat) (X : list (list Q)) (Y : list Q) (c : Q)
    (w : list Q) (b : Q) (k : nat) : option (list Q * Q * nat) :=
  match E with
  | O => None
  | S E' =>
      match pass c w b 0 (combine X Y) with
      | (_, _, O) => Some (w, b, k)
      | (w', b', S m) => perceptron_q E' X Y c w' b' (k + S m)
      end
  end.

(* the cyclic Perceptron from the start (w0, b0), with an epoch budget E *)
Definition cyclic (E : nat) (X : list (list Q)) (Y : list Q) (c : Q) (w0 : list Q) (b0 : Q)
  : option (list Q * Q * nat) := perceptron_q E X Y c w0 b0 0.

(* the data are well formed: as many labels as points, every label +1 or -1, every point
   of dimension d *)
Definition well_formed (X : list (list Q)) (Y : list Q) (d : nat) : bool :=
  Nat.eqb (length X) (length Y) &&
  forallb (fun y => Qeq_bool y 1 || Qeq_bool y (-1)) Y &&
  forallb (fun x => Nat.eqb (length x) d) X.

(* the zero vector of dimension d *)
Definition qzeros (d : nat) : list Q := repeat 0 d.

(* a number as a rational: the count of updates k, as a Q *)
Definition qnat (k : nat) : Q := inject_Z (Z.of_nat k).

(* ===== over Q: the bound, proved with the rationals only ===== *)

(* The theorems stated over Q -- the algorithm's bound and convergence, separable <-> it
   returns, the Gordan and replay certificates, the pocket -- are proved here with Q's own
   arithmetic: Cauchy-Schwarz for qdot, the two invariants of an update on a violator
   (u.w + th b grows by at least g, |w|^2 + b^2 by at most R^2) and the bound from them:
   the argument of the development's generic lemma (T_G), over Q.  So they rest on no
   axiom (Print Assumptions: closed under the global context).  Only the theorems about
   R (every_run_from_zero, every_perceptron_run: the development's reach and run) go to
   R, below. *)

(* Q's linear and nonlinear arithmetic (micromega over Q; the lra/nra of Lra are R's) *)
Ltac qlra := Lqa.lra.
Ltac qnra := Lqa.nra.

Lemma qnat_0 : qnat 0 == 0.
Proof. reflexivity. Qed.

Lemma qnat_S : forall k, qnat (S k) == qnat k + 1.
Proof.
  intros k. unfold qnat. rewrite Nat2Z.inj_succ. unfold Z.succ. rewrite inject_Z_plus.
  reflexivity.
Qed.

Lemma qnat_nonneg : forall k, 0 <= qnat k.
Proof. intros k. unfold qnat. change 0 with (inject_Z 0). rewrite <- Zle_Qle. lia. Qed.

Lemma qsq_nonneg : forall a, 0 <= a * a.
Proof. intros a. qnra. Qed.

Lemma qdot_comm : forall a b, qdot a b == qdot b a.
Proof. induction a as [|x a IH]; intros [|z b]; cbn [qdot]; try reflexivity. rewrite IH. ring. Qed.

Lemma qdot_self_nonneg_q : forall a, 0 <= qdot a a.
Proof.
  induction a as [|x a IH]; cbn [qdot]; [apply Qle_refl|].
  pose proof (qsq_nonneg x). qlra.
Qed.

(* Cauchy-Schwarz over Q: (a.b)^2 <= |a|^2 |b|^2, by induction on the lists *)
Lemma qdot_cauchy_schwarz : forall a b, qdot a b * qdot a b <= qdot a a * qdot b b.
Proof.
  induction a as [|x a IH]; intros [|z b]; cbn [qdot]; try qlra.
  pose proof (IH b) as H. pose proof (qdot_self_nonneg_q a) as HA.
  pose proof (qdot_self_nonneg_q b) as HB.
  set (s := qdot a b) in *. set (A := qdot a a) in *. set (B := qdot b b) in *.
  pose proof (qsq_nonneg x) as Hx.
  destruct (Qlt_le_dec 0 A) as [PA|ZA].
  - (* A (|(x, a)|^2 |(z, b)|^2 - ((x, a).(z, b))^2) = (x s - z A)^2 + (x^2 + A)(A B - s^2) *)
    assert (E : A * ((x * x + A) * (z * z + B) - (x * z + s) * (x * z + s))
                == (x * s - z * A) * (x * s - z * A) + (x * x + A) * (A * B - s * s)) by ring.
    pose proof (qsq_nonneg (x * s - z * A)).
    assert (0 <= (x * x + A) * (A * B - s * s)) by (apply Qmult_le_0_compat; qlra).
    assert (0 <= A * ((x * x + A) * (z * z + B) - (x * z + s) * (x * z + s))) by qlra.
    qnra.
  - (* A = 0, so s = 0 *)
    assert (A0 : A == 0) by qlra. rewrite A0 in H |- *.
    assert (Z0 : s == 0) by (apply Qle_antisym; qnra).
    rewrite Z0. assert (0 <= x * x * B) by (apply Qmult_le_0_compat; qlra). qlra.
Qed.

Lemma length_axpy : forall t x w, length x = length w -> length (qaxpy t x w) = length w.
Proof. induction x as [|a x IH]; intros [|v w] L; simpl in *; try lia. rewrite IH; lia. Qed.

Lemma qdot_zeros : forall w d, qdot w (qzeros d) == 0.
Proof.
  induction w as [|a w IH]; intros [|d]; cbn [qdot qzeros repeat]; try reflexivity.
  rewrite IH. ring.
Qed.

Lemma qdot_axpy : forall w t x v, length x = length v -> length w = length v ->
  qdot w (qaxpy t x v) == t * qdot w x + qdot w v.
Proof.
  induction w as [|a w IH]; intros t x v Lx Lw; destruct x as [|p x], v as [|q v];
    cbn [qdot qaxpy length] in *; try discriminate; try ring.
  injection Lx as Lx. injection Lw as Lw. rewrite Qred_correct. rewrite (IH t x v Lx Lw). ring.
Qed.

Lemma label_sq_q : forall y, (Qeq_bool y 1 || Qeq_bool y (-1))%bool = true -> y * y == 1.
Proof.
  intros y H. apply Bool.orb_true_iff in H.
  destruct H as [H|H]; apply Qeq_bool_iff in H; rewrite H; reflexivity.
Qed.

(* the facts of well-formed data, point by point *)
Lemma well_formed_q : forall X Y d, well_formed X Y d = true ->
  forall x y, In (x, y) (combine X Y) -> length x = d /\ y * y == 1.
Proof.
  intros X Y d W x y I. unfold well_formed in W.
  apply andb_prop in W as [W Hx]. apply andb_prop in W as [_ Hy].
  rewrite forallb_forall in Hx, Hy. split.
  - apply Nat.eqb_eq. apply Hx. apply (in_combine_l _ _ _ _ I).
  - apply label_sq_q. apply Hy. apply (in_combine_r _ _ _ _ I).
Qed.

(* ---- what a pass, and the algorithm, keep ---- *)

Lemma pass_more : forall c D w b m w' b' m', pass c w b m D = (w', b', m') -> (m <= m')%nat.
Proof.
  intros c D. induction D as [|[x y] D IH]; intros w b m w' b' m' E; simpl in E.
  - injection E as _ _ <-. lia.
  - destruct (Qle_bool _ _); [apply IH in E; lia | exact (IH _ _ _ _ _ _ E)].
Qed.

(* a pass that makes no update: the weights classify every point strictly *)
Lemma pass_clean : forall c D w b m w' b', pass c w b m D = (w', b', m) ->
  forall x y, In (x, y) D -> 0 < y * (qdot w x + c * b).
Proof.
  intros c D. induction D as [|[x0 y0] D IH]; intros w b m w' b' E x y I; [destruct I|].
  simpl in E. destruct (Qle_bool (y0 * (qdot w x0 + c * b)) 0) eqn:T.
  - apply pass_more in E. lia.
  - destruct I as [I|I].
    + injection I as -> ->. apply Qnot_le_lt. intros H. apply Qle_bool_iff in H. congruence.
    + exact (IH _ _ _ _ _ E x y I).
Qed.

(* a property I of the weights (w, b) after k updates, kept by every update on a violator
   among the points D *)
Definition kept (c : Q) (D : list (list Q * Q)) (I : list Q -> Q -> nat -> Prop) : Prop :=
  forall x y w b k, In (x, y) D -> y * (qdot w x + c * b) <= 0 -> I w b k ->
    I (qaxpy y x w) (Qred (y * c + b)) (S k).

Lemma kept_tail : forall c p D I, kept c (p :: D) I -> kept c D I.
Proof. intros c p D I K x y w b k H. apply K. right. exact H. Qed.

(* a pass keeps it (m counts the updates) *)
Lemma pass_kept : forall c I D w b m w' b' m' j, kept c D I ->
  I w b (j + m)%nat -> pass c w b m D = (w', b', m') -> I w' b' (j + m')%nat.
Proof.
  intros c I D. induction D as [|[x y] D IH]; intros w b m w' b' m' j K H E; cbn [pass] in E.
  - injection E as <- <- <-. exact H.
  - destruct (Qle_bool (y * (qdot w x + c * b)) 0) eqn:V.
    + apply (IH (qaxpy y x w) (Qred (y * c + b)) (S m) w' b' m' j (kept_tail _ _ _ _ K));
      [|exact E].
      rewrite Nat.add_succ_r. apply K; [left; reflexivity | apply Qle_bool_iff; exact V | exact H].
    + exact (IH _ _ _ _ _ _ j (kept_tail _ _ _ _ K) H E).
Qed.

(* the algorithm keeps it, and what it returns separates the data strictly *)
Lemma perceptron_q_kept : forall X Y c I E w b k w' b' k', kept c (combine X Y) I ->
  I w b k -> perceptron_q E X Y c w b k = Some (w', b', k') ->
  I w' b' k' /\ forall x y, In (x, y) (combine X Y) -> 0 < y * (qdot w' x + c * b').
Proof.
  intros X Y c I E. induction E as [|E IH]; intros w b k w' b' k' K H Hs; [discriminate|].
  simpl in Hs. destruct (pass c w b 0 (combine X Y)) as [[w1 b1] [|m]] eqn:Pa.
  - injection Hs as <- <- <-. split; [exact H | exact (pass_clean _ _ _ _ _ _ _ Pa)].
  - apply (IH w1 b1 (k + S m)%nat w' b' k' K); [|exact Hs].
    apply (pass_kept c I _ w b 0 w1 b1 (S m) k K); [rewrite Nat.add_0_r; exact H | exact Pa].
Qed.

(* out of budget after E passes: at least E more updates, and I holds after them *)
Lemma perceptron_q_none_kept : forall X Y c I E w b k, kept c (combine X Y) I ->
  I w b k -> perceptron_q E X Y c w b k = None ->
  exists w' b' k', (k + E <= k')%nat /\ I w' b' k'.
Proof.
  intros X Y c I E. induction E as [|E IH]; intros w b k K H Hs.
  - exists w, b, k. split; [lia | exact H].
  - simpl in Hs. destruct (pass c w b 0 (combine X Y)) as [[w1 b1] [|m]] eqn:Pa; [discriminate|].
    assert (H1 : I w1 b1 (k + S m)%nat)
      by (apply (pass_kept c I _ w b 0 w1 b1 (S m) k K); [rewrite Nat.add_0_r; exact H | exact Pa]).
    destruct (IH w1 b1 (k + S m)%nat K H1 Hs) as (w' & b' & k' & L & H').
    exists w', b', k'. split; [lia | exact H'].
Qed.

(* ---- the bound ---- *)

(* the bound at k updates, over Q: (u.w0 + th b0 + k g)^2 <= (|u|^2 + th^2)(|w0|^2 + b0^2 + k R2) *)
Definition within_bound (u : list Q) (th : Q) (w0 : list Q) (b0 g R2 : Q) (k : nat) : Prop :=
  (qdot u w0 + th * b0 + g * qnat k) * (qdot u w0 + th * b0 + g * qnat k)
    <= (qdot u u + th * th) * (qdot w0 w0 + b0 * b0 + R2 * qnat k).

(* the invariants after k updates from (w0, b0): u.w + th b has grown by at least k g,
   |w|^2 + b^2 by at most k R2 (and R2 >= 0 once an update has been made) *)
Definition qinv (u : list Q) (th : Q) (w0 : list Q) (b0 g R2 : Q) (w : list Q) (b : Q)
    (k : nat) : Prop :=
  length w = length w0 /\
  qdot u w0 + th * b0 + g * qnat k <= qdot u w + th * b /\
  qdot w w + b * b <= qdot w0 w0 + b0 * b0 + R2 * qnat k /\
  (k = O \/ 0 <= R2).

Lemma qinv_start : forall u th w0 b0 g R2, qinv u th w0 b0 g R2 w0 b0 0.
Proof.
  intros. unfold qinv. rewrite qnat_0. split; [reflexivity|].
  split; [qlra|]. split; [qlra | left; reflexivity].
Qed.

(* an update on a violator keeps them: with y^2 = 1, g <= y (u.x + c th) and
   |x|^2 + c^2 <= R2 *)
Lemma qinv_kept : forall X Y c u th w0 b0 g R2,
  well_formed X Y (length w0) = true -> length u = length w0 ->
  (forall x y, In (x, y) (combine X Y) -> g <= y * (qdot u x + c * th)) ->
  (forall x, In x X -> qdot x x + c * c <= R2) ->
  kept c (combine X Y) (qinv u th w0 b0 g R2).
Proof.
  intros X Y c u th w0 b0 g R2 W Lu Hm Hr x y w b k I V (Lw & Hp & Hn & _).
  destruct (well_formed_q X Y _ W x y I) as (Lx & Hy).
  pose proof (Hm x y I) as M. pose proof (Hr x (in_combine_l _ _ _ _ I)) as Rx.
  assert (Lxw : length x = length w) by lia.
  assert (L' : length (qaxpy y x w) = length w) by (apply length_axpy; exact Lxw).
  (* u.w' = y u.x + u.w;  w'.w' = y (y x.x + x.w) + y w.x + w.w *)
  pose proof (qdot_axpy u y x w Lxw ltac:(lia)) as Du.
  pose proof (qdot_axpy (qaxpy y x w) y x w Lxw L') as Dw.
  rewrite (qdot_comm (qaxpy y x w) x), (qdot_comm (qaxpy y x w) w) in Dw.
  rewrite (qdot_axpy x y x w Lxw Lxw), (qdot_axpy w y x w Lxw eq_refl), (qdot_comm x w) in Dw.
  assert (Y2 : y * y * (qdot x x + c * c) == qdot x x + c * c) by (rewrite Hy; ring).
  pose proof (qdot_self_nonneg_q x) as Nx. pose proof (qsq_nonneg c) as Nc.
  unfold qinv. rewrite qnat_S, Qred_correct, L'.
  split; [exact Lw|]. split; [|split; [|right; qlra]].
  - rewrite Du. qlra.
  - rewrite Dw. qlra.
Qed.

(* the invariants give the bound: Cauchy-Schwarz for (u, th) and (w, b) when
   u.w0 + th b0 + k g >= 0, for (u, th) and (w0, b0) when it is < 0 *)
Lemma qinv_within : forall u th w0 b0 g R2 w b k, 0 < g ->
  qinv u th w0 b0 g R2 w b k -> within_bound u th w0 b0 g R2 k.
Proof.
  intros u th w0 b0 g R2 w b k Hg (_ & Hp & Hn & Hr). unfold within_bound.
  pose proof (qnat_nonneg k) as K.
  assert (RK : 0 <= R2 * qnat k).
  { destruct Hr as [-> | R]; [rewrite qnat_0; qlra | apply Qmult_le_0_compat; [exact R | exact K]]. }
  assert (GK : 0 <= g * qnat k) by (apply Qmult_le_0_compat; [qlra | exact K]).
  pose proof (qdot_cauchy_schwarz (th :: u) (b :: w)) as CS.
  pose proof (qdot_cauchy_schwarz (th :: u) (b0 :: w0)) as CS0. cbn [qdot] in CS, CS0.
  pose proof (qdot_self_nonneg_q u). pose proof (qsq_nonneg th).
  assert (UN : (qdot w w + b * b) * (qdot u u + th * th)
               <= (qdot w0 w0 + b0 * b0 + R2 * qnat k) * (qdot u u + th * th))
    by (apply Qmult_le_compat_r; qlra).
  assert (UN0 : (qdot w0 w0 + b0 * b0) * (qdot u u + th * th)
               <= (qdot w0 w0 + b0 * b0 + R2 * qnat k) * (qdot u u + th * th))
    by (apply Qmult_le_compat_r; qlra).
  destruct (Qlt_le_dec (qdot u w0 + th * b0 + g * qnat k) 0) as [Neg|Pos].
  - (* (u.w0 + th b0 + k g)^2 <= (u.w0 + th b0)^2 <= |(u, th)|^2 |(w0, b0)|^2 *)
    assert (0 <= g * qnat k * - (2 * (qdot u w0 + th * b0) + g * qnat k))
      by (apply Qmult_le_0_compat; qlra).
    qlra.
  - (* (u.w0 + th b0 + k g)^2 <= (u.w + th b)^2 <= |(u, th)|^2 |(w, b)|^2 *)
    assert ((qdot u w0 + th * b0 + g * qnat k) * (qdot u w0 + th * b0 + g * qnat k)
            <= (qdot u w + th * b) * (qdot u w + th * b))
      by (apply Qmult_le_compat_nonneg; split; qlra).
    qlra.
Qed.

(* ---- over R, for the theorems about the development's runs (every_run_from_zero,
        every_perceptron_run): the augmented (c, x), labels, weights as vectors over R ---- *)

(* coordinate i (1-based) of a list, as a real; 0 outside *)
Definition toR (v : list Q) : nat -> R :=
  fun i => match i with O => 0%R | S j => Q2R (nth j v 0) end.

(* one update of the Perceptron on any violator among the augmented points P (any
   order, any choice): the step relation of the generic lemma *)
Definition qstep (P : list (list Q * Q)) (D : nat) (w w' : nat -> R) : Prop :=
  exists x y, In (x, y) P /\ (Q2R y ^ 2 = 1)%R /\ (Q2R y * dot D w (toR x) <= 0)%R /\
    forall i, (1 <= i <= D)%nat -> w' i = (Q2R y * toR x i + w i)%R.

Definition augment (X : list (list Q)) (Y : list Q) (c : Q) : list (list Q * Q) :=
  map (fun xy => (c :: fst xy, snd xy)) (combine X Y).

(* ---- lemmas ---- *)

Lemma sum_first : forall n f, sum (S n) f = (f 1%nat + sum n (fun i => f (S i)))%R.
Proof.
  induction n as [|n IH]; intros f; [cbn [sum]; ring|].
  change (sum (S (S n)) f) with (sum (S n) f + f (S (S n)))%R. rewrite IH. cbn [sum]. ring.
Qed.

Lemma dot_toR : forall a b, length a = length b ->
  dot (length a) (toR a) (toR b) = Q2R (qdot a b).
Proof.
  induction a as [|x a IH]; intros [|z b] L; simpl in L; try discriminate.
  - unfold dot. cbn [sum length qdot]. rewrite RMicromega.Q2R_0. reflexivity.
  - unfold dot in *. cbn [length qdot]. rewrite sum_first. rewrite Q2R_plus, Q2R_mult.
    rewrite <- IH by lia. f_equal. apply sum_ext. intros [|i] Hi; [lia|reflexivity].
Qed.

(* the facts of well-formed data, point by point, over R: those over Q carried there *)
Lemma well_formed_in : forall X Y d, well_formed X Y d = true ->
  forall x y, In (x, y) (combine X Y) -> length x = d /\ (Q2R y ^ 2 = 1)%R.
Proof.
  intros X Y d W x y I. destruct (well_formed_q X Y d W x y I) as (Lx & Hy).
  split; [exact Lx|]. apply Qeq_eqR in Hy. rewrite Q2R_mult in Hy.
  replace (Q2R 1) with 1%R in Hy by (unfold Q2R; simpl; field).
  simpl. rewrite Rmult_1_r. exact Hy.
Qed.

Lemma norm2_dot : forall D a, norm2 D a = dot D a a.
Proof. intros. unfold norm2, dot. apply sum_ext. intros. ring. Qed.

Lemma expand_norm2 : forall D (t : R) (x w w' : nat -> R),
  (forall i, (1 <= i <= D)%nat -> w' i = (t * x i + w i)%R) ->
  norm2 D w' = (t ^ 2 * norm2 D x + 2 * t * dot D w x + norm2 D w)%R.
Proof.
  intros D t x w w' E. unfold norm2, dot.
  rewrite (sum_ext D _ (fun i => (t * x i + w i) ^ 2)%R) by (intros; rewrite E by lia; ring).
  clear E. induction D as [|D IH]; cbn [sum]; [ring| rewrite IH; ring].
Qed.

Lemma expand_dot : forall D (t : R) (u x w w' : nat -> R),
  (forall i, (1 <= i <= D)%nat -> w' i = (t * x i + w i)%R) ->
  dot D u w' = (t * dot D u x + dot D u w)%R.
Proof.
  intros D t u x w w' E. unfold dot.
  rewrite (sum_ext D _ (fun i => u i * (t * x i + w i))%R) by (intros; rewrite E by lia; ring).
  clear E. induction D as [|D IH]; cbn [sum]; [ring| rewrite IH; ring].
Qed.

(* ---- every run is covered by the bound: the generic lemma of the development ---- *)

(* any run of updates on violators among the points P (dimension D, comparator u with
   margin g, radius R2), from any start v: (u.v + k g)^2 <= |u|^2 (|v|^2 + k R2) --
   generic_bound (T_G) of the development, applied to this step relation *)
Lemma reach_bound : forall P D (u : list Q) (g R2 : R) v k w,
  length u = D ->
  (forall x y, In (x, y) P ->
     length x = D /\ (Q2R y * Q2R (qdot u x) >= g)%R /\ (Q2R (qdot x x) <= R2)%R) ->
  (g > 0)%R ->
  reach (qstep P D) v k w ->
  ((dot D (toR u) v + g * INR k) ^ 2 <= norm2 D (toR u) * (norm2 D v + R2 * INR k))%R.
Proof.
  intros P D u g R2 v k w Lu HP Hg H. destruct k as [|k].
  - inversion H; subst. cbn [INR]. rewrite !Rmult_0_r, !Rplus_0_r.
    unfold dot, norm2. apply kernel_cauchy_schwarz.
  - assert (Hx : forall x y, In (x, y) P -> dot D (toR u) (toR x) = Q2R (qdot u x) /\
                norm2 D (toR x) = Q2R (qdot x x)).
    { intros x y I. destruct (HP x y I) as (Lx & _ & _). rewrite norm2_dot.
      split; [rewrite <- Lu | rewrite <- Lx]; apply dot_toR; lia. }
    assert (Some : exists x y, In (x, y) P).
    { inversion H as [|k' w1 w2 _ (x & y & I & _)]; subst. exists x, y. exact I. }
    destruct Some as (x1 & y1 & I1). destruct (HP x1 y1 I1) as (_ & M1 & R1).
    destruct (Hx x1 y1 I1) as (D1 & N1).
    apply (generic_bound D (toR u) R2 g (qstep P D) v) with (w := w).
    + intros w1 w2 (x & y & I & Hy & Hv & E). rewrite (expand_norm2 D (Q2R y) (toR x) w1 w2 E).
      rewrite Hy. destruct (HP x y I) as (_ & _ & Rx). destruct (Hx x y I) as (_ & Nx).
      rewrite Nx. lra.
    + intros w1 w2 (x & y & I & Hy & Hv & E). rewrite (expand_dot D (Q2R y) (toR u) (toR x) w1 w2 E).
      destruct (HP x y I) as (_ & Mx & _). destruct (Hx x y I) as (Dx & _). rewrite Dx. lra.
    + exact Hg.
    + pose proof (kernel_cauchy_schwarz D (toR u) (toR x1)) as CS.
      pose proof (kernel_sos D (toR u)) as S. fold (dot D (toR u) (toR x1)) in CS.
      fold (norm2 D (toR u)) in CS, S. fold (norm2 D (toR x1)) in CS.
      rewrite D1, N1 in CS. destruct (Rle_or_lt (norm2 D (toR u)) 0) as [Z|]; [|lra].
      assert (E0 : norm2 D (toR u) = 0%R) by lra. rewrite E0 in CS.
      assert (Q0 : Q2R (qdot u x1) = 0%R) by nra. rewrite Q0 in M1. lra.
    + pose proof (kernel_sos D (toR x1)) as S. fold (norm2 D (toR x1)) in S. lra.
    + exact H.
    + lia.
Qed.

Lemma Q2R_qnat : forall k, Q2R (qnat k) = INR k.
Proof. intros. unfold qnat, Q2R. simpl. rewrite INR_IZR_INZ. field. Qed.

Lemma qdot_self_nonneg : forall a, (0 <= Q2R (qdot a a))%R.
Proof.
  intros a. rewrite <- dot_toR by reflexivity. rewrite <- norm2_dot.
  pose proof (kernel_sos (length a) (toR a)) as S. fold (norm2 (length a) (toR a)) in S. lra.
Qed.

(* the data's facts as the augmented points' facts *)
Lemma augment_facts : forall X Y c u th g R2,
  (forall x y, In (x, y) (combine X Y) -> g <= y * (qdot u x + c * th)) ->
  (forall x, In x X -> qdot x x + c * c <= R2) ->
  forall d, well_formed X Y d = true -> length u = d ->
  forall x y, In (x, y) (augment X Y c) ->
     length x = S d /\ (Q2R y * Q2R (qdot (th :: u) x) >= Q2R g)%R /\ (Q2R (qdot x x) <= Q2R R2)%R.
Proof.
  intros X Y c u th g R2 Hm Hr d W Lu xh y I. unfold augment in I.
  apply in_map_iff in I as ([x y0] & E & I). simpl in E. injection E as <- ->.
  destruct (well_formed_in X Y d W x y I) as (Lx & _).
  split; [simpl; lia|]. split.
  - apply Rle_ge. pose proof (Qle_Rle _ _ (Hm x y I)) as M. cbn [qdot].
    rewrite Q2R_mult, Q2R_plus, Q2R_mult in M. rewrite Q2R_plus, Q2R_mult. lra.
  - pose proof (Qle_Rle _ _ (Hr x (in_combine_l _ _ _ _ I))) as M. cbn [qdot].
    rewrite Q2R_plus, Q2R_mult in M |- *. lra.
Qed.

Lemma augment_in : forall X Y c d, well_formed X Y d = true ->
  forall x y, In (x, y) (combine X Y) ->
    In (c :: x, y) (augment X Y c) /\ length x = d /\ (Q2R y ^ 2 = 1)%R.
Proof.
  intros X Y c d W x y I. destruct (well_formed_in X Y d W x y I) as (Lx & Hy).
  split; [|auto]. unfold augment. apply in_map_iff. exists (x, y). auto.
Qed.

(* ===== (a) every run the algorithm makes is covered by the bound, from any start (w0, b0),
   with the bias; and the weights it returns separate the data strictly ===== *)
(* every run of the cyclic algorithm, from any start with a bias, is within the bound, and what it returns separates the data *)
(* nodes: T_G, SEP, DEF_ALG; axioms: none *)
Theorem cyclic_bound : forall X Y c w0 b0 u th g R2 E w b k,
  well_formed X Y (length w0) = true -> length u = length w0 -> 0 < g ->
  (forall x y, In (x, y) (combine X Y) -> g <= y * (qdot u x + c * th)) ->
  (forall x, In x X -> qdot x x + c * c <= R2) ->
  cyclic E X Y c w0 b0 = Some (w, b, k) ->
  within_bound u th w0 b0 g R2 k /\
  forall x y, In (x, y) (combine X Y) -> 0 < y * (qdot w x + c * b).
Proof.
  intros X Y c w0 b0 u th g R2 E w b k W Lu Hg Hm Hr Run.
  destruct (perceptron_q_kept X Y c (qinv u th w0 b0 g R2) E w0 b0 0 w b k
    (qinv_kept X Y c u th w0 b0 g R2 W Lu Hm Hr) (qinv_start u th w0 b0 g R2) Run) as (Inv & Sep).
  split; [exact (qinv_within u th w0 b0 g R2 w b k Hg Inv) | exact Sep].
Qed.

(* ===== (c) if it returns, the returned (w, b) separates the data strictly ===== *)
(* what the cyclic algorithm returns separates the data strictly *)
(* nodes: SEP, DEF_ALG; axioms: none *)
Theorem cyclic_separates : forall X Y c w0 b0 E w b k,
  well_formed X Y (length w0) = true ->
  cyclic E X Y c w0 b0 = Some (w, b, k) ->
  length w = length w0 /\ forall x y, In (x, y) (combine X Y) -> 0 < y * (qdot w x + c * b).
Proof.
  intros X Y c w0 b0 E w b k W Run.
  assert (K : kept c (combine X Y) (fun w _ _ => length w = length w0)).
  { intros x y w1 b1 k1 I _ L. rewrite length_axpy; [exact L|].
    destruct (well_formed_q X Y _ W x y I) as (Lx & _). lia. }
  exact (perceptron_q_kept X Y c _ E w0 b0 0 w b k K eq_refl Run).
Qed.

(* ===== (b) with margin g > 0, it returns within B + 1 epochs, for any B that bounds every
   k the bound allows ===== *)
(* with margin g > 0 the cyclic algorithm returns within B + 1 epochs, for any B that bounds every k the bound allows *)
(* nodes: T_G, SEP, DEF_ALG; axioms: none *)
Theorem cyclic_converges : forall X Y c w0 b0 u th g R2 B,
  well_formed X Y (length w0) = true -> length u = length w0 -> 0 < g ->
  (forall x y, In (x, y) (combine X Y) -> g <= y * (qdot u x + c * th)) ->
  (forall x, In x X -> qdot x x + c * c <= R2) ->
  (forall k, within_bound u th w0 b0 g R2 k -> (k <= B)%nat) ->
  exists w b k, cyclic (S B) X Y c w0 b0 = Some (w, b, k) /\ (k <= B)%nat.
Proof.
  intros X Y c w0 b0 u th g R2 B W Lu Hg Hm Hr HB.
  destruct (cyclic (S B) X Y c w0 b0) as [[[w b] k]|] eqn:Run.
  - exists w, b, k. split; [reflexivity|]. apply HB.
    exact (proj1 (cyclic_bound X Y c w0 b0 u th g R2 (S B) w b k W Lu Hg Hm Hr Run)).
  - exfalso. destruct (perceptron_q_none_kept X Y c (qinv u th w0 b0 g R2) (S B) w0 b0 0
      (qinv_kept X Y c u th w0 b0 g R2 W Lu Hm Hr) (qinv_start u th w0 b0 g R2) Run)
      as (w' & b' & k' & K & Inv).
    pose proof (HB k' (qinv_within u th w0 b0 g R2 w' b' k' Hg Inv)). lia.
Qed.

(* ---- the numbers of a certificate, computed: the margin g of (u, th), the radius R^2 of
        the augmented points, and the bound floor(R^2 |(u, th)|^2 / g^2) ---- *)

Definition qmin2 (a b : Q) : Q := if Qle_bool a b then a else b.
Definition qmax2 (a b : Q) : Q := if Qle_bool a b then b else a.

Fixpoint qmin_over {A} (f : A -> Q) (l : list A) (m : Q) : Q :=
  match l with [] => m | a :: l' => qmin_over f l' (qmin2 m (f a)) end.
Fixpoint qmax_over {A} (f : A -> Q) (l : list A) (m : Q) : Q :=
  match l with [] => m | a :: l' => qmax_over f l' (qmax2 m (f a)) end.

Lemma qmin_over_le : forall A f (l : list A) m, qmin_over f l m <= m /\
  forall a, In a l -> qmin_over f l m <= f a.
Proof.
  intros A f l. induction l as [|a l IH]; intros m; simpl; [split; [apply Qle_refl | tauto]|].
  destruct (IH (qmin2 m (f a))) as [H1 H2].
  assert (M : qmin2 m (f a) <= m /\ qmin2 m (f a) <= f a).
  { unfold qmin2. destruct (Qle_bool m (f a)) eqn:T.
    - apply Qle_bool_iff in T. split; [apply Qle_refl | exact T].
    - split; [|apply Qle_refl]. apply Qlt_le_weak. apply Qnot_le_lt.
      intros H. apply Qle_bool_iff in H. congruence. }
  split; [apply (Qle_trans _ _ _ H1); tauto|].
  intros b [<-|I]; [apply (Qle_trans _ _ _ H1); tauto | exact (H2 b I)].
Qed.

Lemma qmax_over_ge : forall A f (l : list A) m, m <= qmax_over f l m /\
  forall a, In a l -> f a <= qmax_over f l m.
Proof.
  intros A f l. induction l as [|a l IH]; intros m; simpl; [split; [apply Qle_refl | tauto]|].
  destruct (IH (qmax2 m (f a))) as [H1 H2].
  assert (M : m <= qmax2 m (f a) /\ f a <= qmax2 m (f a)).
  { unfold qmax2. destruct (Qle_bool m (f a)) eqn:T.
    - apply Qle_bool_iff in T. split; [exact T | apply Qle_refl].
    - split; [apply Qle_refl|]. apply Qlt_le_weak. apply Qnot_le_lt.
      intros H. apply Qle_bool_iff in H. congruence. }
  split; [apply (Qle_trans _ _ _ (proj1 M)); exact H1|].
  intros b [<-|I]; [apply (Qle_trans _ _ _ (proj2 M)); exact H1 | exact (H2 b I)].
Qed.

(* g = min_p y_p (u.x_p + c th) (0 for no points) *)
Definition margin_of (X : list (list Q)) (Y : list Q) (c : Q) (u : list Q) (th : Q) : Q :=
  let f := fun (p : list Q * Q) => snd p * (qdot u (fst p) + c * th) in
  match combine X Y with [] => 0 | p :: D => qmin_over f D (f p) end.

(* R^2 = max_p |x_p|^2 + c^2 *)
Definition radius_of (X : list (list Q)) (c : Q) : Q :=
  qmax_over (fun x => qdot x x + c * c) X 0.

(* floor(R^2 (|u|^2 + th^2) / g^2), an integer (Z: binary, so large bounds stay cheap) *)
Definition floor_bound (X : list (list Q)) (Y : list Q) (c : Q) (u : list Q) (th : Q) : Z :=
  let g := margin_of X Y c u th in
  Qfloor (radius_of X c * (qdot u u + th * th) / (g * g)).

Lemma margin_of_le : forall X Y c u th x y, In (x, y) (combine X Y) ->
  margin_of X Y c u th <= y * (qdot u x + c * th).
Proof.
  intros X Y c u th x y I. unfold margin_of. destruct (combine X Y) as [|p D]; [destruct I|].
  destruct (qmin_over_le _ (fun p : list Q * Q => snd p * (qdot u (fst p) + c * th)) D
    (snd p * (qdot u (fst p) + c * th))) as [H1 H2].
  destruct I as [->|I]; [exact H1 | exact (H2 (x, y) I)].
Qed.

Lemma radius_of_ge : forall X c x, In x X -> qdot x x + c * c <= radius_of X c.
Proof. intros X c x I. exact (proj2 (qmax_over_ge _ _ X 0) x I). Qed.

Lemma radius_of_nonneg : forall X c, 0 <= radius_of X c.
Proof. intros. exact (proj1 (qmax_over_ge _ _ X 0)). Qed.

Lemma floor_of : forall (k : nat) (q : Q), qnat k <= q -> (Z.of_nat k <= Qfloor q)%Z.
Proof.
  intros k q H. apply Qfloor_resp_le in H. unfold qnat in H. rewrite Qfloor_Z in H. exact H.
Qed.

(* from zero (w0 = 0, b0 = 0) the bound is k^2 g^2 <= (|u|^2 + th^2) k R2: so
   k <= floor(R2 (|u|^2 + th^2) / g^2) *)
Lemma within_floor : forall u th d g R2 k, 0 < g -> 0 <= R2 ->
  within_bound u th (qzeros d) 0 g R2 k ->
  (Z.of_nat k <= Qfloor (R2 * (qdot u u + th * th) / (g * g)))%Z.
Proof.
  intros u th d g R2 k Hg HR B. unfold within_bound in B. rewrite !qdot_zeros in B.
  pose proof (qdot_self_nonneg_q u). pose proof (qsq_nonneg th).
  assert (UR : 0 <= R2 * (qdot u u + th * th)) by (apply Qmult_le_0_compat; qlra).
  apply floor_of. apply Qle_shift_div_l; [apply Qmult_lt_0_compat; exact Hg|].
  destruct k as [|k]; [rewrite qnat_0; qlra|].
  pose proof (qnat_S k) as E. pose proof (qnat_nonneg k).
  assert (KP : 0 < qnat (S k)) by qlra.
  apply (Qmult_le_r _ _ (qnat (S k)) KP). qlra.
Qed.

(* every run from zero: k g^2 <= R^2 |u|^2, so k <= floor(R^2 |u|^2 / g^2) *)
Lemma reach_from_zero : forall X Y c u th,
  well_formed X Y (length u) = true -> 0 < margin_of X Y c u th ->
  forall v, (forall i, v i = 0%R) ->
  forall k w, reach (qstep (augment X Y c) (S (length u))) v k w ->
  (Z.of_nat k <= floor_bound X Y c u th)%Z.
Proof.
  intros X Y c u th W Hg v Z k w R. set (g := margin_of X Y c u th) in *.
  set (R2 := radius_of X c).
  pose proof (reach_bound (augment X Y c) (S (length u)) (th :: u) (Q2R g) (Q2R R2) v k w
    ltac:(reflexivity)
    (augment_facts X Y c u th g R2 (margin_of_le X Y c u th) (radius_of_ge X c)
       (length u) W eq_refl) ltac:(apply Qlt_Rlt in Hg; rewrite RMicromega.Q2R_0 in Hg; lra) R)
    as B.
  assert (D0 : dot (S (length u)) (toR (th :: u)) v = 0%R).
  { unfold dot. rewrite (sum_ext _ _ (fun _ => 0%R)) by (intros; rewrite Z; ring). apply sum_zero. }
  assert (N0 : norm2 (S (length u)) v = 0%R).
  { unfold norm2. rewrite (sum_ext _ _ (fun _ => 0%R)) by (intros; rewrite Z; ring). apply sum_zero. }
  rewrite D0, N0, norm2_dot in B.
  replace (S (length u)) with (length (th :: u)) in B by reflexivity.
  rewrite dot_toR in B by reflexivity. cbn [qdot] in B.
  destruct k as [|k].
  { unfold floor_bound. fold g. fold R2. apply (floor_of 0). apply Qle_shift_div_l;
      [apply Qmult_lt_0_compat; exact Hg|]. unfold qnat. simpl. rewrite Qmult_0_l.
    apply Rle_Qle. rewrite RMicromega.Q2R_0. repeat (rewrite Q2R_mult || rewrite Q2R_plus).
    pose proof (qdot_self_nonneg u). pose proof (radius_of_nonneg X c) as RN.
    apply Qle_Rle in RN. rewrite RMicromega.Q2R_0 in RN. fold R2 in RN. nra. }
  unfold floor_bound. fold g. fold R2. apply floor_of.
  apply Qle_shift_div_l; [apply Qmult_lt_0_compat; exact Hg|].
  apply Rle_Qle.
  repeat (rewrite Q2R_mult in B || rewrite Q2R_plus in B).
  repeat (rewrite Q2R_mult || rewrite Q2R_plus). rewrite Q2R_qnat.
  pose proof (pos_INR k). rewrite S_INR in *.
  apply Qlt_Rlt in Hg. rewrite RMicromega.Q2R_0 in Hg.
  set (K := (INR k + 1)%R) in *. set (G := Q2R g) in *.
  assert (KP : (K > 0)%R) by (unfold K; lra).
  apply (Rmult_le_reg_r K); [exact KP|]. nra.
Qed.

(* ===== the theorem a certificate instantiates: on data whose checks compute to true,
   EVERY run of the Perceptron from zero (any violator, any order: the step relation of
   the generic lemma) makes at most floor(R^2 |(u, th)|^2 / g^2) updates; the cyclic
   algorithm's run is one of them, and what it returns separates the data ===== *)
(* every run from zero (any violator, any order) makes at most floor(R^2 |(u, th)|^2 / g^2) updates *)
(* nodes: T, SEP, DEF_ALG *)
Theorem every_run_from_zero : forall X Y c u th,
  well_formed X Y (length u) = true -> 0 < margin_of X Y c u th ->
  forall k w, reach (qstep (augment X Y c) (S (length u))) (fun _ => 0%R) k w ->
  (Z.of_nat k <= floor_bound X Y c u th)%Z.
Proof. intros X Y c u th W Hg. apply (reach_from_zero X Y c u th W Hg). reflexivity. Qed.

(* the cyclic algorithm's run from zero makes at most floor(R^2 |(u, th)|^2 / g^2) updates, and what it returns separates the data *)
(* nodes: T, SEP, DEF_ALG; axioms: none *)
Theorem cyclic_from_zero : forall X Y c u th E w b k,
  well_formed X Y (length u) = true -> 0 < margin_of X Y c u th ->
  cyclic E X Y c (qzeros (length u)) 0 = Some (w, b, k) ->
  (Z.of_nat k <= floor_bound X Y c u th)%Z /\
  forall x y, In (x, y) (combine X Y) -> 0 < y * (qdot w x + c * b).
Proof.
  intros X Y c u th E w b k W Hg Run.
  assert (L : length (qzeros (length u)) = length u) by apply repeat_length.
  rewrite <- L in W.
  destruct (cyclic_bound X Y c _ 0 u th _ _ E w b k W (eq_sym L) Hg
    (margin_of_le X Y c u th) (radius_of_ge X c) Run) as (Bd & Sep).
  split; [|exact Sep].
  exact (within_floor u th (length u) _ _ k Hg (radius_of_nonneg X c) Bd).
Qed.

(* ---- the development's own Perceptron (convergence.v: `run`, any violator at each
        update) on these data: the points (c, x_p) and labels y_p, p = 1..n ---- *)

Definition points_R (X : list (list Q)) (c : Q) : nat -> nat -> R :=
  fun p => toR (c :: nth (p - 1) X []).
Definition labels_R (Y : list Q) : nat -> R := fun p => Q2R (nth (p - 1) Y 0).

Lemma run_is_reach : forall X Y c d, well_formed X Y d = true ->
  forall k w, run (S d) (length X) (points_R X c) (labels_R Y) k w ->
  reach (qstep (augment X Y c) (S d)) (fun _ => 0%R) k w.
Proof.
  intros X Y c d W k w H. induction H as [|k w p H IH [Hp Hv]]; [exact (reach_start _ _)|].
  apply reach_step with (w := w); [exact IH|].
  assert (LXY : length X = length Y).
  { unfold well_formed in W. apply andb_prop in W as [W _]. apply andb_prop in W as [W _].
    apply Nat.eqb_eq. exact W. }
  assert (I : In (nth (p - 1) X [], nth (p - 1) Y 0) (combine X Y)).
  { rewrite <- combine_nth by exact LXY. apply nth_In. rewrite combine_length. lia. }
  destruct (augment_in X Y c d W _ _ I) as (I' & _ & Hy).
  exists (c :: nth (p - 1) X []), (nth (p - 1) Y 0). split; [exact I'|]. split; [exact Hy|].
  split; [exact Hv|]. intros i _. reflexivity.
Qed.

(* every run of the development's Perceptron on these data, from w = 0, with any violator
   chosen at each update: at most floor(R^2 |(u, th)|^2 / g^2) updates *)
(* nodes: T, DEF_ALG *)
Theorem every_perceptron_run : forall X Y c u th,
  well_formed X Y (length u) = true -> 0 < margin_of X Y c u th ->
  forall k w, run (S (length u)) (length X) (points_R X c) (labels_R Y) k w ->
  (Z.of_nat k <= floor_bound X Y c u th)%Z.
Proof.
  intros X Y c u th W Hg k w H.
  exact (every_run_from_zero X Y c u th W Hg k w (run_is_reach X Y c (length u) W k w H)).
Qed.

(* ===== (b) from zero: with margin g > 0 (that of (u, th)), it returns within
   floor(R^2 |(u, th)|^2 / g^2) + 1 epochs ===== *)
(* from zero, the cyclic algorithm returns within floor(R^2 |(u, th)|^2 / g^2) + 1 epochs *)
(* nodes: T, SEP, DEF_ALG; axioms: none *)
Theorem cyclic_converges_from_zero : forall X Y c u th,
  well_formed X Y (length u) = true -> 0 < margin_of X Y c u th ->
  exists w b k, cyclic (S (Z.to_nat (floor_bound X Y c u th))) X Y c (qzeros (length u)) 0
    = Some (w, b, k) /\ (Z.of_nat k <= floor_bound X Y c u th)%Z.
Proof.
  intros X Y c u th W Hg.
  set (B := Z.to_nat (floor_bound X Y c u th)).
  destruct (cyclic (S B) X Y c (qzeros (length u)) 0) as [[[w b] k]|] eqn:Run.
  - exists w, b, k. split; [reflexivity|].
    exact (proj1 (cyclic_from_zero X Y c u th (S B) w b k W Hg Run)).
  - exfalso.
    assert (L : length (qzeros (length u)) = length u) by apply repeat_length.
    rewrite <- L in W.
    destruct (perceptron_q_none_kept X Y c (qinv u th _ 0 _ _) (S B) _ 0 0
      (qinv_kept X Y c u th _ 0 _ _ W (eq_sym L) (margin_of_le X Y c u th) (radius_of_ge X c))
      (qinv_start _ _ _ _ _ _) Run) as (w' & b' & k' & K & Inv).
    assert (F : (Z.of_nat k' <= floor_bound X Y c u th)%Z)
      by exact (within_floor u th (length u) _ _ k' Hg (radius_of_nonneg X c)
        (qinv_within _ _ _ _ _ _ w' b' k' Hg Inv)).
    unfold B in K. lia.
Qed.

(* ---- the converse: separable <-> the algorithm returns within some budget ---- *)

(* the data are linearly separable with the bias input c: some (u, th) classifies every
   point strictly *)
Definition separable (X : list (list Q)) (Y : list Q) (c : Q) (d : nat) : Prop :=
  exists u th, length u = d /\ forall x y, In (x, y) (combine X Y) -> 0 < y * (qdot u x + c * th).

Lemma qmin_over_pos : forall A f (l : list A) m, 0 < m -> (forall a, In a l -> 0 < f a) ->
  0 < qmin_over f l m.
Proof.
  intros A f l. induction l as [|a l IH]; intros m Hm Hl; simpl; [exact Hm|].
  apply IH; [|intros; apply Hl; right; assumption].
  unfold qmin2. destruct (Qle_bool m (f a)); [exact Hm | apply Hl; left; reflexivity].
Qed.

(* for any start, the bound caps k: some B exceeds every k it allows *)
Lemma bound_caps : forall a N M g R2 : Q, 0 < g -> 0 <= N -> 0 <= M -> 0 <= R2 ->
  exists B : nat, forall k,
    (a + g * qnat k) * (a + g * qnat k) <= N * (M + R2 * qnat k) -> (k <= B)%nat.
Proof.
  intros a N M g R2 Hg HN HM HR.
  set (Sm := N * M + N * R2 + (a * a + 1) * g).
  assert (G2 : 0 < g * g) by (apply Qmult_lt_0_compat; exact Hg).
  assert (G0 : ~ g == 0) by (intro Z0; rewrite Z0 in Hg; exact (Qlt_irrefl 0 Hg)).
  exists (Z.to_nat (Qfloor (Sm / (g * g)))). intros k Hk.
  destruct (le_lt_dec k (Z.to_nat (Qfloor (Sm / (g * g))))) as [L|L]; [exact L|]. exfalso.
  assert (KT : Sm / (g * g) < qnat k).
  { apply Qlt_le_trans with (inject_Z (Qfloor (Sm / (g * g)) + 1)); [apply Qlt_floor|].
    unfold qnat. rewrite <- Zle_Qle. lia. }
  assert (K1 : 1 <= qnat k).
  { destruct k as [|k]; [lia|]. pose proof (qnat_S k). pose proof (qnat_nonneg k). qlra. }
  assert (GK : Sm < qnat k * (g * g)).
  { apply (Qmult_lt_r _ _ (g * g) G2) in KT.
    setoid_replace (Sm / (g * g) * (g * g)) with Sm in KT by (field; exact G0). exact KT. }
  assert (Q1 : Sm * qnat k < qnat k * (g * g) * qnat k)
    by (apply (Qmult_lt_r _ _ (qnat k)); [qlra | exact GK]).
  assert (Q2 : 0 <= N * M * (qnat k - 1)) by (apply Qmult_le_0_compat; [apply Qmult_le_0_compat|]; qlra).
  assert (Q3 : 0 <= g * qnat k * ((a + 1) * (a + 1)))
    by (apply Qmult_le_0_compat; [apply Qmult_le_0_compat; qlra | apply qsq_nonneg]).
  pose proof (qsq_nonneg a). unfold Sm in Q1. qlra.
Qed.

(* ===== the converse, and the equivalence: from any start (w0, b0), the data are separable
   (with the bias input c) if and only if the cyclic Perceptron returns within some budget;
   data that are not separable make it run out of every budget ===== *)
(* the data are separable if and only if the cyclic Perceptron returns within some budget *)
(* nodes: SEP, DEF_ALG; axioms: none *)
Theorem cyclic_iff : forall X Y c w0 b0, well_formed X Y (length w0) = true ->
  (separable X Y c (length w0) <-> exists E w b k, cyclic E X Y c w0 b0 = Some (w, b, k)).
Proof.
  intros X Y c w0 b0 W. split.
  - intros (u & th & Lu & Hs).
    destruct (combine X Y) as [|p D] eqn:C.
    + exists 1%nat, w0, b0, 0%nat.
      assert (Pa : pass c w0 b0 0 (combine X Y) = (w0, b0, 0%nat)) by (rewrite C; reflexivity).
      unfold cyclic, perceptron_q. rewrite Pa. reflexivity.
    + set (g := margin_of X Y c u th).
      assert (Hg : 0 < g).
      { unfold g, margin_of. rewrite C. apply qmin_over_pos.
        - destruct p as [x y]. apply Hs. left. reflexivity.
        - intros [x y] I. apply Hs. right. exact I. }
      destruct (bound_caps (qdot u w0 + th * b0) (qdot u u + th * th) (qdot w0 w0 + b0 * b0) g
        (radius_of X c)) as [B HB].
      * exact Hg.
      * pose proof (qdot_self_nonneg_q u). pose proof (qsq_nonneg th). qlra.
      * pose proof (qdot_self_nonneg_q w0). pose proof (qsq_nonneg b0). qlra.
      * apply radius_of_nonneg.
      * destruct (cyclic_converges X Y c w0 b0 u th g (radius_of X c) B W Lu Hg
          (margin_of_le X Y c u th) (radius_of_ge X c) HB) as (w & b & k & Run & _).
        -- exists (S B), w, b, k. exact Run.
  - intros (E & w & b & k & Run).
    destruct (cyclic_separates X Y c w0 b0 E w b k W Run) as (L & Sep).
    exists w, b. split; [exact L | exact Sep].
Qed.

(* data that are not separable make the cyclic Perceptron run out of every budget *)
(* nodes: SEP, DEF_ALG; axioms: none *)
Corollary not_separable_never_returns : forall X Y c w0 b0,
  well_formed X Y (length w0) = true -> ~ separable X Y c (length w0) ->
  forall E, cyclic E X Y c w0 b0 = None.
Proof.
  intros X Y c w0 b0 W N E. destruct (cyclic E X Y c w0 b0) as [[[w b] k]|] eqn:Run; [|reflexivity].
  exfalso. apply N. apply (cyclic_iff X Y c w0 b0 W). exists E, w, b, k. exact Run.
Qed.

(* ===== non-separable data: a Gordan certificate, checked by computation ===== *)

(* the combination sum_i a_i y_i x_i of the points (as a vector of dimension d), and its
   bias coordinate sum_i a_i y_i c *)
Fixpoint gcomb (D : list (list Q * Q)) (A : list Q) (d : nat) : list Q :=
  match D, A with
  | (x, y) :: D', a :: A' => qaxpy (a * y) x (gcomb D' A' d)
  | _, _ => qzeros d
  end.

Fixpoint gbias (D : list (list Q * Q)) (A : list Q) (c : Q) : Q :=
  match D, A with
  | (x, y) :: D', a :: A' => a * y * c + gbias D' A' c
  | _, _ => 0
  end.

(* sum_i a_i y_i (w.x_i + c b): the combination paired with (w, b) *)
Fixpoint wsum (D : list (list Q * Q)) (A : list Q) (w : list Q) (c b : Q) : Q :=
  match D, A with
  | (x, y) :: D', a :: A' => a * (y * (qdot w x + c * b)) + wsum D' A' w c b
  | _, _ => 0
  end.

(* the certificate's check: one weight per point, all >= 0, one of them not 0, and the
   combination of the augmented points (x_i, c) is the zero vector *)
Definition gordan_ok (D : list (list Q * Q)) (A : list Q) (c : Q) (d : nat) : bool :=
  Nat.eqb (length A) (length D) &&
  forallb (fun a => Qle_bool 0 a) A &&
  existsb (fun a => negb (Qeq_bool a 0)) A &&
  forallb (fun v => Qeq_bool v 0) (gcomb D A d) &&
  Qeq_bool (gbias D A c) 0.

Lemma length_gcomb : forall D A d, (forall x y, In (x, y) D -> length x = d) ->
  length (gcomb D A d) = d.
Proof.
  induction D as [|[x y] D IH]; intros [|a A] d H; simpl; try apply repeat_length.
  rewrite length_axpy.
  - apply IH. intros x0 y0 I. apply (H x0 y0). right. exact I.
  - rewrite IH; [apply (H x y); left; reflexivity|]. intros x0 y0 I. apply (H x0 y0). right. exact I.
Qed.

Lemma wsum_eq : forall D A w c b, (forall x y, In (x, y) D -> length x = length w) ->
  wsum D A w c b == qdot w (gcomb D A (length w)) + b * gbias D A c.
Proof.
  induction D as [|[x y] D IH]; intros [|a A] w c b H; cbn [wsum gcomb gbias];
    try (rewrite qdot_zeros; ring).
  assert (H' : forall x0 y0, In (x0, y0) D -> length x0 = length w)
    by (intros x0 y0 I; apply (H x0 y0); right; exact I).
  assert (Lg : length (gcomb D A (length w)) = length w) by (apply length_gcomb; exact H').
  rewrite qdot_axpy.
  - rewrite (IH A w c b H'). ring.
  - rewrite Lg. apply (H x y). left. reflexivity.
  - rewrite Lg. reflexivity.
Qed.

Lemma wsum_pos : forall D A w c b, length A = length D ->
  (forall a, In a A -> 0 <= a) -> (exists a, In a A /\ ~ a == 0) ->
  (forall x y, In (x, y) D -> 0 < y * (qdot w x + c * b)) -> 0 < wsum D A w c b.
Proof.
  induction D as [|[x y] D IH]; intros [|a A] w c b L N P S; cbn [wsum length In] in *;
    try discriminate.
  - destruct P as (a0 & [] & _).
  - injection L as L.
    assert (Sx : 0 < y * (qdot w x + c * b)) by (apply S; left; reflexivity).
    assert (Na : 0 <= a) by (apply N; left; reflexivity).
    assert (NA : forall a0, In a0 A -> 0 <= a0) by (intros a0 I; apply N; right; exact I).
    assert (SD : forall x0 y0, In (x0, y0) D -> 0 < y0 * (qdot w x0 + c * b))
      by (intros x0 y0 I; apply S; right; exact I).
    destruct P as (a0 & [E|I] & Z).
    + subst a0. assert (Pa : 0 < a) by (apply Qle_lteq in Na as [Na|Na]; [exact Na | exfalso; apply Z; symmetry; exact Na]).
      assert (R : 0 <= wsum D A w c b).
      { clear IH Z Pa Na S N Sx. revert A L NA. induction D as [|[x1 y1] D IH2]; intros [|a1 A] L NA; cbn [wsum length] in *; try apply Qle_refl; try discriminate.
        injection L as L. rewrite <- (Qplus_0_l 0). apply Qplus_le_compat.
        - apply Qmult_le_0_compat; [apply NA; left; reflexivity|]. apply Qlt_le_weak. apply SD. left. reflexivity.
        - apply IH2; [intros x0 y0 I0; apply SD; right; exact I0 | exact L | intros a2 I2; apply NA; right; exact I2]. }
      apply Qlt_le_trans with (a * (y * (qdot w x + c * b)) + 0).
      * rewrite Qplus_0_r. apply Qmult_lt_0_compat; assumption.
      * apply Qplus_le_compat; [apply Qle_refl | exact R].
    + assert (R : 0 < wsum D A w c b) by (apply IH; [exact L | exact NA | exists a0; split; assumption | exact SD]).
      apply Qlt_le_trans with (0 + wsum D A w c b); [rewrite Qplus_0_l; exact R|].
      apply Qplus_le_compat; [|apply Qle_refl]. apply Qmult_le_0_compat; [exact Na | apply Qlt_le_weak; exact Sx].
Qed.

Lemma gordan_ok_facts : forall D A c d, gordan_ok D A c d = true ->
  length A = length D /\ (forall a, In a A -> 0 <= a) /\ (exists a, In a A /\ ~ a == 0) /\
  (forall v, In v (gcomb D A d) -> v == 0) /\ gbias D A c == 0.
Proof.
  intros D A c d H. unfold gordan_ok in H.
  repeat rewrite Bool.andb_true_iff in H. destruct H as [[[[L N] P] G] B].
  split; [apply Nat.eqb_eq; exact L|]. split.
  - intros a I. rewrite forallb_forall in N. apply Qle_bool_iff. apply N. exact I.
  - split.
    + apply existsb_exists in P as (a & I & Z). exists a. split; [exact I|].
      intro E. apply Qeq_bool_iff in E. rewrite E in Z. discriminate.
    + split.
      * intros v I. rewrite forallb_forall in G. apply Qeq_bool_iff. apply G. exact I.
      * apply Qeq_bool_iff. exact B.
Qed.

Lemma qdot_null : forall w v, (forall a, In a v -> a == 0) -> qdot w v == 0.
Proof.
  induction w as [|p w IH]; intros [|q v] H; cbn [qdot]; try reflexivity.
  rewrite (H q (or_introl eq_refl)). rewrite IH; [ring|]. intros a I. apply H. right. exact I.
Qed.

(* a Gordan certificate -- a >= 0, a <> 0, sum_i a_i y_i (x_i, c) = 0 -- leaves no
   (w, b) that separates the data strictly *)
(* nodes: SEP; axioms: none *)
Theorem gordan_no_separator : forall X Y c d A, well_formed X Y d = true ->
  gordan_ok (combine X Y) A c d = true ->
  forall w b, length w = d -> ~ (forall x y, In (x, y) (combine X Y) -> 0 < y * (qdot w x + c * b)).
Proof.
  intros X Y c d A W G w b Lw S.
  destruct (gordan_ok_facts _ _ _ _ G) as (L & N & P & Z & B).
  assert (Len : forall x y, In (x, y) (combine X Y) -> length x = length w).
  { intros x y I. destruct (well_formed_q X Y d W x y I) as (Lx & _). lia. }
  pose proof (wsum_pos _ _ w c b L N P S) as Pos.
  rewrite (wsum_eq _ A w c b Len) in Pos. rewrite Lw in Pos.
  rewrite (qdot_null w _ Z), B in Pos. apply (Qlt_irrefl 0). rewrite Qmult_0_r, Qplus_0_l in Pos. exact Pos.
Qed.

Corollary gordan_not_separable : forall X Y c d A, well_formed X Y d = true ->
  gordan_ok (combine X Y) A c d = true -> ~ separable X Y c d.
Proof.
  intros X Y c d A W G (u & th & Lu & S). exact (gordan_no_separator X Y c d A W G u th Lu S).
Qed.

(* with a Gordan certificate the cyclic Perceptron returns None for every budget, start
   and bias *)
(* nodes: SEP, DEF_ALG; axioms: none *)
Corollary gordan_never_returns : forall X Y c A w0 b0, well_formed X Y (length w0) = true ->
  gordan_ok (combine X Y) A c (length w0) = true -> forall E, cyclic E X Y c w0 b0 = None.
Proof.
  intros X Y c A w0 b0 W G. apply not_separable_never_returns; [exact W|].
  exact (gordan_not_separable X Y c (length w0) A W G).
Qed.

(* more fuel changes nothing once the algorithm has returned *)
Lemma perceptron_q_more : forall E X Y c w b k r,
  perceptron_q E X Y c w b k = Some r -> forall m, perceptron_q (E + m) X Y c w b k = Some r.
Proof.
  induction E as [|E IH]; intros X Y c w b k r H m; simpl in H; [discriminate|].
  simpl. destruct (pass c w b 0 (combine X Y)) as [[w' b'] [|n]]; [exact H|].
  apply IH. exact H.
Qed.

(* the converse with the answer stable in the fuel (as CoqPerceptron's
   linearly_separable_perceptron): the data are separable if and only if, from some
   budget E0 on, every budget gives the same answer *)
(* nodes: SEP, DEF_ALG; axioms: none *)
Theorem cyclic_iff_stable : forall X Y c w0 b0, well_formed X Y (length w0) = true ->
  (separable X Y c (length w0) <->
   exists E0 w b k, forall E, (E0 <= E)%nat -> cyclic E X Y c w0 b0 = Some (w, b, k)).
Proof.
  intros X Y c w0 b0 W. rewrite (cyclic_iff X Y c w0 b0 W). split.
  - intros (E & w & b & k & R). exists E, w, b, k. intros E' L.
    replace E' with (E + (E' - E))%nat by lia. unfold cyclic in *.
    apply perceptron_q_more. exact R.
  - intros (E0 & w & b & k & H). exists E0, w, b, k. apply H. lia.
Qed.

(* ---- for the extracted program: numbers in and out as decimal strings ---- *)

Definition z_of_string (s : String.string) : option Z :=
  option_map Z.of_int (DecimalString.NilZero.int_of_string s).
Definition string_of_z (z : Z) : String.string := DecimalString.NilZero.string_of_int (Z.to_int z).
Definition q_of_strings (n d : String.string) : option Q :=
  match z_of_string n, z_of_string d with
  | Some a, Some (Zpos b) => Some (Qmake a b)
  | _, _ => None
  end.
Definition strings_of_q (q : Q) : String.string * String.string :=
  let r := Qred q in (string_of_z (Qnum r), string_of_z (Zpos (Qden r))).

(* ---- any recorded run, replayed: the points of its updates in order (0-based) ---- *)

(* from (w, b), update on each recorded point in turn; None as soon as one is not a
   violator (or not a point) *)
Fixpoint replay (D : list (list Q * Q)) (c : Q) (w : list Q) (b : Q) (cs : list N)
  : option (list Q * Q) :=
  match cs with
  | [] => Some (w, b)
  | p :: cs' =>
      match nth_error D (N.to_nat p) with
      | Some (x, y) =>
          if Qle_bool (y * (qdot w x + c * b)) 0
          then replay D c (qaxpy y x w) (Qred (y * c + b)) cs' else None
      | None => None
      end
  end.

(* a recorded run keeps what every update keeps *)
Lemma replay_kept : forall D c I cs w b w' b' k, kept c D I ->
  I w b k -> replay D c w b cs = Some (w', b') -> I w' b' (k + length cs)%nat.
Proof.
  intros D c I cs. induction cs as [|p cs IH]; intros w b w' b' k K H E.
  - simpl in E. injection E as <- <-. rewrite Nat.add_0_r. exact H.
  - cbn [replay] in E. destruct (nth_error D (N.to_nat p)) as [[x y]|] eqn:Nth; [|discriminate].
    destruct (Qle_bool (y * (qdot w x + c * b)) 0) eqn:V; [|discriminate].
    replace (k + length (p :: cs))%nat with (S k + length cs)%nat by (simpl; lia).
    apply (IH (qaxpy y x w) (Qred (y * c + b)) w' b' (S k) K); [|exact E].
    apply K; [exact (nth_error_In _ _ Nth) | apply Qle_bool_iff; exact V | exact H].
Qed.

(* a recorded run from zero (a replayed list of choices) makes at most floor(R^2 |(u, th)|^2 / g^2) updates *)
(* nodes: T, DEF_ALG; axioms: none *)
Theorem replay_from_zero : forall X Y c u th cs w b,
  well_formed X Y (length u) = true -> 0 < margin_of X Y c u th ->
  replay (combine X Y) c (qzeros (length u)) 0 cs = Some (w, b) ->
  (Z.of_nat (length cs) <= floor_bound X Y c u th)%Z.
Proof.
  intros X Y c u th cs w b W Hg E.
  assert (L : length (qzeros (length u)) = length u) by apply repeat_length.
  rewrite <- L in W.
  pose proof (replay_kept (combine X Y) c _ cs _ 0 w b 0
    (qinv_kept X Y c u th _ 0 (margin_of X Y c u th) (radius_of X c) W (eq_sym L)
      (margin_of_le X Y c u th) (radius_of_ge X c))
    (qinv_start _ _ _ _ _ _) E) as Inv.
  exact (within_floor u th (length u) _ _ _ Hg (radius_of_nonneg X c)
    (qinv_within _ _ _ _ _ _ w b _ Hg Inv)).
Qed.

(* a boolean check: the weights classify every point strictly *)
Fixpoint separates (D : list (list Q * Q)) (c : Q) (w : list Q) (b : Q) : bool :=
  match D with
  | [] => true
  | (x, y) :: D' => negb (Qle_bool (y * (qdot w x + c * b)) 0) && separates D' c w b
  end.

(* the boolean check is strict separation, both ways: a certificate's "separates ... =
   true", computed by the kernel, is the statement about every point *)
Lemma separates_correct : forall D c w b,
  separates D c w b = true <-> forall x y, In (x, y) D -> 0 < y * (qdot w x + c * b).
Proof.
  induction D as [|[x y] D IH]; intros c w b; simpl; split.
  - intros _ x0 y0 [].
  - reflexivity.
  - intros H. apply andb_prop in H as [H1 H2]. apply negb_true_iff in H1.
    intros x0 y0 [E|I].
    + injection E as <- <-. apply Qnot_le_lt. intro L.
      apply Qle_bool_iff in L. rewrite L in H1. discriminate.
    + exact (proj1 (IH c w b) H2 x0 y0 I).
  - intros H. apply andb_true_intro. split.
    + apply negb_true_iff. destruct (Qle_bool (y * (qdot w x + c * b)) 0) eqn:L; [|reflexivity].
      apply Qle_bool_iff in L. exfalso. apply (Qlt_not_le _ _ (H x y (or_introl eq_refl))).
      exact L.
    + apply (proj2 (IH c w b)). intros x0 y0 I. exact (H x0 y0 (or_intror I)).
Qed.

(* ===== the pocket algorithm (Gallant 1990) with its ratchet: what it returns ===== *)

(* the training errors of (w, b): the points it does not classify strictly *)
Fixpoint errors (D : list (list Q * Q)) (c : Q) (w : list Q) (b : Q) : nat :=
  match D with
  | [] => O
  | (x, y) :: D' =>
      ((if Qle_bool (y * (qdot w x + c * b)) 0 then 1 else 0) + errors D' c w b)%nat
  end.

(* no training error: the weights separate every point *)
Lemma errors_zero : forall D c w b, errors D c w b = O -> separates D c w b = true.
Proof.
  induction D as [|[x y] D IH]; intros c w b E; simpl in *; [reflexivity|].
  destruct (Qle_bool (y * (qdot w x + c * b)) 0); [discriminate|]. simpl. apply IH. exact E.
Qed.

(* one pick after another (each the 0-based index of a point; one beyond the points is
   skipped): a violator is updated, and the run of correct picks starts again; a correct
   pick lengthens the run, and the weights go into the pocket when their run is longer
   than the pocket's and (the ratchet) they make strictly fewer errors.  The state: the
   weights (w, b), reached by the updates us (their points, in order), and their run r;
   the pocket (pw, pb), reached by the updates pk, its run pr and its errors pe; hist, the
   errors of every weights the pocket held, the latest first.  The result: the pocket,
   its updates, its errors and hist *)
Fixpoint pocket_go (D : list (list Q * Q)) (c : Q) (picks : list N)
    (w : list Q) (b : Q) (us : list N) (r : nat)
    (pw : list Q) (pb : Q) (pk : list N) (pr pe : nat) (hist : list nat)
    : list Q * Q * list N * nat * list nat :=
  match picks with
  | [] => (pw, pb, pk, pe, hist)
  | p :: picks' =>
      match nth_error D (N.to_nat p) with
      | None => pocket_go D c picks' w b us r pw pb pk pr pe hist
      | Some (x, y) =>
          if Qle_bool (y * (qdot w x + c * b)) 0
          then pocket_go D c picks' (qaxpy y x w) (Qred (y * c + b)) (us ++ [p]) O
                 pw pb pk pr pe hist
          else if (pr <? S r)%nat && (errors D c w b <? pe)%nat
          then pocket_go D c picks' w b us (S r) w b us (S r) (errors D c w b)
                 (errors D c w b :: hist)
          else pocket_go D c picks' w b us (S r) pw pb pk pr pe hist
      end
  end.

(* THE POCKET ALGORITHM from (w0, b0) on the picks: the pocket starts as (w0, b0), with
   run 0 *)
Definition pocket (X : list (list Q)) (Y : list Q) (c : Q) (picks : list N)
    (w0 : list Q) (b0 : Q) : list Q * Q * list N * nat * list nat :=
  let D := combine X Y in
  pocket_go D c picks w0 b0 [] O w0 b0 [] O (errors D c w0 b0) [errors D c w0 b0].

Lemma replay_app : forall D c cs1 cs2 w b,
  replay D c w b (cs1 ++ cs2) =
  match replay D c w b cs1 with Some (w', b') => replay D c w' b' cs2 | None => None end.
Proof.
  intros D c cs1. induction cs1 as [|p cs1 IH]; intros cs2 w b; simpl; [reflexivity|].
  destruct (nth_error D (N.to_nat p)) as [[x y]|]; [|reflexivity].
  destruct (Qle_bool (y * (qdot w x + c * b)) 0); [apply IH|reflexivity].
Qed.

Lemma pocket_go_facts : forall D c w0 b0 picks w b us r pw pb pk pr pe hist
    pw' pb' pk' pe' hist',
  replay D c w0 b0 us = Some (w, b) ->
  replay D c w0 b0 pk = Some (pw, pb) ->
  pe = errors D c pw pb ->
  (forall e, In e hist -> pe <= e)%nat ->
  pocket_go D c picks w b us r pw pb pk pr pe hist = (pw', pb', pk', pe', hist') ->
  replay D c w0 b0 pk' = Some (pw', pb') /\ pe' = errors D c pw' pb' /\ (pe' <= pe)%nat /\
  (forall e, In e hist' -> pe' <= e)%nat.
Proof.
  intros D c w0 b0 picks. induction picks as [|p picks IH];
    intros w b us r pw pb pk pr pe hist pw' pb' pk' pe' hist' Ru Rk Ep Hh G; cbn [pocket_go] in G.
  - injection G as <- <- <- <- <-. repeat split; auto.
  - destruct (nth_error D (N.to_nat p)) as [[x y]|] eqn:Np.
    + destruct (Qle_bool (y * (qdot w x + c * b)) 0) eqn:T.
      * refine (IH _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ Rk Ep Hh G).
        rewrite replay_app, Ru. simpl. rewrite Np, T. reflexivity.
      * destruct ((pr <? S r)%nat && (errors D c w b <? pe)%nat) eqn:A.
        -- apply andb_prop in A as [_ A]. apply Nat.ltb_lt in A.
           assert (H0 : forall e, In e (errors D c w b :: hist) -> (errors D c w b <= e)%nat).
           { intros e [<-|I]; [lia | specialize (Hh e I); lia]. }
           destruct (IH _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ Ru Ru eq_refl H0 G)
             as (R' & E' & L' & H').
           repeat split; auto. lia.
        -- exact (IH _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ Ru Rk Ep Hh G).
    + exact (IH _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ Ru Rk Ep Hh G).
Qed.

(* what the pocket returns, on any data: weights reached by updates of the algorithm on
   violators (a replayed run from the start), with no more training errors than the start
   and than any weights the pocket held before (the ratchet) *)
(* nodes: DEF_ALG; claim: pocket; axioms: none *)
Theorem pocket_returns : forall X Y c picks w0 b0 pw pb pk pe hist,
  pocket X Y c picks w0 b0 = (pw, pb, pk, pe, hist) ->
  replay (combine X Y) c w0 b0 pk = Some (pw, pb) /\ pe = errors (combine X Y) c pw pb /\
  (pe <= errors (combine X Y) c w0 b0)%nat /\ (forall e, In e hist -> pe <= e)%nat.
Proof.
  intros X Y c picks w0 b0 pw pb pk pe hist G. unfold pocket in G.
  assert (H0 : forall e, In e [errors (combine X Y) c w0 b0] ->
    (errors (combine X Y) c w0 b0 <= e)%nat) by (intros e [<-|[]]; lia).
  exact (pocket_go_facts (combine X Y) c w0 b0 picks w0 b0 [] O w0 b0 [] O _ _ pw pb pk pe hist
    eq_refl eq_refl eq_refl H0 G).
Qed.

(* on separable data, from zero: the pocket is weights the algorithm reaches within the
   Perceptron's bound of floor(R^2 |(u, th)|^2 / g^2) updates; with no training error, it
   separates every point *)
(* nodes: T, SEP; axioms: none *)
Theorem pocket_within_bound : forall X Y c u th picks pw pb pk pe hist,
  well_formed X Y (length u) = true -> 0 < margin_of X Y c u th ->
  pocket X Y c picks (qzeros (length u)) 0 = (pw, pb, pk, pe, hist) ->
  (Z.of_nat (length pk) <= floor_bound X Y c u th)%Z /\
  (pe = O -> forall x y, In (x, y) (combine X Y) -> 0 < y * (qdot pw x + c * pb)).
Proof.
  intros X Y c u th picks pw pb pk pe hist W Hg G.
  destruct (pocket_returns X Y c picks _ _ pw pb pk pe hist G) as (R & E & _).
  split.
  - exact (replay_from_zero X Y c u th pk pw pb W Hg R).
  - intros Z. apply separates_correct. apply errors_zero. rewrite <- E. exact Z.
Qed.
