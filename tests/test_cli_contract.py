"""The exit-code contract of every command, option tables, conflicts and fast start."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import pla_proof.cli as cli
from pla_proof.cli import COMMANDS, EXIT, build_parser, main
from pla_proof.cli.common import RULES


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_process(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pla_proof", *argv], capture_output=True, text=True, timeout=120
    )


def test_an_unexpected_exception_is_one_line_exit_4_and_debug_shows_the_traceback(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from pla_proof.cli import certify

    def broken(*args: object, **kw: object) -> None:
        raise ZeroDivisionError("deliberately broken")

    monkeypatch.setattr(certify, "print_certification", broken)
    code, _, err = run_cli(capsys, "certify", "orthonormal:2", "1,-1")
    assert code == EXIT["internal"] == 4
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("pla-proof certify: internal error: ZeroDivisionError: deliberately")
    assert "--debug" in err
    code, _, err = run_cli(capsys, "certify", "orthonormal:2", "1,-1", "--debug")
    assert code == 4 and "Traceback" in err and "deliberately broken" in err


def test_enomem_under_the_memory_limit_is_the_memory_limit(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An import that cannot list a directory under the address-space limit raises
    OSError(ENOMEM), not MemoryError: that is the limit (exit 3), not a bug -- and
    without a limit the same error stays a bug (exit 4)."""
    import errno

    from pla_proof.cli import certify

    def starved(*args: object, **kw: object) -> None:
        raise OSError(errno.ENOMEM, "Cannot allocate memory", "pla_proof/data")

    monkeypatch.setattr(certify, "print_certification", starved)
    code, _, err = run_cli(capsys, "certify", "orthonormal:2", "1,-1", "--memory-limit", "500")
    assert code == 3 and err.startswith("pla-proof certify: memory limit of 500 MiB reached")
    code, _, err = run_cli(capsys, "certify", "orthonormal:2", "1,-1", "--memory-limit", "0")
    assert code == 4 and "internal error: OSError" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["trace", "students", "--nope"], "pla-proof trace: error: unrecognized arguments: --nope"),
        (["bound", "students", "--rule", "first"], "pla-proof bound: error: unrecognized"),
        (["explain", "--json", "--markdown"], "--json and --markdown cannot be used together"),
        (["trace", "orthonormal:3", "--replay", "1,2,3", "--rule", "first"], "--replay and"),
        (["check", "classic", "--list"], "--list and VARIANT cannot be used together"),
        (["trace", "orthonormal:2", "--rule", "sideways"], "pla-proof trace: error: argument"),
        (["trace", "students", "--time-limit", "-1"], "must be >= 0"),
        (["trace", "students", "--max-digits", "0"], "--max-digits must be a positive"),
        (["check", "sys:exit"], "pla-proof check: error: the code it ran exited the interpreter"),
        (["nosuchcommand"], "invalid choice"),
    ],
)
def test_usage_errors_name_the_subcommand_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err, err


def test_negative_numbers_are_values_wherever_a_vector_is(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run_cli(capsys, "certify", "orthonormal:3", "-1,2,0", "--json")
    assert code == 1 and [v["exact"] for v in json.loads(out)["w"]] == ["-1", "2", "0"]
    code, out, _ = run_cli(capsys, "trace", "orthonormal:2", "--comparator", "-1,-1", "--json")
    assert code == 2  # parsed as a value: the comparator is refused for what it is
    code, out, _ = run_cli(capsys, "trace", "orthonormal:2", "--comparator", "1,-1", "--json")
    assert code == 0 and json.loads(out)["comparator"]["u"][1]["exact"] == "-1"
    code, out, _ = run_cli(capsys, "certify", "orthonormal:2", "-.5,-1/2")
    assert code == 1 and "(-1/2, -1/2)" in out


def test_version_comes_from_the_installed_metadata(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    import pla_proof

    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"pla-proof {version('pla_proof')}"
    assert pla_proof.__version__ == version("pla_proof")


def test_writing_to_a_full_device_is_a_clean_error(tmp_path: Path) -> None:
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    proc = run_process("explain", "orthonormal:2", "-o", "/dev/full")
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "cannot write the output (No space left on device)" in proc.stderr
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "pla_proof", "trace", "orthonormal:2", "--json"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    assert proc.returncode == 2 and "cannot write the output" in proc.stderr
    assert "Traceback" not in proc.stderr and "Exception ignored" not in proc.stderr
    for argv in (["--help"], ["--version"], ["certify", "--help"]):
        with open("/dev/full", "w") as full:
            proc = subprocess.run(
                [sys.executable, "-m", "pla_proof", *argv],
                stdout=full,
                stderr=subprocess.PIPE,
                text=True,
                timeout=120,
            )
        assert proc.returncode == 2, argv
        assert proc.stderr.endswith("cannot write the output (No space left on device)\n")
        assert proc.stderr.count("\n") == 1


#: a run no engine finishes in a second: it ends at its budget of 10^8 updates (the data
#: with margin 1/1000 already need 500,001)
LONG_RUN = ("trace", "maxviol:1/1000000", "--rule", "maxviol", "--budget", "100000000")


def test_the_time_limit_ends_a_long_run_cleanly() -> None:
    proc = run_process(*LONG_RUN, "--time-limit", "1")
    assert proc.returncode == 3 and proc.stdout == ""
    assert proc.stderr.strip() == (
        "pla-proof trace: time limit of 1 s reached "
        "(raise it with --time-limit SECONDS, 0 for none)"
    )


def test_the_time_limit_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, *LONG_RUN, "--time-limit", "0.5")
    assert code == 3 and "time limit of 0.5 s reached" in err


def test_the_memory_limit_ends_cleanly(tmp_path: Path) -> None:
    proc = run_process("trace", "orthonormal:300", "--memory-limit", "60")
    assert proc.returncode == 3, proc.stderr
    assert proc.stderr.strip().startswith("pla-proof trace: memory limit of 60 MiB reached")


def test_a_file_shadowing_a_builtin_is_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("xor").write_text("1,1\n")
    code, out, err = run_cli(capsys, "trace", "xor")
    assert code == 0 and "n=1" in out
    assert "note: 'xor' is the file ./xor; the built-in data set of that name is builtin:xor" in err
    code, out, _ = run_cli(capsys, "trace", "builtin:xor")
    assert code == 3 and "n=4" in out


def test_a_missing_optional_package_names_the_extra(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from pla_proof.cli import certify

    def needs(*args: object, **kw: object) -> None:
        raise ModuleNotFoundError("No module named 'matplotlib'", name="matplotlib")

    monkeypatch.setattr(certify, "print_certification", needs)
    code, _, err = run_cli(capsys, "certify", "orthonormal:2", "1,-1")
    assert code == 2
    assert err.strip() == (
        "pla-proof certify: error: needs the Python package 'matplotlib' "
        "(pip install 'pla_proof[plot]')"
    )


def test_trace_on_non_separable_data_ends_with_a_certificate_when_the_budget_runs_out(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # 60 points with flipped labels: no cycle within 50 updates, the LP proves it
    import numpy as np

    rng = np.random.default_rng(3)
    X = rng.integers(-20, 21, size=(60, 4))
    y = np.where(X @ np.array([3, -1, 2, 1]) >= 0, 1, -1)
    y[:3] = -y[:3]
    path = tmp_path / "flipped.csv"
    np.savetxt(path, np.column_stack([X, y]), fmt="%d", delimiter=",")
    code, out, _ = run_cli(capsys, "trace", str(path), "--budget", "50")
    assert code == 3
    assert "not separable: the budget of 50 updates ran out" in out
    assert "verified exactly" in out
    code, out, _ = run_cli(capsys, "trace", str(path), "--budget", "50", "--json")
    obj = json.loads(out)
    assert obj["status"] == "not_separable" and obj["certificate"]["source"] != "cycle"
    code, out, _ = run_cli(capsys, "explain", str(path), "--budget", "50")
    assert code == 3 and "NOT linearly separable" in out and "Raise --budget" not in out


def test_rules_listed_for_the_parser_are_the_trainers() -> None:
    from pla_proof.trainer import RULES as TRAINER_RULES

    assert TRAINER_RULES == RULES


HEAVY = ("numpy", "sympy", "z3", "scipy", "hypothesis", "numba", "rich", "tabulate")


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_help_imports_no_heavy_library(command: str | None) -> None:
    argv = ["--help"] if command is None else [command, "--help"]
    code = (
        "import sys\n"
        "from pla_proof.cli import main\n"
        f"rc = main({argv!r})\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip().splitlines()[-1] == "[]", proc.stdout


def test_every_subcommand_parser_builds_and_shares_the_common_options() -> None:
    parser = build_parser()
    sub = parser.get_default("_subparsers")
    for name in COMMANDS:
        dests = {a.dest for a in sub.choices[name]._actions}
        assert {"json", "time_limit", "memory_limit"} <= dests, name
    assert cli.CONFLICTS.keys() <= COMMANDS.keys()


def test_the_time_limit_waits_for_the_compiler_to_return() -> None:
    # An asynchronous exception inside numba or LLVM leaves them half-built (a segmentation
    # fault followed when LLVM disposed of a module): the limit is raised only once the
    # thread is out of compiler code -- here code that claims to be numba's, for 0.4 s.
    import time

    import numba  # noqa: F401  (the limit looks for the compiler once numba is loaded)

    from pla_proof.cli.budget import BudgetExceeded, CommandBudget

    fake = compile(
        "def busy(seconds):\n"
        "    import time\n"
        "    end = time.monotonic() + seconds\n"
        "    while time.monotonic() < end:\n"
        "        pass\n",
        os.path.join(os.sep, "site-packages", "numba", "core", "compiler_fake.py"),
        "exec",
    )
    space: dict[str, object] = {}
    exec(fake, space)
    start = time.monotonic()
    left_compiler = None
    with pytest.raises(BudgetExceeded), CommandBudget("trace", 0.1, 0, process=False):
        space["busy"](0.4)  # type: ignore[operator]
        left_compiler = time.monotonic() - start
        while True:
            pass
    assert left_compiler is not None and left_compiler >= 0.4


_EXITING = """
import atexit, sys, threading, time
sys.argv = ["pla-proof", *sys.argv[1:]]
atexit.register(lambda: print("exit handler ran", file=sys.stderr))
if "--thread" in sys.argv:
    sys.argv.remove("--thread")
    def late():
        time.sleep(0.3)
        print("thread finished", file=sys.stderr)
    threading.Thread(target=late).start()
from pla_proof.cli import main
main()
print("main returned", file=sys.stderr)
"""


def test_the_program_ends_itself_after_its_output_and_exit_handlers() -> None:
    """Run as the program, ``main()`` ends the process (no teardown of every module)
    with the command's exit code, its whole output written and the exit handlers run."""
    full = run_process("trace", "students")
    ended = subprocess.run(
        [sys.executable, "-c", _EXITING, "trace", "students"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ended.returncode == full.returncode == 0
    assert ended.stdout == full.stdout and "separates every point" in ended.stdout
    assert "exit handler ran" in ended.stderr
    assert "main returned" not in ended.stderr  # it did not come back
    bad = subprocess.run(
        [sys.executable, "-c", _EXITING, "trace", "missing.csv"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == EXIT["usage"] and "missing.csv" in bad.stderr


def test_the_program_exits_normally_while_a_thread_still_runs() -> None:
    """A thread Python would wait for: the normal exit, which waits for it."""
    out = subprocess.run(
        [sys.executable, "-c", _EXITING, "--thread", "--help"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0
    assert "main returned" in out.stderr and "thread finished" in out.stderr


def test_main_called_with_arguments_returns(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(capsys, "trace", "students")[0] == 0  # (this process is still here)
