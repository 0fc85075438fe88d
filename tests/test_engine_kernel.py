"""The compiled loop's quiet pass and its hash of the exact weights on float data."""

from __future__ import annotations

import numpy as np

from pla_proof.data import from_arrays
from pla_proof.engine import kernel as kn
from pla_proof.engine.drive import _state, drive, prepare
from pla_proof.engine.orders import CYCLIC, RANDOM

_P61 = (1 << 61) - 1


def _quiet_pass(st: kn.State, max_visits: int = 2**62) -> None:
    wbound, ebound = kn._bounds(st.mode, st.Wf, st.E, st.sel, 1 if st.mode == kn.FLOAT_EXACT else 0)
    kn._pass_quiet(
        st.X, st.yl, st.mode, st.rule, st.seed, st.xrel, st.T_i, st.T_f, st.T_err, st.gl1,
        st.xmax, st.Wf, st.sel, st.stamp, st.perm, wbound, ebound, max_visits,
    )  # fmt: skip


def _float_state(X: list[list[float]], y: list[int], w: list[float], drift: float) -> kn.State:
    data = from_arrays(np.array(X), np.array(y))
    st = _state(prepare(data), CYCLIC, 0, 0)
    st.Wf[:] = w
    st.E[:] = drift
    return st


def test_the_quiet_pass_passes_clear_points_and_stops_at_a_trigger() -> None:
    st = _float_state([[1.5, 0.25], [2.0, 1.0], [-1.0, 0.5], [0.5, 3.0]], [1, 1, 1, 1], [1, 0], 0.0)
    _quiet_pass(st)
    # points 0 and 1 have margins 1.5 and 2: quiet; point 2 (margin -1) is a trigger
    assert (int(st.sel[kn.POS]), int(st.sel[kn.QUIET]), int(st.sel[kn.VISITS_DONE])) == (2, 2, 2)
    assert st.stamp.tolist() == [1, 1, 0, 0]


def test_the_quiet_pass_leaves_a_margin_within_the_error_bound_to_the_full_test() -> None:
    # the float weights may be off by 0.01 per coordinate: point 1's margin 0.005 may be
    # off by 0.02 (its |x_2| = 1), so the pass stops there (advance's full test, or the
    # exact driver, decides it); point 0's margin 1 is certainly positive
    st = _float_state([[1.0, 0.0], [0.005, 1.0], [1.0, 1.0]], [1, 1, 1], [1.0, 0.0], 0.01)
    _quiet_pass(st)
    assert int(st.sel[kn.POS]) == 1 and int(st.sel[kn.QUIET]) == 1
    st.E[:] = 0.0  # exact weights: the same margin is settled
    _quiet_pass(st)
    assert int(st.sel[kn.POS]) == 0 and int(st.sel[kn.QUIET]) == 3  # wrapped: every point quiet


def test_the_quiet_pass_stops_at_a_non_finite_margin() -> None:
    st = _float_state([[1.0, 1.0], [1e308, 1e308]], [1, 1], [1.0, 1e10], 0.0)
    _quiet_pass(st)  # point 1's dot product overflows to inf: not a decision
    assert int(st.sel[kn.POS]) == 1


def test_the_quiet_pass_keeps_the_visit_cap_and_random_epochs() -> None:
    st = _float_state([[1.0, 0.0]] * 5, [1] * 5, [1.0, 0.0], 0.0)
    _quiet_pass(st, max_visits=3)
    assert int(st.sel[kn.VISITS_DONE]) == 3 and int(st.sel[kn.QUIET]) == 3
    st.rule = RANDOM
    st.sel[kn.POS] = 0
    _quiet_pass(st)  # a new epoch's permutation is drawn by advance, not by the pass
    assert int(st.sel[kn.VISITS_DONE]) == 3


def test_the_loops_hash_terms_are_the_exact_points_residues() -> None:
    """The hash term of each updated point, made in the loop from the float's bits, is
    ``sum_c z_c 2^(r_c mod 61) mod 2^61 - 1`` of the point's exact integers ``z``."""
    rng = np.random.default_rng(3)
    X = rng.standard_normal((40, 5)) * np.exp2(rng.integers(-30, 30, size=(40, 5)))
    u = rng.standard_normal(5)
    y = np.where(X @ u > 0, 1, -1)
    data = from_arrays(X, y)
    world = prepare(data)
    st = _state(world, CYCLIC, 0, 1, 10_000)
    assert st.sel[kn.HSHIFT] >= 0 and st.hres.shape == (40,)
    while kn.advance(*st.args(max_updates=10_000, max_visits=10**6)) == kn.GROW:
        pass
    rot = [int(r) % 61 for r in st.hr]
    made = np.flatnonzero(st.hres >= 0)
    assert made.size > 0
    for j in made:
        z = world.data.integer_row(int(j))
        want = sum(int(zc) * pow(2, r, _P61) for zc, r in zip(z, rot, strict=True)) % _P61
        assert int(st.hres[j]) == want
    # and the run finds the same weights with the table as without it
    assert drive(data).w == drive(data, detect_cycles=False).w


def test_the_loop_is_looked_up_again_when_an_argument_changes_kind() -> None:
    from pla_proof.engine.kernel import _same_kinds

    X = np.array([[1, 0], [0, 1]], dtype=np.int64)
    st = kn.State.start(
        X, np.array([1, -1]), mode=kn.GRID, rule=1, seed=0, w0=np.zeros(2, np.int64)
    )
    a = st.args(max_updates=4, max_visits=10)
    b = st.args(max_updates=3, max_visits=11)  # other integers, same kinds (and buffers)
    assert _same_kinds(a, b)
    assert not _same_kinds(a, (*a[:-1], 2**70))  # an integer beyond int64: another loop
    assert not _same_kinds(a, (*a[:-1], 10.0))  # another type
    swapped = tuple(x.astype(np.float64) if x is st.W else x for x in a)
    assert not _same_kinds(a, swapped)  # another array (object): looked up again
    assert st.loop(a) is st.loop(b)
