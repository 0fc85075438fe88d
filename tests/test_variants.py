"""The variant protocol, the harness and the built-in catalog."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from checking import budget

from pla_proof.errors import InputError
from pla_proof.trainer import train
from pla_proof.variants import (
    Case,
    Claim,
    Measure,
    Order,
    Record,
    builtin_names,
    evaluate,
    resolve,
    run_case,
    search,
)
from pla_proof.variants.catalog.exact_exp import ExpSum
from pla_proof.variants.catalog.kernel import is_psd
from pla_proof.variants.checking.files import case_from_json, case_to_json
from pla_proof.variants.protocol.variant import orthonormal_cases

CORE = [n for n in builtin_names() if not n.startswith("sklearn")]


@pytest.mark.parametrize("name", CORE)
def test_every_builtin_variant_passes_its_claim(name: str) -> None:
    report = search(resolve(name), seed=0, **budget(10))
    assert report.ok, [
        p.counterexample.failure.describe() for p in report.failed if p.counterexample
    ]
    assert report.runs >= 10
    ids = {p.id for p in report.properties}
    assert ids & {"SEP", "SEP0", "RATCHET"}  # an end condition is always claimed


@pytest.mark.parametrize("rule", ["cyclic", "first", "maxviol", "random"])
def test_classic_variant_makes_the_trainers_updates(rule: str) -> None:
    from pla_proof.data import load

    data = load("maxviol:1/3")
    case = Case.separable(data, [1, 0])
    rec = resolve("classic").run(case, Order(rule, seed=5))
    run = train(data, rule=rule, seed=5, comparator=[1, 0])
    assert rec.choices == run.choices
    assert tuple(rec.output["w"]) == run.w


def test_orthonormal_data_attain_the_bound_exactly() -> None:
    case = orthonormal_cases([4])[0]
    rec, res = run_case(resolve("classic"), case, Order("maxviol"))
    assert rec.updates == 4 == resolve("classic").claim(case).bound_pair()[0]  # type: ignore[index]
    assert res["T"] is None


def test_evaluate_rejects_each_broken_inequality() -> None:
    # one update that violates growth, progress, P_k, Q_k, Cauchy-Schwarz and the bound
    rec = Record(steps=[Measure(1, 0, F(0), F(0), F(-3), F(0), F(5))], end={"m": F(-1), "j": 0})
    res = evaluate(Claim(C=F(1), g=F(1), uu=F(1), bound=F(1, 2)), rec)
    assert {p for p, f in res.items() if f is not None} == {
        "G1",
        "G2",
        "P_k",
        "Q_k",
        "L4",
        "T",
        "SEP",
    }
    ok = Record(steps=[Measure(1, 0, F(0), F(0), F(1), F(0), F(1))], end={"m": F(1), "j": 0})
    assert all(f is None for f in evaluate(Claim(C=F(1), g=F(1), uu=F(1)), ok).values())


def test_strict_bound_refuses_equality() -> None:
    rec = Record(steps=[Measure(1, 0, F(0), F(0), F(1), F(0), F(1))], end={"m": F(1), "j": 0})
    assert evaluate(Claim(C=F(1), g=F(1), uu=F(1), strict=True), rec)["T"] is not None
    assert evaluate(Claim(C=F(1), g=F(1), uu=F(1)), rec)["T"] is None


def test_orders_are_the_engines_rules() -> None:
    assert Order("cyclic").engine() == "cyclic" and Order("random", 3).engine() == "random"
    choose = Order("choose", picks=(2, 1)).engine()
    assert callable(choose) and choose([0, 1, 3], 1) == 3 and choose([0, 1, 3], 2) == 1
    assert choose([0, 1, 3], 3) == 0  # the picks ran out: the first violator
    replay = Order("replay", picks=(2,)).engine()
    assert callable(replay)
    with pytest.raises(InputError, match="not a violator"):
        replay([0, 1], 1)
    with pytest.raises(InputError, match="unknown order"):
        Order("sideways").engine()


def test_registry_refuses_bad_specs() -> None:
    with pytest.raises(InputError, match="unknown variant"):
        resolve("classik")
    with pytest.raises(InputError, match="no module named"):
        resolve("no_such_module_xyz:variant")
    with pytest.raises(InputError, match="has no attribute"):
        resolve("pla_proof.variants.catalog.classic:Nope")
    with pytest.raises(InputError, match="is not a variant"):
        resolve("pla_proof.variants.catalog.classic:math")
    with pytest.raises(InputError, match="unknown seeded bug"):
        resolve("bug:nope")


def test_case_json_round_trip() -> None:
    case = Case(
        ((F(1, 3), F(2)),),
        (1,),
        (F(1), F(0)),
        F(1, 3),
        {"anchors": ((F(1), F(2)),), "eta": F(5, 2)},
    )
    assert case_from_json(case_to_json(case)) == case
    with pytest.raises(InputError, match="malformed"):
        case_from_json({"X": [["a"]], "y": [1], "u": ["1"], "gamma": "1"})


def test_exp_sums_compare_exactly() -> None:
    a, b = ExpSum.exp(F(1)), ExpSum.exp(F(2))
    assert a * a == b and a * a - b == 0
    assert a > b > 0 and 2 * b < a
    # e^-1 - e^-2 - e^-3 is tiny but positive?  e^-1 = 0.3679 > e^-2 + e^-3 = 0.1851
    assert a - b - ExpSum.exp(F(3)) > 0
    # a combination that is positive only at the 12th digit is still decided
    near = ExpSum.exp(F(1), F(10**12)) - ExpSum.lift(F(367879441171, 1))
    assert near.sign() == (1 if 10**12 * 0.36787944117144233 > 367879441171 else -1)


def test_psd_check_accepts_gram_matrices_and_rejects_others() -> None:
    assert is_psd([[F(1), F(1)], [F(1), F(1)]])[0]
    assert not is_psd([[F(1), F(2)], [F(2), F(1)]])[0]
    assert not is_psd([[F(0), F(1)], [F(1), F(0)]])[0]
    e = ExpSum.exp(F(1, 2))
    assert is_psd([[ExpSum.lift(1), e], [e, ExpSum.lift(1)]])[0]
    assert not is_psd([[ExpSum.lift(1), ExpSum.lift(2) - e], [ExpSum.lift(2) - e, ExpSum.lift(1)]])[
        0
    ]


def test_averaged_output_need_not_separate_although_training_converges() -> None:
    # found by `pla-proof check bug:averaged-separates` (seed 0)
    case = Case(((F(0), F(-2), F(2)), (F(0), F(-1), F(0))), (1, -1), (F(0), F(1), F(3)), F(1))
    rec, res = run_case(resolve("averaged"), case, Order("cyclic"))
    assert res["SEP"] is None and res["EQ"] is None  # training is classic and converges
    assert rec.end["averaged_m"] <= 0  # but the average misclassifies a training point


def test_seed004_listing_stops_at_w_zero_when_every_label_is_positive() -> None:
    case = Case(((F(1),), (F(3),)), (1, 1), (F(1),), F(1), {"theta": F(0), "c": F(1)})
    rec, res = run_case(resolve("seed004-listing"), case, Order("cyclic"))
    assert rec.updates == 0 and rec.output["w"] == (F(0),) and rec.output["b"] == 0
    assert res["SEP0"] is None  # its own guarantee holds
    _, strict = run_case(resolve("bug:seed004-strict"), case, Order("cyclic"))
    assert strict["SEP"] is not None  # the theorem's strict separation does not


def test_kernel_perceptron_alpha_counts_and_dual_equals_primal() -> None:
    report = search(resolve("dual"), seed=3, **budget(10))
    assert report.result("EQ").ok and report.result("DUAL").ok


def test_normalised_refuses_irrational_norms() -> None:
    case = Case(((F(1), F(1)),), (1,), (F(1), F(0)), F(1))
    with pytest.raises(InputError, match="rational norms"):
        resolve("normalised").claim(case)
