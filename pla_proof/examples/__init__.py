"""Runnable examples shipped with the package, so the README's commands work from a wheel.

=========================  ============================================================
``half_step_margin.py``    the README's user variant (``HalfStepMargin``):
                           ``pla-proof check pla_proof.examples.half_step_margin:variant``
``perceptrons.py``         ``fit(X, y)`` classes in the common shapes and broken twins:
                           ``pla-proof check --fit pla_proof.examples.perceptrons:Textbook``
``students.csv``           Lin's admission table (train it with ``--bias augment``)
``decimals.csv``           decimal data, read exactly (0.1 is 1/10)
``xor.csv``                XOR: not separable, with or without a bias (exit 3)
=========================  ============================================================

``python -m pla_proof.examples`` lists them with their paths, ``python -m
pla_proof.examples NAME`` prints one path (``pla-proof bound "$(python -m
pla_proof.examples students.csv)" --bias augment``), and ``--copy DIR`` copies them all
into a directory of your own, to edit.

>>> sorted(EXAMPLES)
['decimals.csv', 'half_step_margin.py', 'perceptrons.py', 'students.csv', 'xor.csv']
>>> from pla_proof.data import read_csv
>>> read_csv(path("xor.csv")).n
4
"""

from __future__ import annotations

import argparse
import shutil
import sys
from collections.abc import Sequence
from importlib.resources import files
from pathlib import Path

__all__ = ["EXAMPLES", "main", "path"]

#: Each example file and what it shows.
EXAMPLES = {
    "half_step_margin.py": "a user variant: half steps while y w.x <= 1 (pla-proof check)",
    "perceptrons.py": "fit(X, y) classes as people write them, and broken twins (check --fit)",
    "students.csv": "Lin's admission table; train with --bias augment",
    "decimals.csv": "decimal data, read exactly (0.1 is 1/10)",
    "xor.csv": "XOR: not separable, with or without a bias (exit 3)",
}


def path(name: str) -> Path:
    """The path of an example file inside the installed package."""
    if name not in EXAMPLES:
        raise KeyError(f"no example {name!r} (choose {', '.join(sorted(EXAMPLES))})")
    return Path(str(files(__name__).joinpath(name)))


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m pla_proof.examples [NAME] [--copy DIR]``."""
    parser = argparse.ArgumentParser(
        prog="python -m pla_proof.examples", description="pla_proof's example files"
    )
    parser.add_argument("name", nargs="?", help="print this example's path")
    parser.add_argument("--copy", metavar="DIR", help="copy every example into DIR")
    args = parser.parse_args(argv)
    if args.name is not None:
        try:
            print(path(args.name))
        except KeyError as exc:
            print(f"python -m pla_proof.examples: error: {exc.args[0]}", file=sys.stderr)
            return 2
        return 0
    if args.copy is not None:
        target = Path(args.copy)
        try:
            target.mkdir(parents=True, exist_ok=True)
            for name in EXAMPLES:
                shutil.copyfile(path(name), target / name)
        except OSError as exc:
            print(
                f"python -m pla_proof.examples: error: {args.copy}: {exc.strerror}", file=sys.stderr
            )
            return 2
        print(f"copied {len(EXAMPLES)} examples to {target}")
        return 0
    for name, what in EXAMPLES.items():
        print(f"{name:22} {what}\n{'':22} {path(name)}")
    return 0
