"""The ``pla-proof`` command: one parser, one exit-code contract for every subcommand.

Exit codes (``docs/cli.md``):

* **0** every check holds;
* **1** a check failed (a violation, an unproved obligation, a failing property,
  weights that do not separate);
* **2** bad input or usage: one line on stderr naming the command and the problem;
* **3** the data are not separable, or a budget ran out (updates, time, memory), or
  a check's worker process died outside users' code (no verdict);
* **4** internal error -- a bug in pla_proof: one line on stderr naming the
  command and the exception; ``--debug`` prints the traceback;
* **130** interrupted (Ctrl-C).

The parser is built lazily: ``pla-proof --help`` imports no subcommand, and
``pla-proof trace ...`` imports only ``trace``'s module, so help and input
errors come back without loading SymPy, Z3, SciPy or Hypothesis.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib
import os
import re
import sys
import traceback
from collections.abc import Sequence
from typing import Any, NoReturn

__all__ = ["COMMANDS", "CONFLICTS", "EXIT", "build_parser", "main"]

#: the exit codes, by meaning
EXIT = {
    "ok": 0,
    "failed": 1,
    "usage": 2,
    "no_conclusion": 3,
    "internal": 4,
    "unchecked": 5,
    "interrupted": 130,
}

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
    "audit": (
        "pla_proof.cli.audit",
        "check a Coq certificate as a reviewer would: its statements, numbers and axioms",
    ),
    "check": ("pla_proof.cli.check", "property-check a Perceptron variant against its claim"),
    "export": ("pla_proof.cli.export", "write every obligation as a Coq lemma (--coq FILE)"),
    "plot": ("pla_proof.cli.plot", "draw a teaching figure (hyperplane, sandwich, geometry, ...)"),
}

#: options that contradict each other: command -> pairs of argument names
CONFLICTS: dict[str, tuple[tuple[str, str], ...]] = {
    "explain": (("json", "markdown"), ("comparator", "optimal")),
    "trace": (("replay", "rule"), ("replay", "seed"), ("comparator", "optimal")),
    "plot": (("comparator", "optimal"),),
    "check": (("list", "variant"), ("list", "replay")),
}

#: seconds beyond --time-limit before the budget ends a command that ends itself there
#: with a verdict on what it did (check: its search stops before the limit)
BUDGET_SLACK = {"check": 10.0}

#: commands that read numbers (and so take --max-digits / --max-exponent)
_READS_NUMBERS = ("explain", "trace", "bound", "certify", "check")

#: a third-party module a command may need -> the extra that installs it
EXTRAS = {
    "sklearn": "sklearn",
    "mlxtend": "mlxtend",
    "matplotlib": "plot",
    "playwright": "html",
    "redis": "redis",
}

#: an argument made of numbers (a vector like -1,2,0 or a negative value like -0.5):
#: never an option, however it starts
_NUMBERS = re.compile(r"-[0-9.][0-9.,eE+\-/ ]*")


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (exit 2) and negative numbers as values."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")

    def _print_message(self, message: str, file: Any = None) -> None:
        # argparse ignores write errors; a full device is reported like any output error
        if message:
            (file if file is not None else sys.stderr).write(message)

    def _parse_optional(self, arg_string: str) -> Any:
        if _NUMBERS.fullmatch(arg_string):
            return None  # a value, not an option: certify DATA -1,2,0; --comparator -1,1
        return super()._parse_optional(arg_string)


class _Version(argparse.Action):
    """``--version``: the metadata is read only when asked for (it costs ~80 ms)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        print(f"pla-proof {version()}")
        parser.exit()


def version() -> str:
    """The installed version (one source: the package metadata)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as _version

    try:
        return _version("pla_proof")
    except PackageNotFoundError:  # pragma: no cover - running from an uninstalled tree
        return "unknown (not installed)"


def _add_common(p: argparse.ArgumentParser, name: str) -> None:
    from .budget import CommandBudget

    seconds, megabytes = CommandBudget.defaults()
    time_help = f"end cleanly (exit 3) after SECONDS (default {seconds:g}; 0: none)"
    time_default: float | None = seconds
    if name == "check":  # its own default (cli/check.py: default_time_limit)
        time_help = (
            "the whole check's time: when it runs out the search stops and reports what it "
            "did, verdict inconclusive (exit 3) unless a property failed (default 120 s per "
            "variant named, 600 s with --all, $PLA_PROOF_TIME_LIMIT when set; 0: none)"
        )
        time_default = None
    p.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    p.add_argument(
        "--debug",
        action="store_true",
        default=argparse.SUPPRESS,
        help="on an internal error, print the full traceback",
    )
    g = p.add_argument_group("limits")
    g.add_argument(
        "--time-limit",
        type=float,
        default=time_default,
        metavar="SECONDS",
        help=time_help,
    )
    g.add_argument(
        "--memory-limit",
        type=int,
        default=megabytes,
        metavar="MIB",
        help=f"address-space limit of the process in MiB (default {megabytes}; 0: none)",
    )
    if name in _READS_NUMBERS:
        from ..numbers import LIMITS

        for flag, default, what in (
            ("--max-digits", LIMITS.max_digits, "numbers with more than N digits"),
            ("--max-exponent", LIMITS.max_exponent, "decimal exponents beyond +-N"),
        ):
            g.add_argument(
                flag,
                type=int,
                default=default,
                metavar="N",
                help=f"refuse {what} (default {default})",
            )


def build_parser(command: str | None = None, *, load: bool = True) -> argparse.ArgumentParser:
    """The parser; subcommands' own options are added for ``command`` only (every
    subcommand when ``command`` is None and ``load`` is true)."""
    parser = _Parser(
        prog="pla-proof",
        description="A checked proof companion for the Perceptron convergence theorem.",
        epilog="exit codes: 0 checks hold, 1 a check failed, 2 bad input or usage, "
        "3 not separable or a budget ran out, 4 internal error, 5 check: too little was "
        "checked to pass. See docs/cli.md.",
        allow_abbrev=False,
    )
    parser.add_argument("--version", action=_Version, help="print the version and exit")
    parser.add_argument("--debug", action="store_true", help="print tracebacks of internal errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, (module, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text, allow_abbrev=False)
        if load and command in (None, name):
            mod = importlib.import_module(module)
            mod.add_arguments(p)
            _add_common(p, name)
        p.set_defaults(_module=module)
    parser.set_defaults(_subparsers=sub)
    return parser


def _find_command(argv: Sequence[str]) -> str | None:
    for token in argv:
        if token in COMMANDS:
            return token
        if not token.startswith("-"):
            return None
    return None


def _given(
    argv: Sequence[str], parser: argparse.ArgumentParser, args: argparse.Namespace, dest: str
) -> bool:
    """Whether the argument ``dest`` was written on the command line."""
    for action in parser._actions:
        if action.dest != dest:
            continue
        if not action.option_strings:  # a positional: given when it has a value
            return getattr(args, dest, None) not in (None, action.default)
        return any(t == o or t.startswith(o + "=") for t in argv for o in action.option_strings)
    return False


def _subparser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    sub = parser.get_default("_subparsers")
    found: argparse.ArgumentParser = sub.choices[name]
    return found


def _missing(exc: ModuleNotFoundError, command: str) -> str:
    name = (exc.name or "").split(".")[0]
    extra = EXTRAS.get(name)
    how = f"pip install 'pla_proof[{extra}]'" if extra else f"pip install {name}"
    return f"pla-proof {command}: error: needs the Python package {name!r} ({how})"


def _silence_stdout() -> None:
    """After a failed write, point stdout at /dev/null so that the interpreter's own
    flush at exit cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


_OUTPUT_ERRNOS = {errno.ENOSPC, errno.EFBIG, errno.EIO, errno.EDQUOT, errno.EROFS}


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit code (never raises, never prints a traceback
    unless ``--debug`` asks for it).  Run as the program (no ``argv``), it ends the
    process itself once the output is written (:func:`_leave`)."""
    code = _main(argv)
    if argv is None:
        _leave(code)
    return code


def _leave(code: int) -> None:
    """End the process with ``code`` without the interpreter's teardown of every module
    (0.10-0.17 s once SymPy, Hypothesis and numpy are loaded): the output is flushed and
    the exit handlers other code registered run first.  Where that cannot be done
    cleanly -- a write fails, a thread Python would wait for still runs, a profiler or
    tracer is on -- the normal exit happens."""
    import atexit
    import threading

    main = threading.main_thread()
    if any(t is not main and not t.daemon for t in threading.enumerate()):
        return  # Python would wait for it
    if sys.getprofile() is not None or sys.gettrace() is not None:
        return  # a profiler or a tracer writes its results after main() returns
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    os._exit(code)


def _main(argv: Sequence[str] | None) -> int:
    process = argv is None
    args_list = list(sys.argv[1:] if argv is None else argv)
    command = _find_command(args_list)
    try:
        parser = build_parser(command)
    except ModuleNotFoundError as exc:
        print(_missing(exc, command or "?"), file=sys.stderr)
        return EXIT["usage"]
    try:
        args, extra = parser.parse_known_args(args_list)
        if extra:
            target = _subparser(parser, command) if command else parser
            target.error(f"unrecognized arguments: {' '.join(extra)}")
        if command is None:
            parser.print_help(sys.stderr)
            return EXIT["usage"]
        sub = _subparser(parser, command)
        for a, b in CONFLICTS.get(command, ()):
            if _given(args_list, sub, args, a) and _given(args_list, sub, args, b):
                sub.error(f"{_flag(sub, a)} and {_flag(sub, b)} cannot be used together")
    except SystemExit as exc:  # argparse: --help, --version, or a usage error
        code = exc.code if isinstance(exc.code, int) else EXIT["usage"]
        return code if _flushed(command) else EXIT["usage"]
    except OSError as exc:  # --help or --version written to a full device
        return EXIT["usage"] if _write_failed(command, exc) else _internal("pla-proof", exc, False)
    return _run(command, args, process=process)


def _flushed(command: str | None) -> bool:
    """Flush stdout; a failure is reported as the command's one-line error."""
    try:
        sys.stdout.flush()
    except OSError as exc:
        return not _write_failed(command, exc)
    return True


def _write_failed(command: str | None, exc: OSError) -> bool:
    if exc.errno not in _OUTPUT_ERRNOS and not isinstance(exc, BrokenPipeError):
        return False
    _silence_stdout()
    if not isinstance(exc, BrokenPipeError):
        name = f"pla-proof {command}" if command else "pla-proof"
        print(f"{name}: error: cannot write the output ({exc.strerror})", file=sys.stderr)
    return True


def _flag(parser: argparse.ArgumentParser, dest: str) -> str:
    for action in parser._actions:
        if action.dest == dest:
            if action.option_strings:
                return action.option_strings[-1]
            return str(action.metavar or dest)
    return dest


def _run(command: str, args: argparse.Namespace, *, process: bool) -> int:
    from ..errors import HarnessFailure, InputError
    from ..numbers import limits
    from ..render.progress import Progress
    from ..variants.boundary.exits import guarded_exit
    from . import common
    from .budget import BudgetExceeded, CommandBudget

    debug = bool(getattr(args, "debug", False))
    name = f"pla-proof {command}"
    if args.time_limit is None:  # a command with a default of its own (check)
        args.time_limit = importlib.import_module(args._module).default_time_limit(args)
    slack = BUDGET_SLACK.get(command, 0.0) if args.time_limit else 0.0
    budget = CommandBudget(command, args.time_limit + slack, args.memory_limit, process=process)
    if args.time_limit < 0 or args.memory_limit < 0:
        print(f"{name}: error: --time-limit and --memory-limit must be >= 0", file=sys.stderr)
        return EXIT["usage"]
    progress = Progress(name)
    common.begin(command, args)
    try:
        with (
            limits(
                max_digits=getattr(args, "max_digits", None),
                max_exponent=getattr(args, "max_exponent", None),
            ),
            budget,
            guarded_exit(),
        ):
            progress.start()
            try:
                module = importlib.import_module(args._module)
                with _stdout_for(args):
                    code: int = module.run(args)
                sys.stdout.flush()
            finally:
                progress.stop()
        return code
    except InputError as exc:
        print(f"{name}: error: {_one_line(str(exc))}", file=sys.stderr)
        return EXIT["usage"]
    except BudgetExceeded:
        progress.stop()
        print(budget.message(), file=sys.stderr)
        return EXIT["no_conclusion"]
    except HarnessFailure as exc:  # a worker died outside users' code: no verdict
        print(f"{name}: {_one_line(str(exc))}", file=sys.stderr)
        return EXIT["no_conclusion"]
    except KeyboardInterrupt:
        print(f"{name}: interrupted", file=sys.stderr)
        return EXIT["interrupted"]
    except SystemExit as exc:
        print(
            f"{name}: error: the code it ran exited the interpreter (SystemExit({exc.code!r}))",
            file=sys.stderr,
        )
        return EXIT["usage"]
    except Exception as exc:
        return _unexpected(name, command, exc, args, debug)
    finally:
        common.end()


def _stdout_for(args: argparse.Namespace) -> Any:
    """With ``--json``, standard output holds the JSON document only (users' prints go
    to standard error)."""
    if not getattr(args, "json", False):
        return contextlib.nullcontext()
    from ..render.jsonout import document_only

    return document_only()


def _unexpected(
    name: str, command: str, exc: Exception, args: argparse.Namespace, debug: bool
) -> int:
    """Every exception that is not bad input: out of memory, a full disk, a broken
    pipe, a missing optional package -- or a bug (exit 4)."""
    if _caused_by(exc, MemoryError) or (args.memory_limit and _failed_mapping(exc)):
        print(
            f"{name}: memory limit of {args.memory_limit} MiB reached "
            "(raise it with --memory-limit MIB, 0 for none)",
            file=sys.stderr,
        )
        return EXIT["no_conclusion"]
    if isinstance(exc, BrokenPipeError):
        _silence_stdout()
        return EXIT["ok"]
    if isinstance(exc, ModuleNotFoundError) and not (exc.name or "").startswith("pla_proof"):
        print(_missing(exc, command), file=sys.stderr)
        return EXIT["usage"]
    if isinstance(exc, OSError) and exc.errno in _OUTPUT_ERRNOS:
        _silence_stdout()
        print(f"{name}: error: cannot write the output ({exc.strerror})", file=sys.stderr)
        return EXIT["usage"]
    return _internal(name, exc, debug)


def _failed_mapping(exc: BaseException) -> bool:
    """A shared library that could not be mapped, or a system call that could not
    allocate (``ENOMEM``, e.g. listing a directory during an import), under the
    address-space limit."""
    if any(isinstance(e, OSError) and e.errno == errno.ENOMEM for e in _chain(exc)):
        return True
    text = " ".join(str(e) for e in (exc, exc.__cause__, exc.__context__) if e is not None)
    return isinstance(exc, ImportError) and (
        "failed to map segment" in text or "cannot allocate memory" in text.lower()
    )


def _chain(exc: BaseException) -> list[BaseException]:
    """``exc`` and its causes and contexts."""
    out: list[BaseException] = []
    cur: BaseException | None = exc
    while cur is not None and all(cur is not e for e in out):
        out.append(cur)
        cur = cur.__cause__ or cur.__context__
    return out


def _caused_by(exc: BaseException, kind: type[BaseException]) -> bool:
    """Whether ``kind`` is ``exc`` or in its chain of causes (an import that failed
    because memory ran out is an ImportError caused by a MemoryError)."""
    return any(isinstance(e, kind) for e in _chain(exc))


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _internal(name: str, exc: BaseException, debug: bool) -> int:
    if debug:
        traceback.print_exception(exc, file=sys.stderr)
    detail = _one_line(str(exc))[:300]
    print(
        f"{name}: internal error: {type(exc).__name__}: {detail} "
        "(a bug in pla_proof; rerun with --debug for the traceback)",
        file=sys.stderr,
    )
    return EXIT["internal"]


def console_main() -> NoReturn:
    """The ``pla-proof`` program (``python -m pla_proof``): the process is the command."""
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    console_main()
