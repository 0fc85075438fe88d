"""Running ``coqc``: its flags, a working directory of the user's alone per ``coqc``
(:func:`coqc_home`, where micromega keeps its certificates between runs), and the early
start of ``verify --coq`` (:func:`start_coqc`: ``coqc`` begins on the text the last run
compiled, and :func:`pla_proof.proof.coq.run_coqc` takes it only for the very same text).

>>> COQ_FLAGS
('-q', '-no-glob')
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import subprocess
import tempfile
import time
from pathlib import Path

__all__ = ["COQ_FILE", "COQ_FLAGS", "EarlyCoqc", "coqc_home", "start_coqc"]


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
