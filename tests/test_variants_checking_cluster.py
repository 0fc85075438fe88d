"""Searches on a Dask cluster (pla_proof.variants.checking.cluster), with real parts: a
``dask scheduler``, two ``dask worker`` processes (``--nworkers 1 --nthreads 1``, under
their nannies) and a ``redis-server``, on loopback.  The same report as on one machine;
users' code sent to workers that do not have it; a worker killed by its PID in the middle
of its part, which runs again elsewhere and is reported; the scheduler unreachable (exit
2) or lost during the search (exit 3, one line, no hang); one database for every host."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("distributed")

from dask_parts import LoopbackCluster, free_port, loopback_cluster

from pla_proof.errors import InputError
from pla_proof.variants.checking import cluster as cluster_module

FIT = Path(__file__).parent / "compat" / "fit"
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def cluster() -> Iterator[LoopbackCluster]:
    with loopback_cluster(2) as c:
        yield c


def _run(args: list[str], env: dict[str, str] | None = None, timeout: float = 240) -> Any:
    """``pla-proof`` in a process of its own (as a user runs it)."""
    return subprocess.run(
        [sys.executable, "-m", "pla_proof", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
        cwd=ROOT,
    )


def _same_search(doc: dict[str, Any]) -> Any:
    """What must not depend on where the search ran: each variant's verdict, runs and
    properties (their counterexamples and diagnoses included)."""
    reports = doc.get("reports", [doc])
    return [(r["variant"], r["verdict"], r["runs"], r["properties"]) for r in reports]


def test_a_search_on_the_cluster_gives_the_report_of_one_machine(
    cluster: LoopbackCluster, tmp_path: Path
) -> None:
    fit = str(FIT / "fit_broken_bias.py:FrozenBias")
    common = ["check", "bug:plus-x", "--fit", fit, "--examples", "40", "--json"]
    common += ["--out", str(tmp_path / "ce")]
    here = _run([*common, "--jobs", "2"])
    there = _run([*common, "--scheduler", cluster.address])
    assert here.returncode == there.returncode == 1, there.stderr
    a, b = json.loads(here.stdout), json.loads(there.stdout)
    assert _same_search(a) == _same_search(b)
    for r in b["reports"]:
        assert r["cluster"] == {"scheduler": cluster.address, "workers": 2, "again": []}
    assert all("cluster" not in r for r in a["reports"])
    text = _run([*common[:-3], "--scheduler", cluster.address]).stdout
    assert f"on the Dask cluster {cluster.address}: 2 worker(s)" in text


def test_users_code_travels_with_the_task(cluster: LoopbackCluster, tmp_path: Path) -> None:
    """A package imported by name, on this machine's path only: the workers import the
    copy sent with each task (their own path has no such package)."""
    pkg = tmp_path / "homework" / "perceptrons"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "helpers.py").write_text("def sign(v):\n    return 1 if v > 0 else -1\n")
    (pkg / "model.py").write_text(
        "import numpy as np\n"
        "from .helpers import sign\n"
        "class Subtracts:\n"
        "    def __init__(self, n_iter=30):\n"
        "        self.n_iter = n_iter\n"
        "    def fit(self, X, y):\n"
        "        self.w_ = np.zeros(X.shape[1] + 1)\n"
        "        for _ in range(self.n_iter):\n"
        "            for xi, t in zip(X, y):\n"
        "                if t * (self.w_[1:] @ xi + self.w_[0]) <= 0:\n"
        "                    self.w_[1:] -= t * xi\n"
        "                    self.w_[0] -= t\n"
        "        return self\n"
        "    def predict(self, X):\n"
        "        return np.array([sign(v) for v in X @ self.w_[1:] + self.w_[0]])\n"
    )
    env = {"PYTHONPATH": str(tmp_path / "homework")}
    args = ["check", "--fit", "perceptrons.model:Subtracts", "--examples", "20", "--json"]
    args += ["--out", str(tmp_path / "ce"), "--scheduler", cluster.address]
    done = _run(args, env=env)
    assert done.returncode == 1, done.stderr
    doc = json.loads(done.stdout)
    assert "SEP" in {p["id"] for p in doc["properties"] if p["status"] == "fail"} | {
        p["id"][:3] for p in doc["properties"] if p["status"] == "fail"
    }
    assert doc["cluster"]["workers"] == 2


def _started(cluster: LoopbackCluster, seconds: float = 60) -> list[dict[str, Any]]:
    """The units' starts logged so far (waits for a first one)."""
    deadline = time.monotonic() + seconds
    with cluster.client() as c:
        while time.monotonic() < deadline:
            events = [m for _, m in c.get_events(cluster_module.TOPIC) if isinstance(m, dict)]
            if events:
                return events
            time.sleep(0.05)
    raise AssertionError("no unit started on the cluster")


def test_a_worker_killed_in_its_part_runs_it_again_elsewhere_and_says_so(
    tmp_path: Path,
) -> None:
    with loopback_cluster(2) as fresh:
        pids = fresh.worker_pids()
        args = ["check", "bug:strict-trigger", "--examples", "1200", "--json"]
        args += ["--out", str(tmp_path / "ce")]
        proc = subprocess.Popen(
            [sys.executable, "-m", "pla_proof", *args, "--scheduler", fresh.address],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        first = _started(fresh)[0]
        time.sleep(0.5)  # (in its part: the search has begun)
        os.kill(pids[first["worker"]], signal.SIGKILL)
        out, err = proc.communicate(timeout=300)
    assert proc.returncode == 1, err
    doc = json.loads(out)
    again = doc["cluster"]["again"]
    # only the part it held ran again (the parts queued on it had not started)
    assert len(again) == 1 and again[0]["workers"][0] == first["worker"], doc["cluster"]
    assert len(again[0]["workers"]) == 2
    # nothing lost: the report is the one machine's
    here = _run([*args, "--jobs", "2"])
    assert _same_search(json.loads(here.stdout)) == _same_search(doc)


def test_a_counterexample_found_on_the_cluster_is_replayed_first_anywhere(
    cluster: LoopbackCluster, redis_url: str, tmp_path: Path
) -> None:
    import redis

    base = ["check", "bug:plus-x", "--examples", "20", "--json", "--database", redis_url]
    base += ["--out", str(tmp_path / "ce")]
    there = _run([*base, "--scheduler", cluster.address])
    assert there.returncode == 1, there.stderr
    keys = redis.Redis.from_url(redis_url).keys("*")
    assert keys  # the workers (and the client) recorded what they found
    # the next search, on another "host" (this machine's processes), replays them first
    here = _run([*base, "--jobs", "1"])
    doc = json.loads(here.stdout)
    assert doc["database"]["replayed"] >= 1, doc["database"]


def test_a_campaign_runs_its_rounds_on_the_cluster(
    cluster: LoopbackCluster, tmp_path: Path
) -> None:
    args = ["check", "bug:strict-trigger", "--minutes", "0.05", "--examples", "50", "--json"]
    args += ["--out", str(tmp_path / "ce")]
    done = _run(args, env={"PLA_PROOF_SCHEDULER": cluster.address})
    assert done.returncode == 1, done.stderr
    doc = json.loads(done.stdout)
    assert doc["cluster"]["scheduler"] == cluster.address
    assert "round 1" in done.stderr


def test_the_scheduler_lost_in_the_search_is_exit_3_in_one_line(tmp_path: Path) -> None:
    with loopback_cluster(1) as doomed:
        args = ["check", "bug:strict-trigger", "--examples", "3000", "--scheduler"]
        args += [doomed.address, "--out", str(tmp_path / "ce")]
        proc = subprocess.Popen(
            [sys.executable, "-m", "pla_proof", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        _started(doomed)
        os.killpg(doomed.scheduler.pid, signal.SIGKILL)
        t0 = time.monotonic()
        _, err = proc.communicate(timeout=120)
        waited = time.monotonic() - t0
    assert proc.returncode == 3, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "was lost" in lines[0] and "Traceback" not in err, err
    assert waited < cluster_module.LOST_SECONDS + 60


def test_an_unreachable_scheduler_is_exit_2_before_any_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from pla_proof.cli import main

    monkeypatch.setattr(cluster_module, "CONNECT_SECONDS", 1.0)
    address = f"tcp://127.0.0.1:{free_port()}"
    assert main(["check", "bug:plus-x", "--examples", "5", "--scheduler", address]) == 2
    err = capsys.readouterr().err
    assert f"--scheduler {address}: cannot reach the Dask scheduler" in err
    assert len(err.strip().splitlines()) == 1


def test_a_worker_of_another_version_is_refused_naming_both() -> None:
    class Client:
        def wait_for_workers(self, n: int, timeout: float) -> None:
            return None

        def run(self, f: Any) -> dict[str, str]:
            return {"tcp://10.0.0.2:40000": "0.0.1", "tcp://10.0.0.3:40000": f()}

    with pytest.raises(InputError) as e:
        cluster_module._check_versions(Client(), "tcp://s:8786")
    mine = cluster_module._version()
    assert f"worker tcp://10.0.0.2:40000 has pla_proof 0.0.1, this client {mine}" in str(e.value)
    # the same versions pass
    same = Client()
    same.run = lambda f: {"tcp://10.0.0.3:40000": f()}  # type: ignore[method-assign]
    assert cluster_module._check_versions(same, "tcp://s:8786") == 1


def test_without_the_extra_the_option_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(InputError, match=r"pip install 'pla_proof\[cluster\]'"):
        cluster_module._client("tcp://127.0.0.1:1")


def test_the_clients_retries_leave_the_global_random_state_alone() -> None:
    """The scheduler lost: Dask's client retries in its own thread, with jitter.  Drawn
    from the global ``random``, that moved the state under the claims' proofs running
    here meanwhile (Hypothesis then warns, in a one-line error's place)."""
    import random

    with loopback_cluster(0) as doomed:
        client = cluster_module._client(doomed.address)
        try:
            os.killpg(doomed.scheduler.pid, signal.SIGKILL)
            doomed.scheduler.wait()
            before = random.getstate()
            deadline = time.monotonic() + 4
            while time.monotonic() < deadline and random.getstate() == before:
                time.sleep(0.05)
            assert random.getstate() == before
        finally:
            client.close(timeout=2)
