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


def test_user_facing_text_names_the_sources_by_author_and_title(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The five source documents are named by author and title ("Kalyanakrishnan's
    note", "the Cornell CS4780 notes", ...), not by their file numbers: only
    docs/sources.md, which keeps the mapping, mentions "seed 000" ... "seed 004"."""
    from pla_proof.cli import main

    seed = re.compile(r"[Ss]eeds? 00[0-4]")
    root = README.parent
    texts = {"README.md": README.read_text(encoding="utf-8")}
    for doc in sorted((root / "docs").glob("*.md")):
        if doc.name != "sources.md":
            texts[f"docs/{doc.name}"] = doc.read_text(encoding="utf-8")
    for name in COMMANDS:
        texts[f"pla-proof {name} --help"] = build_parser(name).format_help() + "".join(
            p.format_help() for p in _subparsers(build_parser(name)) if p.prog.endswith(name)
        )
    page = tmp_path / "students.html"
    assert main(["explain", "students", "--html", str(page)]) == 0
    texts["explain --html"] = page.read_text(encoding="utf-8")
    assert main(["explain", "students", "--markdown"]) == 0
    texts["explain --markdown"] = capsys.readouterr().out
    assert main(["check", "--list"]) == 0
    texts["check --list"] = capsys.readouterr().out
    found = {where: seed.findall(text) for where, text in texts.items()}
    assert not {w: f for w, f in found.items() if f}, found
    assert "Kalyanakrishnan" in texts["explain --markdown"]
    sources = (root / "docs" / "sources.md").read_text(encoding="utf-8")
    for number, name in [("000", "Kalyanakrishnan's note"), ("004", "the DSC 255 handout")]:
        assert re.search(rf"{name}.*seed {number}", sources, flags=re.I)


def _subparsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    out: list[argparse.ArgumentParser] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            out.extend(action.choices.values())
    return out
