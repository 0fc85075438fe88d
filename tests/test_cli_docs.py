"""README's option tables are the parsers' own: one table per subcommand.

``python tests/test_cli_docs.py`` prints the tables for README.md.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from pla_proof.cli import COMMANDS, build_parser

README = Path(__file__).resolve().parent.parent / "README.md"
COMMON = {"--json", "--debug", "--time-limit", "--memory-limit", "--max-digits", "--max-exponent"}


def option_rows(name: str) -> list[tuple[str, str]]:
    parser = build_parser(name)
    sub: argparse.ArgumentParser = parser.get_default("_subparsers").choices[name]
    rows = []
    for action in sub._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        if action.option_strings:
            flag = max(action.option_strings, key=len)
            if flag in COMMON:
                continue
            if action.nargs == 0:
                label = flag
            elif action.choices:
                label = f"{flag} {{{','.join(map(str, action.choices))}}}"
            else:
                label = f"{flag} {action.metavar or action.dest.upper()}"
        else:
            label = str(action.metavar or action.dest)
        help_text = " ".join((action.help or "").split()).replace("|", "\\|")
        rows.append((label.replace("|", "\\|"), help_text))
    return rows


def table(name: str) -> str:
    lines = [f"**`pla-proof {name}`**", "", "| option | meaning |", "|---|---|"]
    lines += [f"| `{label}` | {text} |" for label, text in option_rows(name)]
    return "\n".join(lines)


def readme_block() -> str:
    text = README.read_text(encoding="utf-8")
    return text.split("<!-- options -->")[1].split("<!-- /options -->")[0]


@pytest.mark.parametrize("name", list(COMMANDS))
def test_readme_has_each_subcommands_option_table(name: str) -> None:
    assert table(name) in readme_block(), f"README's table for {name} is out of date"


def test_the_common_options_are_described_once_outside_the_tables() -> None:
    text = README.read_text(encoding="utf-8")
    for flag in COMMON:
        assert flag not in readme_block(), flag
        assert re.search(rf"`{flag}\b", text), flag


if __name__ == "__main__":
    print("\n\n".join(table(name) for name in COMMANDS))


def test_the_readmes_test_command_is_exactly_what_ci_runs() -> None:
    import tomllib

    from pla_proof.testing.profiles import PROFILES

    root = README.parent
    setup = README.read_text(encoding="utf-8").split("```")[1].strip().splitlines()
    assert setup[1] == "pip install -e '.[test]' && pytest"
    ci = (root / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    commands = [ln for ln in ci if ln.strip() and not ln.lstrip().startswith("#")]
    assert setup[1] in commands
    assert not [c for c in commands if "pytest" in c and c != setup[1]]  # no other test run
    assert not [c for c in commands if "HYPOTHESIS_PROFILE" in c]
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    pytest_ini = config["tool"]["pytest"]["ini_options"]
    # the default profile is deterministic, and the run uses every core
    assert PROFILES[pytest_ini["pla_proof_profile"]]["derandomize"]
    assert "-n auto" in pytest_ini["addopts"]
