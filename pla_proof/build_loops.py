"""The engine's compiled loops built ahead of time: what the package's build runs.

``python -m pla_proof.build_loops build DIR`` (``setup.py`` runs it) compiles the
loops' entry points (:data:`pla_proof.engine.aot.ENTRIES`) with numba's ahead-of-time
compiler into the extension module :data:`pla_proof.engine.aot.MODULE` and its index,
for the argument types a run gives them.  The types come from running the trainer and
the engine on a small corpus (:func:`corpus`: every stored dtype, selection rule,
arithmetic and monitoring mode, a cycle) with numba's just-in-time compiler and reading
back the signatures it compiled.

This module drives :func:`pla_proof.trainer.train` from above the engine; nothing the
package runs imports it.  Loading the built module at run time is
:mod:`pla_proof.engine.aot`'s job.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import time
from collections.abc import Generator, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from .data import Dataset, from_arrays, passes
from .engine import jit
from .engine.aot import ENTRIES, FAST_INDEX, INDEX, MODULE, cpu_flags, fast_index, sources_digest
from .engine.drive import drive, prepare
from .engine.measure import enclosure, float_measures, float_vector, replay_float_from
from .engine.rule import LinearRule
from .trainer import train

__all__ = ["REUSE", "build", "corpus", "main", "reusable"]


def _numba_key(t: Any) -> Any:
    """The index's key (:func:`pla_proof.engine.aot.key_of`) for one of numba's
    argument types."""
    from numba.core import types

    if isinstance(t, types.Array):
        return (np.dtype(str(t.dtype)).name, t.ndim, t.layout, not t.mutable, bool(t.aligned))
    if isinstance(t, types.Boolean):
        return "bool"
    return str(t)


def corpus() -> Iterator[str]:
    """Run the engine on small data covering every argument type a run gives the
    loops; yields a line per run (built with the just-in-time loops loaded).  The data
    passes take their compiled loops on small arrays too while it runs (they are left to
    numpy below :data:`~pla_proof.data.passes.COMPILED_MIN` values), so that the loops
    a large data set's preparation calls are built with the rest."""
    least = passes.COMPILED_MIN
    passes.COMPILED_MIN = 0
    try:
        yield from _runs()
    finally:
        passes.COMPILED_MIN = least


def _runs() -> Iterator[str]:
    rng = np.random.default_rng(0)
    n, d = 300, 8
    u = [1] + [0] * (d - 1)
    grids, y = yield from _grids(rng, n, d, u)
    gdata = yield from _floats(rng, n, d)
    yield from _measuring_helpers(grids, gdata, u, d)
    # integers beyond int32 (stored as float64) on a point the run never updates on
    Xw = rng.integers(-5, 6, size=(n, d))
    Xw[:, 0] = np.where(Xw[:, 0] >= 0, Xw[:, 0] + 1, Xw[:, 0])
    Xw = np.vstack([Xw, [[2**35] + [0] * (d - 1)]])
    yw = np.where(Xw[:, 0] > 0, 1, -1)
    wide = from_arrays(Xw, yw, name="wide")
    for mode in ("exact", "float"):
        train(wide, mode=mode, comparator=u, budget=10**5)
        yield f"wide {mode}"
    # decimals (a grid with a denominator)
    grid = Dataset.from_integers(rng.integers(1, 500, size=(n, d)) * y[:, None], 100, y)
    for mode in ("exact", "float"):
        train(grid, mode=mode, comparator="final", budget=10**5)
        yield f"decimals {mode}"
    # data with no separator: the loop finds a repeated state (a cycle)
    Xc = rng.integers(-3, 4, size=(n, d))
    yc = rng.choice([-1, 1], size=n)
    for mode in ("exact", "float"):
        train(from_arrays(Xc, yc, name="cycle"), mode=mode, comparator=None, budget=10**5)
        yield f"cycle {mode}"
    yield from _linear_rules((grids[-1], gdata, grid), n, d)


def _grids(
    rng: np.random.Generator, n: int, d: int, u: list[int]
) -> Generator[str, None, tuple[list[Dataset], np.ndarray]]:
    """Each dtype a grid is stored in; int32 with a vocabulary measured in int64 and
    beyond: every order, mode and comparator.  Returns the grids and the last labels."""
    comparators: tuple[Any, ...] = (u, None, "final")
    grids = []
    y = np.zeros(0)
    for scale, tag in ((5, "int8"), (3000, "int16"), (10**5, "int32"), (10**8, "int32 wide")):
        X = rng.integers(-scale, scale + 1, size=(n, d))
        X[:, 0] = np.where(X[:, 0] >= 0, X[:, 0] + 1, X[:, 0])
        y = np.where(X[:, 0] > 0, 1, -1)
        data = from_arrays(X, y, name=tag)
        grids.append(data)
        for rule in ("cyclic", "random", "maxviol", "first"):
            for mode in ("exact", "float"):
                for comp in comparators:
                    train(data, rule=rule, mode=mode, comparator=comp, budget=10**5)
                    yield f"{tag} {rule} {mode} {comp is not None}"
    return grids, y


def _floats(rng: np.random.Generator, n: int, d: int) -> Generator[str, None, Dataset]:
    """Gaussian floats: every order, mode and comparator.  Returns the data."""
    Xg = rng.normal(size=(n, d))
    yg = np.where(Xg[:, 0] > 0, 1, -1)
    gdata = from_arrays(Xg, yg, name="floats")
    for rule in ("cyclic", "random", "maxviol", "first"):
        for mode in ("exact", "float"):
            for comp in ([Fraction(1)] + [Fraction(0)] * (d - 1), None, "final"):
                train(gdata, rule=rule, mode=mode, comparator=comp, budget=10**5)
                yield f"floats {rule} {mode} {comp is not None}"
    return gdata


def _measuring_helpers(grids: list[Dataset], gdata: Dataset, u: list[int], d: int) -> Iterator[str]:
    """The measuring helpers other paths call on their own: the float weights replayed
    (a float run its monitor stopped, a small chunk of an exact run on floats), the
    enclosures of given weights (the per-step path's) and of given sums (a variant's)."""
    for dset in (*grids, gdata):
        for mode in ("float", "exact") if dset is gdata else ("float",):
            world = prepare(dset, mode=mode)
            picks = drive(dset, mode=mode, budget=50, world=world).choices
            W, E = replay_float_from(world, np.zeros(d), np.zeros(d), picks)
            if dset is gdata:
                Xf = np.ascontiguousarray(dset.as_float()[0], dtype=np.float64)
                uf, eu = float_vector(u)
                float_measures(Xf, dset.labels, picks[1:], 1, W[:-1], E[:-1], W[1:], E[1:], uf, eu)
            yield f"replayed {dset.name} {mode}"
    for drift in (np.ones(4), None):
        enclosure(np.ones(4), np.ones(4), drift, 4)


def _linear_rules(datasets: tuple[Dataset, ...], n: int, d: int) -> Iterator[str]:
    """The variants' linear rules: a learning rate, a margin, a start, per-point
    factors, strict triggers; sampled visits with an epoch cap (the pocket algorithm)."""
    rules = (
        LinearRule.make(eta="1/3", tau=2, w0=[1] * d, strict=True),
        LinearRule.make(
            factors=[1 + i % 3 for i in range(n)], strict=[i % 2 == 0 for i in range(n)]
        ),
    )
    for lin in rules:
        for dset in datasets:
            for mode in ("exact", "float"):
                drive(dset, lin, order="cyclic", mode=mode, budget=10**5)
                drive(dset, lin, sample=True, max_epochs=3, detect_cycles=False, mode=mode)
                yield f"rule {lin.describe()} {dset.name} {mode}"


def build(out_dir: Path) -> Path:
    """Compile :data:`ENTRIES` for the corpus' argument types into ``out_dir``
    (the extension module and its index); returns the module's path."""
    import tempfile
    import warnings

    os.environ.setdefault("NUMBA_CACHE_DIR", tempfile.mkdtemp(prefix="pla-proof-numba-"))
    jit.compile_all()
    for _line in corpus():
        pass
    warnings.simplefilter("ignore")
    pycc: Any = importlib.import_module("numba.pycc")  # numba is untyped
    _per_loop_options()

    cpu = os.environ.get("PLA_PROOF_AOT_CPU", "host")
    if cpu == "host":
        _host_features()
    cc = pycc.CC(MODULE.rsplit(".", 1)[1])
    cc.output_dir = str(out_dir)
    cc.target_cpu = cpu
    exports: dict[str, list[Any]] = {}
    for module, name in ENTRIES:
        fn = getattr(importlib.import_module(f"pla_proof.engine.{module}"), name)
        fn.py_func._pla_options = dict(fn.targetoptions)  # read by _per_loop_options
        rows = exports.setdefault(f"{module}.{name}", [])
        for i, sig in enumerate(fn.signatures):
            export = f"{name}__{i}"
            ret = fn.overloads[sig].signature.return_type
            cc.export(export, ret(*sig))(fn.py_func)
            rows.append([[_numba_key(t) for t in sig], export])
    cc.compile()
    flags = cpu_flags() if cpu == "host" else None
    index = {
        "sources": sources_digest(),
        "cpu": cc.target_cpu,
        "cpu_flags": sorted(flags) if flags else None,
        "exports": exports,
    }
    (out_dir / INDEX).write_text(json.dumps(index, indent=1) + "\n")
    (out_dir / FAST_INDEX).write_bytes(fast_index(index))  # the same, read faster
    from importlib.machinery import EXTENSION_SUFFIXES

    stem = MODULE.rsplit(".", 1)[1]
    (built,) = (p for p in out_dir.iterdir() if p.name in {stem + s for s in EXTENSION_SUFFIXES})
    return built


def _per_loop_options() -> None:
    """numba's ahead-of-time compiler compiles every export with one set of flags;
    give each loop its own options, as the just-in-time compiler does: ``fastmath``
    (the reassociated sums of :func:`pla_proof.engine.jit.jit_reassociating`: SIMD dot products) and
    ``nogil`` (the loop releases the GIL: a watchdog thread runs meanwhile)."""
    pycc: Any = importlib.import_module("numba.pycc.compiler")
    cpu_options: Any = importlib.import_module("numba.core.cpu_options")

    if getattr(pycc.compile_extra, "_pla_proof", False):
        return
    plain = pycc.compile_extra

    def compile_extra(typing: Any, target: Any, func: Any, *rest: Any, **kw: Any) -> Any:
        args, ret, flags = rest
        options = getattr(func, "_pla_options", {})
        flags = flags.copy()
        if options.get("fastmath"):
            flags.fastmath = cpu_options.FastMathOptions(options["fastmath"])
        flags.release_gil = bool(options.get("nogil"))
        return plain(typing, target, func, args, ret, flags, **kw)

    compile_extra._pla_proof = True  # type: ignore[attr-defined]
    pycc.compile_extra = compile_extra


def _host_features() -> None:
    """Built for ``host``, the loops get this processor's own feature set, as the
    just-in-time compiler gives them (numba's ahead-of-time compiler takes only the
    CPU model's default features)."""
    codegen: Any = importlib.import_module("numba.core.codegen")
    aot = codegen.AOTCPUCodegen
    if getattr(aot, "_pla_proof", False):
        return
    aot._customize_tm_features = lambda self: self._get_host_cpu_features()
    aot._pla_proof = True


#: A folder of loops already built (an editable install's ``pla_proof/engine``): when
#: they were built from these very sources for this processor and this Python, the
#: build copies them instead of compiling again (a cache, as ccache is for C).
REUSE = "PLA_PROOF_LOOPS_REUSE"


def reusable(folder: Path) -> list[Path] | None:
    """The module and its indexes in ``folder`` when they were built from this source
    tree's engine for this processor and Python (else ``None``): what :data:`REUSE`
    copies.

    >>> reusable(Path("/nonexistent")) is None
    True
    """
    from importlib.machinery import EXTENSION_SUFFIXES

    stem = MODULE.rsplit(".", 1)[1]
    try:
        index = json.loads((folder / INDEX).read_text())
    except (OSError, ValueError):
        return None
    flags = cpu_flags()
    if index.get("sources") != sources_digest() or index.get("cpu") != "host":
        return None
    if index.get("cpu_flags") != (sorted(flags) if flags else None):
        return None
    module = folder / (stem + EXTENSION_SUFFIXES[0])
    if not module.exists() or not (folder / FAST_INDEX).exists():
        return None
    return [module, folder / INDEX, folder / FAST_INDEX]


def main(argv: list[str]) -> int:
    """``python -m pla_proof.build_loops build DIR``: what the package's build runs."""
    if len(argv) != 2 or argv[0] != "build":
        print("usage: python -m pla_proof.build_loops build DIR", file=sys.stderr)
        return 2
    t0 = time.monotonic()
    reuse = os.environ.get(REUSE)
    found = reusable(Path(reuse)) if reuse else None
    if found is not None:
        import shutil

        for f in found:
            shutil.copy2(f, Path(argv[1]) / f.name)
        print(f"reused the loops built in {reuse} (same sources, processor and Python)")
        return 0
    path = build(Path(argv[1]))
    print(f"built {path} in {time.monotonic() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
