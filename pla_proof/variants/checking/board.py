"""The parts' board: where the parts of one variant's search, run side by side on one
machine, post the smallest counterexample each holds of every cause, so that a part
whose shrink has stalled can see that another already holds a smaller one and stop.

A search's report keeps, for each property, the smallest counterexample of all its
parts (:func:`~.shard.merge`: fewest points, then dimensions, then updates).  A part
that holds a larger one and has stopped getting smaller (no fewer points or dimensions
for :data:`STALL_RUNS` runs of its shrink) spends its remaining shrink budget on a
counterexample the report will not show: on a slow implementation, tens of seconds.
It stops once, for every cause it holds, another part has posted a counterexample no
larger in points nor in dimensions and smaller in one of them.  The report is then the
one it would have been unless the stopped part would, later still, have gone below the
other part's -- after a stall of that length, the rare case.  (Fewer points alone is not
enough: a part at 20 points in 2 dimensions, against another's 12 in 3, went on to 11
in 1 after a stall of 287 runs.)

The board is a directory (each part writes its own file, replaced whole, so a reader
never sees half of one); a part given no board, or a board it cannot read, shrinks to
its own end as before.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as root:
...     a, b = Board(root, part=0), Board(root, part=1)
...     a.post({"SEP": (11, 2, 3)})
...     b.post({"SEP": (2, 2, 1)})
...     a.beaten({"SEP": (11, 2, 3)}), b.beaten({"SEP": (2, 2, 1)})
(True, False)
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Mapping
from pathlib import Path

#: Runs of a shrink without fewer points or dimensions before it looks at the board.
STALL_RUNS = 100
#: Seconds between two looks at the board (reading it costs a directory listing).
LOOK_EVERY = 0.25

#: a counterexample's size as the report orders them: (points, dimensions, updates)
Size = tuple[int, int, int]


class Board:
    """One part's view of the board at ``root`` (a directory shared by the parts of one
    variant's search)."""

    def __init__(self, root: str | os.PathLike[str], part: int) -> None:
        self.root, self.part = Path(root), part
        self.looked = 0.0
        self.mine: dict[str, Size] = {}

    def post(self, best: Mapping[str, Size]) -> None:
        """Post this part's smallest counterexample of each cause in ``best`` (kept
        with those of its earlier rounds)."""
        for cause, size in best.items():
            if cause not in self.mine or size < self.mine[cause]:
                self.mine[cause] = size
        tmp = self.root / f".{self.part}.{os.getpid()}.tmp"
        try:
            tmp.write_text(json.dumps({k: list(v) for k, v in self.mine.items()}))
            os.replace(tmp, self.root / f"{self.part}.json")
        except OSError:  # a board that cannot be written: the part shrinks to its end
            return

    def others(self) -> dict[str, Size]:
        """The smallest size posted by the other parts, per cause."""
        out: dict[str, Size] = {}
        try:
            files = [p for p in self.root.glob("*.json") if p.stem != str(self.part)]
        except OSError:
            return out
        for p in files:
            try:
                posted = json.loads(p.read_text())
            except (OSError, ValueError):  # being replaced, or gone: read next time
                continue
            for cause, size in posted.items():
                s = (int(size[0]), int(size[1]), int(size[2]))
                if cause not in out or s < out[cause]:
                    out[cause] = s
        return out

    def beaten(self, best: Mapping[str, Size]) -> bool:
        """Whether, for every cause in ``best``, another part posted a counterexample
        with no more points and no more dimensions, and fewer of one."""
        if not best:
            return False
        others = self.others()
        return all(c in others and _dominates(others[c], s) for c, s in best.items())

    def time_to_look(self) -> bool:
        """At most one look every :data:`LOOK_EVERY` seconds."""
        now = time.monotonic()
        if now - self.looked < LOOK_EVERY:
            return False
        self.looked = now
        return True


def _dominates(a: Size, b: Size) -> bool:
    """``a`` has no more points and no more dimensions than ``b``, and fewer of one."""
    return a[0] <= b[0] and a[1] <= b[1] and a[:2] != b[:2]
