"""The build step pyproject.toml cannot declare: the engine's compiled loops, built ahead
of time into the extension module ``pla_proof.engine._loops`` (see
``pla_proof/build_loops.py``).  Everything else is in pyproject.toml.

The module is optional: if it cannot be built (no C compiler), the package installs
without it, says so, and numba compiles the loops on their first call instead.
``PLA_PROOF_NO_AOT=1`` at build time skips it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
# pla_proof.engine.aot.INDEX and FAST_INDEX: what the module was built for (JSON, and the
# same in marshal's format)
INDEXES = ("_loops.json", "_loops.index")


class BuildLoops(build_ext):
    """Runs ``python -m pla_proof.build_loops build DIR`` from the source tree."""

    def build_extension(self, ext: Extension) -> None:
        target = Path(self.get_ext_fullpath(ext.name)).resolve()
        target.parent.mkdir(parents=True, exist_ok=True)
        if os.environ.get("PLA_PROOF_NO_AOT", "") not in ("", "0"):
            print("pla_proof: PLA_PROOF_NO_AOT is set: the loops are not built ahead of time")
            return
        # the source tree first; then pip's isolated build environment (numba, numpy),
        # which pip puts on PYTHONPATH
        path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
        env = {**os.environ, "PYTHONPATH": path, "PYTHONDONTWRITEBYTECODE": "1"}
        env.pop("PLA_PROOF_NO_JIT", None)
        out = subprocess.run(
            [sys.executable, "-m", "pla_proof.build_loops", "build", str(target.parent)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
        if out.returncode != 0:
            tail = (out.stderr or out.stdout).strip().splitlines()[-1:]
            print(
                "pla_proof: WARNING: the compiled loops were not built ahead of time "
                f"({' '.join(tail) or 'no output'}); numba will compile them on first use",
                file=sys.stderr,
            )
            return
        print(out.stdout.strip())

    def copy_extensions_to_source(self) -> None:
        """An editable install: the module and its index go beside the sources."""
        super().copy_extensions_to_source()
        build_py = self.get_finalized_command("build_py")
        for ext in self.extensions:
            inplace, regular = self._get_inplace_equivalent(build_py, ext)
            for name in INDEXES:
                index = Path(regular).parent / name
                if index.exists():
                    self.copy_file(str(index), str(Path(inplace).parent / name), level=self.verbose)


setup(
    ext_modules=[Extension("pla_proof.engine._loops", sources=[], optional=True)],
    cmdclass={"build_ext": BuildLoops},
)
