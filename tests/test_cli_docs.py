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
