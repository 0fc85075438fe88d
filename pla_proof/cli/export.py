"""``pla-proof export --coq FILE``: every obligation of the proof as a Coq lemma.

The file compiles with ``coqc FILE`` (Debian package ``coq``).  Obligations that
cannot be exported are named on stderr and the exit code is 1; ``verify --coq``
compiles the same file and reports, per obligation, whether Coq agrees.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import InputError
from .common import emit_json


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--coq", metavar="FILE", required=True, help="write the Coq file here")


def run(args: argparse.Namespace) -> int:
    from ..proof.coq import export, kernel_theorems
    from ..proof.obligations import all_obligations

    path = Path(args.coq)
    if path.suffix != ".v":
        raise InputError(f"--coq {path}: a Coq file name must end in .v")
    if not path.parent.is_dir():
        raise InputError(f"--coq {path}: directory {path.parent} does not exist")
    obligations = all_obligations()
    result = export(obligations, development=True)
    theorems = [t.name for t in kernel_theorems(ob.id for ob in obligations)]
    path.write_text(result.text, encoding="utf-8")
    if args.json:
        emit_json(
            {
                "file": str(path),
                "exported": result.exported,
                "not_exported": result.skipped,
                "theorems": theorems,
            }
        )
    else:
        print(
            f"wrote {path}: {len(result.exported)} lemmas and the development built on them "
            f"({len(theorems)} theorems; compile with: coqc {path})"
        )
    for why in result.skipped.values():
        print(f"pla-proof export: not exported: {why}", file=sys.stderr)
    return 0 if not result.skipped else 1
