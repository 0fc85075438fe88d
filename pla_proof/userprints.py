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
"""

from __future__ import annotations

import contextlib
import io
import sys
import threading
from collections.abc import Iterator
from typing import IO

__all__ = ["USER_PREFIX", "PrefixedLines", "user_output"]

#: what heads every line users' code prints while pla_proof writes its output
USER_PREFIX = "[user] "


class PrefixedLines(io.TextIOBase):
    """A text stream that writes each complete line to ``target`` headed by ``prefix``
    (an unfinished line waits for its end, or for :meth:`finish`)."""

    def __init__(self, target: IO[str], prefix: str = USER_PREFIX) -> None:
        super().__init__()
        self.target = target
        self.prefix = prefix
        self._partial = ""
        self._lock = threading.Lock()

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
                self.target.write("".join(f"{self.prefix}{line}\n" for line in lines))
                self.target.flush()
        return len(s)

    def flush(self) -> None:
        self.target.flush()

    def finish(self) -> None:
        """Write the unfinished line, if any (ended by a newline)."""
        with self._lock:
            if self._partial:
                self.target.write(f"{self.prefix}{self._partial}\n")
                self._partial = ""
            self.target.flush()


@contextlib.contextmanager
def user_output(target: IO[str] | None = None) -> Iterator[PrefixedLines]:
    """Within: ``sys.stdout`` writes prefixed lines to ``target`` (default: standard
    error).  Nested, the inner one passes its lines to the outer one unchanged."""
    if isinstance(sys.stdout, PrefixedLines) and target is None:
        yield sys.stdout
        return
    stream = PrefixedLines(target if target is not None else sys.stderr)
    try:
        with contextlib.redirect_stdout(stream):
            yield stream
    finally:
        stream.finish()
