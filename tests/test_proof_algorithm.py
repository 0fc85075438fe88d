"""The algorithm inside Coq (``algorithm.v``): it compiles with the development, its
headline theorems rest on Coq's standard real-number axioms only, and the program Coq's
extraction makes of it agrees with the engine, update for update, on the built-in data
sets (zero start, nonzero start, the bias as the algorithm's own b) -- and disagrees with a
sabotaged engine."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import pytest
from _coq_library import COQC, OCAMLOPT, compiles_all, coqc, program

from pla_proof.data import load
from pla_proof.engine.drive import drive
from pla_proof.engine.rule import LinearRule
from pla_proof.proof.algorithm import (
    LIBRARY,
    THEOREMS,
    ProgramRun,
    program_input,
    run_program,
    source,
)
from pla_proof.trainer import train

needs_tools = pytest.mark.skipif(
    COQC is None or OCAMLOPT is None,
    reason="coqc or ocamlopt is not installed (Debian packages 'coq', 'ocaml-nox'; "
    ".ci/apt-packages.txt)",
)

BUILTINS = ["students", "orthonormal:3", "orthonormal:6", "xor-x1x2", "demo2d", "maxviol:1/4"]

#: Print Assumptions of every headline theorem: Coq's standard real-number axioms only
STANDARD_AXIOMS = {
    "ClassicalDedekindReals.sig_forall_dec",
    "FunctionalExtensionality.functional_extensionality_dep",
}


def extracted(data: Any, *, epochs: int, split: bool, w0: Any = None) -> ProgramRun:
    """The extracted program on ``data``: with ``split``, the bias coordinate becomes the
    algorithm's own b (bias input c); else the data as trained (c = 0)."""
    if split and data.bias is not None:
        X = [list(x[:-1]) for x in data.X]
        return run_program(program(), program_input(X, data.y, epochs=epochs, c=data.bias.c))
    return run_program(program(), program_input(data.X, data.y, epochs=epochs, w0=w0))


def as_trained(r: ProgramRun, data: Any, split: bool) -> tuple[Fraction, ...]:
    assert r.w is not None and r.b is not None
    if split and data.bias is not None:
        return (*r.w, r.b)
    assert r.b == 0  # c = 0: the bias never moves
    return r.w


@needs_tools
@pytest.mark.parametrize("split", [False, True], ids=["as-trained", "bias-as-b"])
@pytest.mark.parametrize("name", BUILTINS)
def test_the_extracted_program_makes_the_engines_updates(name: str, split: bool) -> None:
    data = load(name)
    run = train(data, rule="cyclic")
    assert run.status == "converged"
    # the theorem: a run of k updates needs at most k + 1 passes
    r = extracted(data, epochs=run.updates + 1, split=split)
    assert r.k == run.updates
    assert as_trained(r, data, split) == tuple(run.w)


@needs_tools
@pytest.mark.parametrize("name", ["students", "orthonormal:3", "xor-x1x2", "demo2d"])
def test_the_extracted_program_from_a_nonzero_start(name: str) -> None:
    data = load(name)
    w0 = tuple(Fraction((-1) ** i * (i + 1), 3) for i in range(data.d))
    dec = drive(data, LinearRule(w0=w0), order="cyclic", budget=10_000)
    assert dec.status == "converged"
    r = extracted(data, epochs=dec.updates + 1, split=False, w0=w0)
    assert r.k == dec.updates and r.w == tuple(dec.w)
    assert r.k != train(data).updates or r.w != tuple(train(data).w)  # the start mattered


@needs_tools
def test_on_data_that_are_not_separable_it_runs_out_of_budget() -> None:
    data = load("xor")
    assert train(data).status == "not_separable"
    for split in (False, True):
        assert extracted(data, epochs=200, split=split).k is None


@needs_tools
def test_a_sabotaged_engine_disagrees_with_the_extracted_program() -> None:
    """The update's sign flipped, the update doubled, an update skipped (a strict trigger):
    each engine run differs from Coq's in its count or its weights."""
    data = load("demo2d")
    honest = train(data)
    coq = extracted(data, epochs=honest.updates + 1, split=False)
    assert (coq.k, coq.w) == (honest.updates, tuple(honest.w))

    def flipped(w: Any, x: Any, y: Any) -> list[Any]:
        return [wi - y * xi for wi, xi in zip(w, x, strict=True)]

    def doubled(w: Any, x: Any, y: Any) -> list[Any]:
        return [wi + 2 * y * xi for wi, xi in zip(w, x, strict=True)]

    for broken in (
        train(data, update=flipped, comparator=None, budget=200),
        train(data, update=doubled, comparator=None, budget=200),
        train(data, trigger=lambda m: m < 0, comparator=None, budget=200),
    ):
        assert (broken.updates, tuple(broken.w)) != (coq.k, coq.w)


@needs_tools
def test_the_headline_theorems_rest_on_the_standard_axioms_only() -> None:
    """One ``Print Assumptions`` of a tuple of them all (the union of their axioms; one
    traversal of the development instead of one per theorem)."""
    lines = [
        f"Require Import {LIBRARY}.",
        f"Definition headline := ({', '.join(THEOREMS)}).",
        "Print Assumptions headline.",
    ]
    out = coqc("\n".join(lines) + "\n", "Assumptions", check=True).stdout
    assert out.count("Axioms:") == 1
    axioms = {
        line.strip()
        for line in out.splitlines()
        if line and not line.startswith((" ", "\t", "Axioms:"))
    }
    assert axioms == STANDARD_AXIOMS


def test_nothing_is_admitted_or_assumed() -> None:
    text = re.sub(r"\(\*.*?\*\)", "", source(), flags=re.S)
    for word in ("Admitted", "admit", "Axiom", "Parameter", "Conjecture", "Abort", "Hypothesis"):
        assert not re.search(rf"\b{word}\b", text), word


@needs_tools
def test_a_sabotaged_algorithm_is_rejected_by_coqc() -> None:
    """algorithm.v compiled on top of the library (its names shadow the library's; as
    shipped it compiles: it is the library's end) with the bias update's sign flipped, or
    the weights' update flipped: the proofs fail (two compiles of the file, in parallel:
    the one check that its proofs depend on its definitions)."""
    text = f"Require Import {LIBRARY}.\n" + source()
    bias = "then pass c (qaxpy y x w) (Qred (y * c + b)) (S m) D'"
    weights = "Qred (t * a + v) :: qaxpy t x' w'"
    assert bias in text and weights in text
    sabotaged = [
        text.replace(bias, "then pass c (qaxpy y x w) (Qred (b - y * c)) (S m) D'"),
        text.replace(weights, "Qred (v - t * a) :: qaxpy t x' w'"),
    ]
    assert compiles_all(sabotaged) == [False, False]


def _q(token: str) -> Fraction:
    """One number as Coq prints a ``Q``: ``3``, ``-1 # 2``, ``(1 # 2)``."""
    num, _, den = token.strip().strip("()").partition("#")
    return Fraction(int(num), int(den) if den else 1)


@needs_tools
@pytest.mark.parametrize("seed", [0, 1, 5])
@pytest.mark.parametrize("name", ["xor", "students"])
def test_the_catalogs_pocket_returns_what_the_coq_pocket_returns(name: str, seed: int) -> None:
    """The catalog's pocket (Gallant's ratchet, random picks) and ``pocket`` in
    algorithm.v, on the same picks (the engine's sampler, pick by pick): the same pocket
    and the same history of its errors -- the run the theorem ``pocket_returns`` is about
    is the one the search checks."""
    import numpy as np

    from pla_proof.engine.shuffle import sample
    from pla_proof.variants.catalog.pocket import Pocket
    from pla_proof.variants.protocol.variant import Case, Order

    data = load(name)
    X = [tuple(Fraction(v) for v in x) for x in data.X]
    case = Case(tuple(X), tuple(data.y), tuple(Fraction(0) for _ in X[0]), Fraction(0), {})
    rec = Pocket().run(case, Order("random", seed))
    n = len(X)
    picks = [int(sample(np.uint64(seed), v, n)) for v in range(Pocket.iterations_per_point * n)]

    def vec(row: Any) -> str:
        return "[" + "; ".join(f"({v.numerator} # {v.denominator})" for v in row) + "]"

    text = (
        f"Require Import {LIBRARY}.\nRequire Import QArith List.\nImport ListNotations.\n"
        f"Definition X : list (list Q) := [{'; '.join(vec(x) for x in X)}].\n"
        f"Definition Y : list Q := {vec(Fraction(v) for v in data.y)}.\n"
        f"Definition picks : list N := [{'; '.join(f'{p}%N' for p in picks)}].\n"
        "Eval vm_compute in (let '(pw, pb, pk, pe, hist) :=\n"
        f"  pocket X Y 0 picks (repeat 0 {len(X[0])}) 0 in (pw, (pe, rev hist))).\n"
    )
    out = " ".join(coqc(text, "PocketLink", check=True).stdout.split())
    found = re.search(r"= \(\[(.*?)\], \((\d+)%nat, \[(.*?)\]\)\)", out)
    assert found, out
    pocket = tuple(_q(t) for t in found.group(1).split(";"))
    history = [int(t.replace("%nat", "")) for t in found.group(3).split(";")]
    assert pocket == tuple(rec.output["pocket"])
    assert history == list(rec.output["pocket_errors"]) and int(found.group(2)) == history[-1]
