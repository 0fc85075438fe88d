(* ===================================================================== *)
(* The theorem, checked by the kernel end to end.                        *)
(*                                                                       *)
(* Written by hand; compiled after the generated step lemmas above (one  *)
(* file), and built from them: removing or weakening a step lemma breaks *)
(* this part too.  Vectors of dimension d are functions nat -> R read at *)
(* coordinates 1..d (the `sum` of the preamble).                         *)
(* ===================================================================== *)

(* ---- Cauchy-Schwarz in every dimension, by induction over d, from the
        steps L4.base, L4.lagrange, L4.step and the sum-of-squares steps ---- *)

Lemma kernel_sos : forall n (s : nat -> R), sum n (fun i => s i ^ 2) >= 0.
Proof.
  induction n as [|m IH]; intros s.
  - cbn [sum]. lra.
  - destruct m as [|m'].
    + apply (L4_sos_base 1%nat _ s); [reflexivity | cbn [sum]; ring].
    + apply (L4_sos_step (S (S m')) _ (sum (S (S m') - 1) (fun i => s i ^ 2)) s).
      * lia.
      * replace (S (S m') - 1)%nat with (S m') by lia. apply IH.
      * apply (L4_sos_peel (S (S m')) _ _ s); [reflexivity | reflexivity | lia].
Qed.

(* Cauchy-Schwarz: (a.b)^2 <= |a|^2 |b|^2, every dimension (L4) *)
(* nodes: L4 *)
Lemma kernel_cauchy_schwarz : forall d (a b : nat -> R),
  (sum d (fun i => a i * b i)) ^ 2 <= sum d (fun i => a i ^ 2) * sum d (fun i => b i ^ 2).
Proof.
  induction d as [|m IH]; intros a b.
  - cbn [sum]. lra.
  - destruct m as [|m'].
    + apply (L4_base 1%nat _ _ _ a b); reflexivity || (cbn [sum]; ring).
    + eapply (L4_step (S (S m'))
        (sum (S (S m')) (fun i => a i ^ 2)) (sum (S (S m') - 1) (fun i => a i ^ 2))
        (sum (S (S m')) (fun i => a i * b i)) (sum (S (S m') - 1) (fun i => a i * b i))
        (sum (S (S m')) (fun i => b i ^ 2)) (sum (S (S m') - 1) (fun i => b i ^ 2))).
      * lia.
      * replace (S (S m') - 1)%nat with (S m') by lia. apply IH.
      * apply kernel_sos.
      * apply (L4_lagrange (S (S m')) _ _ _ _ _ _ _ a b); reflexivity || lia.
Qed.

(* ---- The Perceptron, with any choice of violator ---- *)

Section Perceptron.

Variable d n : nat.            (* dimension, number of points *)
Variable X : nat -> nat -> R.  (* X p i: coordinate i of point p, 1 <= p <= n, 1 <= i <= d *)
Variable Y : nat -> R.         (* labels: Y p ^ 2 = 1 *)
Variable u : nat -> R.         (* the comparator *)
Variables g R2 : R.            (* the margin and the squared radius *)

Definition dot (a b : nat -> R) : R := sum d (fun i => a i * b i).
Definition norm2 (a : nat -> R) : R := sum d (fun i => a i ^ 2).
Definition zero : nat -> R := fun _ => 0.

(* p is a violator of w: y_p w.x_p <= 0 *)
Definition violator (w : nat -> R) (p : nat) : Prop :=
  (1 <= p <= n)%nat /\ Y p * dot w (X p) <= 0.

(* the update on p: w + y_p x_p *)
Definition update (w : nat -> R) (p : nat) : nat -> R := fun i => Y p * X p i + w i.

(* run k w: some run of the Perceptron reaches w after k updates, each made on a
   violator of the current weights -- whichever violator any rule chose *)
Inductive run : nat -> (nat -> R) -> Prop :=
  | run_start : run 0 zero
  | run_update : forall k w p, run k w -> violator w p -> run (S k) (update w p).

Hypothesis labels : forall p, (1 <= p <= n)%nat -> Y p ^ 2 = 1.
Hypothesis radius : forall p, (1 <= p <= n)%nat -> norm2 (X p) <= R2.
Hypothesis radius_nonneg : 0 <= R2.

Section Margin.
Hypothesis margin : forall p, (1 <= p <= n)%nat -> Y p * dot u (X p) >= g.

(* P_k: w_k.u >= k g, by induction over the run (L1, L2, L3) *)
(* nodes: L3 *)
Theorem invariant_P : forall k w, run k w -> dot u w >= g * INR k.
Proof.
  intros k w H. induction H as [|k w p H IH [Hp Hv]].
  - unfold dot, zero. rewrite (sum_ext d _ (fun _ => 0)) by (intros; ring).
    rewrite sum_zero. simpl. lra.
  - assert (G : dot u (update w p) + (-1) * dot u w >= g).
    { apply (L2 g (dot u w) (dot u (update w p)) (Y p * dot u (X p))).
      - apply (L1 d _ _ (Y p) _ u w (X p)); [reflexivity | | reflexivity].
        unfold dot, update. apply sum_ext. intros. ring.
      - apply margin; exact Hp. }
    destruct k as [|k].
    + inversion H; subst.
      apply (L3_base g (INR 1) (dot u zero)); [reflexivity | | exact G].
      unfold dot, zero. rewrite (sum_ext d _ (fun _ => 0)) by (intros; ring).
      apply sum_zero.
    + apply (L3_step g (INR (S (S k))) (dot u w)); [ | | exact G].
      * rewrite S_INR, S_INR. pose proof (pos_INR k). lra.
      * replace ((-1) + INR (S (S k))) with (INR (S k)) by (rewrite (S_INR (S k)); ring).
        exact IH.
Qed.

(* Q_k: |w_k|^2 <= k R^2, by induction over the run (L5, L6, L7) *)
(* nodes: L7 *)
Theorem invariant_Q : forall k w, run k w -> norm2 w <= R2 * INR k.
Proof.
  intros k w H. induction H as [|k w p H IH [Hp Hv]].
  - unfold norm2, zero. rewrite (sum_ext d _ (fun _ => 0)) by (intros; ring).
    rewrite sum_zero. simpl. lra.
  - assert (G : norm2 (update w p) + (-1) * norm2 w <= R2).
    { apply (L6 (R2) (norm2 w) (norm2 (update w p)) (Y p * dot w (X p)) (norm2 (X p))).
      - apply (L5 d _ _ _ _ (Y p) w (X p)); try reflexivity. apply labels; exact Hp.
      - exact Hv.
      - apply radius; exact Hp. }
    destruct k as [|k].
    + inversion H; subst.
      apply (L7_base (R2) (INR 1) (norm2 zero)); [reflexivity | | exact G].
      unfold norm2, zero. rewrite (sum_ext d _ (fun _ => 0)) by (intros; ring).
      apply sum_zero.
    + apply (L7_step (R2) (INR (S (S k))) (norm2 w)); [ | | exact G].
      * rewrite S_INR, S_INR. pose proof (pos_INR k). lra.
      * replace ((-1) + INR (S (S k))) with (INR (S k)) by (rewrite (S_INR (S k)); ring).
        exact IH.
Qed.

(* a run with an update has a point of positive margin, so u is not zero *)
Lemma comparator_nonzero : g > 0 -> forall k w, run (S k) w -> norm2 u > 0.
Proof.
  intros Hg k w H. inversion H as [|k' w' p H' Hv]; subst. destruct Hv as [Hp _].
  pose proof (margin p Hp) as M. pose proof (labels p Hp) as L.
  pose proof (kernel_cauchy_schwarz d u (X p)) as CS.
  pose proof (kernel_sos d u) as S. pose proof (kernel_sos d (X p)) as Sx.
  fold (dot u (X p)) in CS. fold (norm2 u) in CS, S. fold (norm2 (X p)) in CS, Sx.
  destruct (Rle_or_lt (norm2 u) 0) as [Z|]; [|lra].
  assert (E : norm2 u = 0) by lra. rewrite E in CS.
  assert (D : dot u (X p) = 0) by nra. rewrite D in M. lra.
Qed.

(* THE THEOREM (Block 1962, Novikoff 1962): every run makes k updates with
   k g^2 <= R^2 |u|^2 (T, with Cauchy-Schwarz) *)
(* nodes: T, DEF_ALG, DEF_TRIGGER, A1, A2 *)
Theorem perceptron_bound : g > 0 -> forall k w, run k w -> INR k * g ^ 2 <= R2 * norm2 u.
Proof.
  intros Hg k w H. destruct k as [|k].
  - simpl. pose proof (kernel_sos d u). fold (norm2 u) in H0. nra.
  - apply (T (R2) g (INR (S k)) (norm2 w) (dot u w) (norm2 u)).
    + apply invariant_P; exact H.
    + unfold dot, norm2.
      rewrite (sum_ext d (fun i => u i * w i) (fun i => w i * u i)) by (intros; ring).
      apply kernel_cauchy_schwarz.
    + apply invariant_Q; exact H.
    + rewrite S_INR. pose proof (pos_INR k). lra.
    + exact Hg.
    + apply (comparator_nonzero Hg k w H).
Qed.

(* ---- The algorithm as a function of its rule: any chooser that returns a violator
        while there is one ---- *)

Variable choose : (nat -> R) -> option nat.
Hypothesis choose_violator : forall w p, choose w = Some p -> violator w p.
Hypothesis choose_done :
  forall w, choose w = None -> forall p, (1 <= p <= n)%nat -> Y p * dot w (X p) > 0.

(* at most `fuel` rounds; Some (k, w) when it stopped after k updates on w *)
Fixpoint perceptron (fuel k : nat) (w : nat -> R) : option (nat * (nat -> R)) :=
  match fuel with
  | O => None
  | S f => match choose w with
           | None => Some (k, w)
           | Some p => perceptron f (S k) (update w p)
           end
  end.

Lemma perceptron_from : forall fuel k w k' w',
  run k w -> perceptron fuel k w = Some (k', w') ->
  run k' w' /\ forall p, (1 <= p <= n)%nat -> Y p * dot w' (X p) > 0.
Proof.
  induction fuel as [|f IH]; intros k w k' w' H E; simpl in E; [discriminate|].
  destruct (choose w) as [p|] eqn:C.
  - apply (IH (S k) (update w p)); [apply run_update; [exact H | apply choose_violator; exact C] | exact E].
  - injection E as <- <-. split; [exact H | apply choose_done; exact C].
Qed.

(* it stops only on weights that separate every point, reached by a run of the algorithm *)
(* nodes: SEP, DEF_ALG *)
Theorem perceptron_stops_separating : forall fuel k w,
  perceptron fuel 0 zero = Some (k, w) ->
  run k w /\ forall p, (1 <= p <= n)%nat -> Y p * dot w (X p) > 0.
Proof. intros fuel k w E. exact (perceptron_from fuel 0 zero k w run_start E). Qed.

(* it stops, on weights that separate every point, within R^2 |u|^2 / g^2 + 1 rounds *)
(* nodes: T, SEP, DEF_ALG *)
Theorem perceptron_converges : g > 0 -> forall fuel,
  INR fuel * g ^ 2 > R2 * norm2 u ->
  exists k w, perceptron fuel 0 zero = Some (k, w) /\ run k w /\
    (forall p, (1 <= p <= n)%nat -> Y p * dot w (X p) > 0) /\
    INR k * g ^ 2 <= R2 * norm2 u.
Proof.
  intros Hg. enough (A : forall f k w, run k w -> INR (k + f) * g ^ 2 > R2 * norm2 u ->
      exists k' w', perceptron f k w = Some (k', w') /\ run k' w').
  { intros fuel B. destruct (A fuel 0%nat zero run_start B) as (k & w & E & H).
    destruct (perceptron_from fuel 0 zero k w run_start E) as [_ S].
    exists k, w. repeat split; try assumption. apply (perceptron_bound Hg k w H). }
  induction f as [|f IH]; intros k w H B.
  - exfalso. rewrite Nat.add_0_r in B. pose proof (perceptron_bound Hg k w H). lra.
  - simpl. destruct (choose w) as [p|] eqn:C.
    + apply IH; [apply run_update; [exact H | apply choose_violator; exact C] |].
      replace (S k + f)%nat with (k + S f)%nat by lia. exact B.
    + exists k, w. split; [reflexivity | exact H].
Qed.

End Margin.

(* the strict-margin form: y_p u.x_p > g gives k g^2 < R^2 |u|^2 after an update
   (L2.strict, L3.*.strict, T.strict) *)
Section StrictMargin.
Hypothesis margin_strict : forall p, (1 <= p <= n)%nat -> Y p * dot u (X p) > g.

(* P_k, strict: w_k.u > k g after k >= 1 updates (L2.strict, L3.*.strict) *)
(* nodes: L3 *)
Theorem invariant_P_strict : forall k w, run (S k) w -> dot u w > g * INR (S k).
Proof.
  enough (A : forall k w, run k w -> (k > 0)%nat -> dot u w > g * INR k).
  { intros k w H. apply A; [exact H | lia]. }
  intros k w H. induction H as [|k w p H IH [Hp Hv]]; intros K; [lia|].
  assert (G : dot u (update w p) + (-1) * dot u w > g).
  { apply (L2_strict g (dot u w) (dot u (update w p)) (Y p * dot u (X p))).
    - apply (L1 d _ _ (Y p) _ u w (X p)); [reflexivity | | reflexivity].
      unfold dot, update. apply sum_ext. intros. ring.
    - apply margin_strict; exact Hp. }
  destruct k as [|k].
  - inversion H; subst.
    apply (L3_base_strict g (INR 1) (dot u zero)); [reflexivity | | exact G].
    unfold dot, zero. rewrite (sum_ext d _ (fun _ => 0)) by (intros; ring). apply sum_zero.
  - apply (L3_step_strict g (INR (S (S k))) (dot u w)); [ | | exact G].
    + rewrite S_INR, S_INR. pose proof (pos_INR k). lra.
    + replace ((-1) + INR (S (S k))) with (INR (S k)) by (rewrite (S_INR (S k)); ring).
      apply IH. lia.
Qed.

(* the strict bound: k g^2 < R^2 |u|^2 after k >= 1 updates (T.strict) *)
(* nodes: T *)
Theorem perceptron_bound_strict :
  g >= 0 -> forall k w, run (S k) w -> INR (S k) * g ^ 2 < R2 * norm2 u.
Proof.
  intros Hg k w H.
  destruct (Rle_or_lt g 0) as [Z|Hg'].
  - (* g = 0: the bound is |u| > 0, from the margin of the point updated first *)
    assert (E : g = 0) by lra. subst g.
    inversion H as [|k' w' p H' [Hp _]]; subst.
    pose proof (margin_strict p Hp) as M.
    pose proof (kernel_cauchy_schwarz d u (X p)) as CS.
    pose proof (kernel_sos d u) as S. pose proof (kernel_sos d (X p)) as Sx.
    pose proof (labels p Hp) as L. pose proof (radius p Hp) as Rp.
    fold (dot u (X p)) in CS. fold (norm2 u) in CS, S. fold (norm2 (X p)) in CS, Sx, Rp.
    assert (P : dot u (X p) ^ 2 > 0) by nra.
    assert (U : norm2 u > 0) by nra. assert (Xp : norm2 (X p) > 0) by nra. nra.
  - apply (T_strict (R2) g (INR (S k)) (norm2 w) (dot u w) (norm2 u)).
    + apply invariant_P_strict; exact H.
    + unfold dot, norm2.
      rewrite (sum_ext d (fun i => u i * w i) (fun i => w i * u i)) by (intros; ring).
      apply kernel_cauchy_schwarz.
    + apply invariant_Q; exact H.
    + rewrite S_INR. pose proof (pos_INR k). lra.
    + exact Hg'.
    + apply (comparator_nonzero (fun p Hp => Rgt_ge _ _ (margin_strict p Hp)) Hg' k w H).
Qed.

End StrictMargin.

End Perceptron.

(* ===================================================================== *)
(* The generic lemma: G1 and G2 give P_k, Q_k and the bound, for any     *)
(* additive update sequence from any start (P_G, Q_G, T_G).              *)
(* ===================================================================== *)

Section Generic.

Variable d : nat.
Variable u : nat -> R.
Variables C g : R.
Variable step : (nat -> R) -> (nat -> R) -> Prop.  (* one update of a variant *)
Variable w0 : nat -> R.                            (* its start *)

Hypothesis G1 : forall w w', step w w' -> norm2 d w' + (-1) * norm2 d w <= C.
Hypothesis G2 : forall w w', step w w' -> dot d u w' + (-1) * dot d u w >= g.

Inductive reach : nat -> (nat -> R) -> Prop :=
  | reach_start : reach 0 w0
  | reach_step : forall k w w', reach k w -> step w w' -> reach (S k) w'.

(* P_k of the generic lemma: w_k.u >= w_0.u + k g (P_G) *)
(* nodes: P_G *)
Theorem generic_P : forall k w, reach k w -> dot d u w >= dot d u w0 + g * INR k.
Proof.
  intros k w H. induction H as [|k w w' H IH St].
  - simpl. lra.
  - destruct k as [|k].
    + inversion H; subst. apply (P_G_base g (INR 1) (dot d u w0) (dot d u w0)); auto.
    + apply (P_G_step g (INR (S (S k))) (dot d u w0) (dot d u w)); [ | | exact (G2 w w' St)].
      * rewrite S_INR, S_INR. pose proof (pos_INR k). lra.
      * replace ((-1) + INR (S (S k))) with (INR (S k)) by (rewrite (S_INR (S k)); ring).
        exact IH.
Qed.

(* Q_k of the generic lemma: |w_k|^2 <= |w_0|^2 + k C (Q_G) *)
(* nodes: Q_G *)
Theorem generic_Q : forall k w, reach k w -> norm2 d w <= norm2 d w0 + C * INR k.
Proof.
  intros k w H. induction H as [|k w w' H IH St].
  - simpl. lra.
  - destruct k as [|k].
    + inversion H; subst. apply (Q_G_base C (INR 1) (norm2 d w0) (norm2 d w') (norm2 d w0)); auto.
    + apply (Q_G_step C (INR (S (S k))) (norm2 d w) (norm2 d w') (norm2 d w0)); [ | | exact (G1 w w' St)].
      * rewrite S_INR, S_INR. pose proof (pos_INR k). lra.
      * replace ((-1) + INR (S (S k))) with (INR (S k)) by (rewrite (S_INR (S k)); ring).
        exact IH.
Qed.

Lemma dot_comm : forall a b, dot d a b = dot d b a.
Proof. intros. unfold dot. apply sum_ext. intros. ring. Qed.

(* T_G: from any start w0, (w0.u + k g)^2 <= |u|^2 (|w0|^2 + k C) *)
(* nodes: T_G *)
Theorem generic_bound : g > 0 -> norm2 d u > 0 -> C >= 0 ->
  forall k w, reach k w -> (k >= 1)%nat ->
  (dot d u w0 + g * INR k) ^ 2 <= norm2 d u * (norm2 d w0 + C * INR k).
Proof.
  intros Hg Hu HC k w H K.
  apply (T_G C g (INR k) (norm2 d w) (norm2 d w0) (dot d u w0) (dot d u w) (norm2 d u)).
  - apply generic_P; exact H.
  - apply generic_Q; exact H.
  - rewrite dot_comm. apply kernel_cauchy_schwarz.
  - rewrite dot_comm. apply kernel_cauchy_schwarz.
  - apply Rle_ge. apply (le_INR 1 k) in K. simpl in K. lra.
  - exact Hg.
  - exact Hu.
  - exact HC.
Qed.

(* from the origin: k g^2 <= C |u|^2 (G.classic.T) *)
(* nodes: G *)
Theorem generic_bound_from_zero : g > 0 -> norm2 d u > 0 -> C >= 0 ->
  (forall i, w0 i = 0) -> forall k w, reach k w -> INR k * g ^ 2 <= C * norm2 d u.
Proof.
  intros Hg Hu HC Z k w H.
  assert (P0 : dot d u w0 = 0).
  { unfold dot. rewrite (sum_ext d _ (fun _ => 0)) by (intros; rewrite Z; ring). apply sum_zero. }
  assert (N0 : norm2 d w0 = 0).
  { unfold norm2. rewrite (sum_ext d _ (fun _ => 0)) by (intros; rewrite Z; ring). apply sum_zero. }
  destruct k as [|k].
  - simpl. nra.
  - pose proof (generic_bound Hg Hu HC (S k) w H ltac:(lia)) as B.
    rewrite P0, N0 in B.
    apply (G_classic_T C g (INR (S k)) (norm2 d u)).
    + nra.
    + rewrite S_INR. pose proof (pos_INR k). lra.
Qed.

End Generic.

(* ===================================================================== *)
(* The generic lemma, strict: G1 and a strict G2 (w'.u - w.u > g) give   *)
(* k g^2 < C |u|^2 after k >= 1 updates from the origin (T_G.strict).   *)
(* ===================================================================== *)

Section GenericStrict.

Variable d : nat.
Variable u : nat -> R.
Variables C g : R.
Variable step : (nat -> R) -> (nat -> R) -> Prop.

Hypothesis G1 : forall w w', step w w' -> norm2 d w' + (-1) * norm2 d w <= C.
Hypothesis G2_strict : forall w w', step w w' -> dot d u w' + (-1) * dot d u w > g.

(* P_k, strict: w_k.u > k g after k >= 1 updates from the origin *)
Lemma generic_P_strict : forall k w, reach step (fun _ => 0) k w -> (k >= 1)%nat ->
  dot d u w > g * INR k.
Proof.
  intros k w H. induction H as [|k w w' H IH St]; intros K; [lia|].
  pose proof (G2_strict w w' St) as S. destruct k as [|k].
  - inversion H; subst.
    assert (Z : dot d u (fun _ => 0) = 0).
    { unfold dot. rewrite (sum_ext d _ (fun _ => 0)) by (intros; ring). apply sum_zero. }
    rewrite Z in S. simpl. lra.
  - pose proof (IH ltac:(lia)) as P. rewrite S_INR. lra.
Qed.

(* the strict bound from the origin: k g^2 < C |u|^2 after k >= 1 updates (T_G.strict) *)
(* nodes: T_G *)
Theorem generic_bound_from_zero_strict : g >= 0 ->
  forall k w, reach step (fun _ => 0) k w -> (k >= 1)%nat -> INR k * g ^ 2 < C * norm2 d u.
Proof.
  intros Hg k w H K.
  pose proof (generic_P_strict k w H K) as P.
  pose proof (generic_Q d C step (fun _ => 0) G1 k w H) as Q.
  assert (N0 : norm2 d (fun _ => 0) = 0).
  { unfold norm2. rewrite (sum_ext d _ (fun _ => 0)) by (intros; ring). apply sum_zero. }
  rewrite N0 in Q.
  pose proof (kernel_cauchy_schwarz d w u) as CS. fold (dot d w u) (norm2 d w) (norm2 d u) in CS.
  rewrite dot_comm in CS.
  pose proof (kernel_sos d u) as Su. fold (norm2 d u) in Su.
  assert (Kp : INR k > 0) by (apply lt_0_INR; lia).
  assert (A : 0 <= g * INR k) by nra.
  assert (S1 : (g * INR k) ^ 2 < dot d u w ^ 2) by nra.
  assert (S2 : (g * INR k) ^ 2 < norm2 d u * (C * INR k)) by nra.
  apply (Rmult_lt_reg_r (INR k)); [exact Kp|]. nra.
Qed.

End GenericStrict.

(* ===================================================================== *)
(* The linear rule: trigger y w.x <= tau, update w + eta a_p y_p x_p,    *)
(* from w0 -- G1 and G2 for it, with the constants of each claim.        *)
(* ===================================================================== *)

Section LinearRule.

Variable d n : nat.
Variable X : nat -> nat -> R.
Variable Y : nat -> R.
Variable u : nat -> R.
Variables eta tau : R.
Variable a : nat -> R.   (* per-point factors (1 for most variants) *)

Definition linear_step (w w' : nat -> R) : Prop :=
  exists p, (1 <= p <= n)%nat /\ Y p * dot d w (X p) <= tau /\
    w' = (fun i => eta * a p * Y p * X p i + w i).

Hypothesis labels : forall p, (1 <= p <= n)%nat -> Y p ^ 2 = 1.
Hypothesis rate_pos : forall p, (1 <= p <= n)%nat -> eta * a p > 0.

(* G1 for the linear rule: |w'|^2 - |w|^2 <= C when every point allows it *)
(* nodes: G1 *)
Lemma linear_G1 : forall C, (forall p, (1 <= p <= n)%nat ->
    (eta * a p) ^ 2 * norm2 d (X p) + 2 * (eta * a p) * tau <= C) ->
  forall w w', linear_step w w' -> norm2 d w' + (-1) * norm2 d w <= C.
Proof.
  intros C HC w w' (p & Hp & Ht & ->).
  pose proof (RATE_expand d (eta * a p) (norm2 d w)
    (norm2 d (fun i => eta * a p * Y p * X p i + w i)) (Y p * dot d w (X p)) (norm2 d (X p))
    (Y p) w (X p) eq_refl eq_refl eq_refl eq_refl (labels p Hp)) as E.
  pose proof (HC p Hp). pose proof (rate_pos p Hp). nra.
Qed.

(* G2 for the linear rule: w'.u - w.u >= g when every point allows it *)
(* nodes: G2 *)
Lemma linear_G2 : forall g, (forall p, (1 <= p <= n)%nat -> eta * a p * (Y p * dot d u (X p)) >= g) ->
  forall w w', linear_step w w' -> dot d u w' + (-1) * dot d u w >= g.
Proof.
  intros g Hg w w' (p & Hp & Ht & ->).
  pose proof (RATE_progress d (eta * a p) (dot d u w)
    (dot d u (fun i => eta * a p * Y p * X p i + w i)) (Y p) (Y p * dot d u (X p)) u w (X p)
    eq_refl ltac:(unfold dot; apply sum_ext; intros; ring) eq_refl) as E.
  pose proof (Hg p Hp). lra.
Qed.

(* G2, strict, for the linear rule: w'.u - w.u > g when every point allows it *)
Lemma linear_G2_strict : forall g,
  (forall p, (1 <= p <= n)%nat -> eta * a p * (Y p * dot d u (X p)) > g) ->
  forall w w', linear_step w w' -> dot d u w' + (-1) * dot d u w > g.
Proof.
  intros g Hg w w' (p & Hp & Ht & ->).
  pose proof (RATE_progress d (eta * a p) (dot d u w)
    (dot d u (fun i => eta * a p * Y p * X p i + w i)) (Y p) (Y p * dot d u (X p)) u w (X p)
    eq_refl ltac:(unfold dot; apply sum_ext; intros; ring) eq_refl) as E.
  pose proof (Hg p Hp). lra.
Qed.

End LinearRule.

Lemma norm2_pos_of_margin : forall d (u x : nat -> R) y g,
  g > 0 -> y * dot d u x >= g -> norm2 d u > 0.
Proof.
  intros d u x y g Hg M. pose proof (kernel_cauchy_schwarz d u x) as CS.
  pose proof (kernel_sos d u) as S. pose proof (kernel_sos d x) as Sx.
  fold (dot d u x) in CS. fold (norm2 d u) in CS, S. fold (norm2 d x) in CS, Sx.
  destruct (Rle_or_lt (norm2 d u) 0) as [Z|]; [|lra].
  assert (E : norm2 d u = 0) by lra. rewrite E in CS.
  assert (D : dot d u x = 0) by nra. rewrite D in M. lra.
Qed.

(* a margin g > 0 within radius R2 bounds g: g^2 <= R2 |u|^2 (Cauchy-Schwarz) *)
Lemma margin_within_radius : forall d (u x : nat -> R) y g R2,
  y ^ 2 = 1 -> g > 0 -> y * dot d u x >= g -> norm2 d x <= R2 -> g ^ 2 <= R2 * norm2 d u.
Proof.
  intros d u x y g R2 Y Hg M N. pose proof (kernel_cauchy_schwarz d u x) as CS.
  pose proof (kernel_sos d u) as S.
  fold (dot d u x) in CS. fold (norm2 d u) in CS, S. fold (norm2 d x) in CS.
  assert (E : (y * dot d u x) ^ 2 = dot d u x ^ 2) by (replace ((y * dot d u x) ^ 2) with (y ^ 2 * dot d u x ^ 2) by ring; rewrite Y; ring).
  assert (G : g ^ 2 <= (y * dot d u x) ^ 2) by nra.
  assert (NU : norm2 d u * norm2 d x <= norm2 d u * R2) by nra.
  nra.
Qed.

(* ===================================================================== *)
(* The catalog's claims, each a corollary of the generic lemma for the   *)
(* variant's own rule.  Data: n points X p with labels Y p (Y p^2 = 1),  *)
(* |X p|^2 <= R2, comparator u with margin y u.x >= g > 0, some point.   *)
(* ===================================================================== *)

Section Catalog.

Variable d n : nat.
Variable X : nat -> nat -> R.
Variable Y : nat -> R.
Variable u : nat -> R.
Variables g R2 : R.
Hypothesis labels : forall p, (1 <= p <= n)%nat -> Y p ^ 2 = 1.
Hypothesis radius : forall p, (1 <= p <= n)%nat -> norm2 d (X p) <= R2.
Hypothesis radius_nonneg : 0 <= R2.
Hypothesis margin : forall p, (1 <= p <= n)%nat -> Y p * dot d u (X p) >= g.
Hypothesis margin_pos : g > 0.
Hypothesis some_point : (1 <= n)%nat.

Lemma catalog_u_pos : norm2 d u > 0.
Proof. apply (norm2_pos_of_margin d u (X 1%nat) (Y 1%nat) g margin_pos). apply margin. lia. Qed.

Let one : nat -> R := fun _ => 1.

(* classic: (C, g) = (R^2, gamma) *)
(* nodes: G; claim: classic *)
Corollary classic_claim : forall k w,
  reach (linear_step d n X Y 1 0 one) (fun _ => 0) k w -> INR k * g ^ 2 <= R2 * norm2 d u.
Proof.
  intros k w H. eapply generic_bound_from_zero; [ | | exact margin_pos | exact catalog_u_pos | lra | reflexivity | exact H].
  - apply (linear_G1 d n X Y 1 0 one labels); [intros; unfold one; lra|].
    intros p Hp. unfold one. pose proof (radius p Hp). nra.
  - apply (linear_G2 d n X Y u 1 0 one). intros p Hp. unfold one. pose proof (margin p Hp). lra.
Qed.

(* unit ball: every |x| <= 1 gives (C, g) = (1, gamma): k gamma^2 <= |u|^2 *)
(* nodes: UNIT; claim: unit-ball *)
Corollary unit_ball_claim : R2 <= 1 -> forall k w,
  reach (linear_step d n X Y 1 0 one) (fun _ => 0) k w -> INR k * g ^ 2 <= norm2 d u.
Proof.
  intros R1 k w H. pose proof (classic_claim k w H). pose proof catalog_u_pos. nra.
Qed.

(* learning rate eta > 0: (C, g) = (eta^2 R^2, eta gamma); the bound does not move *)
(* nodes: RATE; claim: learning-rate *)
Corollary rate_claim : forall eta, eta > 0 -> forall k w,
  reach (linear_step d n X Y eta 0 one) (fun _ => 0) k w ->
  INR k * (eta * g) ^ 2 <= (eta ^ 2 * R2) * norm2 d u /\ INR k * g ^ 2 <= R2 * norm2 d u.
Proof.
  intros eta He k w H.
  assert (B : INR k * (eta * g) ^ 2 <= (eta ^ 2 * R2) * norm2 d u).
  { eapply generic_bound_from_zero; [ | | | exact catalog_u_pos | | reflexivity | exact H].
    - apply (linear_G1 d n X Y eta 0 one labels); [intros; unfold one; lra|].
      intros p Hp. unfold one. pose proof (radius p Hp). nra.
    - apply (linear_G2 d n X Y u eta 0 one). intros p Hp. unfold one. pose proof (margin p Hp). nra.
    - nra.
    - apply Rle_ge. nra. }
  split; [exact B|].
  apply (RATE_bound R2 eta g (INR k) (norm2 d u) He). nra.
Qed.

(* nonzero start w0, the implicit form: (w0.u + k gamma)^2 <= |u|^2 (|w0|^2 + k R^2) *)
(* nodes: T_G *)
Corollary start_claim : forall w0 k w, (k >= 1)%nat ->
  reach (linear_step d n X Y 1 0 one) w0 k w ->
  (dot d u w0 + g * INR k) ^ 2 <= norm2 d u * (norm2 d w0 + R2 * INR k).
Proof.
  intros w0 k w K H. eapply generic_bound; [ | | exact margin_pos | exact catalog_u_pos | lra | exact H | exact K].
  - apply (linear_G1 d n X Y 1 0 one labels); [intros; unfold one; lra|].
    intros p Hp. unfold one. pose proof (radius p Hp). nra.
  - apply (linear_G2 d n X Y u 1 0 one). intros p Hp. unfold one. pose proof (margin p Hp). lra.
Qed.

(* nonzero start, the catalog's explicit bound: for any s >= 0 with s^2 >= |w0|^2 |u|^2
   (a rational upper bound of |w0| |u|), k <= R^2 |u|^2/g^2 + 2 (s - u.w0)/g *)
(* nodes: T_G; claim: nonzero-start *)
Corollary start_explicit_claim : forall w0 s k w, s >= 0 -> norm2 d w0 * norm2 d u <= s ^ 2 ->
  reach (linear_step d n X Y 1 0 one) w0 k w ->
  INR k <= R2 * norm2 d u / g ^ 2 + 2 * (s - dot d u w0) / g.
Proof.
  intros w0 s k w Hs Hn H.
  pose proof catalog_u_pos as U.
  pose proof (kernel_cauchy_schwarz d u w0) as CS.
  fold (dot d u w0) (norm2 d u) (norm2 d w0) in CS.
  pose proof (kernel_sos d w0) as S0. fold (norm2 d w0) in S0.
  assert (Ps : dot d u w0 <= s /\ - s <= dot d u w0) by (split; nra).
  assert (HA : 0 <= R2 * norm2 d u) by nra.
  assert (Main : g ^ 2 * INR k <= R2 * norm2 d u + 2 * g * (s - dot d u w0)).
  { destruct k as [|k'].
    - simpl. nra.
    - pose proof (start_claim w0 (S k') w ltac:(lia) H) as I.
      pose proof (pos_INR (S k')) as K0.
      assert (T : g * (dot d u w0 + g * INR (S k')) <= R2 * norm2 d u + g * s).
      { destruct (Rle_or_lt (g * (dot d u w0 + g * INR (S k'))) (R2 * norm2 d u + g * s))
          as [|Hc]; [assumption|exfalso].
        assert (Tp : dot d u w0 + g * INR (S k') > s) by nra.
        assert (E1 : g * (dot d u w0 + g * INR (S k')) ^ 2
                     <= g * s ^ 2 + R2 * norm2 d u * (g * INR (S k'))) by nra.
        nra. }
      nra. }
  apply (Rmult_le_reg_l (g ^ 2)); [nra|].
  replace (g ^ 2 * (R2 * norm2 d u / g ^ 2 + 2 * (s - dot d u w0) / g))
    with (R2 * norm2 d u + 2 * g * (s - dot d u w0)) by (field; lra).
  exact Main.
Qed.

(* margin perceptron: trigger y w.x <= tau (tau >= 0), rate eta > 0:
   (C, g) = (eta^2 R^2 + 2 eta tau, eta gamma) *)
(* nodes: G; claim: margin *)
Corollary margin_claim : forall eta tau, eta > 0 -> tau >= 0 -> forall k w,
  reach (linear_step d n X Y eta tau one) (fun _ => 0) k w ->
  INR k * (eta * g) ^ 2 <= (eta ^ 2 * R2 + 2 * eta * tau) * norm2 d u.
Proof.
  intros eta tau He Ht k w H.
  eapply generic_bound_from_zero; [ | | | exact catalog_u_pos | | reflexivity | exact H].
  - apply (linear_G1 d n X Y eta tau one labels); [intros; unfold one; lra|].
    intros p Hp. unfold one. pose proof (radius p Hp). nra.
  - apply (linear_G2 d n X Y u eta tau one). intros p Hp. unfold one. pose proof (margin p Hp). nra.
  - nra.
  - apply Rle_ge. nra.
Qed.

(* normalised: update y x/|x| (a_p = 1/|x_p|, a_p^2 |x_p|^2 = 1):
   (C, g) = (1, min y u.x/|x|) *)
(* nodes: G; claim: normalised *)
Corollary normalised_claim : forall (a : nat -> R) gn,
  (forall p, (1 <= p <= n)%nat -> a p > 0 /\ a p ^ 2 * norm2 d (X p) = 1) ->
  (forall p, (1 <= p <= n)%nat -> a p * (Y p * dot d u (X p)) >= gn) -> gn > 0 ->
  forall k w, reach (linear_step d n X Y 1 0 a) (fun _ => 0) k w -> INR k * gn ^ 2 <= 1 * norm2 d u.
Proof.
  intros a gn Ha Hg Hgn k w H.
  eapply generic_bound_from_zero; [ | | exact Hgn | exact catalog_u_pos | lra | reflexivity | exact H].
  - apply (linear_G1 d n X Y 1 0 a labels); [intros p Hp; destruct (Ha p Hp); lra|].
    intros p Hp. destruct (Ha p Hp) as [A N]. nra.
  - apply (linear_G2 d n X Y u 1 0 a). intros p Hp. pose proof (Hg p Hp). lra.
Qed.

(* bias: the points augmented to (x, c), c <> 0, the comparator to (u, theta/c); an affine
   margin y (u.x + theta) >= gamma gives k gamma^2 <= (R^2 + c^2)(|u|^2 + theta^2/c^2) *)
Definition aug (v : nat -> R) (t : R) : nat -> R := fun i => if Nat.eqb i (S d) then t else v i.

Lemma aug_dot : forall a b s t, dot (S d) (aug a s) (aug b t) = dot d a b + s * t.
Proof.
  intros. unfold dot, aug. cbn [sum]. rewrite Nat.eqb_refl.
  rewrite (sum_ext d _ (fun i => a i * b i)); [ring|].
  intros i Hi. destruct (Nat.eqb_spec i (S d)); [lia | reflexivity].
Qed.

Lemma aug_norm2 : forall a t, norm2 (S d) (aug a t) = norm2 d a + t ^ 2.
Proof.
  intros. unfold norm2, aug. cbn [sum]. rewrite Nat.eqb_refl.
  rewrite (sum_ext d _ (fun i => a i ^ 2)); [ring|].
  intros i Hi. destruct (Nat.eqb_spec i (S d)); [lia | reflexivity].
Qed.

(* bias augmentation (x, c), c <> 0: k gamma^2 <= (R^2 + c^2)(|u|^2 + theta^2/c^2) *)
(* nodes: BIAS; claim: bias-augment *)
Corollary bias_claim : forall c theta, c <> 0 ->
  (forall p, (1 <= p <= n)%nat -> Y p * (dot d u (X p) + theta) >= g) ->
  forall k w, reach (linear_step (S d) n (fun p => aug (X p) c) Y 1 0 one) (fun _ => 0) k w ->
  INR k * g ^ 2 <= (R2 + c ^ 2) * (norm2 d u + (theta / c) ^ 2).
Proof.
  intros c theta Hc Hm k w H.
  assert (M : forall p, (1 <= p <= n)%nat -> Y p * dot (S d) (aug u (theta / c)) (aug (X p) c) >= g).
  { intros p Hp. rewrite aug_dot. replace (theta / c * c) with theta by (field; exact Hc).
    apply Hm; exact Hp. }
  rewrite <- aug_norm2.
  eapply generic_bound_from_zero; [ | | exact margin_pos | | | reflexivity | exact H].
  - apply (linear_G1 (S d) n _ Y 1 0 one labels); [intros; unfold one; lra|].
    intros p Hp. unfold one. rewrite aug_norm2. pose proof (radius p Hp). nra.
  - apply (linear_G2 (S d) n _ Y _ 1 0 one). intros p Hp. unfold one. pose proof (M p Hp). lra.
  - apply (norm2_pos_of_margin (S d) _ (aug (X 1%nat) c) (Y 1%nat) g margin_pos). apply M. lia.
  - apply Rle_ge. pose proof (pow2_ge_0 c). lra.
Qed.

(* the separate bias b <- b + y (decision w.x + b): the augmentation with c = 1 *)
(* nodes: BIAS3; claim: bias-separate *)
Corollary bias_separate_claim : forall theta,
  (forall p, (1 <= p <= n)%nat -> Y p * (dot d u (X p) + theta) >= g) ->
  forall k w, reach (linear_step (S d) n (fun p => aug (X p) 1) Y 1 0 one) (fun _ => 0) k w ->
  INR k * g ^ 2 <= (R2 + 1) * (norm2 d u + theta ^ 2).
Proof.
  intros theta Hm k w H. pose proof (bias_claim 1 theta ltac:(lra) Hm k w H) as B.
  replace (theta / 1) with theta in B by field. replace (1 ^ 2) with 1 in B by ring. exact B.
Qed.

(* the course page's (x, -1) with b <- b - y (decision w.x - b): the augmentation with
   c = -1, the comparator's bias -theta *)
(* nodes: BIAS3; claim: bias-minus-one *)
Corollary bias_minus_one_claim : forall theta,
  (forall p, (1 <= p <= n)%nat -> Y p * (dot d u (X p) + theta) >= g) ->
  forall k w, reach (linear_step (S d) n (fun p => aug (X p) (-1)) Y 1 0 one) (fun _ => 0) k w ->
  INR k * g ^ 2 <= (R2 + 1) * (norm2 d u + theta ^ 2).
Proof.
  intros theta Hm k w H. pose proof (bias_claim (-1) theta ltac:(lra) Hm k w H) as B.
  replace ((theta / -1) ^ 2) with (theta ^ 2) in B by (field). replace ((-1) ^ 2) with 1 in B by ring.
  exact B.
Qed.

End Catalog.

(* ===================================================================== *)
(* The strict margin (Kalyanakrishnan's Assumption 1): y u.x > g >= 0    *)
(* gives k g^2 < R^2 |u|^2 after k >= 1 updates of the classic rule.    *)
(* ===================================================================== *)

Section StrictCatalog.

Variable d n : nat.
Variable X : nat -> nat -> R.
Variable Y : nat -> R.
Variable u : nat -> R.
Variables g R2 : R.
Hypothesis labels : forall p, (1 <= p <= n)%nat -> Y p ^ 2 = 1.
Hypothesis radius : forall p, (1 <= p <= n)%nat -> norm2 d (X p) <= R2.
Hypothesis margin_strict : forall p, (1 <= p <= n)%nat -> Y p * dot d u (X p) > g.
Hypothesis margin_nonneg : g >= 0.

(* classic-strict: (C, g) = (R^2, g), k g^2 < R^2 |u|^2 *)
(* nodes: T_G; claim: classic-strict *)
Corollary classic_strict_claim : forall k w, (k >= 1)%nat ->
  reach (linear_step d n X Y 1 0 (fun _ => 1)) (fun _ => 0) k w -> INR k * g ^ 2 < R2 * norm2 d u.
Proof.
  intros k w K H. eapply generic_bound_from_zero_strict; [ | | exact margin_nonneg | exact H | exact K].
  - apply (linear_G1 d n X Y 1 0 (fun _ => 1) labels); [intros; lra|].
    intros p Hp. pose proof (radius p Hp). nra.
  - apply (linear_G2_strict d n X Y u 1 0 (fun _ => 1)). intros p Hp. pose proof (margin_strict p Hp). lra.
Qed.

End StrictCatalog.

(* ===================================================================== *)
(* Multiclass (Kesler's construction): one weight vector per class, kept *)
(* as blocks of one vector of dimension c d.  An update on point p for a *)
(* class y' scoring at least its label's adds z = phi(x_p, y_p) -        *)
(* phi(x_p, y'), whose squared norm is 2 |x_p|^2: (C, g) = (2 R^2, g).  *)
(* ===================================================================== *)

Lemma sum_shift : forall a b f, sum (a + b) f = sum a f + sum b (fun j => f (a + j)%nat).
Proof.
  intros a b f. induction b as [|b IH].
  - rewrite Nat.add_0_r. cbn [sum]. ring.
  - rewrite Nat.add_succ_r. cbn [sum]. rewrite IH.
    replace (a + S b)%nat with (S (a + b)) by lia. ring.
Qed.

Lemma sum_blocks : forall c d f,
  sum (c * d) f = sum c (fun k => sum d (fun j => f ((k - 1) * d + j)%nat)).
Proof.
  induction c as [|c IH]; intros d f; [reflexivity|].
  rewrite Nat.mul_succ_l, sum_shift, IH. cbn [sum].
  replace (S c - 1)%nat with c by lia. reflexivity.
Qed.

(* phi(x, y): x in the block of class y, 0 elsewhere *)
Definition kes (d y : nat) (x : nat -> R) : nat -> R :=
  fun i => if andb (Nat.ltb ((y - 1) * d) i) (Nat.leb i (y * d)) then x (i - (y - 1) * d)%nat else 0.

Lemma kes_block : forall d y x k j, (1 <= y)%nat -> (1 <= k)%nat -> (1 <= j <= d)%nat ->
  kes d y x ((k - 1) * d + j)%nat = if Nat.eqb k y then x j else 0.
Proof.
  intros d y x k j Hy Hk Hj. unfold kes.
  destruct (Nat.eqb_spec k y) as [E|E].
  - subst k. replace ((y - 1) * d + j - (y - 1) * d)%nat with j by lia.
    assert (L : ((y - 1) * d <? (y - 1) * d + j)%nat = true) by (apply Nat.ltb_lt; lia).
    assert (U : ((y - 1) * d + j <=? y * d)%nat = true).
    { apply Nat.leb_le. replace (y * d)%nat with ((y - 1) * d + d)%nat by nia. lia. }
    rewrite L, U. reflexivity.
  - destruct (Nat.lt_ge_cases k y) as [Lt|Ge].
    + assert (L : ((y - 1) * d <? (k - 1) * d + j)%nat = false).
      { apply Nat.ltb_ge. assert ((k - 1) * d + d <= (y - 1) * d)%nat by nia. lia. }
      rewrite L. reflexivity.
    + assert (U : ((k - 1) * d + j <=? y * d)%nat = false).
      { apply Nat.leb_gt. assert (y * d <= (k - 1) * d)%nat by nia. lia. }
      rewrite U, Bool.andb_false_r. reflexivity.
Qed.

Lemma sum_ifeq : forall c y a, (1 <= y <= c)%nat -> sum c (fun k => if Nat.eqb k y then a else 0) = a.
Proof.
  intros c y a H. rewrite (sum_ext c _ (fun k => delta y k * a)).
  - apply sum_delta. exact H.
  - intros k Hk. unfold delta. destruct (Nat.eqb_spec k y), (Nat.eqb_spec y k); try lia; ring.
Qed.

Lemma kes_norm : forall c d y y' x, (1 <= y <= c)%nat -> (1 <= y' <= c)%nat -> y <> y' ->
  norm2 (c * d) (fun i => kes d y x i - kes d y' x i) = 2 * norm2 d x.
Proof.
  intros c d y y' x Hy Hy' N. unfold norm2. rewrite sum_blocks.
  rewrite (sum_ext c _ (fun k => (if Nat.eqb k y then sum d (fun j => x j ^ 2) else 0)
                                + (if Nat.eqb k y' then sum d (fun j => x j ^ 2) else 0))).
  - rewrite sum_add, sum_ifeq, sum_ifeq by lia. ring.
  - intros k Hk. rewrite (sum_ext d _ (fun j => ((if Nat.eqb k y then x j else 0)
                                              - (if Nat.eqb k y' then x j else 0)) ^ 2)).
    + destruct (Nat.eqb_spec k y), (Nat.eqb_spec k y'); try lia.
      * rewrite (sum_ext d _ (fun j => x j ^ 2)) by (intros; ring). ring.
      * rewrite (sum_ext d _ (fun j => x j ^ 2)) by (intros; ring). ring.
      * rewrite (sum_ext d _ (fun _ => 0)) by (intros; ring). rewrite sum_zero. ring.
    + intros j Hj. rewrite !kes_block by lia. reflexivity.
Qed.

Lemma norm2_add : forall D (w z : nat -> R),
  norm2 D (fun i => w i + z i) = norm2 D w + 2 * dot D w z + norm2 D z.
Proof. intros D w z. unfold norm2, dot. induction D as [|D IH]; cbn [sum]; [ring| rewrite IH; ring]. Qed.

Lemma dot_sub : forall D (u a b : nat -> R),
  dot D u (fun i => a i - b i) = dot D u a - dot D u b.
Proof. intros D u a b. unfold dot. induction D as [|D IH]; cbn [sum]; [ring| rewrite IH; ring]. Qed.

Section Multiclass.

Variables c d n : nat.                (* classes, dimension, points *)
Variable X : nat -> nat -> R.          (* X p: the point p *)
Variable L : nat -> nat.               (* L p: its class, 1..c *)
Variable U : nat -> R.                 (* the comparator: c blocks of dimension d *)
Variables g R2 : R.
Hypothesis labels : forall p, (1 <= p <= n)%nat -> (1 <= L p <= c)%nat.
Hypothesis radius : forall p, (1 <= p <= n)%nat -> norm2 d (X p) <= R2.
(* the multiclass margin: U's own class scores at least g above every other class *)
Hypothesis margin : forall p y', (1 <= p <= n)%nat -> (1 <= y' <= c)%nat -> y' <> L p ->
  dot (c * d) U (kes d (L p) (X p)) - dot (c * d) U (kes d y' (X p)) >= g.
Hypothesis margin_pos : g > 0.
Hypothesis two_classes : (2 <= c)%nat.
Hypothesis some_point : (1 <= n)%nat.

(* one update: a class y' other than p's scores at least p's own class *)
Definition multiclass_step (w w' : nat -> R) : Prop :=
  exists p y', (1 <= p <= n)%nat /\ (1 <= y' <= c)%nat /\ y' <> L p /\
    dot (c * d) w (kes d (L p) (X p)) <= dot (c * d) w (kes d y' (X p)) /\
    w' = (fun i => w i + (kes d (L p) (X p) i - kes d y' (X p) i)).

(* multiclass: (C, g) = (2 R^2, g): k g^2 <= 2 R^2 |U|^2 *)
(* nodes: G; claim: multiclass *)
Corollary multiclass_claim : forall k w,
  reach multiclass_step (fun _ => 0) k w -> INR k * g ^ 2 <= (2 * R2) * norm2 (c * d) U.
Proof.
  intros k w H.
  assert (Hz : forall p y', (1 <= p <= n)%nat -> (1 <= y' <= c)%nat -> y' <> L p ->
    norm2 (c * d) (fun i => kes d (L p) (X p) i - kes d y' (X p) i) = 2 * norm2 d (X p)).
  { intros p y' Hp Hy N. apply kes_norm; auto. }
  eapply generic_bound_from_zero; [ | | exact margin_pos | | | reflexivity | exact H].
  - intros v v' (p & y' & Hp & Hy & N & T & ->). rewrite norm2_add, dot_sub, Hz by auto.
    pose proof (radius p Hp). lra.
  - intros v v' (p & y' & Hp & Hy & N & T & ->).
    rewrite (dot_comm (c * d) U (fun i => v i + _)).
    unfold dot at 1. rewrite (sum_ext (c * d) _ (fun i => v i * U i
        + (kes d (L p) (X p) i - kes d y' (X p) i) * U i)) by (intros; ring).
    rewrite sum_add. fold (dot (c * d) v U).
    fold (dot (c * d) (fun i => kes d (L p) (X p) i - kes d y' (X p) i) U).
    rewrite (dot_comm (c * d) (fun i => _ - _) U), dot_sub, (dot_comm (c * d) v U).
    pose proof (margin p y' Hp Hy N). lra.
  - destruct (Nat.eq_dec (L 1%nat) 1%nat) as [E|E].
    + pose proof (margin 1%nat 2%nat ltac:(lia) ltac:(lia) ltac:(lia)) as M.
      pose proof (labels 1%nat ltac:(lia)).
      apply (norm2_pos_of_margin (c * d) U (fun i => kes d (L 1%nat) (X 1%nat) i - kes d 2 (X 1%nat) i) 1 g margin_pos).
      rewrite dot_sub. lra.
    + pose proof (labels 1%nat ltac:(lia)).
      pose proof (margin 1%nat 1%nat ltac:(lia) ltac:(lia) ltac:(lia)) as M.
      apply (norm2_pos_of_margin (c * d) U (fun i => kes d (L 1%nat) (X 1%nat) i - kes d 1 (X 1%nat) i) 1 g margin_pos).
      rewrite dot_sub. lra.
  - apply Rle_ge. assert (0 <= R2).
    { pose proof (radius 1%nat ltac:(lia)). pose proof (kernel_sos d (X 1%nat)) as S.
      fold (norm2 d (X 1%nat)) in S. lra. }
    lra.
Qed.

End Multiclass.

(* ===================================================================== *)
(* The kernel perceptron, in an abstract real inner-product space H: the *)
(* points enter only through a feature map phi into H, the weights are   *)
(* in H (w = sum_p alpha_p y_p phi(x_p)).  Any such space, any phi: for a *)
(* kernel K(x, x') = <phi(x), phi(x')>, R_K^2 bounds K(x_p, x_p) and the  *)
(* comparator u in H has margin g: k g^2 <= R_K^2 <u, u>.               *)
(* ===================================================================== *)

Section KernelPerceptron.

Variable H : Type.
Variable hzero : H.
Variable hadd : H -> H -> H.
Variable hscale : R -> H -> H.
Variable ip : H -> H -> R.
Hypothesis ip_sym : forall a b, ip a b = ip b a.
Hypothesis ip_add_l : forall a b c, ip (hadd a b) c = ip a c + ip b c.
Hypothesis ip_scale_l : forall t a b, ip (hscale t a) b = t * ip a b.
Hypothesis ip_zero_l : forall b, ip hzero b = 0.
Hypothesis ip_pos : forall a, ip a a >= 0.

Lemma ip_add_r : forall a b c, ip a (hadd b c) = ip a b + ip a c.
Proof. intros. rewrite ip_sym, ip_add_l, (ip_sym b), (ip_sym c). reflexivity. Qed.

Lemma ip_scale_r : forall t a b, ip a (hscale t b) = t * ip a b.
Proof. intros. rewrite ip_sym, ip_scale_l, (ip_sym b). reflexivity. Qed.

Lemma ip_expand : forall w t x,
  ip (hadd w (hscale t x)) (hadd w (hscale t x)) = ip w w + 2 * t * ip w x + t ^ 2 * ip x x.
Proof.
  intros. rewrite ip_add_l, !ip_add_r, !ip_scale_l, !ip_scale_r, (ip_sym x w). ring.
Qed.

(* Cauchy-Schwarz in H, from <t a + b, t a + b> >= 0 for every t *)
(* nodes: L4 *)
Lemma ip_cauchy_schwarz : forall a b, ip a b ^ 2 <= ip a a * ip b b.
Proof.
  intros a b.
  assert (Q : forall t, ip a a * t ^ 2 + 2 * ip a b * t + ip b b >= 0).
  { intros t. pose proof (ip_pos (hadd (hscale t a) b)) as P.
    rewrite ip_add_l, !ip_add_r, !ip_scale_l, !ip_scale_r, (ip_sym b a) in P. nra. }
  pose proof (ip_pos a) as Pa. pose proof (ip_pos b) as Pb.
  destruct (Rle_or_lt (ip a a) 0) as [Z|Pos].
  - assert (A0 : ip a a = 0) by lra.
    destruct (Req_dec (ip a b) 0) as [B0|B0].
    + rewrite B0, A0. lra.
    + pose proof (Q (- (ip b b + 1) / (2 * ip a b))) as T. rewrite A0 in T.
      replace (2 * ip a b * (- (ip b b + 1) / (2 * ip a b))) with (- (ip b b + 1)) in T
        by (field; exact B0).
      lra.
  - pose proof (Q (- ip a b / ip a a)) as T.
    replace (ip a a * (- ip a b / ip a a) ^ 2 + 2 * ip a b * (- ip a b / ip a a) + ip b b)
      with (ip b b - ip a b ^ 2 / ip a a) in T by (field; lra).
    assert (D : ip a b ^ 2 / ip a a <= ip b b) by lra.
    apply (Rmult_le_compat_l (ip a a)) in D; [|lra].
    replace (ip a a * (ip a b ^ 2 / ip a a)) with (ip a b ^ 2) in D by (field; lra). lra.
Qed.

Variable n : nat.
Variable phi : nat -> H.   (* phi p: the feature vector of point p *)
Variable Y : nat -> R.
Variable u : H.            (* the comparator in H *)
Variables g R2 : R.
Hypothesis labels : forall p, (1 <= p <= n)%nat -> Y p ^ 2 = 1.
Hypothesis radius : forall p, (1 <= p <= n)%nat -> ip (phi p) (phi p) <= R2.
Hypothesis radius_nonneg : 0 <= R2.
Hypothesis margin : forall p, (1 <= p <= n)%nat -> Y p * ip u (phi p) >= g.
Hypothesis margin_pos : g > 0.

(* one update of the kernel perceptron: on a violator, w <- w + y_p phi(x_p)
   (alpha_p += 1 in the dual form) *)
Definition kernel_step (w w' : H) : Prop :=
  exists p, (1 <= p <= n)%nat /\ Y p * ip w (phi p) <= 0 /\ w' = hadd w (hscale (Y p) (phi p)).

Inductive kernel_run : nat -> H -> Prop :=
  | kernel_start : kernel_run 0 hzero
  | kernel_next : forall k w w', kernel_run k w -> kernel_step w w' -> kernel_run (S k) w'.

Lemma kernel_P : forall k w, kernel_run k w -> ip u w >= g * INR k.
Proof.
  intros k w H0. induction H0 as [|k w w' R IH (p & Hp & T & ->)].
  - rewrite ip_sym, ip_zero_l. simpl. lra.
  - rewrite ip_add_r, ip_scale_r, S_INR. pose proof (margin p Hp). lra.
Qed.

Lemma kernel_Q : forall k w, kernel_run k w -> ip w w <= R2 * INR k.
Proof.
  intros k w H0. induction H0 as [|k w w' R IH (p & Hp & T & ->)].
  - rewrite ip_zero_l. simpl. lra.
  - rewrite ip_expand, S_INR, (labels p Hp). pose proof (radius p Hp). lra.
Qed.

(* the kernel perceptron's bound: k g^2 <= R_K^2 <u, u> *)
(* nodes: G; claim: kernel-rbf *)
Theorem kernel_claim : forall k w, kernel_run k w -> INR k * g ^ 2 <= R2 * ip u u.
Proof.
  intros k w H0. pose proof (kernel_P k w H0) as P. pose proof (kernel_Q k w H0) as Q.
  pose proof (ip_cauchy_schwarz u w) as CS. pose proof (pos_INR k) as K.
  pose proof (ip_pos u) as U.
  destruct (Req_dec (INR k) 0) as [Z|NZ]; [rewrite Z; nra|].
  assert (Kp : INR k > 0) by lra.
  assert (G : (g * INR k) ^ 2 <= ip u u * (R2 * INR k)).
  { assert (0 <= g * INR k) by nra. nra. }
  apply (Rmult_le_reg_r (INR k)); [exact Kp|]. nra.
Qed.

End KernelPerceptron.
