"""The ``pla-proof`` command.

Exit codes (DESIGN.md): 0 all checks hold, 1 a check failed, 2 bad input or
usage, 3 data not separable or budget exhausted.  Bad input is reported on one
line of stderr, never as a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

from ..errors import InputError

__all__ = ["COMMANDS", "main"]

#: command name -> (module implementing it, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "verify": ("pla_proof.cli.verify", "check every obligation of the proof (SymPy and Z3)"),
    "explain": ("pla_proof.cli.explain", "walk through the proof with a real run's numbers"),
    "trace": (
        "pla_proof.cli.trace",
        "run the Perceptron and check every invariant at every update",
    ),
    "bound": (
        "pla_proof.cli.bound",
        "optimal margin, tight bound and update counts, or a certificate",
    ),
    "certify": ("pla_proof.cli.certify", "validate an external separator exactly"),
    "check": ("pla_proof.cli.check", "property-check a Perceptron variant against its claim"),
    "export": ("pla_proof.cli.export", "write every obligation as a Coq lemma (--coq FILE)"),
    "plot": ("pla_proof.cli.plot", "draw a teaching figure (hyperplane, sandwich, geometry, ...)"),
}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="pla-proof",
        description="A checked proof companion for the Perceptron convergence theorem.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, (module, help_text) in COMMANDS.items():
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name == module:
                continue  # command not available in this build
            raise
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.add_argument("--json", action="store_true", help="print one JSON object on stdout")
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        code: int = args._run(args)
    except InputError as exc:
        print(f"pla-proof {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"pla-proof {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
