"""A real Dask cluster on loopback for the tests and the benchmark: a ``dask scheduler``
and ``dask worker`` processes (each ``--nworkers 1 --nthreads 1``, under a nanny, as
people start them), on free ports, stopped afterwards."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class LoopbackCluster:
    address: str
    scheduler: subprocess.Popen[bytes]
    workers: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def client(self) -> Any:
        from distributed import Client

        return Client(self.address, timeout=10, set_as_default=False)  # type: ignore[no-untyped-call]

    def worker_pids(self) -> dict[str, int]:
        """Each worker's address -> the process id of the worker itself (under its nanny)."""
        with self.client() as c:
            return dict(c.run(os.getpid))

    def add_worker(self, name: str) -> None:
        self.workers.append(
            subprocess.Popen(
                [
                    sys.executable, "-m", "distributed.cli.dask_worker", self.address,
                    "--nworkers", "1", "--nthreads", "1", "--no-dashboard", "--name", name,
                    "--host", "127.0.0.1",
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        )  # fmt: skip

    def wait_for(self, n: int, seconds: float = 60) -> None:
        with self.client() as c:
            c.wait_for_workers(n, timeout=seconds)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        with suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@contextmanager
def loopback_cluster(workers: int = 2) -> Iterator[LoopbackCluster]:
    """A scheduler and ``workers`` workers on 127.0.0.1, ready."""
    port = free_port()
    scheduler = subprocess.Popen(
        [
            sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
            "--port", str(port), "--no-dashboard",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )  # fmt: skip
    cluster = LoopbackCluster(f"tcp://127.0.0.1:{port}", scheduler)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline or scheduler.poll() is not None:
                    raise RuntimeError("the dask scheduler did not start") from None
                time.sleep(0.1)
        for i in range(workers):
            cluster.add_worker(f"w{i + 1}")
        if workers:
            cluster.wait_for(workers)
        yield cluster
    finally:
        for w in cluster.workers:
            _stop(w)
        _stop(scheduler)
