"""Users' prints, told apart from pla_proof's own output.

While users' code runs under :func:`user_output` (every command that runs it: ``check``
for the whole check, and any ``--json`` document, :func:`pla_proof.render.jsonout.document_only`),
what it prints through Python's ``sys.stdout`` goes to standard error, one whole line at
a time, each line headed by :data:`USER_PREFIX`: a JSON document on standard output
stays one document, and a print never lands in the middle of one of pla_proof's lines.

>>> import io
>>> err = io.StringIO()
>>> with user_output(err):
...     print("Round 0:50", end="")
...     print(" training")
...     print("done\\nbye")
>>> print(err.getvalue(), end="")
[user] Round 0:50 training
[user] done
[user] bye

Users' output is capped (:data:`HEAD_LINES`, :data:`TAIL_LINES`): past its first lines,
only its last ones are kept, written when the stream is finished, after one line saying
how many were dropped between -- a fit that prints on every update cannot flood the
terminal or fill a log.  Worker processes collect their units' lines the same way
(:meth:`PrefixedLines.collect`) and the parent passes them through its own cap
(:meth:`PrefixedLines.replay`): one cap per command.

>>> err = io.StringIO()
>>> with user_output(err, head=2, tail=1):
...     for i in range(10):
...         print(f"update {i}")
>>> print(err.getvalue(), end="")
[user] update 0
[user] update 1
[user] ... 7 more lines dropped (users' output is cut to its first 2 and last 1 lines)
[user] update 9
"""

from __future__ import annotations

import contextlib
import io
import sys
import threading
from collections import deque
from collections.abc import Iterator
from typing import IO

__all__ = ["HEAD_LINES", "TAIL_LINES", "USER_PREFIX", "PrefixedLines", "user_output"]

#: what heads every line users' code prints while pla_proof writes its output
USER_PREFIX = "[user] "
#: of users' output, the first lines written as they come ...
HEAD_LINES = 20
#: ... and the last lines, written at the end (those between are counted, not written)
TAIL_LINES = 20

#: a unit's lines as a worker collected them: its first lines, how many it dropped, its last
Collected = tuple[tuple[str, ...], int, tuple[str, ...]]


class PrefixedLines(io.TextIOBase):
    """A text stream that writes each complete line to ``target`` headed by ``prefix``
    (an unfinished line waits for its end, or for :meth:`finish`): the first ``head``
    lines as they come, the last ``tail`` ones at :meth:`finish`, after a line counting
    those dropped between (``head=None``: every line)."""

    def __init__(
        self,
        target: IO[str],
        prefix: str = USER_PREFIX,
        *,
        head: int | None = HEAD_LINES,
        tail: int = TAIL_LINES,
    ) -> None:
        super().__init__()
        self.target = target
        self.prefix = prefix
        self.head, self.tail = head, tail
        self._partial = ""
        self._lock = threading.Lock()
        self._shown = 0  # lines written as they came
        self._last: deque[str] = deque()  # the last lines past the head (at most ``tail``)
        self._dropped = 0
        self._collecting = False  # (a worker) keep the head too, for the parent
        self._head_kept: list[str] = []

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return str(getattr(self.target, "encoding", None) or "utf-8")

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        return self.target.fileno()  # (what is written there directly is not prefixed)

    def write(self, s: str) -> int:
        if not isinstance(s, str):
            raise TypeError(f"write() argument must be str, not {type(s).__name__}")
        with self._lock:
            *lines, self._partial = (self._partial + s).split("\n")
            if lines:
                self._lines(lines)
        return len(s)

    def _lines(self, lines: list[str]) -> None:
        """Pass complete lines through the cap (with the lock held)."""
        shown: list[str] = []
        if self.head is None:
            shown = lines
        else:
            room = max(self.head - self._shown, 0)
            shown, rest = lines[:room], lines[room:]
            self._shown += len(shown)
            if rest:
                self._last.extend(rest)
                over = len(self._last) - self.tail
                if over > 0:
                    self._dropped += over
                    for _ in range(over):
                        self._last.popleft()
        if shown:
            if self._collecting:
                self._head_kept.extend(shown)
            else:
                self.target.write("".join(f"{self.prefix}{line}\n" for line in shown))
                self.target.flush()

    def flush(self) -> None:
        if not self._collecting:
            self.target.flush()

    def finish(self) -> None:
        """Write the unfinished line, if any (ended by a newline), then the count of the
        lines dropped and the last lines kept."""
        with self._lock:
            if self._partial:
                self._lines([self._partial])
                self._partial = ""
            out = []
            if self._dropped:
                out.append(
                    f"{self.prefix}... {self._dropped} more lines dropped (users' output is cut "
                    f"to its first {self.head} and last {self.tail} lines)\n"
                )
            out.extend(f"{self.prefix}{line}\n" for line in self._last)
            self._last.clear()
            self._dropped = 0
            if out and not self._collecting:
                self.target.write("".join(out))
            if not self._collecting:
                self.target.flush()

    # --- across processes: a worker collects, the parent replays ------------------------

    def collect(self) -> None:
        """Keep every line (the first ``head``, the count dropped, the last ``tail``)
        instead of writing it, for :meth:`take`."""
        with self._lock:
            self._collecting = True
            self._head_kept = []

    def take(self) -> Collected | None:
        """What was collected since the last :meth:`take` (``None``: nothing), the cap
        started anew."""
        with self._lock:
            if self._partial:
                self._lines([self._partial])
                self._partial = ""
            got = (tuple(self._head_kept), self._dropped, tuple(self._last))
            self._head_kept = []
            self._shown, self._dropped = 0, 0
            self._last.clear()
        return got if got[0] or got[2] else None

    def replay(self, got: Collected) -> None:
        """Pass a worker's collected lines through this stream's cap, as if printed
        here: its first lines, then the lines it dropped (which push out whatever
        this stream kept for its end), then its last ones."""
        head, dropped, last = got
        with self._lock:
            self._lines(list(head))
            if dropped:
                self._dropped += dropped + len(self._last)
                self._last.clear()
                if self.head is not None:
                    self._shown = max(self._shown, self.head)
            self._lines(list(last))


@contextlib.contextmanager
def user_output(
    target: IO[str] | None = None, *, head: int | None = HEAD_LINES, tail: int = TAIL_LINES
) -> Iterator[PrefixedLines]:
    """Within: ``sys.stdout`` writes prefixed lines to ``target`` (default: standard
    error), capped to the first ``head`` and last ``tail`` lines (``head=None``: every
    line).  Nested, the inner one passes its lines to the outer one unchanged."""
    if isinstance(sys.stdout, PrefixedLines) and target is None:
        yield sys.stdout
        return
    stream = PrefixedLines(target if target is not None else sys.stderr, head=head, tail=tail)
    try:
        with contextlib.redirect_stdout(stream):
            yield stream
    finally:
        stream.finish()
