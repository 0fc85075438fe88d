"""One counterexample database: its locations, the facts of ``check``, and sharing it --
between processes, pytest-xdist workers and (on loopback) machines through a real
``redis-server``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis.database import (
    DirectoryBasedExampleDatabase,
    InMemoryExampleDatabase,
    MultiplexedDatabase,
    ReadOnlyDatabase,
)

from pla_proof.errors import InputError
from pla_proof.testing.database import CounterexampleStore, describe, open_database
from pla_proof.variants import resolve, search
from pla_proof.variants.checking.files import case_from_json, order_from_json, save_counterexample

# --- locations -------------------------------------------------------------------------


def test_directory_forms(tmp_path: Path) -> None:
    for url in (str(tmp_path / "a"), f"file:{tmp_path / 'a'}", f"file://{tmp_path / 'a'}"):
        db = open_database(url)
        assert isinstance(db, DirectoryBasedExampleDatabase)
        assert db.path == tmp_path / "a"
    assert isinstance(open_database(":memory:"), InMemoryExampleDatabase)
    default = open_database()
    assert isinstance(default, DirectoryBasedExampleDatabase)
    assert default.path == Path(".hypothesis", "examples")


def test_read_only_and_multiplexed_views(tmp_path: Path) -> None:
    shared = open_database(str(tmp_path / "shared"))
    shared.save(b"k", b"found elsewhere")
    ro = open_database(str(tmp_path / "shared"), readonly=True)
    assert isinstance(ro, ReadOnlyDatabase)
    ro.save(b"k", b"new")
    ro.delete(b"k", b"found elsewhere")
    assert set(shared.fetch(b"k")) == {b"found elsewhere"}
    local = open_database(str(tmp_path / "local"))
    both = open_database(str(tmp_path / "shared"), readonly=True, local=local)
    assert isinstance(both, MultiplexedDatabase)
    both.save(b"k", b"new")
    assert set(both.fetch(b"k")) == {b"found elsewhere", b"new"}
    assert set(shared.fetch(b"k")) == {b"found elsewhere"}
    assert (
        describe(both)
        == f"directory {tmp_path / 'local'} + read-only directory {tmp_path / 'shared'}"
    )


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("ftp://host/x", "unsupported scheme 'ftp'"),
        ("redis://127.0.0.1:1/0", "the Redis server does not answer"),
        ("redis://127.0.0.1:notaport/0", "not a Redis URL"),
        ("file:", "no directory given"),
    ],
)
def test_bad_locations_are_one_line_errors(url: str, message: str) -> None:
    with pytest.raises(InputError, match=message) as info:
        open_database(url, connect_timeout=1)
    assert "\n" not in str(info.value)


def test_a_file_is_not_a_directory_database(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    with pytest.raises(InputError, match="exists and is not a directory"):
        open_database(str(tmp_path / "f"))


def test_redis_without_the_extra_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "redis", None)  # as if not installed
    with pytest.raises(
        InputError, match=r"needs the redis extra \(pip install 'pla_proof\[redis\]'\)"
    ):
        open_database("redis://127.0.0.1:6379/0")


# --- the facts of ``check`` -------------------------------------------------------------


def counterexample_document(tmp_path: Path, spec: str = "bug:plus-x") -> dict[str, object]:
    """The JSON document ``check --out`` writes for a real shrunk counterexample."""
    variant = resolve(spec)
    report = search(variant, examples=30, first_only=True)
    prop = report.caught_by
    assert prop is not None
    ce = report.result(prop).counterexample
    assert ce is not None
    paths = save_counterexample(spec, variant, prop, ce, str(tmp_path))
    doc: dict[str, object] = json.loads(Path(paths["json"]).read_text())
    return doc


def test_a_check_out_document_is_stored_once_and_replays(tmp_path: Path) -> None:
    doc = counterexample_document(tmp_path / "out1")
    again = counterexample_document(tmp_path / "out2")  # same fact, other paths
    assert doc["replay"] != again["replay"]
    store = CounterexampleStore(open_database(str(tmp_path / "db")))
    store.record("bug:plus-x", doc)
    store.record("bug:plus-x", again)
    facts = store.facts("bug:plus-x")
    assert len(facts) == 1
    assert {k: v for k, v in doc.items() if k != "replay"} == facts[0]
    # a fresh process would read the same directory: replay the fact first
    variant = resolve("bug:plus-x")
    case, order = case_from_json(facts[0]["case"]), order_from_json(facts[0]["order"])
    report = search(variant, examples=1, extra_cases=[(case, order)], first_only=True)
    assert report.caught_by == facts[0]["property"]
    store.forget("bug:plus-x", doc)
    assert store.facts("bug:plus-x") == []


def test_the_store_refuses_what_is_not_a_counterexample_and_skips_foreign_entries() -> None:
    db = InMemoryExampleDatabase()
    store = CounterexampleStore(db)
    with pytest.raises(InputError, match="not a counterexample document"):
        store.record("v", {"variant": "v"})
    db.save(store.key("v"), b"\x00 not json")
    db.save(store.key("v"), b'{"no": "case"}')
    store.record("v", {"property": "T", "case": {"X": [["1"], ["2"]]}})
    store.record("v", {"property": "G1", "case": {"X": [["1"]]}})
    assert [f["property"] for f in store.facts("v")] == ["G1", "T"]  # fewest points first


def test_facts_are_canonical_json() -> None:
    a = CounterexampleStore.encode({"case": {"X": [["1/2"]], "y": [1]}, "property": "T"})
    b = CounterexampleStore.encode({"property": "T", "case": {"y": [1], "X": [["1/2"]]}})
    assert a == b
    assert Fraction(json.loads(a)["case"]["X"][0][0]) == Fraction(1, 2)


# --- sharing between processes -----------------------------------------------------------

FAILING = """
import os
from hypothesis import given, strategies as st

@given(st.integers(0, 10**6))
def test_below_a_thousand(n):
    with open(os.environ["PLA_TEST_LOG"], "a") as fh:
        fh.write(f"{n}\\n")
    assert n < 1000
"""


def run_suite(
    where: Path, database: str, *args: str, log: str = "calls.log", **env: str
) -> tuple[subprocess.CompletedProcess[str], list[int]]:
    """``pytest`` in a fresh process in ``where`` (a 'machine' of its own): its output and
    the argument of every call of the property, in order."""
    where.mkdir(parents=True, exist_ok=True)
    (where / "test_shared.py").write_text(FAILING)
    environ = {**os.environ, "PLA_TEST_LOG": str(where / log), **env}
    environ.pop("HYPOTHESIS_PROFILE", None)
    environ.pop("PLA_PROOF_DATABASE", None)
    cmd = [sys.executable, "-m", "pytest", "test_shared.py", "-q", "-p", "no:cacheprovider"]
    cmd += ["--pla-profile=dev", f"--pla-database={database}", *args]
    proc = subprocess.run(cmd, cwd=where, env=environ, capture_output=True, text=True, timeout=300)
    calls = [int(v) for v in (where / log).read_text().split()] if (where / log).exists() else []
    return proc, calls


def test_two_processes_share_a_directory_database(tmp_path: Path) -> None:
    db = str(tmp_path / "shared-db")
    first, calls1 = run_suite(tmp_path / "one", db)
    assert first.returncode == 1 and "n=1000," in first.stdout
    assert calls1[0] != 1000 and len(calls1) > 1
    second, calls2 = run_suite(tmp_path / "two", db)
    assert second.returncode == 1 and "n=1000," in second.stdout
    assert calls2[0] == 1000  # replayed before anything is generated


# --- a real Redis server on 127.0.0.1 -------------------------------------------------------


# (the ``redis_url`` fixture, a redis-server of its own, is in conftest.py)


def _keys(url: str) -> set[bytes]:
    import redis

    return {k if isinstance(k, bytes) else k.encode() for k in redis.Redis.from_url(url).keys("*")}


@pytest.mark.redis
def test_redis_url_opens_hypothesis_redis_database(redis_url: str) -> None:
    db = open_database(redis_url)
    assert type(db).__name__ == "RedisExampleDatabase"
    assert describe(db) == f"redis {redis_url.removeprefix('redis://')}"
    db.save(b"key", b"value")
    assert list(open_database(redis_url).fetch(b"key")) == [b"value"]
    store = CounterexampleStore(open_database(redis_url))
    store.record("classic", {"property": "T", "case": {"X": [["1"]]}})
    assert CounterexampleStore(open_database(redis_url)).facts("classic")[0]["property"] == "T"


@pytest.mark.redis
def test_two_processes_on_two_machines_share_one_redis_server(
    redis_url: str, tmp_path: Path
) -> None:
    """Two independent pytest processes, each in its own directory as on its own host,
    with one Redis server: the second replays the first's failure at its first call."""
    url = redis_url.rsplit("/", 1)[0] + "/1"
    first, calls1 = run_suite(tmp_path / "host-a", url)
    assert first.returncode == 1 and "n=1000," in first.stdout
    assert calls1[0] != 1000
    stored = _keys(url)
    assert stored, "the failure was not stored in Redis"

    second, calls2 = run_suite(tmp_path / "host-b", url, log="b.log")
    assert second.returncode == 1 and "n=1000," in second.stdout
    assert calls2[0] == 1000  # replayed before generating anything
    assert len(calls2) < len(calls1)

    # a CI job with a read-only view: replays the failure, writes nothing
    before = {k: _members(url, k) for k in _keys(url)}
    ci, calls3 = run_suite(tmp_path / "ci", url, "--pla-database-readonly", log="ci.log")
    assert ci.returncode == 1 and calls3[0] == 1000
    assert {k: _members(url, k) for k in _keys(url)} == before


def _members(url: str, key: bytes) -> set[bytes]:
    import redis

    client = redis.Redis.from_url(url)
    members = client.smembers(key) if client.type(key) == b"set" else set()
    return {m if isinstance(m, bytes) else m.encode() for m in members}


@pytest.mark.redis
def test_xdist_workers_share_one_redis_server(redis_url: str, tmp_path: Path) -> None:
    """``-n 2`` on each of two 'hosts' at once, one database: every worker process writes and
    reads concurrently, and a later run replays the failure first."""
    url = redis_url.rsplit("/", 1)[0] + "/2"
    where = [tmp_path / "host-a", tmp_path / "host-b"]
    for w in where:
        w.mkdir()
        (w / "test_shared.py").write_text(FAILING)
    procs = []
    for w in where:
        env = {**os.environ, "PLA_TEST_LOG": str(w / "calls.log")}
        env.pop("HYPOTHESIS_PROFILE", None)
        cmd = [sys.executable, "-m", "pytest", "test_shared.py", "-q", "-n", "2"]
        cmd += ["-p", "no:cacheprovider", "--pla-profile=dev", f"--pla-database={url}"]
        procs.append(subprocess.Popen(cmd, cwd=w, env=env, stdout=subprocess.PIPE, text=True))
    outs = [p.communicate(timeout=300)[0] for p in procs]
    assert all(p.returncode == 1 for p in procs), outs
    # (Hypothesis names it "Failing test case:" in its recent releases, "Falsifying
    # example:" before; pyproject.toml allows both)
    heads = (
        "Failing test case: test_below_a_thousand(",
        "Falsifying example: test_below_a_thousand(",
    )
    assert all(any(h in o for h in heads) for o in outs), outs
    # A process that starts while another is shrinking the same failure may replay one
    # of its intermediate examples and, as Hypothesis does with a replayed failure, report
    # it without shrinking again; the minimal one is in the database all the same:
    again, calls = run_suite(tmp_path / "later", url, log="later.log")
    assert again.returncode == 1 and calls[0] == 1000 and "n=1000," in again.stdout
