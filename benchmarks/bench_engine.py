"""The engine beside scikit-learn, on the same data and the same cyclic trajectory.

For each data set the Perceptron is run to convergence by pla_proof (exact and
monitored, exact and unmonitored, float64 monitored and unmonitored) and by
scikit-learn's ``Perceptron(shuffle=False, tol=None, fit_intercept=False, eta0=1)``
for exactly the number of epochs the cyclic run needs (scikit-learn's cyclic SGD
makes the same updates; the script checks that it returns the same weights).  All
timings are taken in one process, interleaved, the median of ``--repeat`` runs;
the machine is shared, so read the ratios to scikit-learn.

Run::

    python benchmarks/bench_engine.py                 # every case
    python benchmarks/bench_engine.py --case int-10k  # one case
    python benchmarks/bench_engine.py --repeat 5

Cases: ``int-10k`` (10,000 x 20 integers in [-100, 100], about 500 epochs),
``int-200k`` (200,000 x 200, a few epochs), ``gauss-5k`` (5,000 x 20 standard
normal floats, about 130 epochs), ``decimal-10k`` (10,000 x 20 two-decimal values,
read exactly as hundredths).

Two more columns: **the floor** -- a plain numba-compiled float64 cyclic loop with no
monitoring and no exact decisions (``y w.x <= 0 -> w += y x`` until an epoch without an
update), on the same data, making the same updates (checked); and **cold** -- the
first ``train()`` of a fresh process (``python -c``, the data from an ``.npz``) minus a
warm ``train()`` of the same arrays in that process, read into a new ``Dataset``: what
loading the compiled loops costs a run (target: at most 0.10 s).  A ``Dataset`` caches
what it computes about its points (the radius, the per-row norms, the smallest dtype),
so a second ``train()`` of the *same* object is faster again; that run is shown too.
The loops come from the extension module ``pip install`` built (``aot.status()`` is
printed); ``PLA_PROOF_NO_AOT=1 python benchmarks/bench_engine.py`` measures numba's
cached just-in-time loops instead.

**End to end** (``--end-to-end``, or ``--case csv``): a user's time, from the arrays to
the result -- ``from_arrays(X, y)`` then ``train(data, comparator=u)`` (exact and
monitored) against scikit-learn's ``fit(X, y)`` on the same integer or float arrays
(it converts them itself) and against the compiled float floor given the same arrays
(``X.astype(float64)`` then the loop).  Warm: one process, interleaved, the median of
``--repeat``.  First call: a fresh process each, the import timed apart (pla_proof's,
with the engine modules a first run imports, against ``sklearn.linear_model``'s); the
first call's figure includes loading the compiled loops.  On ``int-200k`` also the
peak resident memory of a fresh process that loads the arrays and runs end to end,
against the arrays' own size.  The ``csv`` case:
``pla-proof trace data.csv`` (default options) and with ``--comparator u`` on the int-200k
points written as a CSV file (200,000 x 201 integers, 137 MB), a whole process each,
against a whole process that imports pandas and scikit-learn, reads the file with
``pandas.read_csv`` and fits (pandas only here).  By default trace checks the run
against its own final w on data this large (the exact optimal u* is computed by default
only up to 4,000,000 values: an exact optimisation far beyond a fit on data this large,
docs/engine.md); ``--comparator u`` monitors every update against the generating u.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from pla_proof import Dataset, from_arrays, train


@dataclass
class Case:
    name: str
    X: np.ndarray
    y: np.ndarray
    u: list[Any]
    note: str


def int_case(n: int, d: int, threshold: int, seed: int, name: str) -> Case:
    """Integer points in [-100, 100]^d labelled by an integer u, kept off its plane."""
    rng = np.random.default_rng(seed)
    u = rng.integers(-5, 6, size=d)
    u[u == 0] = 1
    X = rng.integers(-100, 101, size=(int(n * 2.5), d))
    s = X @ u
    keep = np.abs(s) >= threshold
    X, s = X[keep][:n], s[keep][:n]
    return Case(name, X, np.where(s > 0, 1, -1), [int(v) for v in u], f"|u.x| >= {threshold}")


def gauss_case(n: int, d: int, delta: float, seed: int) -> Case:
    rng = np.random.default_rng(seed)
    u = rng.standard_normal(d)
    X = rng.standard_normal((int(n * 1.5), d))
    s = X @ u
    keep = np.abs(s) > delta * np.linalg.norm(u)
    X, s = X[keep][:n], s[keep][:n]
    return Case("gauss-5k", X, np.where(s > 0, 1, -1), [float(v) for v in u], f"margin > {delta}")


def decimal_case(seed: int) -> Case:
    base = int_case(10_000, 20, 9, seed, "decimal-10k")
    return Case("decimal-10k", base.X, base.y, base.u, "the int-10k points / 100, as decimals")


CASES: dict[str, Callable[[], Case]] = {
    "int-10k": lambda: int_case(10_000, 20, 9, 1, "int-10k"),
    "int-200k": lambda: int_case(200_000, 200, 1000, 1, "int-200k"),
    "gauss-5k": lambda: gauss_case(5_000, 20, 0.015, 2),
    "decimal-10k": lambda: decimal_case(1),
}


def dataset_of(case: Case) -> Dataset:
    if case.name == "decimal-10k":
        return Dataset.from_integers(case.X, 100, case.y, name=case.name)
    return from_arrays(case.X, case.y, name=case.name)


def sklearn_fit(X: np.ndarray, y: np.ndarray, epochs: int) -> np.ndarray:
    from sklearn.linear_model import Perceptron

    clf = Perceptron(
        shuffle=False, tol=None, fit_intercept=False, eta0=1.0, max_iter=epochs, alpha=0.0
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf.fit(X, y)
    out: np.ndarray = clf.coef_[0]
    return out


_FLOOR: Any = None


def floor_fit(X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, int]:
    """The compiled float floor: the cyclic Perceptron in float64, nothing else."""
    global _FLOOR
    if _FLOOR is None:
        from numba import njit

        @njit(cache=True)
        def loop(X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, int]:  # pragma: no cover
            n, d = X.shape
            w = np.zeros(d)
            k = 0
            quiet = 0
            i = 0
            while quiet < n:
                s = 0.0
                for c in range(d):
                    s += X[i, c] * w[c]
                if y[i] * s <= 0.0:
                    for c in range(d):
                        w[c] += y[i] * X[i, c]
                    k += 1
                    quiet = 0
                else:
                    quiet += 1
                i = i + 1 if i + 1 < n else 0
            return w, k

        _FLOOR = loop
    out: tuple[np.ndarray, int] = _FLOOR(X, y.astype(np.float64))
    return out


_COLD = """
import sys, time
import numpy as np
from pla_proof import Dataset, from_arrays, train
z = np.load(sys.argv[1])
X, y, u = z["X"], z["y"], [int(v) if float(v).is_integer() else float(v) for v in z["u"]]
def read():
    if sys.argv[2] == "decimal":
        return Dataset.from_integers(X, 100, y, name="d")
    return from_arrays(X, y, name="d")
if any(isinstance(v, float) for v in u):
    from fractions import Fraction
    u = [Fraction(v) for v in u]
data = read()
t = time.perf_counter(); train(data, comparator=u, budget=10**8); cold = time.perf_counter() - t
t = time.perf_counter(); train(data, comparator=u, budget=10**8); same = time.perf_counter() - t
data = read()
t = time.perf_counter(); train(data, comparator=u, budget=10**8); warm = time.perf_counter() - t
print(cold, warm, same)
"""


def cold_minus_warm(case: Case, repeat: int) -> tuple[float, float, float]:
    """Medians of (first run, a warm run of a new Dataset of the same arrays, a second
    run of the same Dataset) of ``train()`` in fresh processes."""
    import os
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "case.npz")
        np.savez(path, X=case.X, y=case.y, u=np.array(case.u, dtype=float))
        kind = "decimal" if case.name == "decimal-10k" else "plain"
        pairs = []
        for _ in range(repeat):
            out = subprocess.run(
                [sys.executable, "-c", _COLD, path, kind], capture_output=True, text=True
            )
            cold, warm, same = (float(v) for v in out.stdout.split())
            pairs.append((cold, warm, same))
    return tuple(statistics.median(p[i] for p in pairs) for i in range(3))  # type: ignore[return-value]


def median_time(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def run_case(case: Case, repeat: int) -> None:
    t0 = time.perf_counter()
    data = dataset_of(case)
    load_s = time.perf_counter() - t0
    Xf = case.X / 100.0 if case.name == "decimal-10k" else case.X.astype(np.float64)
    probe = train(data, comparator=None, budget=10**8)
    epochs = int(probe.visits[-1]) // data.n + 1 if probe.updates else 1
    print(
        f"\n{case.name}: n={data.n}, d={data.d} ({data.kind}, {case.note}); cyclic run: "
        f"{probe.status}, {probe.updates} updates, {epochs} epochs; built in {load_s:.2f} s"
    )
    u = case.u
    if case.name == "gauss-5k":
        u = [Fraction(v) for v in u]
    configs: dict[str, Callable[[], Any]] = {
        "scikit-learn": lambda: sklearn_fit(Xf, case.y, epochs),
        "compiled floor": lambda: floor_fit(Xf, case.y),
        "exact, monitored": lambda: train(data, comparator=u, budget=10**8),
        "exact, unmonitored": lambda: train(data, comparator=None, budget=10**8),
        "float, monitored": lambda: train(data, comparator=u, mode="float", budget=10**8),
        "float, unmonitored": lambda: train(data, comparator=None, mode="float", budget=10**8),
    }
    results: dict[str, list[float]] = {k: [] for k in configs}
    outs: dict[str, Any] = {}
    for _ in range(repeat):  # interleaved, so drift of the machine hits all alike
        for name, fn in configs.items():
            sec, out = median_time(fn, 1)
            results[name].append(sec)
            outs[name] = out
    base = statistics.median(results["scikit-learn"])
    floor = statistics.median(results["compiled floor"])
    print(f"  {'configuration':22} {'median s':>9} {'x sklearn':>10} {'x floor':>8}  outcome")
    for name, secs in results.items():
        sec = statistics.median(secs)
        out = outs[name]
        if name == "scikit-learn":
            what = ""
        elif name == "compiled floor":
            what = f"{out[1]} updates"
        else:
            what = f"{out.status}, {out.updates} updates"
        if name.startswith("exact") and out.violation is not None:
            what += f", VIOLATION {out.violation.lemma}"
        print(f"  {name:22} {sec:9.3f} {sec / base:10.2f} {sec / floor:8.2f}  {what}")
    w_sk = outs["scikit-learn"]
    # scikit-learn's trajectory is the float one; on integer data it is also the exact one
    ref = "exact, unmonitored" if data.kind == "grid" and data.scale == 1 else "float, unmonitored"
    w_ref = np.array([float(v) for v in outs[ref].w])
    same = bool(np.array_equal(w_sk, w_ref))
    print(f"  scikit-learn's weights equal the {ref.split(',')[0]} run's: {same}")
    same_floor = outs["compiled floor"][1] == outs["float, unmonitored"].updates
    print(f"  the floor makes as many updates as the float run: {same_floor}")
    cold, warm, again = cold_minus_warm(case, repeat)
    print(
        f"  cold (fresh process, exact monitored): first train() {cold:.3f} s, warm on a new "
        f"Dataset {warm:.3f} s: +{cold - warm:.3f} s (target +0.10 s); the same Dataset "
        f"again {again:.3f} s"
    )


_FIRST = """
import sys, time, warnings
import numpy as np
z = np.load(sys.argv[1])
X, y, u = z["X"], z["y"], [int(v) if float(v).is_integer() else float(v) for v in z["u"]]
epochs = int(z["epochs"])
who = sys.argv[2]
t = time.perf_counter()
if who == "pla":
    from fractions import Fraction
    from pla_proof import from_arrays, train
    # the modules a first run imports (the package imports them on first use)
    import pla_proof.engine.chunks, pla_proof.engine.drive, pla_proof.engine.pyloop
    if any(isinstance(v, float) for v in u):
        u = [Fraction(v) for v in u]
elif who == "sklearn":
    from sklearn.linear_model import Perceptron
    warnings.simplefilter("ignore")
imported = time.perf_counter() - t
def vm(key):  # this process' own figures (getrusage's maxrss includes the parent's)
    with open("/proc/self/status") as fh:
        return next(int(l.split()[1]) * 1024 for l in fh if l.startswith(key))
base = vm("VmRSS:")
def call():
    if who == "pla":
        return train(from_arrays(X, y), comparator=u, budget=10**8).status
    clf = Perceptron(shuffle=False, tol=None, fit_intercept=False, eta0=1.0, max_iter=epochs,
                     alpha=0.0)
    return clf.fit(X, y)
t = time.perf_counter(); call(); first = time.perf_counter() - t
t = time.perf_counter(); call(); second = time.perf_counter() - t
print(imported, first, second, vm("VmHWM:"), X.nbytes + y.nbytes, base)
"""


def first_calls(case: Case, epochs: int, repeat: int) -> dict[str, tuple[float, ...]]:
    """Per library, medians over fresh processes of (import, first call, second call,
    peak resident bytes, input bytes, resident bytes before the first call)."""
    import os
    import subprocess
    import tempfile

    out: dict[str, tuple[float, ...]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "case.npz")
        np.savez(path, X=case.X, y=case.y, u=np.array(case.u, dtype=float), epochs=epochs)
        for who in ("pla", "sklearn"):
            rows = []
            for _ in range(repeat):
                done = subprocess.run(
                    [sys.executable, "-c", _FIRST, path, who], capture_output=True, text=True
                )
                rows.append(tuple(float(v) for v in done.stdout.split()))
            out[who] = tuple(statistics.median(r[i] for r in rows) for i in range(6))
    return out


def end_to_end(case: Case, repeat: int) -> None:
    """Arrays in, result out: pla_proof, scikit-learn and the floor on the same arrays."""
    data = from_arrays(case.X, case.y, name=case.name)
    probe = train(data, comparator=None, budget=10**8)
    epochs = int(probe.visits[-1]) // data.n + 1 if probe.updates else 1
    u = case.u
    if case.name == "gauss-5k":
        u = [Fraction(v) for v in u]
    X, y = case.X, case.y
    configs: dict[str, Callable[[], Any]] = {
        "scikit-learn": lambda: sklearn_fit(X, y, epochs),
        "compiled floor": lambda: floor_fit(X.astype(np.float64), y),
        "pla_proof exact, monitored": lambda: train(from_arrays(X, y), comparator=u, budget=10**8),
    }
    results: dict[str, list[float]] = {k: [] for k in configs}
    for _ in range(repeat):
        for name, fn in configs.items():
            sec, _ = median_time(fn, 1)
            results[name].append(sec)
    base = statistics.median(results["scikit-learn"])
    floor = statistics.median(results["compiled floor"])
    print(f"  end to end, warm (arrays in, result out; {X.dtype} arrays handed to each):")
    for name, secs in results.items():
        sec = statistics.median(secs)
        print(f"    {name:28} {sec:8.3f} s {sec / base:6.2f}x sklearn {sec / floor:6.2f}x floor")
    first = first_calls(case, epochs, repeat)
    (pi, pf, ps, pm, nb, pb), (si, sf, ss, sm, _, sb) = first["pla"], first["sklearn"]
    print(
        f"  end to end, first call in a fresh process: pla_proof {pf:.3f} s, scikit-learn "
        f"{sf:.3f} s ({pf / sf:.2f}x; second calls {ps:.3f} s and {ss:.3f} s); imports: "
        f"pla_proof {pi:.3f} s, sklearn.linear_model {si:.3f} s ({pi - si:+.3f} s)"
    )
    if case.name == "int-200k":
        print(
            f"  peak resident memory (fresh process, arrays loaded, two end-to-end runs): "
            f"pla_proof {pm / 2**20:.0f} MiB, scikit-learn {sm / 2**20:.0f} MiB; the input "
            f"arrays {nb / 2**20:.0f} MiB: {pm / nb:.2f}x and {sm / nb:.2f}x (before the "
            f"first call, arrays and imports: {pb / 2**20:.0f} and {sb / 2**20:.0f} MiB; "
            f"the runs added {(pm - pb) / 2**20:.0f} and {(sm - sb) / 2**20:.0f} MiB)"
        )


_PANDAS = """
import sys, warnings
import pandas as pd
from sklearn.linear_model import Perceptron
warnings.simplefilter("ignore")
df = pd.read_csv(sys.argv[1], header=None)
X, y = df.iloc[:, :-1].to_numpy(), df.iloc[:, -1].to_numpy()
Perceptron(shuffle=False, tol=None, fit_intercept=False, eta0=1.0, max_iter=int(sys.argv[2]),
           alpha=0.0).fit(X, y)
"""


def csv_case(repeat: int) -> None:
    """``pla-proof trace data.csv`` against pandas.read_csv + scikit-learn's fit, each a
    whole process, on the int-200k points as a CSV file."""
    import os
    import subprocess
    import tempfile

    case = CASES["int-200k"]()
    data = from_arrays(case.X, case.y)
    probe = train(data, comparator=None, budget=10**8)
    epochs = int(probe.visits[-1]) // data.n + 1
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "int200k.csv")
        np.savetxt(path, np.hstack([case.X, case.y[:, None]]), fmt="%d", delimiter=",")
        size = os.path.getsize(path)
        upath = os.path.join(tmp, "u.txt")
        with open(upath, "w") as fh:
            fh.write(",".join(str(v) for v in case.u) + "\n")
        argvs = {
            "pla-proof trace data.csv": [sys.executable, "-m", "pla_proof", "trace", path],
            "pla-proof trace data.csv --comparator u": [
                sys.executable,
                "-m",
                "pla_proof",
                "trace",
                path,
                "--comparator",
                upath,
            ],
            "pandas.read_csv + sklearn fit": [sys.executable, "-c", _PANDAS, path, str(epochs)],
        }
        times: dict[str, list[float]] = {k: [] for k in argvs}
        for _ in range(repeat):
            for name, argv in argvs.items():
                t = time.perf_counter()
                done = subprocess.run(argv, capture_output=True, text=True)
                times[name].append(time.perf_counter() - t)
                if done.returncode != 0:
                    print(f"  {name} failed: {done.stderr.strip()[-300:]}")
                elif name == "pla-proof trace data.csv" and len(times[name]) == 1:
                    print("  " + done.stdout.splitlines()[1])  # the comparator it chose, and why
    print(
        f"\ncsv: {case.X.shape[0]:,} x {case.X.shape[1] + 1} integers, {size / 1e6:.0f} MB, "
        f"{epochs} epochs (whole processes, median of {repeat})"
    )
    base = statistics.median(times["pandas.read_csv + sklearn fit"])
    for name, secs in times.items():
        sec = statistics.median(secs)
        print(f"  {name:40} {sec:7.2f} s {sec / base:6.2f}x (target 1.5x)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--case", choices=[*CASES, "csv"], action="append")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument(
        "--end-to-end", action="store_true", help="only the end-to-end figures (and csv)"
    )
    args = ap.parse_args()
    from pla_proof.engine import aot

    print(
        f"python {sys.version.split()[0]}, numpy {np.__version__}; the loops built ahead of "
        f"time: {aot.status()}"
    )
    # compile the loops once (numba caches them on disk; a first run pays ~10-20 s); the
    # data are large enough for the compiled loop (small data take the per-step path)
    warm = int_case(2_000, 20, 9, 3, "warm-up")
    train(dataset_of(warm), comparator=None)
    train(dataset_of(warm), comparator=warm.u)
    train(dataset_of(warm), comparator=warm.u, mode="float")
    floor_fit(warm.X.astype(np.float64), warm.y)
    names = args.case or [*CASES, "csv"]
    for name in names:
        if name == "csv":
            continue
        case = CASES[name]()
        if not args.end_to_end:
            run_case(case, args.repeat)
        elif name != "decimal-10k":
            print(f"\n{name}: {case.note}")
        if name != "decimal-10k":
            end_to_end(case, args.repeat)
    if "csv" in names:
        csv_case(args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
