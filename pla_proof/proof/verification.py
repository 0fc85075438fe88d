"""What ``pla-proof verify`` computes: the obligations chosen by pattern, each checked
(SymPy, Z3), the chain and the coverage (:func:`pla_proof.proof.blueprint.check_all`),
and Coq's opinion on each (compiled, or whether it exports).

>>> from pla_proof.proof.obligations import all_obligations
>>> bp = verify_proof(all_obligations(), only=["L2*"])
>>> sorted(bp.agreement), bp.all_proved
(['L2', 'L2.strict'], True)
>>> bp.agreement["L2"]["coq"]
'not run (verify --coq)'
"""

from __future__ import annotations

import contextlib
import fnmatch
import hashlib
import os
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import InputError

if TYPE_CHECKING:
    from .blueprint import Blueprint
    from .coq import CoqRun
    from .obligations import Obligation

__all__ = ["EarlyCoqc", "add_coq_opinion", "coqc_home", "select", "start_coqc", "verify_proof"]


def select(obligations: Sequence[Obligation], patterns: Sequence[str]) -> tuple[Obligation, ...]:
    """The obligations whose id or node matches one of the shell-style ``patterns``."""
    return tuple(
        ob
        for ob in obligations
        if any(fnmatch.fnmatchcase(ob.id, p) or fnmatch.fnmatchcase(ob.node, p) for p in patterns)
    )


def verify_proof(
    obligations: Sequence[Obligation],
    *,
    only: Sequence[str] | None = None,
    timeout: float = 10.0,
    coq: bool = False,
    started: EarlyCoqc | None = None,
) -> Blueprint:
    """Check the ``obligations`` (those matching ``only``, when given; Z3 with
    ``timeout`` seconds each), the chain (all of them only) and Coq's opinion
    (compiled with ``coq``, with the development when every obligation is checked;
    ``started``: a ``coqc`` :func:`start_coqc` started, used when it compiles the very
    text this check exports, else stopped)."""
    from .blueprint import check_all

    if only:
        obligations = select(obligations, only)
        if not obligations:
            raise InputError(f"--only {' '.join(only)}: no obligation matches")

    def checked() -> Blueprint:
        return check_all(obligations, timeout_ms=max(1, int(timeout * 1000)), partial=bool(only))

    if not coq:
        blueprint = checked()
        add_coq_opinion(blueprint, obligations, run=False, development=not only)
        return blueprint
    from .coq import run_coqc

    made: list[Blueprint] = []  # SymPy and Z3 check while coqc compiles
    outcome = run_coqc(
        obligations,
        development=not only,
        meanwhile=lambda: made.append(checked()),
        started=None if only else started,
    )
    add_coq_opinion(made[0], obligations, run=True, development=not only, outcome=outcome)
    return made[0]


def add_coq_opinion(
    blueprint: Blueprint,
    obligations: Sequence[Obligation],
    *,
    run: bool,
    development: bool = True,
    outcome: CoqRun | None = None,
) -> None:
    """Record Coq's opinion per obligation: compiled (``run``; its ``outcome`` when it
    has run already), else whether it exports; with ``development`` (every obligation
    selected), the hand-written theorems too."""
    from .coq import export, kernel_theorems, run_coqc

    if development:
        blueprint.kernel_theorems = kernel_theorems(ob.id for ob in obligations)
        blueprint.kernel = {t.name: "not run" for t in blueprint.kernel_theorems}
    if run:
        if outcome is None:
            outcome = run_coqc(obligations, development=development)
        for oid, status in outcome.status.items():
            blueprint.agreement.setdefault(oid, {})["coq"] = status
        blueprint.kernel.update(outcome.theorems)
        return
    exported = export(obligations)
    for oid in exported.exported:
        blueprint.agreement.setdefault(oid, {})["coq"] = "not run (verify --coq)"
    for oid, why in exported.skipped.items():
        blueprint.agreement.setdefault(oid, {})["coq"] = f"not exported: {why}"


class EarlyCoqc:
    """``coqc`` started on the text ``verify --coq`` compiled last (:func:`start_coqc`),
    before this run could export its own (SymPy is not even imported):
    :func:`pla_proof.proof.coq.run_coqc` :meth:`claim` s it for the text it exports --
    the very same text, or it is stopped and that text is compiled anew.  Either way
    the text is remembered for the next run.  ``text`` None: nothing to start."""

    def __init__(self, binary: str, text: str | None, remember: Path) -> None:
        self.binary = binary
        self.text = text
        self._remember = remember
        self._dir: tempfile.TemporaryDirectory[str] | None = None
        self._proc: subprocess.Popen[str] | None = None
        self._start = time.perf_counter()
        if text is None:
            return
        self._dir = tempfile.TemporaryDirectory(prefix="pla_proof-coqc-")
        path = Path(self._dir.name) / COQ_FILE
        try:
            path.write_text(text, encoding="utf-8")
            self._proc = subprocess.Popen(
                [binary, *COQ_FLAGS, str(path)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                cwd=coqc_home(binary) or self._dir.name,
            )
        except OSError:
            self.stop()
            raise

    def claim(self, text: str) -> bool:
        """Whether this ``coqc`` compiles ``text`` (else it is stopped); ``text`` is
        remembered for the next run."""
        if text != self.text:
            self.stop()
        with contextlib.suppress(OSError):  # (then the next run is not started early)
            _remember(self._remember, text)
        return self._proc is not None

    def wait(self, timeout: float) -> tuple[subprocess.CompletedProcess[str] | None, float]:
        """The finished process (None on time-out, ``timeout`` seconds after it started)
        and the seconds it took, as :func:`pla_proof.proof.coq.compile_text` answers."""
        proc = self._proc
        if proc is None:
            raise RuntimeError("no coqc runs here: claim() it first")
        left = max(0.0, timeout - (time.perf_counter() - self._start))
        try:
            out, err = proc.communicate(timeout=left)
        except subprocess.TimeoutExpired:
            self.stop()
            return None, time.perf_counter() - self._start
        seconds = time.perf_counter() - self._start
        self._proc = None
        self.stop()
        return subprocess.CompletedProcess(proc.args, proc.returncode, out, err), seconds

    def stop(self) -> None:
        """End this ``coqc`` (if it still runs) and remove its directory."""
        if self._proc is not None:
            self._proc.kill()
            self._proc.communicate()
            self._proc = None
        if self._dir is not None:
            self._dir.cleanup()
            self._dir = None


#: the file name ``coqc`` compiles ``verify --coq``'s text as
#: (:func:`pla_proof.proof.coq.compile_text`'s default)
COQ_FILE = "Perceptron.v"
#: ``coqc``'s flags in every run of :mod:`pla_proof.proof.coq`: quiet, and no
#: globalization file (the cross-reference ``.glob`` only coqdoc reads: 1 MB, about 0.4 s
#: of the full export's compile)
COQ_FLAGS = ("-q", "-no-glob")


def coqc_home(binary: str) -> Path | None:
    """A directory of this user's alone (mode 0700, in the temporary directory) per
    ``coqc`` (its path, size and time), the working directory of the ``coqc`` runs of
    :mod:`pla_proof.proof.coq`: there ``nra``, ``lia`` and ``nia`` keep the certificates
    their search found (micromega's ``.nra.cache``, ... files), so that the next compile
    of the same goals skips the search -- the kernel checks each certificate again, as
    always; 0.6 s of the 8 s compile of ``verify --coq``.  (A file of them past
    :data:`_CACHE_BYTES` is removed: each run reads them whole.)  Also where the text
    ``verify --coq`` compiled last is kept (:func:`start_coqc`).  None where there is no
    such place."""
    getuid = getattr(os, "getuid", None)
    if getuid is None:
        return None
    try:
        info = os.stat(binary)
        key = hashlib.sha256(f"{binary}\0{info.st_size}\0{info.st_mtime_ns}".encode())
        mine = Path(tempfile.gettempdir()) / f"pla_proof-coqc-{getuid()}"
        home = mine / key.hexdigest()[:16]
        for place in (mine, home):
            place.mkdir(mode=0o700, exist_ok=True)
            mode = place.stat()
            if mode.st_uid != getuid() or mode.st_mode & 0o077:
                return None
        for cache in home.glob(".*.cache"):
            if cache.stat().st_size > _CACHE_BYTES:
                cache.unlink()
    except OSError:
        return None
    return home


#: the largest micromega cache file :func:`coqc_home` keeps (``verify --coq``'s: 50 kB)
_CACHE_BYTES = 8 << 20


def _remembered(binary: str) -> Path | None:
    """Where the text ``verify --coq`` compiled last is kept: in :func:`coqc_home` (a
    directory only this user may write: the text is compiled before this run's export
    is compared with it), per copy of this package.  None where there is no such place."""
    home = coqc_home(binary)
    if home is None:
        return None
    key = hashlib.sha256(str(Path(__file__).resolve().parent).encode()).hexdigest()
    return home / f"verify-{key[:16]}.v"


def _remember(path: Path, text: str) -> None:
    with contextlib.suppress(OSError, UnicodeDecodeError):
        if path.read_text(encoding="utf-8") == text:
            return
    part = path.with_name(f"{path.name}.{os.getpid()}")
    part.write_text(text, encoding="utf-8")
    os.replace(part, path)  # (atomic: another verify may read it meanwhile)


def start_coqc() -> EarlyCoqc | None:
    """``coqc`` started on the text ``verify --coq`` compiled last with this ``coqc``
    and this copy of the package: unless the obligations or the development changed
    since, it is the text this run exports, and it compiles while the interpreter
    imports SymPy, builds the obligations and exports them (1.1 s of the run).  None
    without ``coqc`` (or a place to keep the text)."""
    import shutil

    binary = shutil.which("coqc")
    path = None if binary is None else _remembered(binary)
    if binary is None or path is None:
        return None
    try:
        text: str | None = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        text = None
    try:
        return EarlyCoqc(binary, text, path)
    except OSError:  # (coqc could not be started: run_coqc will say why)
        return None
