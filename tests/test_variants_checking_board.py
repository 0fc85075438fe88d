"""The parts' board: what a part posts, what it reads, and when it is beaten."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from pla_proof.variants.checking.board import STALL_RUNS, Board
from pla_proof.variants.checking.shard import _Round


def test_a_part_reads_the_others_smallest_and_never_its_own(tmp_path: Path) -> None:
    a, b, c = Board(tmp_path, 0), Board(tmp_path, 1), Board(tmp_path, 2)
    a.post({"SEP": (3, 2, 5)})
    b.post({"SEP": (4, 1, 0), "RUNS:ValueError": (1, 1, 0)})
    c.post({"SEP": (3, 1, 9)})
    assert a.others() == {"SEP": (3, 1, 9), "RUNS:ValueError": (1, 1, 0)}
    assert b.others() == {"SEP": (3, 1, 9)}


def test_a_post_keeps_the_causes_of_earlier_rounds(tmp_path: Path) -> None:
    a, b = Board(tmp_path, 0), Board(tmp_path, 1)
    a.post({"EPOCHS": (2, 1, 0)})
    a.post({"SEP": (5, 1, 0)})  # a later round, another property
    a.post({"SEP": (6, 1, 0)})  # larger: the smaller one stays
    assert b.others() == {"EPOCHS": (2, 1, 0), "SEP": (5, 1, 0)}


def test_beaten_only_by_no_more_points_nor_dimensions_of_every_cause(tmp_path: Path) -> None:
    a, b = Board(tmp_path, 0), Board(tmp_path, 1)
    b.post({"SEP": (2, 2, 7)})
    assert a.beaten({"SEP": (11, 2, 0)})  # fewer points
    assert a.beaten({"SEP": (2, 6, 0)})  # as many points, fewer dimensions
    assert not a.beaten({"SEP": (2, 2, 9)})  # fewer updates only: not beaten
    assert not a.beaten({"SEP": (1, 9, 0)})  # fewer points here
    assert not a.beaten({"SEP": (20, 1, 0)})  # fewer dimensions here (it may shrink on)
    assert not a.beaten({"SEP": (11, 2, 0), "G1": (11, 2, 0)})  # G1 is held here alone
    assert not a.beaten({})


def test_a_torn_or_foreign_file_is_skipped_and_an_unwritable_board_is_no_error(
    tmp_path: Path,
) -> None:
    (tmp_path / "1.json").write_text('{"SEP": [2, 1')  # half written
    (tmp_path / "2.json").write_text(json.dumps({"SEP": [3, 1, 0]}))
    a = Board(tmp_path, 0)
    assert a.others() == {"SEP": (3, 1, 0)}
    gone = Board(tmp_path / "missing", 0)
    gone.post({"SEP": (1, 1, 0)})  # nowhere to write: the part shrinks to its end
    assert gone.others() == {}
    assert not os.path.exists(tmp_path / "missing")


def test_a_look_at_most_every_quarter_second(tmp_path: Path) -> None:
    a = Board(tmp_path, 0)
    assert a.time_to_look()
    assert not a.time_to_look()


class _Ce:
    def __init__(self, size: tuple[int, int, int, int]) -> None:
        self._size = size

    def size(self) -> tuple[int, int, int, int]:
        return self._size


@pytest.mark.parametrize(
    ("spent", "posted", "stops"),
    [
        (STALL_RUNS, (2, 1, 0), True),  # stalled, and another part holds fewer points
        (STALL_RUNS - 1, (2, 1, 0), False),  # not stalled long enough
        (STALL_RUNS, (20, 6, 0), False),  # the other's is no smaller
    ],
)
def test_a_round_stops_its_shrink_only_when_stalled_and_beaten(
    tmp_path: Path, spent: int, posted: tuple[int, int, int], stops: bool
) -> None:
    Board(tmp_path, 1).post({"L4": posted})
    one = _Round.__new__(_Round)
    one.board, one.best = Board(tmp_path, 0), {"L4": _Ce((20, 6, 3, 0))}  # type: ignore[dict-item]
    one.spent, one.shrunk = spent, 0
    assert one.beaten() is stops
