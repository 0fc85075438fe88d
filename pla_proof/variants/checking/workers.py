"""The processes a search runs on (:func:`run_units`): one *unit* is one seeded shard of
one variant's search (:func:`run_unit`).

Two kinds of worker processes:

* **forked** from this process while it has run none of users' code (the built-in
  variants and the seeded bugs): the parent's imports and compiled loops are inherited,
  and a variant given as an object needs no pickling;
* **clean**, once users' code has been loaded here (a variant file, a ``--fit`` class and
  its probe fits: :func:`~pla_proof.variants.boundary.loading.users_modules`).  A process
  that ran users' threads or OpenMP (numba's ``parallel=True``) must not fork, so a fork
  server -- a fresh interpreter that imported pla_proof and nothing of users' -- forks one
  new process per unit; the variant is sent pickled, and users' modules are imported
  again there, quietly (their prints were shown when this process imported them).  One
  process per unit: what users' code leaves in its process (a cache, a global, the state
  of numpy's global generator) never reaches another unit, so the report does not depend
  on how units share processes (``--jobs``).  A variant that cannot be pickled runs here,
  while the workers run the rest.

Each unit starts numpy's and Python's global random generators from its own seed (and
gives them back as they were), so an implementation that shuffles with them unseeded is
run the same way whatever process runs the unit.

A worker that dies (``os._exit``, a crash in compiled code, a signal) breaks the pool.
When it was in a run of users' code, that run is a ``RUNS`` failure of the variant on
that case, saying how the process ended; the units it took down with it run again in new
workers.  Otherwise the search cannot go on: :class:`~pla_proof.errors.HarnessFailure`,
saying what died and how much was done (``pla-proof check``: one line, exit 3).

>>> from pla_proof.variants.catalog.registry import resolve
>>> out = []
>>> units = [(resolve("classic"), {"examples": 5, "seed": 0, "shard": s, "mode": "exact",
...           "limit": 5.0, "extra": [] if s == 0 else None}) for s in (0, 1)]
>>> run_units(units, [0, 1], 2, lambda t, r: out.append((t, r.runs > 0)))
>>> sorted(out)
[(0, True), (1, True)]
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import io
import multiprocessing as mp
import os
import pickle
import random
import signal
import sys
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import numpy as np

from ...errors import HarnessFailure
from ..boundary.loading import import_user_module, users_modules
from ..protocol.claim import Failure
from ..protocol.variant import Case, Order, Record, Variant
from .drawing import fixed_cases
from .report import HARNESS_PROPERTIES, Counterexample, ShardResult
from .shard import search_shard, watch_runs

__all__ = [
    "died",
    "is_users",
    "run_unit",
    "run_units",
    "start_clean_workers",
    "worker_state",
]

#: a unit of work: the variant and :func:`~.shard.search_shard`'s arguments (``extra``: the
#: fixed cases' extra cases, on the variant's first shard only; else ``None``)
Unit = tuple[Variant, dict[str, Any]]

#: what the fork server imports before it forks a clean worker (pla_proof's own modules
#: only, the compiled loops among them: each worker inherits them, loaded once)
PRELOAD = [
    "pla_proof.variants.checking.workers",
    "pla_proof.variants.estimators.estimator",
    "pla_proof.variants.catalog.registry",
    "pla_proof.engine.drive",
    "pla_proof.engine.warm",
]

_UNITS: list[Unit] = []  # the units, inherited by forked workers
_MODULES: dict[str, str | None] = {}  # in a clean worker: the users' modules to load again
#: folders put on ``sys.path`` for users' packages (sent to a cluster's worker), which
#: clean workers put on theirs
EXTRA_PATHS: list[str] = []
#: how long a broken pool's manager thread is waited for before its workers' exit codes
#: are read (it ends them and joins them: seconds at most)
MANAGER_SECONDS = 10.0
#: how often a search waiting on its workers looks whether the pool itself still works
MANAGER_POLL = 0.5


def run_unit(variant: Variant, kw: dict[str, Any]) -> ShardResult:
    """Run one unit: the variant's fixed cases first where ``kw["extra"]`` is not
    ``None`` (its domain's examples, each a Hypothesis search, so that with several
    processes that work is spread too), then the shard's search; the global random
    generators start from the unit's own seed and are given back as they were."""
    saved = random.getstate(), np.random.get_state()
    seed = (int(kw["seed"]) * 1_000_003 + int(kw["shard"])) % 2**32
    random.seed(seed)
    np.random.seed(seed)
    try:
        extra = kw["extra"]
        fixed = fixed_cases(variant, extra, kw["limit"]) if extra is not None else ()
        return search_shard(variant, fixed=fixed, **{k: v for k, v in kw.items() if k != "extra"})
    finally:
        random.setstate(saved[0])
        np.random.set_state(saved[1])


def is_users(variant: Variant) -> bool:
    """Whether ``variant`` runs users' code: its class, or the factory or function of an
    estimator, defined outside pla_proof.

    >>> from pla_proof.variants.catalog.registry import resolve
    >>> is_users(resolve("classic")), is_users(resolve("sklearn-perceptron"))
    (False, False)
    """
    parts = [type(variant), getattr(variant, "function", None), getattr(variant, "factory", None)]
    for obj in parts:
        obj = getattr(obj, "func", obj)  # a functools.partial
        module = getattr(obj, "__module__", None)
        if obj is not None and module is not None and module.partition(".")[0] != "pla_proof":
            return True
    return False


def start_clean_workers() -> None:
    """Start the fork server clean workers come from (once per process; at once, so
    that it boots while this process does other work): call it before users' code
    runs here, or at least before it starts threads."""
    ctx = _clean_context()
    if ctx.get_start_method() != "forkserver":
        return
    from multiprocessing import forkserver, resource_tracker

    ctx.set_forkserver_preload(PRELOAD)
    # the tracker of the pool's semaphores: quiet when this process ends without
    # releasing them (the budget's watchdog), where it would warn on stderr
    quiet = "ignore::UserWarning:multiprocessing.resource_tracker"
    sys.warnoptions.append(quiet)
    try:
        resource_tracker.ensure_running()
    finally:
        sys.warnoptions.remove(quiet)
    forkserver.ensure_running()


def _clean_context() -> Any:
    methods = mp.get_all_start_methods()
    return mp.get_context("forkserver" if "forkserver" in methods else "spawn")


def run_units(
    units: Sequence[Unit],
    order: Sequence[int],
    jobs: int,
    finish: Callable[[int, ShardResult], None],
    meanwhile: Callable[[], None] | None = None,
    clean: bool | None = None,
    keep: bool = False,
) -> None:
    """Run ``units`` in ``order`` on ``jobs`` worker processes (forked, or clean once
    users' code has been loaded here, or with ``clean``); ``finish(t, result)`` as each
    unit ``t`` ends; ``meanwhile()`` in this process once the workers are started.
    ``keep`` (clean workers): keep the pool for the next call with the same users'
    modules and state -- its next process is started while this call ends, one per unit
    still.  Raises :class:`~pla_proof.errors.HarnessFailure` when a worker dies outside
    users' code."""
    clean = bool(users_modules()) if clean is None else clean
    run = _Runs(units, jobs, finish, clean=clean, keep=keep)
    run.all(list(order), meanwhile)


class _Pool(ProcessPoolExecutor):
    """A process pool that, shut down while a worker that ran its one unit is being
    replaced, does not fail in its manager thread (CPython 3.11 then reads the processes
    it has just dropped: a traceback on stderr)."""

    def _adjust_process_count(self) -> None:
        if getattr(self, "_processes", None) is None:
            return
        manager = getattr(self, "_executor_manager_thread", None)
        if manager is not None and threading.current_thread() is not manager:
            # only the manager thread replaces a worker once it runs: a worker started
            # here (by submit) can end its one unit before this thread records it, and
            # the manager thread then fails (a KeyError) and the pool hangs
            return
        super()._adjust_process_count()  # type: ignore[misc]

    def start_all(self) -> None:
        """Start every worker now, before any unit is submitted (so that none is
        started from the submitting thread; see :meth:`_adjust_process_count`)."""
        spawn = getattr(self, "_spawn_process", None)
        if spawn is None or getattr(self, "_safe_to_dynamically_spawn_children", False) is False:
            return  # (fork: all start together with the manager thread)
        with self._shutdown_lock:  # type: ignore[attr-defined]
            while len(self._processes) < self._max_workers:  # type: ignore[attr-defined]
                spawn()


class _Runs:
    """The units' runs: pools of workers, started again after a worker died in users'
    code, until every unit has its result."""

    def __init__(
        self,
        units: Sequence[Unit],
        jobs: int,
        finish: Callable[[int, ShardResult], None],
        *,
        clean: bool,
        keep: bool = False,
    ) -> None:
        self.units, self.jobs, self.finish, self.clean = list(units), jobs, finish, clean
        self.keep = keep and clean
        self.watched = {t for t, (v, _) in enumerate(self.units) if is_users(v)}
        self.blobs: dict[int, bytes] = {}
        self.local: list[int] = []  # (clean) units whose variant cannot be pickled
        self.done = 0
        self.notes = ""

    def all(self, order: list[int], meanwhile: Callable[[], None] | None) -> None:
        if self.clean:
            self._pickle(order)
        pending = [t for t in order if t not in self.local]
        started = [False]

        def after_start() -> None:  # once: the proofs, then what cannot go to a worker
            if started[0]:
                return
            started[0] = True
            if meanwhile is not None:
                meanwhile()
            for t in self.local:
                self._finish(t, run_unit(*self.units[t]))

        global _UNITS
        _UNITS = self.units
        try:
            with tempfile.TemporaryDirectory(prefix="pla-proof-units-") as notes:
                self.notes = notes
                while pending:
                    pending = self._pool(pending, after_start)
        finally:
            _UNITS = []
        after_start()

    def _finish(self, t: int, res: ShardResult) -> None:
        self.done += 1
        if res.prints is not None:  # a worker's users' prints, through this process's cap
            from ...userprints import PrefixedLines

            if isinstance(sys.stdout, PrefixedLines):
                sys.stdout.replay(res.prints)
            res.prints = None
        self.finish(t, res)

    def _pickle(self, order: list[int]) -> None:
        """Each variant pickled once (its units share the bytes); one that cannot be is
        run here."""
        made: dict[int, bytes | None] = {}
        for t in order:
            v = self.units[t][0]
            if id(v) not in made:
                try:
                    made[id(v)] = pickle.dumps(v, protocol=pickle.HIGHEST_PROTOCOL)
                except Exception:  # a lambda, a generator, a strategy: not sent
                    made[id(v)] = None
            blob = made[id(v)]
            if blob is None:
                self.local.append(t)
            else:
                self.blobs[t] = blob

    def _pool(self, pending: list[int], after_start: Callable[[], None]) -> list[int]:
        """One pool for the ``pending`` units: the units a dead worker took down with it
        (to run again), or none."""
        workers = min(self.jobs, len(pending))
        if self.clean:
            start_clean_workers()
            args = (users_modules(), worker_state(), _capturing())
            fresh = bool(self.watched)  # users' code: a process of its own per unit
            pool = (
                _kept_pool(workers, args, fresh) if self.keep else _clean_pool(workers, args, fresh)
            )
        else:
            pool = _Pool(
                max_workers=workers, mp_context=mp.get_context("fork"), initializer=_worker_start
            )
        # what forked workers inherit is never garbage: frozen, their collector does not
        # walk (and so copy) the parent's objects; the parent collects them again once
        # forked (unless the process had frozen its heap itself)
        thaw = gc.unfreeze if not self.clean and not gc.get_freeze_count() else lambda: None
        if not self.clean:
            gc.freeze()
        futures: dict[Future[ShardResult], int] = {}
        left = set(pending)
        kept = False
        try:
            for t in pending:
                futures[pool.submit(*self._call(t))] = t
            thaw()  # every forked worker exists by now
            after_start()
            for fut in _completed(pool, futures):
                res = fut.result()
                left.discard(futures[fut])
                self._finish(futures[fut], res)
            kept = self.keep
            return []
        except BrokenProcessPool:
            dead = _dead(pool)  # before any other worker is ended
            for fut, t in futures.items():  # what ended before the pool broke
                if t in left and fut.done() and not fut.cancelled() and fut.exception() is None:
                    left.discard(t)
                    self._finish(t, fut.result())
            for t, res in self._deaths(dead, left):
                left.discard(t)
                self._finish(t, res)
            return [t for t in pending if t in left]
        finally:
            thaw()
            if not kept:
                _KEPT.clear()
                _stop_workers(pool)

    def _call(self, t: int) -> tuple[Any, ...]:
        watched = t in self.watched
        if self.clean:
            kw = dict(self.units[t][1], progress=None)  # (a function of this process)
            return (_clean_unit, t, self.blobs[t], kw, self.notes, watched)
        return (_forked_unit, t, self.notes, watched)

    def _deaths(self, dead: list[tuple[int, int]], left: set[int]) -> list[tuple[int, ShardResult]]:
        """Each unit a dead worker was running, as a ``RUNS`` failure on the case it
        ran, when that was a run of users' code; else :class:`HarnessFailure`."""
        out = []
        for pid, code in dead:
            note = _read_note(self.notes, pid)
            if note is None or note[0] not in left:
                continue  # it was between units
            t, case, order = note
            variant = self.units[t][0]
            if case is None or order is None or t not in self.watched:
                where = "outside any run" if t in self.watched else "running it"
                raise HarnessFailure(
                    f"a worker process died ({died(code)}) while searching {variant.name} "
                    f"({where}): {self.done} of {len(self.units)} part(s) of the search were "
                    "done; no verdict"
                )
            out.append((t, _died_on(variant, case, order, code, self.units[t][1])))
        if not out:
            codes = ", ".join(died(c) for _, c in dead) or "how is not known"
            raise HarnessFailure(
                f"a worker process died ({codes}): {self.done} of {len(self.units)} part(s) "
                "of the search were done; no verdict"
            )
        return out


#: a pool of clean workers kept between calls (``run_units(keep=True)``): its key and it
_KEPT: dict[str, Any] = {}


def _completed(pool: ProcessPoolExecutor, futures: Iterable[Future[Any]]) -> Iterator[Future[Any]]:
    """The futures as they complete -- or :class:`HarnessFailure` when the pool's
    manager thread has ended with some never to complete (a failure inside the pool
    itself: a search never hangs on it)."""
    pending = set(futures)
    while pending:
        done, pending = wait(pending, timeout=MANAGER_POLL, return_when=FIRST_COMPLETED)
        yield from done
        manager = getattr(pool, "_executor_manager_thread", None)
        if pending and manager is not None and not manager.is_alive():
            done, pending = wait(pending, timeout=MANAGER_POLL)  # (its last results)
            yield from done
            if pending:
                raise HarnessFailure(
                    f"the pool of worker processes failed ({len(pending)} part(s) of the "
                    "search could not be run); no verdict"
                )


def _clean_pool(workers: int, args: tuple[Any, ...], fresh: bool = True) -> _Pool:
    """Clean workers: a fresh process for each unit (``fresh``: users' code, whose
    state must not carry from one part to the next), or processes that run unit after
    unit (the catalog's variants: as forked workers do; a process per unit costs some
    60 ms a part, a tenth of a part of 100 examples of a fast variant)."""
    pool = _Pool(
        max_workers=workers,
        mp_context=_clean_context(),
        initializer=_clean_start,
        initargs=args,
        max_tasks_per_child=1 if fresh else None,
    )
    pool.start_all()
    return pool


def _kept_pool(workers: int, args: tuple[Any, ...], fresh: bool = True) -> _Pool:
    """The kept pool when it was made for the same workers, users' modules and state,
    fresh or not (and is not broken); else a new one, kept in its place."""
    key = repr((workers, args, fresh))
    pool = _KEPT.get("pool")
    if pool is not None and _KEPT.get("key") == key and not getattr(pool, "_broken", False):
        return pool  # type: ignore[no-any-return]
    if pool is not None:
        _stop_workers(pool)
    pool = _clean_pool(workers, args, fresh)
    _KEPT.update(key=key, pool=pool)
    return pool


def died(code: int) -> str:
    """How a process ended, from its exit code (negative: the signal that ended it).

    >>> died(-11), died(3)
    ('killed by signal SIGSEGV (Segmentation fault)', 'it exited with status 3')
    """
    if code < 0:
        try:
            sig = signal.Signals(-code)
        except ValueError:
            return f"killed by signal {-code}"
        text = signal.strsignal(sig)
        return f"killed by signal {sig.name}" + (f" ({text})" if text else "")
    return f"it exited with status {code}"


def _died_on(
    variant: Variant, case: Case, order: Order, code: int, kw: dict[str, Any]
) -> ShardResult:
    """A unit whose worker died in a run of users' code: that run, a ``RUNS`` failure."""
    message = (
        f"the process running it ended during this run ({died(code)}): users' code ended "
        "it (os._exit, a crash in compiled code, a signal, running out of memory)"
    )
    rec = Record()
    rec.evaluated = frozenset(HARNESS_PROPERTIES)
    f = Failure("RUNS", None, None, None, "", None, message)
    out = ShardResult()
    out.runs = 1
    out.seen.update(HARNESS_PROPERTIES)
    for p in HARNESS_PROPERTIES:
        out.evaluated[p] = 1
    ce = Counterexample(case, order, rec, f, shard=int(kw["shard"]), shrunk=False)
    out.found["RUNS"] = [ce]
    return out


# --- in the workers --------------------------------------------------------------------------


def _worker_start(capture: bool | None = None) -> None:
    """In each worker: end with the process that started it, however that one ends
    (Linux's parent-death signal; elsewhere the pool's own shutdown); users' prints
    collected for the parent when it heads them (``capture``; ``None``: when this
    process inherited its stream), sent with each unit's result."""
    import ctypes

    from ...userprints import PrefixedLines

    if capture is None:
        capture = isinstance(sys.stdout, PrefixedLines)
    if capture:
        sys.stdout = PrefixedLines(sys.stderr)
        sys.stdout.collect()

    try:
        libc = ctypes.CDLL(None)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        pass
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle


def worker_state() -> tuple[Any, ...]:
    """What a clean worker takes from this process: the number limits, the check's
    deadline, the folders of users' packages sent here."""
    from ... import numbers
    from ..boundary import limits

    return numbers.LIMITS, list(limits._DEADLINE), list(EXTRA_PATHS)


def _capturing() -> bool:
    from ...userprints import PrefixedLines

    return isinstance(sys.stdout, PrefixedLines)


def _clean_start(modules: dict[str, str | None], state: tuple[Any, ...], capture: bool) -> None:
    """A clean worker's start: the parent's limits and deadline; users' prints headed
    like the parent's when it headed them."""
    from ... import numbers
    from ..boundary import limits
    from ..boundary.exits import guard_workers_exit

    _worker_start(capture)
    guard_workers_exit()
    _let_the_server_go()
    _MODULES.update(modules)
    numbers.LIMITS, limits._DEADLINE[:] = state[0], state[1]
    for folder in state[2]:  # (users' packages sent to this host: importable here too)
        if folder not in sys.path:
            sys.path.insert(0, folder)


def _let_the_server_go() -> None:
    """Close this worker's copy of the fork server's "alive" pipe: the server then ends
    with the process that started it, and so does this worker (its parent-death
    signal), even while users' code here never returns."""
    from multiprocessing import forkserver

    server = getattr(forkserver, "_forkserver", None)
    fd = getattr(server, "_forkserver_alive_fd", None)
    if isinstance(fd, int):
        with contextlib.suppress(OSError):
            os.close(fd)
        server._forkserver_alive_fd = None  # type: ignore[union-attr]


def _load_users() -> None:
    """Import users' modules again, as this process's parent did (quietly: the parent
    showed what they print); pickle finds their classes there."""
    with contextlib.redirect_stdout(io.StringIO()):
        for name, path in _MODULES.items():
            if name in sys.modules:
                continue
            with contextlib.suppress(Exception):  # (unpickling says what is missing)
                if path is not None:
                    import_user_module(path, path)
                else:
                    importlib.import_module(name)


def _clean_unit(t: int, blob: bytes, kw: dict[str, Any], notes: str, watched: bool) -> ShardResult:
    with _Note(notes, t) as note:
        _load_users()
        variant = pickle.loads(blob)
        watch_runs(note.tell if watched else None)
        try:
            return _with_prints(run_unit(variant, kw))
        finally:
            watch_runs(None)


def _forked_unit(t: int, notes: str, watched: bool) -> ShardResult:
    variant, kw = _UNITS[t]
    with _Note(notes, t) as note:
        watch_runs(note.tell if watched else None)
        try:
            return _with_prints(run_unit(variant, kw))
        finally:
            watch_runs(None)


def _with_prints(res: ShardResult) -> ShardResult:
    """The unit's result with what users' code printed in it (collected here)."""
    from ...userprints import PrefixedLines

    if isinstance(sys.stdout, PrefixedLines):
        res.prints = sys.stdout.take()
    return res


class _Note:
    """A worker's note of the unit it runs and the run it is in (a file named by its
    process id), read by the parent when the worker dies; removed when the unit ends."""

    def __init__(self, folder: str, t: int) -> None:
        self.path = os.path.join(folder, str(os.getpid()))
        self.t = t
        self.fh: Any = None

    def __enter__(self) -> _Note:
        self.fh = open(self.path, "wb")  # (kept open: a note per run)
        self.tell(None, None)
        return self

    def tell(self, case: Case | None, order: Order | None) -> None:
        self.fh.seek(0)
        self.fh.write(pickle.dumps((self.t, case, order)))
        self.fh.truncate()
        self.fh.flush()

    def __exit__(self, *exc: object) -> None:
        self.fh.close()
        with contextlib.suppress(OSError):
            os.remove(self.path)


def _read_note(folder: str, pid: int) -> tuple[int, Case | None, Order | None] | None:
    try:
        with open(os.path.join(folder, str(pid)), "rb") as fh:
            note = pickle.load(fh)
    except Exception:  # no note (between units), or one cut short
        return None
    return note  # type: ignore[no-any-return]


# --- in this process -----------------------------------------------------------------------


def _dead(pool: ProcessPoolExecutor) -> list[tuple[int, int]]:
    """The workers that died by themselves: ended, and not by the pool's own SIGTERM to
    the others once one died (read before this process ends any).

    The pool's manager thread is ending the broken pool's workers and reading their exit
    codes: it is let finish first.  Two threads reading one exit code from the fork
    server's pipe race, and the loser reads "status 255" (the pipe already emptied)."""
    manager = getattr(pool, "_executor_manager_thread", None)
    if manager is not None and manager is not threading.current_thread():
        manager.join(timeout=MANAGER_SECONDS)
    out = []
    for pid, proc in list((getattr(pool, "_processes", None) or {}).items()):
        code = proc.exitcode
        if code is not None and code != -signal.SIGTERM:
            out.append((pid, code))
    return out


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Shut the pool down without waiting for the units still running, and end its
    processes -- those its manager thread starts meanwhile too (a worker that ran its one
    unit is replaced) -- until that thread is done: a search that ends early (a time
    limit, Ctrl-C, an error) leaves no process, and the interpreter's exit waits for
    none."""
    live = getattr(pool, "_processes", None) or {}  # (the manager thread's own dict)
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for _ in range(100):
        processes = list(live.values())
        for proc in processes:
            if proc.is_alive():
                proc.kill()
        for proc in processes:
            proc.join(timeout=5)
        if manager is None or not manager.is_alive():
            return
        if not any(proc.is_alive() for proc in live.values()):
            # no worker is left to run what it still holds: it has nothing to wait for
            getattr(manager, "pending_work_items", {}).clear()
        with contextlib.suppress(Exception):
            manager.thread_wakeup.wakeup()
        manager.join(timeout=0.05)
