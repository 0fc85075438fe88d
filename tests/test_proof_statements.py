"""The proof as data: nodes, vocabulary, vector forms and the monitor's view of them."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import numpy as np
import sympy as sp

from pla_proof.data import from_arrays
from pla_proof.engine.drive import _world
from pla_proof.engine.measure import exact_measures
from pla_proof.engine.rule import CLASSIC
from pla_proof.monitor import make_comparator
from pla_proof.proof import statements as st
from pla_proof.proof.identities import unroll
from pla_proof.proof.statements import (
    END_LEMMAS,
    LEMMAS,
    NODES,
    RUNTIME_LEMMAS,
    VOCABULARY,
    lemma,
    rel,
    vector_forms,
)


def test_runtime_ids_and_order_are_the_monitors_contract() -> None:
    assert [lem.id for lem in RUNTIME_LEMMAS] == [
        "DEF_TRIGGER", "A1_j", "A2_j", "L1", "L2", "L3", "L4", "L5", "L6", "L7", "T",
    ]  # fmt: skip
    assert [lem.id for lem in END_LEMMAS] == ["SEP"]
    assert all(lem.runtime is not None for lem in LEMMAS)


def test_every_dependency_names_a_node() -> None:
    ids = {n.id for n in NODES}
    assert len(ids) == len(NODES), "duplicate node ids"
    for node in NODES:
        for dep in node.depends_on:
            assert dep in ids, f"{node.id} depends on unknown {dep}"


def test_lookup_covers_every_node() -> None:
    for node in NODES:
        assert lemma(node.id) is node
    for name in ("A1", "A2", "DEF_ALG", "G", "UNIT", "COS", "BIAS", "BIAS3", "DUAL", "RATE"):
        assert lemma(name).runtime is None


def test_rel_keeps_positivity_hypotheses_that_sympy_would_drop() -> None:
    assert sp.StrictGreaterThan(st.g, 0) is sp.true  # g is declared positive
    kept = rel(st.g, ">", 0)
    assert kept is not sp.true and kept.rel_op == ">"


def test_induction_reads_the_previous_update() -> None:
    l3, l7 = lemma("L3"), lemma("L7")
    assert l3.induction is not None and l7.induction is not None
    prev3 = l3.induction.previous_statement(l3.statement(strict=True))
    assert prev3 == sp.StrictGreaterThan(st.pu, st.g * (st.k - 1))
    prev7 = l7.induction.previous_statement(l7.statement())
    assert prev7 == sp.LessThan(st.n0, st.R2 * (st.k - 1))


def test_strict_and_non_strict_forms_differ_where_seed_000_differs() -> None:
    for lem_id in ("A1_j", "L2", "L3", "T"):
        lem = lemma(lem_id)
        assert lem.sides(strict=True)[1] in ("<", ">")
        assert lem.sides(strict=False)[1] in ("<=", ">=")
    for lem_id in ("L6", "L7", "L4"):
        lem = lemma(lem_id)
        assert lem.statement(strict=True) == lem.statement(strict=False)


def test_a_replaced_statement_is_recompiled_not_taken_from_the_cache() -> None:
    original = lemma("L6")
    values = {"n0": Fraction(0), "n1": Fraction(501), "R2": Fraction(501)}
    assert original.holds(values)
    changed = dataclasses.replace(original, runtime=lambda s: sp.LessThan(st.n1 - st.n0, st.R2 / 2))
    assert not changed.holds(values)
    assert original.holds(values)


def test_vector_forms_are_what_the_monitor_measures() -> None:
    """The general-d definitions of the vocabulary, evaluated on concrete vectors,
    equal the exact monitor's measurements of the same update."""
    rng = random.Random(3)
    for dim in (1, 2, 3, 5):
        for _ in range(5):
            w0 = [rng.randint(-4, 4) for _ in range(dim)]
            x = [rng.randint(-4, 4) for _ in range(dim)]
            u = [rng.randint(-4, 4) for _ in range(dim)]
            u[0] = x[0] = 1 + abs(x[0])
            ux = sum(a * b for a, b in zip(u, x, strict=True))
            if ux == 0:
                continue
            y = 1 if ux > 0 else -1  # u separates the single point (x, y)
            data = from_arrays([x], [y])
            comp = make_comparator(data, u)
            U, su = comp.integers()
            world = _world(data, CLASSIC, "exact")
            chunk = exact_measures(world, np.array([0]), 0, w0, U, su)
            measured = {name: e.values()[0] for name, e in chunk.items()}
            measured["uu"] = comp.uu
            subs: dict[object, object] = {st.y: y}
            for p in range(dim):
                subs[st.W[p + 1]] = w0[p]
                subs[st.X[p + 1]] = x[p]
                subs[st.U[p + 1]] = u[p]
            for name, form in vector_forms(dim).items():
                value = sp.Rational(unroll(form).xreplace(subs))
                assert Fraction(int(value.p), int(value.q)) == measured[name], (name, dim)


def test_vocabulary_names_are_the_symbols_names() -> None:
    for name, (symbol, meaning) in VOCABULARY.items():
        assert str(symbol) == name and meaning
    assert set(vector_forms()) <= set(VOCABULARY)


def test_generic_lemmas_are_runtime_lemmas_in_the_vocabulary() -> None:
    ids = [lem.id for lem in st.GENERIC_LEMMAS]
    assert ids == ["G1", "G2", "P_G", "Q_G", "T_G"]
    for lem in st.GENERIC_LEMMAS:
        assert lemma(lem.id) is lem and lem in NODES
        names = {str(s) for s in lem.statement().free_symbols}
        assert names <= set(VOCABULARY), (lem.id, names)
    # u = (1, 0), w_1 = (2, 2); z = (1, 0) then z = (1, -1): w_3 = (4, 1), growth 5 then 4
    values = {"k": 2, "pu": 3, "pu1": 4, "ps": 2, "ns": 8, "g": 1, "C": 5, "n0": 13, "n1": 17,
              "uu": 1}  # fmt: skip
    assert all(lem.holds(values) for lem in st.GENERIC_LEMMAS)
    assert not lemma("P_G").holds({**values, "pu1": 3})  # 3 < 2 + 2*1
    assert not lemma("Q_G").holds({**values, "n1": 19})  # 19 > 8 + 2*5
    # with w_1 = 0 and C = R^2, T_G is the classic bound times k
    zero = {st.ps: 0, st.ns: 0, st.C: st.R2}
    assert (
        sp.expand(lemma("T_G").statement().xreplace(zero).rhs - st.k * lemma("T").statement().rhs)
        == 0
    )


def test_generic_bound_needs_cauchy_schwarz_at_the_start() -> None:
    from pla_proof.proof.implications import check_implication

    t_g = lemma("T_G")
    hyps = t_g.hypotheses(False)  # type: ignore[misc]
    assert check_implication(hyps, t_g.statement()).proved
    without = [h for h in hyps if h != rel(st.ps**2, "<=", st.uu * st.ns)]
    assert len(without) == len(hyps) - 1
    assert check_implication(without, t_g.statement()).status == "refuted"


def test_the_shipped_runtime_forms_are_generated_from_the_statements() -> None:
    # one SymPy source: pla_proof/proof/forms.py is forms_source()'s output, exactly
    from pathlib import Path

    from pla_proof.proof import forms
    from pla_proof.proof.statements import forms_source

    assert Path(forms.__file__).read_text(encoding="utf-8") == forms_source()


def test_the_run_lemmas_agree_with_the_sympy_lemmas() -> None:
    import random
    from fractions import Fraction

    from pla_proof.proof import runtime, statements

    rng = random.Random(3)
    full = (*statements.RUNTIME_LEMMAS, *statements.END_LEMMAS)
    light = (*runtime.RUNTIME_LEMMAS, *runtime.END_LEMMAS)
    assert [lem.id for lem in full] == [lem.id for lem in light]
    names = ("k", "t", "pu", "pu1", "yux", "n0", "n1", "xx", "g", "R2", "uu", "m")
    for a, b in zip(full, light, strict=True):
        assert a.title == b.title and a.at == b.at
        for strict in (False, True):
            assert str(a.statement(strict=strict)) == b.statement(strict=strict)
            for _ in range(50):
                vals = {n: Fraction(rng.randint(-9, 9), rng.randint(1, 3)) for n in names}
                vals["k"] = Fraction(rng.randint(1, 5))
                assert a.holds(vals, strict=strict) == b.holds(vals, strict=strict)
    assert light[0].sympy() is full[0]  # the rest of a lemma is the SymPy lemma's


def test_a_run_imports_neither_sympy_nor_the_compiled_loop() -> None:
    import subprocess
    import sys

    code = (
        "import sys; from pla_proof import train, load; r = train(load('students')); "
        "print(r.status, sorted(m for m in ('sympy', 'numba', 'scipy', 'z3') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "converged []"
