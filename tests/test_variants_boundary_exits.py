"""``os._exit`` in users' code is a failure at the user's line, in the check's own
process (a probe fit) and in its workers alike -- never a silent end of the check with
the user's status."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pla_proof.variants.boundary.exits import ProcessEnded, ended_here, guarded_exit

ROOT = Path(__file__).resolve().parent.parent

#: A correct classic Perceptron, except that fit() ends its process on four points or
#: more: the first probe fit (in the check's own process) already does.
EXITS = """\
import os

import numpy as np


class Exits:
    def __init__(self, epochs=1000):
        self.epochs = epochs

    def fit(self, X, y):
        X = np.asarray(X, dtype=float)
        if len(X) >= 4:
            os._exit(7)
        self.w = np.zeros(X.shape[1])
        self.b = 0.0
        for _ in range(self.epochs):
            bad = 0
            for xi, yi in zip(X, y):
                if yi * (xi @ self.w + self.b) <= 0:
                    self.w = self.w + yi * xi
                    self.b += yi
                    bad += 1
            if bad == 0:
                break
        return self

    def predict(self, X):
        return np.where(np.asarray(X, dtype=float) @ self.w + self.b > 0, 1, -1)
"""


def check(tmp_path: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "pla_proof", "check", *argv, "--out", str(tmp_path / "ce")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_fit_calling_os_exit_fails_runs_at_its_line(tmp_path: Path, jobs: str) -> None:
    (tmp_path / "exits.py").write_text(EXITS)
    done = check(tmp_path, "--fit", "exits.py:Exits", "--examples", "30", "--jobs", jobs, "--json")
    assert done.returncode == 1, (done.returncode, done.stderr[-800:])  # before: exit 7, silent
    doc = json.loads(done.stdout)
    [runs] = [p for p in doc["properties"] if p["id"] == "RUNS"]
    assert runs["status"] == "fail"
    assert "os._exit(7)" in done.stdout and "exits.py:13" in done.stdout
    assert "Traceback" not in done.stderr


def test_the_guard_raises_for_users_calls_and_is_lifted_after_the_block() -> None:
    real = os._exit
    with guarded_exit():
        current: object = os._exit
        assert current is ended_here
        with pytest.raises(ProcessEnded, match=r"os\._exit\(3\)"):
            os._exit(3)  # (this file is users' code: a test, not pla_proof's)
    assert os._exit is real


def test_the_librarys_own_exit_still_ends_the_process() -> None:
    """A call that is not users' code -- multiprocessing ending a worker, the command's
    budget ending a stuck command -- ends the process as before, with its status."""
    with guarded_exit():
        pid = os.fork()
        if pid == 0:  # the child: a library's call, not the guarded process
            ended_here(9, user=False)
        _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 9
