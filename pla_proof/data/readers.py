"""Reading data sets: CSV and ``.npz`` files, and :func:`load` (a file or a built-in).

CSV, as a user can predict it:

* one point per line, the label in the last column; blank lines and lines starting
  with ``#`` are skipped; a UTF-8 byte-order mark is accepted;
* the delimiter is given (``delimiter=``) or is the one of comma, semicolon and tab
  that splits the first lines into the same number (at least two) of columns --
  when two of them do, the file is refused as ambiguous;
* a first line of which no cell is a number is a header;
* numbers are plain ASCII numerals read exactly (``0.1`` is 1/10); an empty cell,
  ``1_000``, ``0x10``, ``1,5`` inside a cell, NaN or infinity is refused with its
  line and column.

Big files are read by numpy's C parser and proved exact by a vectorised check
(:func:`_fast_csv`); a file of plain integers is parsed as integers, with no floats
at all.  Where the check cannot prove a row exact, that row is read by the exact
reader, which also decides every error message.

>>> ds = load("orthonormal:3")
>>> ds.n, ds.d, ds.radius_squared
(3, 3, Fraction(1, 1))
>>> load("students").bias.name, load("students").d
('augment', 6)
"""

from __future__ import annotations

import csv
import io
import math
import os
import zipfile
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from ..numbers import LIMITS, to_fraction
from .builtins import BUILTINS, builtin, is_builtin_name
from .labels import Coding, code_labels, invalid_labels, parse_coding, parse_label

if TYPE_CHECKING:
    import numpy as np

    from .dataset import Bias, Dataset

__all__ = ["DELIMITERS", "load", "read_csv", "read_npz", "shadowed_builtin"]

#: delimiter names accepted by ``delimiter=`` / ``--delimiter``
DELIMITERS = {"comma": ",", "semicolon": ";", "tab": "\t", ",": ",", ";": ";", "\t": "\t"}
#: files at least this large (after the header) try numpy's C parser first
FAST_MIN_BYTES = 256 * 1024
_BOM = b"\xef\xbb\xbf"
#: how many leading content lines decide the delimiter
_SNIFF_LINES = 5


# --- CSV --------------------------------------------------------------------------------


def read_csv(
    path: str | os.PathLike[str],
    *,
    labels: Coding = "pm1",
    header: bool | None = None,
    delimiter: str = "auto",
    fast: bool | None = None,
) -> Dataset:
    """Read a CSV file (see the module doc for the format).

    ``header``: ``None`` detects it, ``True``/``False`` forces it.  ``fast``: ``None``
    uses numpy's parser for files of :data:`FAST_MIN_BYTES` or more, ``False`` never,
    ``True`` always (both give the same data set).
    """
    from .dataset import Dataset

    coding = parse_coding(labels)
    raw = _read_bytes(path)
    if raw.startswith(_BOM):
        raw = raw[len(_BOM) :]
    if not raw.isascii():
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(f"{path}: not a UTF-8 text file (byte {exc.start + 1})") from None
    name = os.path.basename(os.fspath(path))
    content = _content_lines(raw, _SNIFF_LINES)
    if not content:
        raise InputError(f"{path}: the data set is empty (no data rows)")
    sep = _delimiter(delimiter, content, path)
    first_no, first_text = content[0]
    first_cells = _split(first_text, sep, f"{path}: line {first_no}")
    is_header = header if header is not None else all(_non_numeric(c) for c in first_cells)
    width = len(first_cells)
    if width < 2:
        raise InputError(
            f"{path}: line {first_no} needs at least one feature and a label "
            "(no comma, semicolon or tab splits it)"
        )
    # byte offset and line number where the data rows start
    body_line = first_no if is_header else first_no - 1  # 0-based index of the first body line
    offset = _line_offset(raw, body_line)
    use_fast = fast if fast is not None else len(raw) - offset >= FAST_MIN_BYTES
    result = None
    if use_fast:
        result = _fast_csv(raw, offset, body_line, sep, width, coding, path)
    if result is None:
        result = _exact_csv(raw[offset:].decode("utf-8"), body_line, sep, width, coding, path)
    Z, scale, y = result
    return Dataset.from_integers(Z, scale, y, name=name, copy=False)


def _content_lines(raw: bytes, count: int) -> list[tuple[int, str]]:
    """The first ``count`` non-blank, non-comment lines, with their 1-based numbers."""
    out: list[tuple[int, str]] = []
    pos, lineno = 0, 0
    while pos <= len(raw) and len(out) < count:
        end = raw.find(b"\n", pos)
        end = len(raw) if end < 0 else end
        lineno += 1
        line = raw[pos:end].decode("utf-8", errors="replace").rstrip("\r")
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            out.append((lineno, line))
        pos = end + 1
    return out


def _line_offset(raw: bytes, lines: int) -> int:
    """Byte offset of the start of line ``lines`` (0-based)."""
    pos = 0
    for _ in range(lines):
        nxt = raw.find(b"\n", pos)
        if nxt < 0:
            return len(raw)
        pos = nxt + 1
    return pos


def _split(line: str, sep: str, where: str = "") -> list[str]:
    """The cells of one line (a separator that does not occur gives one cell, whatever
    the line's length); a field longer than the csv module allows is refused."""
    if sep not in line and '"' not in line:
        return [line.strip()]
    try:
        return [c.strip() for c in next(csv.reader([line], delimiter=sep))]
    except csv.Error as exc:
        raise InputError(f"{where or 'a line'}: {_csv_problem(exc)}") from None


def _csv_problem(exc: csv.Error) -> str:
    if "field larger than field limit" in str(exc):
        return f"a field longer than {csv.field_size_limit():,} characters"
    return str(exc)


def _delimiter(spec: str, content: list[tuple[int, str]], path: Any) -> str:
    if spec != "auto":
        sep = DELIMITERS.get(spec, spec if len(spec) == 1 else None)
        if sep is None or sep in "\"'\n\r" or sep.isalnum() or sep in ".+-/ ":
            raise InputError(
                f"--delimiter {spec!r}: choose auto, comma, semicolon, tab or one character "
                "that cannot be part of a number"
            )
        return sep
    found = []
    for sep in (",", ";", "\t"):
        widths = {len(_split(text, sep, f"{path}: line {no}")) for no, text in content}
        if len(widths) == 1 and widths.pop() >= 2:
            found.append(sep)
    if len(found) == 1:
        return found[0]
    names = {",": "comma", ";": "semicolon", "\t": "tab"}
    if not found:
        return ","  # the width check reports the problem with its line
    both = " and ".join(names[s] for s in found)
    raise InputError(
        f"{path}: the delimiter is ambiguous (line {content[0][0]} splits on {both}); "
        "give --delimiter"
    )


def _non_numeric(cell: str) -> bool:
    try:
        to_fraction(cell)
    except InputError:
        return True
    return False


def _exact_csv(
    text: str, body_line: int, sep: str, width: int, coding: Coding, path: Any
) -> tuple[Any, int, Any]:
    """The reference reader: Python's ``csv`` module and exact rationals per cell."""
    rows: list[list[Fraction]] = []
    ys: list[int] = []
    reader = csv.reader(io.StringIO(text), delimiter=sep)
    for cells in _rows(reader, body_line, path):
        lineno = body_line + reader.line_num
        cells = [c.strip() for c in cells]
        if not cells or all(c == "" for c in cells) or cells[0].startswith("#"):
            continue
        x, label = _exact_row(cells, lineno, width, coding, path)
        rows.append(x)
        ys.append(label)
    if not rows:
        raise InputError(f"{path}: the data set is empty (no data rows)")
    return (*_integers(rows, path), ys)


def _rows(reader: Any, body_line: int, path: Any) -> Any:
    """The csv reader's rows, a field past its size limit refused with its line."""
    while True:
        try:
            yield next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise InputError(
                f"{path}: line {body_line + reader.line_num}: {_csv_problem(exc)}"
            ) from None


def _exact_row(
    cells: list[str], lineno: int, width: int, coding: Coding, path: Any
) -> tuple[list[Fraction], int]:
    if len(cells) != width:
        raise InputError(f"{path}: line {lineno} has {len(cells)} columns, expected {width}")
    x = []
    for col, cell in enumerate(cells[:-1], start=1):
        if cell == "":
            raise InputError(f"{path}: line {lineno}, column {col} is empty")
        x.append(to_fraction(cell, what=f"{path}: line {lineno}, column {col}: value"))
    if cells[-1] == "":
        raise InputError(f"{path}: line {lineno}, column {width} (the label) is empty")
    try:
        label = parse_label(cells[-1], None, coding)
    except InputError as exc:
        raise InputError(f"{path}: line {lineno}, column {width}: {exc}") from None
    return x, label


def _integers(rows: list[list[Fraction]], path: Any) -> tuple[Any, int]:
    """``(Z, scale)`` with ``rows = Z / scale`` exactly (int64 when it fits)."""
    import numpy as np

    scale = 1
    for r in rows:
        for v in r:
            if scale % v.denominator:
                scale = math.lcm(scale, v.denominator)
                _check_scale(scale, path)
    Z = [[v.numerator * (scale // v.denominator) for v in r] for r in rows]
    if all(-(2**62) < v < 2**62 for r in Z for v in r):
        return np.array(Z, dtype=np.int64).reshape(len(Z), -1), scale
    out = np.empty((len(Z), len(Z[0])), dtype=object)
    for i, zrow in enumerate(Z):
        out[i, :] = zrow
    return out, scale


def _check_scale(scale: int, path: Any) -> None:
    """The common denominator of all values is part of every exact computation: it
    may not exceed ``--max-digits`` digits."""
    limit = LIMITS.max_digits
    if scale.bit_length() > limit * 3.33 and len(str(scale)[: limit + 1]) > limit:
        raise InputError(
            f"{path}: the common denominator of the values has more than {limit} digits "
            "(--max-digits): the exact data would explode"
        )


def _fast_csv(
    raw: bytes, offset: int, body_line: int, sep: str, width: int, coding: Coding, path: Any
) -> tuple[Any, int, Any] | None:
    """numpy's C parser, proved exact; ``None`` hands the file to the exact reader.

    A decimal with at most K digits after the point is N / 10^K for an integer N.
    numpy parses it to the nearest float F (correctly rounded), and when
    |F 10^K| < 2^50 the float product F 10^K is within 1/4 of N, so rounding it
    gives N exactly.  K is read from the text (the longest run of digits after a
    point), so no float is trusted for the digits it cannot hold; rows with an
    exponent, more than 22 decimals or a too large N are read exactly instead.
    """
    import numpy as np

    body = raw[offset:]
    if not body.isascii() or b"#" in body or b'"' in body:
        return None
    b = np.frombuffer(body, dtype=np.uint8)
    index = _LineIndex(b, body_line)
    slow_rows = _exponent_rows(body, b, index, sep, coding)
    if slow_rows is None:
        return None  # not a numeral: the exact reader names it
    if not slow_rows and b"." not in body and not isinstance(coding, dict):
        ints = _parse_ints(body, sep, width)  # digits, signs and blanks only: integers
        if ints is not None:
            Z, raw_labels = ints
            y, bad_labels = invalid_labels(raw_labels, coding)
            if bad_labels.size:
                _refuse(int(bad_labels[0]), index, body, sep, width, coding, path)
            return Z, 1, y
    parsed = _parse_floats(body, sep, width, coding)
    if parsed is None:
        return None  # ragged rows, empty cells, ...: the exact reader names the problem
    F, raw_labels = parsed
    bad = ~np.isfinite(F)
    if slow_rows:
        if F.shape[0] != index.row_lines.size:
            return None
        bad[sorted(slow_rows)] = False  # those rows are read exactly below
    if bad.any():
        _refuse(int(np.argwhere(bad)[0][0]), index, body, sep, width, coding, path)
        return None  # pragma: no cover - _refuse raises
    y, bad_labels = invalid_labels(raw_labels, coding)
    if bad_labels.size:
        _refuse(int(bad_labels[0]), index, body, sep, width, coding, path)
        return None  # pragma: no cover - _refuse raises
    K, long_rows = _decimals(body, b, index)
    slow_rows.update(long_rows)
    S = 10**K
    Z, fits = _scaled_integers(F, K)
    slow_rows.update(np.flatnonzero(~fits.all(axis=1)).tolist())
    if not slow_rows:
        return Z, S, y
    if F.shape[0] != index.row_lines.size:
        return None
    return _patch_rows(Z, S, y, sorted(slow_rows), body, index, sep, width, coding, path)


def _exponent_rows(
    body: bytes, b: np.ndarray, index: _LineIndex, sep: str, coding: Coding
) -> set[int] | None:
    """The rows with an exponent (``1e3``), to be read exactly; ``None`` when a feature
    holds a byte that is no part of a numeral (the exact reader names it)."""
    import numpy as np

    # bytes that are no part of a plain numeral: deleted at C speed, usually none are left
    if not body.translate(None, b"0123456789.+- \t\r\n" + sep.encode()):
        return set()
    lut = np.full(256, 2, dtype=np.uint8)  # 2: no numeral, 1: exponent letter, 0: fine
    lut[np.frombuffer(b"0123456789.+- \t\r\n", dtype=np.uint8)] = 0
    lut[ord(sep)] = 0
    lut[[ord("e"), ord("E")]] = 1
    special = np.flatnonzero(lut[b])
    line_of = np.searchsorted(index.starts, special, side="right") - 1
    if isinstance(coding, dict):
        feature = special < _label_starts(b, index.starts, index.ends, sep)[line_of]
    else:
        feature = np.ones(special.size, dtype=bool)
    if np.any(feature & (b[special] != ord("e")) & (b[special] != ord("E"))):
        return None
    return set(index.line_rows[line_of[feature]].tolist())


def _parse_ints(body: bytes, sep: str, width: int) -> tuple[Any, Any] | None:
    """numpy's parse of a body of integers (bytes: digits, signs, blanks, separators and
    line ends only): the features as int64 and the labels; ``None`` when a cell is no
    integer numpy reads exactly (empty, ``1-2``, beyond int64, ...) or the number of
    columns differs -- the float parse and the exact reader take those.

    Each value numpy accepts here is a plain ASCII integer, read exactly (and the
    exact reader accepts it with the same value): no rounding is involved.
    """
    import numpy as np

    try:
        both = np.loadtxt(
            io.BytesIO(body), delimiter=sep, ndmin=2, encoding="ascii", dtype=np.int64
        )
    except (ValueError, IndexError, OverflowError):
        return None
    if both.shape[1] != width:
        return None
    return both[:, :-1], both[:, -1]


def _parse_floats(body: bytes, sep: str, width: int, coding: Coding) -> tuple[Any, Any] | None:
    """numpy's parse of the body: the features as floats and the raw labels; ``None``
    when it fails or finds another number of columns."""
    import numpy as np

    try:
        kwargs: dict[str, Any] = {"delimiter": sep, "ndmin": 2, "encoding": "ascii"}
        if isinstance(coding, dict):
            F = np.loadtxt(io.BytesIO(body), usecols=range(width - 1), **kwargs)
            raw_labels: Any = np.loadtxt(
                io.BytesIO(body), usecols=[width - 1], dtype=str, **kwargs
            ).ravel()
        else:
            both = np.loadtxt(io.BytesIO(body), **kwargs)
            if both.shape[1] != width:
                return None
            F, raw_labels = both[:, :-1], both[:, -1]
    except (ValueError, IndexError):
        return None
    if F.shape[1] != width - 1:
        return None
    return F, raw_labels


def _decimals(body: bytes, b: np.ndarray, index: _LineIndex) -> tuple[int, set[int]]:
    """K, the most digits after a decimal point (22 at most: 10^22 is exact in float64),
    and the rows with more, to be read exactly."""
    import numpy as np

    K = 0
    if b"." not in body:
        return K, set()
    follow = np.flatnonzero(b == ord("."))
    while follow.size and K <= 22:
        nxt = follow + K + 1
        nxt = nxt[nxt < len(b)]
        follow = follow[: nxt.size][(b[nxt] >= 48) & (b[nxt] <= 57)]
        if follow.size:
            K += 1
    if K <= 22:
        return K, set()
    lines = np.searchsorted(index.starts, follow, side="right") - 1
    return 22, set(np.unique(index.line_rows[lines]).tolist())


def _scaled_integers(F: np.ndarray, K: int) -> tuple[Any, Any]:
    """``(Z, fits)``: ``Z = round(F 10^K)`` as int64 where ``|F 10^K| < 2^50`` (exact
    there), 0 elsewhere; ``fits`` says where (the other rows are read exactly)."""
    import numpy as np

    with np.errstate(over="ignore", invalid="ignore"):
        M = F * float(10**K) if K else F
        fits = np.abs(M) < 2.0**50
    if K:
        M[~fits] = 0.0  # those rows are read exactly below
        np.rint(M, out=M)
        return M.astype(np.int64), fits
    Z = np.where(fits, F, 0.0).astype(np.int64) if not fits.all() else F.astype(np.int64)
    return Z, fits


class _LineIndex:
    """Where the lines of a body start and end, and which data row each holds
    (computed on first use: a clean file never needs it)."""

    def __init__(self, b: np.ndarray, body_line: int) -> None:
        self.b, self.body_line = b, body_line

    @cached_property
    def _lines(self) -> tuple[Any, Any]:
        import numpy as np

        b = self.b
        nl = np.flatnonzero(b == 10)
        starts = np.concatenate(([0], nl + 1))
        ends = np.concatenate((nl, [len(b)]))
        keep = starts < len(b)
        starts, ends = starts[keep], ends[keep]
        cr = (ends > starts) & (b[np.maximum(ends - 1, 0)] == 13)
        return starts, ends - cr

    @property
    def starts(self) -> Any:
        return self._lines[0]

    @property
    def ends(self) -> Any:
        return self._lines[1]

    @cached_property
    def line_rows(self) -> Any:
        """The data row of each line (blank lines hold none)."""
        import numpy as np

        return np.cumsum(self.ends > self.starts) - 1

    @cached_property
    def row_lines(self) -> Any:
        """The body line of each data row."""
        import numpy as np

        return np.flatnonzero(self.ends > self.starts)

    def text(self, body: bytes, row: int) -> tuple[int, str]:
        """``(file line number, text)`` of data row ``row``."""
        line = int(self.row_lines[row])
        return self.body_line + 1 + line, body[
            int(self.starts[line]) : int(self.ends[line])
        ].decode()


def _refuse(
    row: int, index: _LineIndex, body: bytes, sep: str, width: int, coding: Coding, path: Any
) -> None:
    """Read one row exactly: it raises the exact reader's message for it."""
    lineno, text = index.text(body, row)
    _exact_row(_split(text, sep, f"{path}: line {lineno}"), lineno, width, coding, path)


def _label_starts(b: np.ndarray, starts: np.ndarray, ends: np.ndarray, sep: str) -> np.ndarray:
    """Byte offset where each line's last cell (the label) starts."""
    import numpy as np

    out = starts.copy()
    todo = np.flatnonzero(ends > starts)
    pos = ends[todo] - 1
    s = ord(sep)
    for _ in range(256):  # labels are short; a longer one leaves its line to the exact reader
        if not todo.size:
            break
        hit = b[pos] == s
        out[todo[hit]] = pos[hit] + 1
        alive = ~hit & (pos > starts[todo])
        todo, pos = todo[alive], pos[alive] - 1
    return out


def _patch_rows(
    Z: Any,
    S: int,
    y: Any,
    rows: list[int],
    body: bytes,
    index: _LineIndex,
    sep: str,
    width: int,
    coding: Coding,
    path: Any,
) -> tuple[Any, int, Any]:
    """Read ``rows`` exactly and merge them into ``Z / S`` (a common scale)."""
    import numpy as np

    exact = []
    for i in rows:
        lineno, text = index.text(body, i)
        x, _ = _exact_row(_split(text, sep, f"{path}: line {lineno}"), lineno, width, coding, path)
        exact.append(x)
    scale = S
    for r in exact:
        for v in r:
            if scale % v.denominator:
                scale = math.lcm(scale, v.denominator)
                _check_scale(scale, path)
    factor = scale // S
    ints = [[v.numerator * (scale // v.denominator) for v in r] for r in exact]
    lim = 2**62
    small = all(-lim < v < lim for r in ints for v in r) and (
        factor == 1 or int(np.abs(Z).max(initial=0)) * factor < lim
    )
    if small:
        out = Z * factor if factor != 1 else Z
        out[rows] = np.array(ints, dtype=np.int64)
        return out, scale, y
    big = Z.astype(object) * factor
    for i, zrow in zip(rows, ints, strict=True):
        big[i, :] = zrow
    return big, scale, y


# --- npz --------------------------------------------------------------------------------


def _read_bytes(path: str | os.PathLike[str]) -> bytes:
    """The file's bytes, or an ``InputError`` naming why it cannot be read."""
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, not a data file") from None
    except PermissionError:
        raise InputError(f"{path}: permission denied") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror})") from None


def read_npz(path: str | os.PathLike[str], *, labels: Coding = "pm1") -> Dataset:
    """Read arrays ``X`` (n x d) and ``y`` (n) from an ``.npz`` file, never unpickling.

    Integer ``X`` is taken as integers, float ``X`` exactly (every float64 is a
    dyadic rational); ``y`` holds numbers, or words under a word coding.
    """
    import numpy as np

    from .dataset import Dataset

    coding = parse_coding(labels)
    raw = _read_bytes(path)
    if not raw.startswith(b"PK"):
        raise InputError(f"{path}: not a valid .npz file (not a zip archive)")
    try:
        with np.load(io.BytesIO(raw), allow_pickle=False) as npz:
            missing = [k for k in ("X", "y") if k not in npz.files]
            if missing:
                raise InputError(f"{path}: missing array(s) {', '.join(missing)} (need X and y)")
            X = npz["X"]
            y = npz["y"]
    except ValueError as exc:
        if "pickle" in str(exc).lower():
            raise InputError(f"{path}: contains pickled objects; refusing to load them") from None
        raise InputError(f"{path}: not a valid .npz file ({exc})") from None
    except (zipfile.BadZipFile, OSError, EOFError):
        raise InputError(f"{path}: not a valid .npz file") from None
    if X.dtype.kind not in "biuf":
        raise InputError(f"{path}: array X is not numeric (dtype {X.dtype})")
    words = isinstance(coding, dict)
    if y.dtype.kind not in ("biuf" + ("US" if words else "")):
        hint = " (word labels: give --labels WORD=LABEL,...)" if y.dtype.kind in "US" else ""
        raise InputError(f"{path}: array y is not numeric (dtype {y.dtype}){hint}")
    if X.ndim != 2:
        raise InputError(f"{path}: X must be 2-dimensional (n x d), got shape {X.shape}")
    if y.ndim != 1:
        raise InputError(f"{path}: y must be 1-dimensional, got shape {y.shape}")
    if X.shape[0] != y.shape[0]:
        raise InputError(f"{path}: shape mismatch: {X.shape[0]} points but {y.shape[0]} labels")
    name = os.path.basename(os.fspath(path))
    try:
        if y.dtype.kind == "b":
            raise InputError("array y holds booleans, not labels")
        codes = code_labels(y if words else y.astype(np.float64), coding)
        if X.dtype.kind in "biu":
            return Dataset.from_integers(
                X.astype(np.int64) if X.dtype.kind == "b" else X, 1, codes, name=name
            )
        return Dataset.from_floats(X.astype(np.float64), codes, name=name)
    except InputError as exc:
        raise InputError(f"{path}: {exc}") from None


# --- a file or a built-in -----------------------------------------------------------------


def shadowed_builtin(spec: str) -> bool:
    """Whether ``spec`` names both an existing file (which :func:`load` reads) and a
    built-in data set (``builtin:NAME`` selects the built-in)."""
    return os.path.exists(spec) and is_builtin_name(spec)


def load(
    spec: str,
    *,
    labels: Coding = "pm1",
    bias: str | Bias | None = "default",
    delimiter: str = "auto",
) -> Dataset:
    """Load a ``.csv`` / ``.npz`` file or a built-in data set.

    A file that exists wins over a built-in of the same name; ``builtin:NAME``
    always means the built-in.  ``bias="default"`` keeps a built-in's own convention
    (students and xor train with (x, 1)) and adds none to files; ``None``/``"none"``
    removes it; any other convention replaces it.
    """
    from .dataset import Bias

    if spec.startswith("builtin:"):
        ds = builtin(spec[len("builtin:") :])
        if ds is None:
            known = ", ".join(BUILTINS)
            raise InputError(f"{spec}: no such built-in data set (built-ins: {known})")
    elif os.path.isdir(spec):
        raise InputError(f"{spec}: is a directory, not a data file")
    elif os.path.exists(spec):
        ds = _read_file(spec, labels, delimiter)
    else:
        found = builtin(spec)
        if found is not None:
            ds = found
        elif spec.lower().endswith((".csv", ".txt", ".tsv", ".npz")) or os.sep in spec:
            raise InputError(f"{spec}: no such file")
        else:
            known = ", ".join(BUILTINS)
            raise InputError(f"{spec}: no such file or built-in data set (built-ins: {known})")
    if bias == "default":
        return ds
    conv = Bias.parse(bias) if isinstance(bias, str) or bias is None else bias
    return ds.without_bias().with_bias(conv)


def _read_file(path: str, labels: Coding, delimiter: str) -> Dataset:
    if path.lower().endswith(".npz"):
        return read_npz(path, labels=labels)
    try:
        with open(path, "rb") as fh:
            magic = fh.read(2)
    except OSError:
        magic = b""
    if magic == b"PK":
        return read_npz(path, labels=labels)
    return read_csv(path, labels=labels, delimiter=delimiter)
