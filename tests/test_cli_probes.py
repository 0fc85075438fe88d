"""The probe table of docs/cli.md: hostile and extreme input, run for real.

Each row of the table (between the ``probes`` markers in ``docs/cli.md``) is an
input, its exit code and the line that says what happened: the first line of
stderr if the command wrote there, else the last line of its output.  This test
runs every probe in a scratch directory holding the files below and compares.
``python tests/test_cli_probes.py`` prints the table afresh.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import sys
from pathlib import Path

import numpy as np
import pytest

from pla_proof.cli import main

DOC = Path(__file__).resolve().parent.parent / "docs" / "cli.md"

#: probes whose outcome is a known defect, with the reason (strict: when the defect is
#: fixed these fail until the table is brought up to date); none at present
KNOWN: dict[str, str] = {}


def make_files(root: Path) -> None:
    files = {
        "e155.csv": "1e155,1,1\n-1,2,-1\n",
        "e308.csv": "1e308,1,1\n-1,2,-1\n",
        "e400.csv": "1e400,1,1\n-1,2,-1\n",
        "d10k.csv": "1." + "3" * 9998 + ",1,1\n-1,2,-1\n",
        "huge.csv": "1e999999999,1\n",
        "tiny.csv": "1e-999999999,1\n",
        "semicolon.csv": "x;y;label\n1;2;1\n-1;-2;-1\n",
        "tab.csv": "1\t2\t1\n-1\t-2\t-1\n",
        "underscore.csv": "1_000,2,1\n",
        "empty-field.csv": "1,2,1\n3,,1\n",
        "words.csv": "A,B,decision\n10,10,accept\n0,15,decline\n",
        "w.txt": "# weights\n1, 2\n",
        "w-empty.txt": "1,,2\n",
        "xor": "5,1\n",
    }
    for name, text in files.items():
        (root / name).write_text(text)
    (root / "bom.csv").write_bytes(b"\xef\xbb\xbf1,2,1\n")
    rng = np.random.default_rng(11)
    X = rng.integers(-50, 51, size=(2000, 8))
    y = np.where(X @ rng.integers(-5, 6, size=8) >= 0, 1, -1)
    flip = rng.choice(2000, size=60, replace=False)
    y[flip] = -y[flip]
    np.savetxt(root / "flipped.csv", np.column_stack([X, y]), fmt="%d", delimiter=",")


PROBES = [
    "trace e155.csv",
    "trace e308.csv",
    "trace e400.csv",
    "bound e400.csv",
    "explain e400.csv",
    "certify e400.csv 1e400,-1",
    "trace d10k.csv --json",
    "certify d10k.csv 1,1",
    "certify orthonormal:2 1e400,-1",
    "explain orthonormal:2 --gamma 1e-400",
    "trace huge.csv",
    "trace tiny.csv",
    "certify orthonormal:2 1e999999999,1",
    "trace maxviol:1e-999999999",
    "trace orthonormal:2 --bias augment:1e999999999",
    "explain orthonormal:2 -o /dev/full",
    "trace flipped.csv",
    "explain flipped.csv",
    "bound flipped.csv --no-runs",
    "trace semicolon.csv",
    "trace tab.csv",
    "trace bom.csv",
    "trace underscore.csv",
    "trace empty-field.csv",
    "certify orthonormal:2 w.txt",
    "certify orthonormal:2 w-empty.txt",
    "trace xor",
    "trace builtin:xor",
    "bound words.csv --labels accept=1,decline=-1 --no-runs",
    "certify orthonormal:3 -1,2,0",
    "trace orthonormal:2 --comparator -1,1",
    "bound students --rule first",
    "explain --json --markdown",
    "check sys:exit",
    "trace students --max-digits 0",
    "trace maxviol:1/1000000 --rule maxviol --budget 100000000 --time-limit 1",
]


def run_probe(probe: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(shlex.split(probe))
    if err.getvalue().strip():
        return code, err.getvalue().strip().splitlines()[0]
    lines = out.getvalue().strip().splitlines()
    return code, lines[-1] if lines else ""


def clip(line: str, width: int = 150) -> str:
    return line if len(line) <= width else line[: width - 3] + "..."


def documented() -> dict[str, tuple[int, str]]:
    text = DOC.read_text(encoding="utf-8")
    block = text.split("<!-- probes -->")[1].split("<!-- /probes -->")[0]
    rows = {}
    for line in block.splitlines():
        m = re.match(r"\| `pla-proof (.*?)` \| (\d+) \| `(.*)` \|$", line)
        if m:
            rows[m.group(1)] = (int(m.group(2)), m.group(3).replace("\\|", "|"))
    return rows


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("probes")
    make_files(root)
    return root


def test_the_table_lists_every_probe() -> None:
    assert list(documented()) == PROBES


@pytest.mark.parametrize(
    "probe",
    [
        pytest.param(p, marks=pytest.mark.xfail(reason=KNOWN[p], strict=True)) if p in KNOWN else p
        for p in PROBES
    ],
)
def test_probe(probe: str, scratch: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(scratch)
    code, line = run_probe(probe)
    assert (code, clip(line)) == documented()[probe]
    assert code in (0, 1, 2, 3), (probe, code, line)
    assert "Traceback" not in line


if __name__ == "__main__":  # print the table for docs/cli.md
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        make_files(Path(tmp))
        os.chdir(tmp)
        print("| input | exit | first line |\n|---|---:|---|")
        for probe in PROBES:
            code, first = run_probe(probe)
            cell = clip(first).replace("|", "\\|")
            print(f"| `pla-proof {probe}` | {code} | `{cell}` |")
            sys.stdout.flush()
