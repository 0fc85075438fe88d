"""The compiled loops built ahead of time, when the package is built.

numba compiles the engine's loops on their first call and caches them on disk; loading
them in a fresh process still costs numba's import (about 0.15 s), SciPy's BLAS bindings
and the cached code's linking (0.4-0.7 s in all).  So the package's build also compiles
the loops' entry points (the functions called from Python) for the argument types a
run gives them into one extension module, ``pla_proof.engine._loops``, with numba's
ahead-of-time compiler -- the same Python source compiled by the same compiler.  A
fresh process imports that module in a few milliseconds and numba not at all.

The module is used only when it was built from the engine's current source (the
SHA-256 of ``pla_proof/engine/*.py`` is recorded beside it), on a processor with every
feature of the one it was built for (Linux's ``/proc/cpuinfo`` flags; elsewhere that
is not checked), and only for calls whose
argument types it was built for (dtype, dimensions, layout, read-only flag of every
array -- a writable array may also take a loop built for a read-only one; the scalars'
types): any other call loads numba and the just-in-time compiled
loops as before, for the rest of the process.  ``PLA_PROOF_NO_AOT=1`` turns it off.

The types come from running the engine on a small corpus (:func:`corpus`: every
stored dtype, selection rule, arithmetic and monitoring mode, a cycle) with numba's
just-in-time compiler and reading back the signatures it compiled.

>>> key_of((np.zeros((2, 3), dtype=np.int8), 3, 0.5, np.uint64(7)))
(('int8', 2, 'C', False, True), 'int64', 'float64', 'uint64')
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["ENTRIES", "MODULE", "build", "corpus", "find", "key_of", "sources_digest"]

#: The compiled loops called from Python: (module of pla_proof.engine, function).
ENTRIES: tuple[tuple[str, str], ...] = (
    ("kernel", "advance"),
    ("kernel", "rehash"),
    ("kernel", "visits_under"),
    ("kernel", "remember_also"),
    ("measure", "_grid_vocabulary"),
    ("measure", "residue_vocabulary"),
    ("measure", "replay_float"),
    ("measure", "given_vocabulary"),
    ("measure", "_enclose"),
    ("measure", "float_vocabulary"),
    ("evaluate", "enclosure_sides"),
    ("evaluate", "enclosure_verdicts"),
    ("evaluate", "residue_differences"),
    ("shuffle", "fill_permutation"),
    ("shuffle", "sample"),
)

#: The extension module's name, and the index of its functions beside it.
MODULE = "pla_proof.engine._loops"
INDEX = "_loops.json"
HERE = Path(__file__).resolve().parent

Key = tuple[Any, ...]


def sources_digest(folder: Path = HERE) -> str:
    """SHA-256 of the engine's source files (the loops and every constant they read).

    >>> len(sources_digest())
    64
    """
    h = hashlib.sha256()
    for path in sorted(folder.glob("*.py")):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()


_NAMES: dict[Any, str] = {}  # dtype -> its name (``dtype.name`` is slow: 2 µs)


def _dtype_name(dt: Any) -> str:
    name = _NAMES.get(dt)
    if name is None:
        name = _NAMES[dt] = dt.name if dt.isnative else "non-native"
    return name


def _arg_key(a: Any) -> Any:
    t = type(a)
    if t is np.ndarray or isinstance(a, np.ndarray):
        f = a.flags
        layout = "C" if f.c_contiguous else ("F" if f.f_contiguous else "A")
        return (_dtype_name(a.dtype), a.ndim, layout, not f.writeable, bool(f.aligned))
    if t is bool:
        return "bool"
    if t is int:
        return "int64" if -(2**63) <= a < 2**63 else "big"
    if t is float:
        return "float64"
    if isinstance(a, np.generic):
        return _dtype_name(a.dtype)
    return t.__name__


def key_of(args: tuple[Any, ...]) -> Key:
    """The types of a call's arguments, as the index records them."""
    return tuple(_arg_key(a) for a in args)


def _numba_key(t: Any) -> Any:
    """The same key for one of numba's argument types (at build time)."""
    from numba.core import types

    if isinstance(t, types.Array):
        return (np.dtype(str(t.dtype)).name, t.ndim, t.layout, not t.mutable, bool(t.aligned))
    if isinstance(t, types.Boolean):
        return "bool"
    return str(t)


_TABLE: dict[str, dict[Key, Callable[..., Any]]] | None = None
_STATE: dict[str, Any] = {"seconds": 0.0, "reason": "not looked for yet"}
#: Loops (``module.function``) called with argument types the module was not built
#: for, or not built at all (numba took them).
MISSES: list[str] = []


def _load() -> dict[str, dict[Key, Callable[..., Any]]]:
    global _TABLE
    t0 = time.monotonic()
    table: dict[str, dict[Key, Callable[..., Any]]] = {}
    _TABLE = table
    if os.environ.get("PLA_PROOF_NO_AOT", "") not in ("", "0"):
        _STATE["reason"] = "switched off (PLA_PROOF_NO_AOT)"
        return table
    try:
        index = json.loads((HERE / INDEX).read_text())
    except (OSError, ValueError):
        _STATE["reason"] = "not built"
        return table
    if index.get("sources") != sources_digest():
        _STATE["reason"] = "built from other sources"
        return table
    built_for = index.get("cpu_flags")
    here = _cpu_flags()
    if built_for and here is not None and not set(built_for) <= here:
        missing = ", ".join(sorted(set(built_for) - here)[:5])
        _STATE["reason"] = f"built for another CPU (this one lacks {missing})"
        return table
    try:
        module = importlib.import_module(MODULE)
    except ImportError as exc:
        _STATE["reason"] = f"cannot be imported: {exc}"
        return table
    try:
        loops = {
            name: {_tuple(key): getattr(module, export) for key, export in rows}
            for name, rows in index["exports"].items()
        }
    except (KeyError, AttributeError, TypeError, ValueError) as exc:
        _STATE["reason"] = f"its index does not match the module ({type(exc).__name__}: {exc})"
        return table
    table.update(loops)
    _STATE["reason"] = "loaded"
    _STATE["seconds"] = time.monotonic() - t0
    return table


def _cpu_flags() -> set[str] | None:
    """The processor's feature flags as Linux lists them (``/proc/cpuinfo``), or None
    elsewhere: loops built for this machine's CPU (``host``) are not run on a CPU that
    lacks one of the build machine's features (an illegal instruction would end the
    process)."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith(("flags", "Features")):
                    return set(line.partition(":")[2].split())
    except OSError:
        return None
    return None


def _tuple(v: Any) -> Any:
    return tuple(_tuple(x) for x in v) if isinstance(v, list) else v


def find(name: str, args: tuple[Any, ...]) -> Callable[..., Any] | None:
    """The ahead-of-time compiled ``name`` (``module.function``, the module in
    :mod:`pla_proof.engine`) for these arguments' types, or None."""
    table = _TABLE if _TABLE is not None else _load()
    fns = table.get(name)
    if not fns:
        return None
    key = key_of(args)
    found = fns.get(key)
    if found is None:
        # a writable array may go where the loop was built for a read-only one (that
        # code never writes to it); never the other way round
        for built, fn in list(fns.items()):
            if len(built) == len(key) and all(map(_fits, key, built)):
                found = fns[key] = fn
                break
    return found


def _fits(arg: Any, built: Any) -> bool:
    """Can an argument of type ``arg`` be passed where the loop was built for ``built``?

    >>> _fits(("int8", 2, "C", False, True), ("int8", 2, "C", True, True))
    True
    >>> _fits(("int8", 2, "C", True, True), ("int8", 2, "C", False, True))
    False
    """
    if arg == built:
        return True
    return (
        isinstance(arg, tuple)
        and isinstance(built, tuple)
        and arg[:3] == built[:3]
        and arg[4] == built[4]
        and not arg[3]
        and built[3]
    )


def status() -> str:
    """Why the ahead-of-time loops are (not) used: 'loaded', 'not built', ...

    >>> isinstance(status(), str)
    True
    """
    if _TABLE is None:
        _load()
    return str(_STATE["reason"])


def load_seconds() -> float:
    """Seconds spent importing the ahead-of-time compiled module."""
    return float(_STATE["seconds"])


# -- building -----------------------------------------------------------------------


def corpus() -> Iterator[str]:
    """Run the engine on small data covering every argument type a run gives the
    loops; yields a line per run (built with the just-in-time loops loaded)."""
    from fractions import Fraction

    from ..data import Dataset, from_arrays
    from ..trainer import train
    from .drive import drive, prepare
    from .rule import LinearRule

    rng = np.random.default_rng(0)
    n, d = 300, 8
    u = [1] + [0] * (d - 1)
    comparators: tuple[Any, ...] = (u, None, "final")
    grids = []
    # each dtype a grid is stored in; int32 with a vocabulary measured in int64 and beyond
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
    Xg = rng.normal(size=(n, d))
    yg = np.where(Xg[:, 0] > 0, 1, -1)
    gdata = from_arrays(Xg, yg, name="floats")
    for rule in ("cyclic", "random", "maxviol", "first"):
        for mode in ("exact", "float"):
            for comp in ([Fraction(1)] + [Fraction(0)] * (d - 1), None, "final"):
                train(gdata, rule=rule, mode=mode, comparator=comp, budget=10**5)
                yield f"floats {rule} {mode} {comp is not None}"
    # the measuring helpers other paths call on their own: the float weights replayed (a
    # float run its monitor stopped, a small chunk of an exact run on floats), the
    # enclosures of given weights (the per-step path's) and of given sums (a variant's)
    from .measure import enclosure, float_measures, float_vector, replay_float_from

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
    # the variants' linear rules: a learning rate, a margin, a start, per-point factors,
    # strict triggers; sampled visits with an epoch cap (the pocket algorithm)
    rules = (
        LinearRule.make(eta="1/3", tau=2, w0=[1] * d, strict=True),
        LinearRule.make(
            factors=[1 + i % 3 for i in range(n)], strict=[i % 2 == 0 for i in range(n)]
        ),
    )
    for lin in rules:
        for dset in (data, gdata, grid):
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
    from . import _jit

    _jit._activate()
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
        fn = getattr(importlib.import_module(f"{__package__}.{module}"), name)
        fn.py_func._pla_options = dict(fn.targetoptions)  # read by _per_loop_options
        rows = exports.setdefault(f"{module}.{name}", [])
        for i, sig in enumerate(fn.signatures):
            export = f"{name}__{i}"
            ret = fn.overloads[sig].signature.return_type
            cc.export(export, ret(*sig))(fn.py_func)
            rows.append([[_numba_key(t) for t in sig], export])
    cc.compile()
    flags = _cpu_flags() if cpu == "host" else None
    index = {
        "sources": sources_digest(),
        "cpu": cc.target_cpu,
        "cpu_flags": sorted(flags) if flags else None,
        "exports": exports,
    }
    (out_dir / INDEX).write_text(json.dumps(index, indent=1) + "\n")
    from importlib.machinery import EXTENSION_SUFFIXES

    stem = MODULE.rsplit(".", 1)[1]
    (built,) = (p for p in out_dir.iterdir() if p.name in {stem + s for s in EXTENSION_SUFFIXES})
    return built


def _per_loop_options() -> None:
    """numba's ahead-of-time compiler compiles every export with one set of flags;
    give each loop its own options, as the just-in-time compiler does: ``fastmath``
    (the reassociated sums of :func:`._jit.jit_reassociating`: SIMD dot products) and
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


def main(argv: list[str]) -> int:
    """``python -m pla_proof.engine._aot build DIR``: what the package's build runs."""
    if len(argv) != 2 or argv[0] != "build":
        print("usage: python -m pla_proof.engine._aot build DIR", file=sys.stderr)
        return 2
    t0 = time.monotonic()
    path = build(Path(argv[1]))
    print(f"built {path} in {time.monotonic() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
