"""The Coq library ``PlaPerceptron`` (the development and the algorithm inside Coq) and the
extracted program, built once and shared: by the tests of one session, by the workers of
pytest-xdist (a file lock) and by later sessions on the same machine (the directory is
named by a hash of the library's text and the tools' versions)."""

from __future__ import annotations

import functools
import shutil
import subprocess
import tempfile
from pathlib import Path

from pla_proof.proof.algorithm import compiled_library, compiled_program

COQC = shutil.which("coqc")
OCAMLOPT = shutil.which("ocamlopt")


@functools.cache
def _home() -> Path:
    """The package's own cached build (:func:`~pla_proof.proof.algorithm.compiled_library`):
    the library, compiled; the program is built beside it."""
    return compiled_library(coqc=COQC)


@functools.cache
def library_dir() -> Path:
    """The directory holding the compiled ``PlaPerceptron.vo``."""
    return _home()


@functools.cache
def program() -> Path:
    """The extracted, compiled program (``pla_perceptron``)."""
    return compiled_program(coqc=COQC)


def compiles_all(texts: list[str]) -> list[bool]:
    """:func:`compiles` for each text, two at a time (most of a compile is loading the
    library)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as pool:
        return list(pool.map(compiles, texts))


def coqc(text: str, name: str, *, check: bool = False) -> subprocess.CompletedProcess[str]:
    """``coqc`` on ``text`` (a file ``name.v`` that may ``Require`` the library)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{name}.v"
        path.write_text(text, encoding="utf-8")
        return subprocess.run(
            [COQC or "coqc", "-q", "-Q", str(library_dir()), "", path.name],
            cwd=tmp,
            capture_output=True,
            text=True,
            timeout=300,
            check=check,
        )


def compiles(text: str, name: str = "Certificate") -> bool:
    """Whether ``coqc`` accepts ``text`` (a file that ``Require``s the library)."""
    return coqc(text, name).returncode == 0
