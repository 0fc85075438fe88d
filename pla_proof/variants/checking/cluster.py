"""A search on a Dask cluster (``pla-proof check ... --scheduler tcp://HOST:PORT``): each
unit of the search -- one seeded shard of one variant, :func:`~.workers.run_unit` -- is a
task on the cluster's workers (:func:`run_units_on_cluster`), so that a search, and each
round of a campaign, goes as wide as the cluster.

* **The same report.**  A unit is the same seeded work wherever it runs; the results
  are merged in the units' order, so a search with a fixed number of examples, seed and
  shards gives the same verdicts, properties and counterexamples locally and on a
  cluster.
* **Users' code travels with the task.**  The users' modules this process loaded (a
  variant or ``--fit`` file given by path, or a module imported by name from outside the
  installed packages -- its whole package directory) are sent with each task as source
  text; a worker writes them to a folder of its own and imports them under the same
  names, so it needs only pla_proof installed.  A worker whose pla_proof version is not
  this one is refused, naming both versions.
* **Isolated as on one machine.**  In the worker, the unit runs in a clean process of
  its own (a fork server's, :mod:`.workers`): the per-run time limits (a signal, which
  only a main thread can take) apply, and a crash in users' code is a ``RUNS`` failure
  on its case, not a lost worker.
* **Faults.**  A worker killed mid-unit (a signal, out of memory): the scheduler runs
  the unit again on another worker, and the report says which parts ran again (each
  unit logs its start as a Dask event).  The scheduler unreachable: exit 2 before any
  run; lost during the search: exit 3 with how much was done -- never a hang.
* **The database.**  With ``--database redis://...``, each worker records the
  counterexamples its unit found as soon as it has them (a unit lost later keeps
  them); the check replays the database's counterexamples first, whichever host found
  them.

>>> Cluster("tcp://127.0.0.1:8786").address
'tcp://127.0.0.1:8786'
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import random
import sys
import tempfile
import time
import types
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...errors import HarnessFailure, InputError
from ..protocol.variant import Variant
from .report import ShardResult

__all__ = ["ENV_SCHEDULER", "Cluster", "run_units_on_cluster", "shipped_modules"]

#: The environment variable that names the scheduler when ``--scheduler`` is not given.
ENV_SCHEDULER = "PLA_PROOF_SCHEDULER"
#: Seconds to reach the scheduler, and for a first worker to join it.
CONNECT_SECONDS = 10.0
WORKERS_SECONDS = 30.0
#: The scheduler unreachable this long during a search: the search is lost (exit 3).
LOST_SECONDS = 15.0
#: How often the client looks at its tasks.
POLL_SECONDS = 0.05
#: The Dask event topic each unit's start is logged under.
TOPIC = "pla-proof-unit"

Unit = tuple[Variant, dict[str, Any]]


@dataclass(frozen=True)
class Cluster:
    """Where a search runs: the scheduler's ``address``; ``database``: the shared
    database's URL the workers record counterexamples in, with ``recorder`` (None: the
    check records them); ``specs``: each variant's name as the user wrote it (the facts
    recorded)."""

    address: str
    database: str | None = None
    specs: tuple[str, ...] = ()
    #: how a worker records a unit's counterexamples in the database: a module-level
    #: function ``record(url, variant name, spec, mode, result)`` (sent by reference)
    recorder: Callable[[str, str, str, str, ShardResult], None] | None = None


@dataclass
class ClusterRun:
    """What a search on the cluster did: its workers (at most at once), and the units
    that ran again after their worker was lost (unit -> the workers it started on)."""

    workers: int = 0
    again: dict[int, list[str]] = field(default_factory=dict)


def _client_class() -> Any:
    try:
        from distributed import Client
    except ImportError:
        raise InputError(
            "--scheduler needs Dask distributed: pip install 'pla_proof[cluster]'"
        ) from None
    return Client


def _own_random() -> None:
    """Dask's retries draw their jitter from the global ``random`` in its own thread:
    given a generator of their own, so that the claims proved here meanwhile (with
    Hypothesis, which warns when the global state moves under a draw) and any seeded
    user code see the global state only they move."""
    import distributed.comm.core
    import distributed.utils_comm

    for module in (distributed.comm.core, distributed.utils_comm):
        if getattr(module, "random", None) is random:
            module.random = random.Random()  # type: ignore[attr-defined]


def _client(address: str) -> Any:
    """A Dask client of the scheduler at ``address`` (one line and exit 2 when it
    cannot be reached, or when the extra is not installed)."""
    Client = _client_class()
    _own_random()
    try:
        return Client(address, timeout=CONNECT_SECONDS, set_as_default=False)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError) as exc:
        why = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InputError(
            f"--scheduler {address}: cannot reach the Dask scheduler ({why})"
        ) from None


def _version() -> str:
    from ...version import installed_version

    return installed_version()


def _check_versions(client: Any, address: str) -> int:
    """Wait for a first worker; refuse workers with another pla_proof version.  Returns
    how many workers there are."""
    try:
        client.wait_for_workers(1, timeout=WORKERS_SECONDS)
    except (TimeoutError, OSError):
        raise InputError(
            f"--scheduler {address}: no worker joined the scheduler in {WORKERS_SECONDS:g} s"
        ) from None
    mine = _version()
    try:
        theirs = client.run(_version)
    except Exception as exc:  # a worker without pla_proof at all
        raise InputError(
            f"--scheduler {address}: a worker cannot run pla_proof ({type(exc).__name__}: "
            f"{str(exc).strip()[:120]}); install pla_proof {mine} on every worker"
        ) from None
    for worker, version in sorted(theirs.items()):
        if version != mine:
            raise InputError(
                f"--scheduler {address}: worker {worker} has pla_proof {version}, this client "
                f"{mine}: install the same version on every worker"
            )
    return len(theirs)


# --- users' code, sent with each task ---------------------------------------------------------


def shipped_modules() -> list[tuple[str, str, dict[str, str]]]:
    """The users' modules this process loaded, as source to send: ``(name, kind,
    files)`` -- ``kind`` ``"file"`` (a module loaded from a path: ``files`` its one
    file) or ``"package"`` (imported by name: the files of its top-level package, or
    its one module file, relative to the folder to put on ``sys.path``).  Modules of
    installed packages are not sent (the workers have them installed too)."""
    from ..boundary.loading import users_modules

    out: list[tuple[str, str, dict[str, str]]] = []
    for name, path in users_modules().items():
        if path is not None:
            with open(path, encoding="utf-8") as fh:
                out.append((name, "file", {os.path.basename(path): fh.read()}))
            continue
        top = sys.modules.get(name.partition(".")[0])
        where = getattr(top, "__file__", None)
        if where is None or _installed(where):
            continue
        if os.path.basename(where) == "__init__.py":
            root = os.path.dirname(os.path.dirname(where))
            files = {}
            for folder, _, names in os.walk(os.path.dirname(where)):
                for n in names:
                    if n.endswith(".py"):
                        full = os.path.join(folder, n)
                        with open(full, encoding="utf-8") as fh:
                            files[os.path.relpath(full, root)] = fh.read()
        else:
            with open(where, encoding="utf-8") as fh:
                files = {os.path.basename(where): fh.read()}
        out.append((name, "package", files))
    return out


def _installed(path: str) -> bool:
    parts = os.path.abspath(path).split(os.sep)
    return "site-packages" in parts or "dist-packages" in parts


_LOADED: dict[str, str] = {}  # (in a worker) what was shipped -> the folder it is in


def _load_shipped(shipped: list[tuple[str, str, dict[str, str]]]) -> None:
    """In a worker: write the shipped modules to a folder of this worker (once per
    content) and import them under their names."""
    import importlib

    from ..boundary.loading import import_user_module
    from .workers import EXTRA_PATHS

    for name, kind, files in shipped:
        digest = hashlib.sha256(repr((name, kind, sorted(files.items()))).encode()).hexdigest()
        if digest in _LOADED and name in sys.modules:
            continue
        folder = tempfile.mkdtemp(prefix=f"pla-proof-shipped-{digest[:12]}-")
        for rel, text in files.items():
            target = os.path.join(folder, rel)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "w", encoding="utf-8") as fh:
                fh.write(text)
        _LOADED[digest] = folder
        if kind == "file":
            (rel,) = files
            import_user_module(os.path.join(folder, rel), name)
        else:
            if folder not in sys.path:
                sys.path.insert(0, folder)
                EXTRA_PATHS.append(folder)
            for loaded in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
                del sys.modules[loaded]  # (an older copy of the same package)
            importlib.import_module(name)


# --- a unit, in a worker ------------------------------------------------------------------------


def _task(
    run: str,
    t: int,
    blob: bytes,
    kw: dict[str, Any],
    shipped: list[tuple[str, str, dict[str, str]]],
    version: str,
    state: tuple[Any, ...],
    record: tuple[Callable[..., None], str, str, str, str] | None,
) -> ShardResult:
    """One unit on a worker: its start logged (the client tells a unit run again from
    it), the version checked, users' modules loaded, then the unit run in a clean
    process of its own; its counterexamples recorded in the database at once."""
    from distributed import get_worker

    from ... import numbers
    from .workers import run_units

    worker = get_worker()
    worker.log_event(TOPIC, {"run": run, "t": t, "worker": worker.address})
    mine = _version()
    if mine != version:
        raise RuntimeError(
            f"worker {worker.address} has pla_proof {mine}, the client {version}: install the "
            "same version on every worker"
        )
    _load_shipped(shipped)
    variant = pickle.loads(blob)
    numbers.LIMITS = state[0]
    got: list[ShardResult] = []
    _worker_process()
    run_units([(variant, kw)], [0], 1, lambda _, r: got.append(r), clean=True, keep=True)
    res = got[0]
    if record is not None and res.found:  # in the database at once: kept if this is lost
        recorder, *where = record
        recorder(*where, res)
    return res


def _worker_process() -> None:
    """Make this Dask worker process one that can run parts in processes of their own,
    for good (their pool is kept from one part to the next, and starts the next part's
    process while it waits): a Dask worker process is a daemon, which multiprocessing
    forbids children -- each part's process ends with this one all the same (it takes
    the parent-death signal); and its main module is the ``dask`` command's script,
    which multiprocessing would run again in every new process (half a second of
    imports) -- users' code comes as modules of its own, never as this main module."""
    import multiprocessing as mp

    proc: Any = mp.current_process()
    if proc._config.get("daemon"):
        proc._config["daemon"] = False
    main = sys.modules.get("__main__")
    if getattr(main, "__file__", None) is not None or getattr(main, "__spec__", None):
        sys.modules["__main__"] = types.ModuleType("__main__")


# --- the client's side --------------------------------------------------------------------------


def run_units_on_cluster(
    units: Sequence[Unit],
    order: Sequence[int],
    cluster: Cluster,
    owner: Sequence[int],
    finish: Callable[[int, ShardResult], None],
    meanwhile: Callable[[], None] | None = None,
    progress: Callable[[str], None] | None = None,
) -> ClusterRun:
    """Run ``units`` as tasks on the cluster's workers (submitted in ``order``);
    ``finish(t, result)`` as each ends, ``meanwhile()`` here once they are submitted.
    ``owner[t]``: the variant of unit ``t`` (its spec and mode for the database)."""
    _client_class()  # (the extra missing: one line, before anything else)
    with _dask_quiet():
        return _on_cluster(units, order, cluster, owner, finish, meanwhile, progress)


@contextlib.contextmanager
def _dask_quiet() -> Iterator[None]:
    """Dask's own log lines (a reconnection tried, a worker lost) kept off stderr while
    the search runs: what matters is said by the report, or by the one-line error."""
    import logging

    import distributed  # noqa: F401  (its loggers exist once it is imported)

    names = [n for n in logging.root.manager.loggerDict if n.partition(".")[0] == "distributed"]
    loggers = [logging.getLogger(n) for n in ["distributed", *names]]
    before = [lg.disabled for lg in loggers]
    for lg in loggers:
        lg.disabled = True
    try:
        yield
    finally:
        for lg, was in zip(loggers, before, strict=True):
            lg.disabled = was


def _on_cluster(
    units: Sequence[Unit],
    order: Sequence[int],
    cluster: Cluster,
    owner: Sequence[int],
    finish: Callable[[int, ShardResult], None],
    meanwhile: Callable[[], None] | None,
    progress: Callable[[str], None] | None,
) -> ClusterRun:
    from .workers import worker_state

    client = _client(cluster.address)
    out = ClusterRun()
    run = uuid.uuid4().hex
    try:
        out.workers = _check_versions(client, cluster.address)
        shipped = shipped_modules()
        version = _version()
        state = worker_state()
        futures: dict[Any, int] = {}
        for t in order:
            variant, kw = units[t]
            try:
                blob = pickle.dumps(variant, protocol=pickle.HIGHEST_PROTOCOL)
            except Exception as exc:  # a lambda, a generator: it cannot travel
                raise InputError(
                    f"{variant.name} cannot be sent to the cluster's workers (it cannot be "
                    f"pickled: {type(exc).__name__}); run it without --scheduler"
                ) from None
            record = None
            if cluster.database is not None and cluster.recorder is not None and cluster.specs:
                spec = cluster.specs[owner[t]]
                where = (cluster.database, variant.name, spec, str(kw["mode"]))
                record = (cluster.recorder, *where)
            fut = client.submit(
                _task,
                run,
                t,
                blob,
                dict(kw, progress=None),
                shipped,
                version,
                state,
                record,
                key=f"pla-proof-{run}-{t}",
                pure=False,
            )
            futures[fut] = t
        if meanwhile is not None:
            meanwhile()
        _collect(client, futures, cluster.address, finish, out, progress, len(units))
        out.again = _again(client, run)
    finally:
        with contextlib.suppress(Exception):  # a scheduler already gone: nothing to close
            client.close(timeout=5)
    return out


def _collect(
    client: Any,
    futures: dict[Any, int],
    address: str,
    finish: Callable[[int, ShardResult], None],
    out: ClusterRun,
    progress: Callable[[str], None] | None,
    total: int,
) -> None:
    """Each task's result as it comes; the scheduler lost for :data:`LOST_SECONDS`:
    :class:`HarnessFailure` (exit 3) with how much was done."""
    pending = set(futures)
    done_count = 0
    lost_since: float | None = None
    shown = ""
    while pending:
        done = [f for f in pending if f.status in ("finished", "error")]
        if not done:
            time.sleep(POLL_SECONDS)
        for fut in done:
            pending.discard(fut)
            t = futures[fut]
            if fut.status == "error":
                exc = fut.exception()
                raise HarnessFailure(
                    f"the cluster could not run part {t + 1} of the search "
                    f"({type(exc).__name__}: {str(exc).strip()[:200]}): {done_count} of "
                    f"{total} part(s) were done; no verdict"
                )
            if fut.status == "cancelled":
                lost_since = lost_since or time.monotonic()
                pending.add(fut)
                continue
            finish(t, fut.result())
            done_count += 1
        if client.status != "running" or any(f.status == "cancelled" for f in pending):
            lost_since = lost_since or time.monotonic()
            if time.monotonic() - lost_since > LOST_SECONDS:
                raise HarnessFailure(
                    f"the Dask scheduler at {address} was lost: {done_count} of {total} "
                    "part(s) of the search were done; no verdict"
                )
            time.sleep(0.2)
            continue
        lost_since = None
        if progress is not None:
            try:
                workers = len(client.scheduler_info().get("workers", {}))
            except Exception:  # (a progress line is not worth failing for)
                workers = 0
            out.workers = max(out.workers, workers)
            line = (
                f"cluster {address}: {workers} worker(s), {len(pending)} shard(s) in flight, "
                f"{done_count} of {total} done"
            )
            if line != shown:
                progress(line)
                shown = line


def _again(client: Any, run: str) -> dict[int, list[str]]:
    """The units that started on more than one worker (their first worker was lost)."""
    starts: dict[int, list[str]] = {}
    try:
        events = client.get_events(TOPIC)
    except Exception:  # no events to read: nothing known ran again
        return {}
    for _, msg in events:
        if isinstance(msg, dict) and msg.get("run") == run:
            starts.setdefault(int(msg["t"]), []).append(str(msg["worker"]))
    return {t: ws for t, ws in starts.items() if len(ws) > 1}
