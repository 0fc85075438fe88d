"""One counterexample database for the property suite and ``pla-proof check``.

Everything pla_proof finds is kept in a Hypothesis :class:`~hypothesis.database.ExampleDatabase`
(a store of *keys*, each holding a set of byte strings).  One location serves both users:

* the **property suite** (the pytest plugin): Hypothesis saves each failing example's
  choice sequence under the test's own key and replays it first on the next run, in
  any process that opens the same location;
* **``pla-proof check``**: a counterexample is a *fact*, the JSON document that
  ``check --out`` writes (variant, property, failure, case, order, choices), stored by
  :class:`CounterexampleStore` under ``pla-proof:check:v1:<variant name>``.  The files in
  ``--out`` and the database entries are the same document: the store keeps the fields of
  :data:`FACT_FIELDS` (the replay commands are derived from them and name local paths,
  so they are left out), encoded as canonical JSON, so one fact found twice is one entry.

Locations (:func:`open_database`), the same for ``--pla-database`` (pytest),
``PLA_PROOF_DATABASE`` (environment) and, later, ``check --database``:

========================  ==================================================================
``PATH`` or ``file:PATH`` a directory (the default: ``.hypothesis/examples``); safe for many
                          processes at once (each entry is written to a temporary file and
                          renamed into place)
``redis://HOST:PORT/DB``  a Redis server (also ``rediss://``, ``unix://``), through
                          Hypothesis's ``RedisExampleDatabase``; needs ``pla_proof[redis]``
``:memory:``              one process only (tests)
========================  ==================================================================

``readonly=True`` wraps it in Hypothesis's ``ReadOnlyDatabase``: a CI job replays what
others found but writes nothing; with ``local=`` also, writes go to ``local`` only
(Hypothesis's ``MultiplexedDatabase(local, ReadOnlyDatabase(shared))``).

How ``check`` uses it (the contract for the checker)::

    from pla_proof.variants.checking.files import case_from_json, order_from_json

    store = CounterexampleStore(open_database(url, readonly=readonly))  # InputError: one line
    facts = store.facts(variant.name)                    # smallest first
    replays = [(case_from_json(f["case"]), order_from_json(f["order"])) for f in facts]
    report = search(variant, ..., extra_cases=replays)   # stored facts run before generating
    store.record(variant.name, document)                 # the dict check --out writes
    store.forget(variant.name, document)                 # a fact that no longer fails

Keys are variant *names* (stable), not specs (a file path differs between machines).
``tests/test_testing_database.py`` stores a real ``check --out`` document, reads it back
and replays it through ``search(..., extra_cases=...)`` before anything is generated.

>>> store = CounterexampleStore(open_database(":memory:"))
>>> doc = {"variant": "bug:plus-x", "property": "G2", "failure": "G2 fails",
...        "case": {"X": [["1"]], "y": [-1], "u": ["1"], "gamma": "1"},
...        "order": {"rule": "cyclic"}, "choices": [1], "replay": {"check": "..."}}
>>> store.record("bug:plus-x", doc)
>>> [f["property"] for f in store.facts("bug:plus-x")], "replay" in store.facts("bug:plus-x")[0]
(['G2'], False)
>>> store.facts("classic")
[]
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from hypothesis.database import (
    DirectoryBasedExampleDatabase,
    ExampleDatabase,
    InMemoryExampleDatabase,
    MultiplexedDatabase,
    ReadOnlyDatabase,
)

from ..errors import InputError

__all__ = [
    "DEFAULT_DIRECTORY",
    "ENV_DATABASE",
    "ENV_READONLY",
    "FACT_FIELDS",
    "CounterexampleStore",
    "describe",
    "open_database",
]

#: The default location: Hypothesis's own, relative to the working directory.
DEFAULT_DIRECTORY = os.path.join(".hypothesis", "examples")
#: Environment variables read by the pytest plugin (and by ``check``).
ENV_DATABASE = "PLA_PROOF_DATABASE"
ENV_READONLY = "PLA_PROOF_DATABASE_READONLY"
#: The fields of a ``check --out`` JSON document that make up the stored fact.
FACT_FIELDS = ("variant", "property", "mode", "failure", "case", "order", "choices")

_REDIS_SCHEMES = ("redis", "rediss", "unix")


def open_database(
    url: str | None = None,
    *,
    readonly: bool = False,
    local: ExampleDatabase | None = None,
    connect_timeout: float = 5.0,
) -> ExampleDatabase:
    """The example database at ``url`` (see the module docstring for the forms).

    Raises :class:`~pla_proof.errors.InputError` with one line naming the problem: an
    unknown scheme, a missing ``redis`` extra, a server that does not answer.

    >>> open_database("/tmp/pla-db")
    DirectoryBasedExampleDatabase(PosixPath('/tmp/pla-db'))
    >>> open_database("/tmp/pla-db", readonly=True)
    ReadOnlyDatabase(DirectoryBasedExampleDatabase(PosixPath('/tmp/pla-db')))
    >>> open_database("ftp://host/x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pla_proof.errors.InputError: database ftp://host/x: unsupported scheme 'ftp' (use ...)
    """
    db = _open(url or DEFAULT_DIRECTORY, connect_timeout)
    if not readonly:
        return db
    if local is not None:
        return MultiplexedDatabase(local, ReadOnlyDatabase(db))
    return ReadOnlyDatabase(db)


def _open(url: str, connect_timeout: float) -> ExampleDatabase:
    if url == ":memory:":
        return InMemoryExampleDatabase()
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme in _REDIS_SCHEMES and "://" in url:
        return _redis(url, connect_timeout)
    if scheme == "file":
        path = parts.path if "://" in url else url[len("file:") :]
        return _directory(url, path)
    if "://" in url:
        raise InputError(
            f"database {url}: unsupported scheme {scheme!r} (use a directory, file:PATH, "
            "redis://HOST:PORT/DB or :memory:)"
        )
    return _directory(url, url)


def _directory(url: str, path: str) -> ExampleDatabase:
    if not path:
        raise InputError(f"database {url}: no directory given")
    if os.path.exists(path) and not os.path.isdir(path):
        raise InputError(f"database {url}: {path} exists and is not a directory")
    return DirectoryBasedExampleDatabase(path)


def _redis(url: str, connect_timeout: float) -> ExampleDatabase:
    try:
        import redis
        from hypothesis.extra.redis import RedisExampleDatabase
    except ImportError:
        raise InputError(
            f"database {url}: a Redis database needs the redis extra "
            "(pip install 'pla_proof[redis]')"
        ) from None
    try:
        client = redis.Redis.from_url(
            url, socket_connect_timeout=connect_timeout, socket_timeout=max(30.0, connect_timeout)
        )
        client.ping()
    except ValueError as exc:
        raise InputError(f"database {url}: not a Redis URL ({exc})") from None
    except redis.RedisError as exc:
        raise InputError(f"database {url}: the Redis server does not answer ({exc})") from None
    return RedisExampleDatabase(client)


def describe(db: ExampleDatabase | None) -> str:
    """A short description of a database for reports (no password).

    >>> describe(None), describe(open_database(":memory:"))
    ('none', 'in memory')
    >>> describe(open_database("/tmp/pla-db", readonly=True))
    'read-only directory /tmp/pla-db'
    """
    if db is None:
        return "none"
    inner = getattr(db, "_wrapped", None)
    if isinstance(db, ReadOnlyDatabase) and isinstance(inner, ExampleDatabase):
        return "read-only " + describe(inner)
    if isinstance(db, MultiplexedDatabase) and isinstance(inner, tuple):
        return " + ".join(describe(d) for d in inner)
    if isinstance(db, DirectoryBasedExampleDatabase):
        return f"directory {db.path}"
    if isinstance(db, InMemoryExampleDatabase):
        return "in memory"
    client = getattr(db, "redis", None)
    if client is not None:
        kw = client.connection_pool.connection_kwargs
        where = kw.get("path") or f"{kw.get('host')}:{kw.get('port')}"
        return f"redis {where}/{kw.get('db', 0)}"
    return type(db).__name__


class CounterexampleStore:
    """``pla-proof check``'s facts (counterexample documents) in an example database."""

    def __init__(self, db: ExampleDatabase):
        self.db = db

    @staticmethod
    def key(variant: str) -> bytes:
        """The database key of one variant's facts.

        >>> CounterexampleStore.key("bug:plus-x")
        b'pla-proof:check:v1:bug:plus-x'
        """
        return b"pla-proof:check:v1:" + variant.encode("utf-8")

    @staticmethod
    def encode(document: Mapping[str, Any]) -> bytes:
        """The canonical bytes of a fact (the :data:`FACT_FIELDS` of ``document``)."""
        missing = [f for f in ("property", "case") if f not in document]
        if missing:
            raise InputError(f"not a counterexample document (no {', '.join(missing)})")
        fact = {f: document[f] for f in FACT_FIELDS if f in document}
        return json.dumps(fact, sort_keys=True, separators=(",", ":")).encode("utf-8")

    def record(self, variant: str, document: Mapping[str, Any]) -> None:
        """Store a counterexample document (a no-op on a read-only database)."""
        self.db.save(self.key(variant), self.encode(document))

    def forget(self, variant: str, document: Mapping[str, Any]) -> None:
        """Delete a fact, e.g. one that no longer fails after a fix."""
        self.db.delete(self.key(variant), self.encode(document))

    def facts(self, variant: str) -> list[dict[str, Any]]:
        """Every stored fact of ``variant``, smallest first (fewest points, then text).

        Entries that are not JSON documents are skipped (another tool's data)."""
        found: list[tuple[int, bytes, dict[str, Any]]] = []
        for blob in self.db.fetch(self.key(variant)):
            try:
                obj = json.loads(blob)
            except (UnicodeDecodeError, json.JSONDecodeError):
                continue
            if isinstance(obj, dict) and "case" in obj:
                points = obj["case"].get("X", ()) if isinstance(obj["case"], dict) else ()
                found.append((len(points), blob, obj))
        return [obj for _, _, obj in sorted(found, key=lambda t: (t[0], t[1]))]
