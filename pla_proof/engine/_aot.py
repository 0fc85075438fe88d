"""The former name of :mod:`pla_proof.engine.aot` (finding and loading the loops built
ahead of time), kept so that imports written before the rename keep working.  Building
the loops moved to :mod:`pla_proof.build_loops` (``python -m pla_proof.build_loops build
DIR``), above the engine."""

import sys

from .aot import ENTRIES, MODULE, find, key_of, sources_digest

__all__ = ["ENTRIES", "MODULE", "find", "key_of", "sources_digest"]

if __name__ == "__main__":
    print("the loops are built by: python -m pla_proof.build_loops build DIR", file=sys.stderr)
    raise SystemExit(2)
