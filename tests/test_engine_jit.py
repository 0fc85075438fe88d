"""The compiled loops are loaded only when a run needs them, their Python code gives
the same results, and the time spent loading them is not a run's time."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from pla_proof.engine import jit
from pla_proof.engine.orders import Selection
from pla_proof.engine.shuffle import fill_permutation, sample


def _fresh(code: str, **env: str) -> str:
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ, **env}
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


@pytest.mark.parametrize("n", [1, 2, 7, 31])
def test_the_interpreted_generator_is_the_compiled_one(n: int) -> None:
    run = jit.interpreted(fill_permutation)
    for seed in (0, 1, 2**63 + 5, 2**64 - 1):
        for epoch in (0, 1, 17):
            a, b = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
            fill_permutation(a, np.uint64(seed), epoch)
            run(b, np.uint64(seed), epoch)
            assert a.tolist() == b.tolist()
            assert sorted(a.tolist()) == list(range(n))
            assert int(jit.interpreted(sample)(np.uint64(seed), epoch, n)) == int(
                sample(np.uint64(seed), epoch, n)
            )


def test_interpreted_code_calls_interpreted_code() -> None:
    """A loop run as Python calls the Python code of the loops it calls (a compiled or
    stand-in callee would load numba)."""
    body = jit.interpreted(fill_permutation).__wrapped__  # type: ignore[attr-defined]
    assert body is fill_permutation.py_func  # type: ignore[attr-defined]
    callee = jit.interpreted(fill_permutation)
    assert callee is jit.interpreted(fill_permutation)  # built once


def test_small_runs_in_every_order_load_no_compiled_loop() -> None:
    code = (
        "import sys\n"
        "from pla_proof import train, load\n"
        "from pla_proof.engine import jit\n"
        "for rule in ('first', 'cyclic', 'random', 'maxviol'):\n"
        "    assert train(load('students'), rule=rule).status == 'converged'\n"
        "print(jit.loaded(), 'numba' in sys.modules)\n"
    )
    assert _fresh(code) == "False False"


def test_a_random_order_run_makes_the_same_choices_on_both_paths() -> None:
    code = (
        "from pla_proof import train, load\n"
        "from pla_proof.engine import jit\n"
        "d = load('orthonormal:12')\n"
        "a = train(d, rule='random', seed=11).choices\n"
        "assert not jit.loaded()\n"
        "jit._activate()\n"
        "b = train(d, rule='random', seed=11).choices\n"
        "print(a == b, len(a) >= 12, jit.loaded())\n"
    )
    assert _fresh(code) == "True True True"


def test_sampling_selection_matches_the_compiled_sampler() -> None:
    sel = Selection(5, "cyclic", seed=3, sample=True)
    picks = [sel.choose([0, 1, 2, 3, 4], lambda i: True, lambda i: 0) for _ in range(20)]
    word = np.uint64(3)
    assert picks == [int(sample(word, v, 5)) for v in range(20)]


_LIMIT = """
import time
from pla_proof.engine import jit
from pla_proof.variants.boundary import limits as harness
slow = jit._listen
def _listen():
    time.sleep(1.5)  # a slow machine: loading the compiled loops takes 1.5 s
    slow()
jit._listen = _listen
{patch}
from pla_proof import train, load
try:
    with harness.time_limit(1.0):  # (room for a loaded machine: CI runs 2 tests at once)
        train(load('students'), mode='float')
        t = time.monotonic()
        while time.monotonic() - t < 0.2:  # the run's own time: within the limit
            pass
    print('finished', jit.compile_seconds() >= 1.5)
except harness.RunTimeout:
    print('timed out')
"""


# numba's loops (the ones built with the package switched off), or the ones built with
# the package, made slow to load
_SLOW = {
    "numba": ("", {"PLA_PROOF_NO_AOT": "1"}),
    "built": (
        "from pla_proof.engine import aot\n"
        "digest = aot.sources_digest\n"
        "aot.sources_digest = lambda *a: (time.sleep(1.5), digest(*a))[1]\n"
        "jit._activate = None  # numba is not used at all\n",
        {},
    ),
}


@pytest.mark.parametrize("loops", sorted(_SLOW))
def test_loading_the_compiled_loops_is_not_a_runs_time(loops: str) -> None:
    patch, env = _SLOW[loops]
    assert _fresh(_LIMIT.format(patch=patch), **env) == "finished True"


@pytest.mark.parametrize("loops", sorted(_SLOW))
def test_the_limit_test_fails_when_loading_counts(loops: str) -> None:
    """The test above can fail: with the loading counted, the run is cut off."""
    patch, env = _SLOW[loops]
    patch += "harness.compile_seconds = lambda: 0.0"
    assert _fresh(_LIMIT.format(patch=patch), **env) == "timed out"


_OWN = """
import time
import numba
from pla_proof.engine import jit
from pla_proof.variants.boundary import limits as harness
{patch}
@numba.njit
def own(x):  # a variant's own compiled function, compiled on its first call
    return x + 1
try:
    with harness.time_limit(0.15):
        own(1)
        t = time.monotonic()
        while time.monotonic() - t < 0.08:  # the run's own time: within the limit
            pass
    print("finished", jit.compile_seconds() > 0.15)
except harness.RunTimeout:
    print("timed out")
"""


def test_compiling_a_variants_own_numba_code_is_not_a_runs_time() -> None:
    assert _fresh(_OWN.format(patch="")) == "finished True"


def test_the_own_code_test_fails_when_nobody_watches_numba() -> None:
    assert _fresh(_OWN.format(patch="harness.watch = lambda: None")) == "timed out"
