"""The search on several processes: workers forked from a frozen heap, the parent's heap
collected again afterwards (a caller's own freeze kept), and the report the same as on
one process."""

from __future__ import annotations

import gc
import importlib

import pytest

from pla_proof.variants import resolve
from pla_proof.variants.checking import workers
from pla_proof.variants.checking.search import run_searches


@pytest.fixture(autouse=True)
def forked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forked workers, as in a process that loaded no users' code (an earlier test in
    this process may have: its searches would use clean workers)."""
    search = importlib.import_module("pla_proof.variants.checking.search")
    monkeypatch.setattr(search, "users_modules", dict)
    monkeypatch.setattr(workers, "users_modules", dict)


def verdict(jobs: int) -> list[tuple[str, bool, int]]:
    return [
        (r.variant, r.ok, r.runs) for r in run_searches([resolve("classic")], examples=6, jobs=jobs)
    ]


def test_the_parent_heap_is_unfrozen_after_the_workers_fork() -> None:
    assert gc.get_freeze_count() == 0
    two = verdict(2)
    assert gc.get_freeze_count() == 0  # the parent collects its own garbage again
    assert two == verdict(1)


def test_a_heap_the_caller_froze_stays_frozen() -> None:
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        verdict(2)
        assert gc.get_freeze_count() >= frozen > 0
    finally:
        gc.unfreeze()
