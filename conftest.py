"""The property suite's settings, database, time budget and report come from pla_proof's
pytest plugin (``pla_proof.testing.plugin``, installed with the package); this project's
default profile is set in ``pyproject.toml`` (``pla_proof_profile = "ci"``: plain
``pytest`` is CI's deterministic run; random exploration names its profile).

``redis_url``: a ``redis-server`` of its own on a free port of 127.0.0.1 (the Debian
package ``redis-server``; skipped when it is not installed), shared by the database tests
of the suite and of ``pla-proof check``."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator

import pytest

pytest_plugins = ["pytester"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A ``redis-server`` of its own, on a free port of 127.0.0.1, stopped afterwards."""
    exe = shutil.which("redis-server")
    if exe is None:
        pytest.skip("redis-server is not installed (Debian package redis-server)")
    import redis

    workdir = tmp_path_factory.mktemp("redis")
    for _ in range(5):
        port = _free_port()
        proc = subprocess.Popen(
            [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", str(workdir)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis(host="127.0.0.1", port=port, socket_connect_timeout=1)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.05)
        else:
            proc.kill()
            proc.wait()
            continue  # the port was taken in the meantime: try another
        try:
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            proc.terminate()
            proc.wait(timeout=10)
        return
    pytest.fail("redis-server did not start on 127.0.0.1")


@pytest.fixture(autouse=True)
def _hypothesis_settings_unchanged() -> Iterator[None]:
    """A test that leaves a different Hypothesis profile loaded fails: every later test of
    the process (an xdist worker runs hundreds) would otherwise search under its settings
    -- fewer examples, random seeds -- and pass or fail by the order the tests ran in."""
    from hypothesis import settings

    before = repr(settings.default)
    yield
    after = repr(settings.default)
    assert after == before, f"this test changed the loaded Hypothesis settings to {after}"
