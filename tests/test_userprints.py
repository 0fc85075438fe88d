"""Users' prints are capped (pla_proof.userprints): the first and last lines, and how
many were dropped between, per command -- from the command's own process and from its
worker processes alike; the verdict is the same."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

from pla_proof.userprints import HEAD_LINES, TAIL_LINES, PrefixedLines, user_output

ROOT = Path(__file__).resolve().parents[1]

LOUD = '''\
"""The classic Perceptron printing 100,000 lines in its first fit in a process, then a
line per epoch."""

import numpy as np

PRINTS = {prints}


class Loud:
    def __init__(self, n_iter=1000):
        self.n_iter = n_iter

    def fit(self, X, y):
        X = np.asarray(X, dtype=float)
        self.w_ = np.zeros(X.shape[1])
        self.b_ = 0.0
        if PRINTS and not getattr(Loud, "loud", False):  # once per process
            Loud.loud = True
            for i in range(100_000):
                print(f"step {{i}}")
        for _ in range(self.n_iter):
            errors = 0
            for xi, yi in zip(X, y):
                if yi * (xi @ self.w_ + self.b_) <= 0:
                    self.w_ = self.w_ + yi * xi
                    self.b_ += yi
                    errors += 1
            if PRINTS:
                print(f"epoch with {{errors}} errors")
            if errors == 0:
                break
        return self

    def predict(self, X):
        return np.where(np.asarray(X, dtype=float) @ self.w_ + self.b_ >= 0, 1, -1)
'''


def test_the_first_and_last_lines_pass_with_the_count_between() -> None:
    err = io.StringIO()
    with user_output(err, head=3, tail=2):
        for i in range(1000):
            print(f"line {i}")
    lines = err.getvalue().splitlines()
    assert lines[:3] == ["[user] line 0", "[user] line 1", "[user] line 2"]
    assert lines[3].startswith("[user] ... 995 more lines dropped")
    assert lines[4:] == ["[user] line 998", "[user] line 999"]


def test_a_few_lines_pass_unchanged() -> None:
    err = io.StringIO()
    with user_output(err):
        print("one")
        print("two", end="")
    assert err.getvalue() == "[user] one\n[user] two\n"


def test_a_workers_lines_go_through_the_parents_cap() -> None:
    worker = PrefixedLines(io.StringIO())
    worker.collect()
    for i in range(100):
        print(f"w{i}", file=worker)
    got = worker.take()
    assert got is not None and len(got[0]) == HEAD_LINES and len(got[2]) == TAIL_LINES
    assert got[1] == 100 - HEAD_LINES - TAIL_LINES
    err = io.StringIO()
    parent = PrefixedLines(err)
    print("p0", file=parent)
    parent.replay(got)
    print("p1", file=parent)
    parent.finish()
    lines = err.getvalue().splitlines()
    assert len(lines) == HEAD_LINES + TAIL_LINES + 1
    assert lines[0] == "[user] p0" and lines[-1] == "[user] p1"
    assert f"{102 - HEAD_LINES - TAIL_LINES} more lines dropped" in lines[HEAD_LINES]
    assert worker.take() is None  # taken: the cap starts anew


def run_check(tmp_path: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    return subprocess.run(
        [sys.executable, "-m", "pla_proof", "check", *argv, "--out", str(tmp_path / "ce")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_a_class_printing_100000_lines_keeps_stderr_small_and_its_verdict(
    tmp_path: Path,
) -> None:
    (tmp_path / "loud.py").write_text(LOUD.format(prints=True))
    (tmp_path / "quiet.py").write_text(LOUD.format(prints=False))
    argv = ["--examples", "10", "--seed", "0", "--jobs", "2", "--json"]
    loud = run_check(tmp_path, "--fit", "loud.py:Loud", *argv)
    quiet = run_check(tmp_path, "--fit", "quiet.py:Loud", *argv)
    assert quiet.returncode == 0, quiet.stderr[-800:]
    assert loud.returncode == quiet.returncode
    a, b = json.loads(loud.stdout), json.loads(quiet.stdout)
    assert (a["verdict"], a["runs"]) == (b["verdict"], b["runs"])
    user = [line for line in loud.stderr.splitlines() if line.startswith("[user] ")]
    assert len(user) <= HEAD_LINES + TAIL_LINES + 1, len(user)
    assert len(loud.stderr) < 10_000, len(loud.stderr)
    dropped = [line for line in user if "more lines dropped" in line]
    assert len(dropped) == 1 and int(dropped[0].split()[2]) > 100_000 - HEAD_LINES, dropped
    assert user[0] == "[user] step 0"
