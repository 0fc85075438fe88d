"""Label codings: how a file's or an array's labels become -1/+1.

A coding is ``pm1`` (labels -1 and +1), ``01`` (0 means -1) or a list of words,
each with its label: ``accept=1,decline=-1`` (Lin's admission table).

>>> parse_label("1", 1, "pm1"), parse_label(0, 2, "01")
(1, -1)
>>> parse_label("decline", 3, "accept=1,decline=-1")
-1
>>> parse_coding("accept=1, decline=-1")
{'accept': 1, 'decline': -1}
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..errors import InputError
from ..numbers import to_fraction

__all__ = [
    "Coding",
    "code_labels",
    "invalid_labels",
    "parse_coding",
    "parse_label",
    "parse_labels",
]

#: ``"pm1"``, ``"01"`` or a mapping word -> -1/+1
Coding = str | dict[str, int]


def parse_coding(spec: str | dict[str, int]) -> Coding:
    """Check a coding: ``pm1``, ``01`` or ``WORD=LABEL,...`` with labels -1 or +1.

    >>> parse_coding("yes=+1,no=-1")
    {'yes': 1, 'no': -1}
    >>> parse_coding("yes=1,no=0")
    Traceback (most recent call last):
    ...
    pla_proof.errors.InputError: --labels: word 'no' maps to 0; each word maps to -1 or +1
    """
    items: list[tuple[str, Any]]
    if isinstance(spec, dict):
        items = list(spec.items())
    else:
        text = spec.strip()
        if text in ("pm1", "01"):
            return text
        if "=" not in text:
            raise InputError(
                f"--labels {spec!r}: choose pm1, 01, or words such as accept=1,decline=-1"
            )
        items = []
        for part in text.split(","):
            word, eq, value = part.partition("=")
            if not eq or not word.strip():
                raise InputError(f"--labels: {part.strip()!r} is not WORD=LABEL")
            items.append((word.strip(), value.strip()))
    out: dict[str, int] = {}
    for word, value in items:
        try:
            v = to_fraction(value, what=f"--labels: the label of {word!r}")
        except InputError as exc:
            raise InputError(str(exc)) from None
        if v not in (-1, 1):
            raise InputError(
                f"--labels: word {word!r} maps to {_show(v)}; each word maps to -1 or +1"
            )
        if word in out:
            raise InputError(f"--labels: word {word!r} is given twice")
        out[word] = int(v)
    return out


def parse_label(value: Any, row: int | None, labels: Coding) -> int:
    """The label -1/+1 of one ``value`` under the coding ``labels`` (``row`` for
    messages; ``None`` when the caller names the place itself)."""
    coding = parse_coding(labels) if isinstance(labels, str) else labels
    at = "" if row is None else f" at row {row}"
    if isinstance(coding, dict):
        word = str(value).strip()
        if word in coding:
            return coding[word]
        known = ", ".join(coding)
        raise InputError(f"label {word!r}{at} is not one of the words {known}")
    try:
        f = to_fraction(value, what=f"label{at}")
    except InputError as exc:
        raise InputError(str(exc)) from None
    if coding == "01":
        if f == 0:
            return -1
        if f == 1:
            return 1
        raise InputError(f"label {_show(f)}{at} is not 0 or 1 (labels='01')")
    if f in (-1, 1):
        return int(f)
    hint = " (0/1 labels: use labels='01' / --labels 01)" if f == 0 else ""
    raise InputError(f"label {_show(f)}{at} is not -1 or +1{hint}")


def parse_labels(values: Any, labels: str) -> Any:
    """The int8 labels -1/+1 of a whole column under ``pm1`` or ``01``: one vectorised
    test for numeric arrays and lists; anything else (strings, Fractions, booleans)
    value by value.  The first invalid value is refused by :func:`parse_label`, with its
    message.

    >>> parse_labels([1, -1, 1.0], "pm1").tolist(), parse_labels([0, 1], "01").tolist()
    ([1, -1, 1], [-1, 1])
    >>> parse_labels([1, 2], "pm1")
    Traceback (most recent call last):
    ...
    pla_proof.errors.InputError: label 2 at row 2 is not -1 or +1
    """
    import numpy as np

    arr = values if isinstance(values, np.ndarray) else None
    if arr is None and not any(isinstance(v, bool | np.bool_) for v in values):
        try:  # (numpy would read a boolean among numbers as 0 or 1: refused below)
            arr = np.asarray(values)
        except (ValueError, TypeError):
            arr = None
    if arr is not None and arr.ndim == 1 and arr.dtype.kind in "iuf":
        lo = 0 if labels == "01" else -1
        ok = (arr == lo) | (arr == 1)
        if ok.all():
            return np.where(arr == 1, 1, -1).astype(np.int8)
        i = int(np.flatnonzero(~ok)[0])
        parse_label(arr[i].item(), i + 1, labels)
        raise InputError(f"label at row {i + 1} is not valid")  # pragma: no cover
    ys = values.tolist() if isinstance(values, np.ndarray) else list(values)
    return np.array([parse_label(v, i + 1, labels) for i, v in enumerate(ys)], dtype=np.int8)


def code_labels(values: Any, coding: Coding, rows: Any = None) -> Any:
    """Code a whole column at once (numpy); returns an int8 array of -1/+1.

    ``values`` is a float array (numeric codings) or an array of strings (words);
    ``rows`` gives the row number of each value for messages (default 1, 2, ...).

    >>> import numpy as np
    >>> code_labels(np.array([0.0, 1.0]), "01").tolist()
    [-1, 1]
    """
    import numpy as np

    out, bad = invalid_labels(values, coding)
    if bad.size:
        i = int(bad[0])
        row = i + 1 if rows is None else int(rows[i])
        arr = np.asarray(values)
        parse_label(arr[i].item() if hasattr(arr[i], "item") else arr[i], row, coding)
        raise InputError(f"label at row {row} is not valid")  # pragma: no cover
    return out


def invalid_labels(values: Any, coding: Coding) -> tuple[Any, Any]:
    """``(codes, bad)``: the int8 codes of a column and the indices of invalid values."""
    import numpy as np

    arr = np.asarray(values)
    if isinstance(coding, dict):
        words = np.char.strip(arr.astype(str))
        out = np.zeros(arr.shape[0], dtype=np.int8)
        for word, label in coding.items():
            out[words == word] = label
        bad = np.flatnonzero(out == 0)
    else:
        lo = 0.0 if coding == "01" else -1.0
        ok = (arr == lo) | (arr == 1.0)
        bad = np.flatnonzero(~ok)
        out = np.where(arr == 1.0, 1, -1).astype(np.int8)
    return out, bad


def _show(f: Fraction) -> str:
    return str(f.numerator) if f.denominator == 1 else str(f)
