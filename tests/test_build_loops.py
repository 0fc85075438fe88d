"""The build's cache of compiled loops: reused only when built from the same sources for
the same processor and Python."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pla_proof.build_loops import reusable
from pla_proof.engine.aot import FAST_INDEX, INDEX

ENGINE = Path(__file__).resolve().parent.parent / "pla_proof" / "engine"


@pytest.fixture
def built(tmp_path: Path) -> Path:
    found = reusable(ENGINE)
    if found is None:
        pytest.skip("this checkout's loops are not built for its sources (pip install -e .)")
    for f in found:
        shutil.copy2(f, tmp_path / f.name)
    return tmp_path


def test_loops_built_from_these_sources_are_reused(built: Path) -> None:
    found = reusable(built)
    assert found is not None
    assert {p.name for p in found} >= {INDEX, FAST_INDEX}


@pytest.mark.parametrize(
    "edit",
    [
        ("sources", "aot.py:1:00000000:00000000"),
        ("cpu", "generic"),
        ("cpu_flags", ["sse2"]),
    ],
)
def test_loops_built_from_other_sources_or_for_another_processor_are_not(
    built: Path, edit: tuple[str, object]
) -> None:
    index = json.loads((built / INDEX).read_text())
    index[edit[0]] = edit[1]
    (built / INDEX).write_text(json.dumps(index))
    assert reusable(built) is None


def test_a_folder_without_the_module_is_not_reused(built: Path) -> None:
    for p in built.glob("_loops*.so"):
        p.unlink()
    assert reusable(built) is None
