"""The loops compiled when the package was built: a fresh process runs them without
numba, they make numba's decisions, and a call they were not built for, or a module
built from other sources, goes to numba instead of running the wrong code."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np

from pla_proof.engine import aot


def _fresh(code: str, **env: str) -> str:
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_the_installed_package_was_built_with_its_loops() -> None:
    """`pip install` built them (setup.py); a stale or missing module says why."""
    status = _fresh("from pla_proof.engine import aot; print(aot.status())")
    assert status == "loaded", (
        f"the loops built ahead of time: {status} -- after editing pla_proof/engine/*.py, "
        "rebuild them: pip install -e . (or python -m pla_proof.build_loops build "
        "pla_proof/engine)"
    )


_RUNS = """
import sys
import numpy as np
from pla_proof import from_arrays, train
from pla_proof.engine import aot, jit
from pla_proof.engine.drive import drive
from pla_proof.engine.rule import LinearRule

rng = np.random.default_rng(SEED)
out = []
X = rng.integers(-9, 10, size=(400, 6)); X[:, 0] = np.where(X[:, 0] >= 0, X[:, 0] + 1, X[:, 0])
y = np.where(X[:, 0] > 0, 1, -1)
G = rng.normal(size=(400, 6)); g = np.where(G[:, 0] > 0.05, 1, -1)
for data, u in ((from_arrays(X, y), [1, 0, 0, 0, 0, 0]), (from_arrays(G, g), "final")):
    for rule in ("cyclic", "random", "maxviol"):
        for mode in ("exact", "float"):
            r = train(data, rule=rule, mode=mode, comparator=u, seed=3)
            out.append((r.status, r.choices, [str(v) for v in r.w]))
    lin = LinearRule.make(eta="1/2", tau=1, strict=True)
    dec = drive(data, lin, sample=True, max_epochs=2, detect_cycles=False, seed=5)
    out.append(dec.choices.tolist())
import os, tempfile
from pla_proof import load
path = os.path.join(tempfile.mkdtemp(), "points.csv")  # read from a file: writable arrays
head = ",".join([f"x{i}" for i in range(6)] + ["y"])
np.savetxt(path, np.column_stack([G, g]), delimiter=",", header=head, comments="")
r = train(load(path))
out.append((r.status, r.choices))
C = rng.integers(-2, 3, size=(300, 6)); c = rng.choice([-1, 1], size=300)
r = train(from_arrays(C, c), comparator=None)
out.append((r.status, len(r.choices)))
import hashlib
print(hashlib.sha256(repr(out).encode()).hexdigest()[:16], jit.loaded(),
      "numba" in sys.modules, sorted(set(aot.MISSES)))
"""


def test_a_fresh_process_runs_the_loops_without_numba() -> None:
    _digest, loaded, numba, misses = _fresh(_RUNS.replace("SEED", "0")).split(" ", 3)
    assert (loaded, numba, misses) == ("True", "False", "[]")


def test_the_loops_built_ahead_make_numbas_decisions() -> None:
    ahead = _fresh(_RUNS.replace("SEED", "0")).split()
    jit = _fresh(_RUNS.replace("SEED", "0"), PLA_PROOF_NO_AOT="1").split()
    assert ahead[2] == "False" and jit[2] == "True"  # each ran what it says
    assert ahead[0] == jit[0]


def test_the_comparison_sees_a_different_run() -> None:
    """The digest above is of the runs themselves: other data give another."""
    runs = [_fresh(_RUNS.replace("SEED", seed)).split()[0] for seed in "01"]
    assert runs[0] != runs[1]


def test_a_call_with_other_types_goes_to_numba() -> None:
    """A strided array (layout 'A') and an int32 array: the module was built for
    neither, so numba compiles the loop -- the same permutation as the compiled
    call on a contiguous int64 array, never the bytes read as the wrong type."""
    code = """
    import sys
    import numpy as np
    from pla_proof.engine import aot
    from pla_proof.engine.shuffle import fill_permutation
    a = np.empty(9, dtype=np.int64)
    fill_permutation(a, np.uint64(4), 2)
    before = "numba" in sys.modules
    b = np.empty(18, dtype=np.int64)[::2]
    fill_permutation(b, np.uint64(4), 2)
    c = np.empty(9, dtype=np.int32)
    fill_permutation(c, np.uint64(4), 2)
    print(before, "numba" in sys.modules, a.tolist() == b.tolist() == c.tolist(), aot.MISSES)
    """
    assert _fresh(code) == "False True True ['shuffle.fill_permutation']"


def test_keys_tell_layouts_dtypes_and_flags_apart() -> None:
    x = np.zeros((4, 3))
    ro = x.copy()
    ro.flags.writeable = False
    keys = {aot.key_of((a,)) for a in (x, x[:, ::2], x.T, ro, x.astype(np.float32))}
    assert len(keys) == 5
    assert aot.key_of((1, 2**63, 1.5, True, np.int8(3))) == (
        "int64",
        "big",
        "float64",
        "bool",
        "int8",
    )


def test_a_module_built_from_other_sources_is_not_used() -> None:
    code = """
    import sys
    from pla_proof.engine import aot
    aot.sources_digest = lambda folder=None: "0" * 64  # the engine was edited since
    from pla_proof import load, train
    r = train(load("orthonormal:40"), mode="float")
    print(aot.status(), r.status, "numba" in sys.modules)
    """
    assert _fresh(code) == "built from other sources converged True"


def test_it_can_be_switched_off() -> None:
    code = "from pla_proof.engine import aot; print(aot.status())"
    assert _fresh(code, PLA_PROOF_NO_AOT="1") == "switched off (PLA_PROOF_NO_AOT)"


def test_the_digest_covers_every_engine_source(tmp_path: object) -> None:
    from pathlib import Path

    folder = Path(str(tmp_path))
    for src in aot.HERE.glob("*.py"):
        (folder / src.name).write_bytes(src.read_bytes())
    assert aot.sources_digest(folder) == aot.sources_digest()
    kernel = folder / "kernel.py"
    kernel.write_text(kernel.read_text().replace("return CHUNK", "return CHUNK ", 1))
    assert aot.sources_digest(folder) != aot.sources_digest()


def test_the_commands_find_every_loop_they_call(tmp_path: object) -> None:
    """Once a long run loaded the loops, every later run takes them -- the property
    searches of `check` included: none of these calls goes to numba."""
    code = f"""
    import contextlib, io, sys
    import numpy as np
    from pla_proof.cli import main
    from pla_proof.engine import aot
    rng = np.random.default_rng(1)
    X = rng.integers(-50, 51, size=(2000, 12))
    X[:, 0] = np.where(X[:, 0] >= 0, X[:, 0] + 1, X[:, 0])
    G = rng.normal(size=(1500, 8))
    sets = (("ints", X, np.sign(X[:, 0])), ("floats", G, np.where(G[:, 0] > 0, 1, -1)))
    for name, A, y in sets:
        head = ",".join([f"x{{i}}" for i in range(A.shape[1])] + ["y"])
        np.savetxt(f"{tmp_path}/{{name}}.csv", np.column_stack([A, y]), delimiter=",",
                   header=head, comments="", fmt="%.17g")
    codes = []
    for args in (["trace", "ints.csv"], ["trace", "floats.csv", "--mode", "float"],
                 ["explain", "floats.csv"], ["bound", "ints.csv"],
                 ["check", "classic", "--jobs", "1"], ["check", "pocket", "--jobs", "1"]):
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            codes.append(main([args[0], f"{tmp_path}/" + args[1], *args[2:]]
                              if args[1].endswith(".csv") else args))
    print(codes, sorted(set(aot.MISSES)), "numba" in sys.modules)
    """
    assert _fresh(code) == "[0, 0, 0, 0, 0, 0] [] False"


def test_loops_built_for_another_cpu_are_not_run() -> None:
    """A wheel built on a newer processor: the loops need a feature this one lacks, so
    numba compiles them here instead (an illegal instruction would end the process)."""
    code = """
    import sys
    from pla_proof.engine import aot
    flags = aot.cpu_flags()
    built = set(__import__("json").loads((aot.HERE / aot.INDEX).read_text())["cpu_flags"])
    aot.cpu_flags = lambda: flags - {sorted(built)[0]}  # this CPU lacks one of them
    from pla_proof import load, train
    r = train(load("orthonormal:40"), mode="float")
    print(aot.status().startswith("built for another CPU (this one lacks"), r.status,
          "numba" in sys.modules)
    """
    assert _fresh(code) == "True converged True"


def test_the_same_cpu_runs_them() -> None:
    code = """
    from pla_proof.engine import aot
    built = __import__("json").loads((aot.HERE / aot.INDEX).read_text())["cpu_flags"]
    print(bool(built), set(built) <= aot.cpu_flags(), aot.status())
    """
    assert _fresh(code) == "True True loaded"


def test_an_index_that_does_not_match_the_module_is_not_used(tmp_path: object) -> None:
    """An index naming a function the module lacks: nothing is taken from the module,
    the run goes to numba, nothing raises."""
    code = f"""
    import json, shutil, sys
    from pathlib import Path
    from pla_proof.engine import aot
    index = json.loads((aot.HERE / aot.INDEX).read_text())
    index["exports"]["kernel.advance"][0][1] = "no_such_loop"
    Path("{tmp_path}", aot.INDEX).write_text(json.dumps(index))
    aot.HERE = Path("{tmp_path}")
    aot.sources_digest = lambda folder=None: index["sources"]
    from pla_proof import load, train
    r = train(load("orthonormal:40"), mode="float")
    print(aot.status().startswith("its index does not match the module (AttributeError"),
          r.status, "numba" in sys.modules)
    """
    assert _fresh(code) == "True converged True"


def test_a_large_data_sets_preparation_runs_the_loops_without_numba() -> None:
    """The data passes (row norms, radius, margins) take their compiled loops on data
    sets of ``COMPILED_MIN`` values or more: those loops are built ahead too, so the
    first ``train`` on a large data set loads no numba (each stored dtype, and floats)."""
    code = """
    import sys
    from fractions import Fraction
    import numpy as np
    from pla_proof import from_arrays, train
    from pla_proof.data import passes
    from pla_proof.engine import aot
    rng = np.random.default_rng(0)
    n, d = 4000, 20
    assert n * d >= passes.COMPILED_MIN
    out = []
    for scale in (5, 3000, 10**5, 10**8):
        X = rng.integers(-scale, scale + 1, size=(n, d))
        X[:, 0] = np.where(X[:, 0] >= 0, X[:, 0] + 1, X[:, 0])
        data = from_arrays(X, np.where(X[:, 0] > 0, 1, -1))
        # 100 updates reach every stored width's loops (at scale 1e8 the weights' squared
        # norm is past int64 already); the loops, not the run's length, are the point
        train(data, comparator=[1] + [0] * (d - 1), budget=100)
        out.append(data.values.dtype.name)
    G = rng.normal(size=(n, d))
    G[:, 0] += np.where(G[:, 0] >= 0, 0.5, -0.5)
    u = [Fraction(1)] + [Fraction(0)] * (d - 1)
    train(from_arrays(G, np.where(G[:, 0] > 0, 1, -1)), comparator=u, budget=100)
    print(out, sorted(set(aot.MISSES)), "numba" in sys.modules)
    """
    runs, rest = _fresh(code).split("] ", 1)
    assert rest == "[] False", (runs, rest)
    assert runs == "['int8', 'int16', 'int32', 'int32'", runs
