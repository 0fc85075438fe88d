"""Properties of the geometry layer on generated data (separable and not).

* gamma* is at least the margin of every separator the generator knows, and the
  optimum is verified exactly;
* every certificate (LP, exact method, Block-Levin cycle) verifies exactly;
* ``certify`` agrees with the trainer's own final-separation check;
* Freund and Schapire's mistake bound holds on non-separable data;
* the running sandwich holds along every run on separable data.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from pla_proof.data import Dataset
from pla_proof.geometry import (
    NotSeparable,
    OptimalMargin,
    affine_margin,
    certify,
    freund_schapire,
    gordan_certificate,
    running_sandwich,
    separability,
)
from pla_proof.numbers import dot
from pla_proof.strategies import SeparableCase, separable_datasets
from pla_proof.trainer import RULES, Certificate, train

SMALL: dict[str, Any] = {"max_n": 8, "max_d": 4, "max_coord": 6}


@st.composite
def non_separable(draw: st.DrawFn) -> Dataset:
    """Points whose signed versions z_i = y_i x_i have a positive integer combination
    equal to 0 (so no strict separator exists): the last z is minus a positive
    combination of the others."""
    d = draw(st.integers(1, 4))
    m = draw(st.integers(1, 6))
    coord = st.integers(-5, 5)
    Z = [draw(st.lists(coord, min_size=d, max_size=d)) for _ in range(m)]
    c = draw(st.lists(st.integers(1, 3), min_size=m, max_size=m))
    Z.append([-sum(ci * z[k] for ci, z in zip(c, Z, strict=True)) for k in range(d)])
    extra = draw(st.lists(st.lists(coord, min_size=d, max_size=d), max_size=4))
    Z.extend(extra)
    y = draw(st.lists(st.sampled_from([-1, 1]), min_size=len(Z), max_size=len(Z)))
    order = draw(st.permutations(range(len(Z))))
    X = tuple(tuple(Fraction(y[i] * v) for v in Z[i]) for i in order)
    return Dataset(X, tuple(y[i] for i in order), name="non-separable")


@given(separable_datasets(kind="rational", **SMALL))
def test_gamma_star_beats_every_known_separator(case: SeparableCase) -> None:
    res = separability(case.data)
    assert isinstance(res, OptimalMargin) and res.verify(case.data)
    uu = sum(v * v for v in case.u)
    assert res.gamma_squared >= case.gamma**2 / uu
    assert res.bound <= case.bound
    assert gordan_certificate(case.data) is None


@given(separable_datasets(**SMALL), st.integers(1, 5))
def test_scaling_leaves_the_bound_unchanged(case: SeparableCase, c: int) -> None:
    data = case.data
    scaled = Dataset(tuple(tuple(c * v for v in x) for x in data.X), data.y)
    a, b = separability(data), separability(scaled)
    assert isinstance(a, OptimalMargin) and isinstance(b, OptimalMargin)
    assert b.gamma_squared == c * c * a.gamma_squared and b.bound == a.bound


@given(non_separable())
def test_every_certificate_verifies_exactly(data: Dataset) -> None:
    res = separability(data)
    assert isinstance(res, Certificate) and res.verify(data)
    lp = gordan_certificate(data)
    assert lp is not None and lp.verify(data)
    run = train(data, rule="cyclic", budget=3000)
    assert run.status in ("not_separable", "budget_exhausted")
    if run.status == "not_separable":
        assert run.certificate is not None and run.certificate.verify(data)


@given(non_separable())
def test_affine_certificates_have_zero_label_sum(data: Dataset) -> None:
    aug = data.with_bias("augment:2")
    res = separability(aug)
    if isinstance(res, Certificate):
        assert res.verify(aug)
        assert sum(a * yi for a, yi in zip(res.alpha, aug.y, strict=True)) == 0
    else:
        am = affine_margin(aug)
        if len(set(aug.y)) == 1:
            assert am is None  # one class: the affine margin is unbounded
        else:
            assert am is not None and am.verify(aug) and am.augmented_bound >= res.bound


@given(separable_datasets(**SMALL), st.sampled_from(RULES), st.integers(0, 3), st.integers(0, 20))
def test_certify_agrees_with_the_trainer(
    case: SeparableCase, rule: str, seed: int, budget: int
) -> None:
    run = train(case.data, rule=rule, seed=seed, budget=budget, comparator=None)
    assert run.status in ("converged", "budget_exhausted")
    assert certify(case.data, run.w).separates == (run.status == "converged")


@given(
    non_separable(),
    st.lists(st.integers(-4, 4), min_size=4, max_size=4).filter(any),
    st.fractions(min_value=Fraction(1, 10), max_value=10, max_denominator=10),
    st.randoms(use_true_random=False),
)
def test_freund_schapire_bound_holds_on_non_separable_data(
    data: Dataset, u: list[int], g: Fraction, rnd: object
) -> None:
    uu = u[: data.d]
    if not any(uu):
        uu = [1, *uu[1:]]
    order = list(range(data.n))
    rnd.shuffle(order)  # type: ignore[attr-defined]
    fs = freund_schapire(data, uu, g, order)
    assert fs.holds


@given(separable_datasets(**SMALL), st.sampled_from(RULES), st.integers(0, 3))
def test_running_sandwich_holds_on_every_run(case: SeparableCase, rule: str, seed: int) -> None:
    run = train(case.data, rule=rule, seed=seed, comparator=None, budget=int(case.bound) + 1)
    assert run.status == "converged"
    for u in (case.u, separability(case.data).u):  # type: ignore[union-attr]
        rows = running_sandwich(case.data, u, run.choices)
        assert all(r.holds for r in rows)
        g = min(yi * dot(u, x) for x, yi in zip(case.data.X, case.data.y, strict=True))
        assert rows == [] or rows[-1].kg == run.updates * g


@given(separable_datasets(**SMALL))
def test_optimal_margin_is_attained_by_u_star(case: SeparableCase) -> None:
    res = separability(case.data)
    assert isinstance(res, OptimalMargin)
    margins = [yi * dot(res.u, x) for x, yi in zip(case.data.X, case.data.y, strict=True)]
    assert min(margins) == res.gamma_squared  # min_i z_i.p* = |p*|^2, exactly
    try:
        am = affine_margin(case.data.with_bias("augment"))
    except NotSeparable:  # pragma: no cover - separable through 0 implies affinely separable
        raise AssertionError("affine margin refused separable data") from None
    if am is not None:
        assert am.verify(case.data.with_bias("augment"))
