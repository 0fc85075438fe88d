"""CSV reading a user can predict, and the fast reader agreeing with the exact one."""

from __future__ import annotations

import os
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pla_proof.data import load, read_csv, read_npz
from pla_proof.data.readers import shadowed_builtin
from pla_proof.errors import InputError


def write(tmp_path: Path, text: str | bytes, name: str = "d.csv") -> str:
    p = tmp_path / name
    if isinstance(text, bytes):
        p.write_bytes(text)
    else:
        p.write_text(text)
    return str(p)


@pytest.mark.parametrize("sep", [",", ";", "\t"])
@pytest.mark.parametrize("header", [True, False])
def test_the_delimiter_is_detected(tmp_path: Path, sep: str, header: bool) -> None:
    text = (f"a{sep}b{sep}label\n" if header else "") + f"1{sep}0.5{sep}1\n-2{sep}3{sep}-1\n"
    ds = read_csv(write(tmp_path, text))
    assert ((1, Fraction(1, 2)), (-2, 3)) == ds.X and ds.y == (1, -1)


def test_an_ambiguous_delimiter_is_refused_and_can_be_given(tmp_path: Path) -> None:
    path = write(tmp_path, "1,5;2,5;1\n3,5;4,5;-1\n")
    with pytest.raises(InputError, match=r"ambiguous \(line 1 splits on comma and semicolon\)"):
        read_csv(path)
    with pytest.raises(InputError, match=r"line 1, column 1: value '1,5' is not a number"):
        read_csv(path, delimiter="semicolon")
    with pytest.raises(InputError, match=r"line 1, column 2: value '5;2' is not a number"):
        read_csv(path, delimiter="comma")
    with pytest.raises(InputError, match="--delimiter"):
        read_csv(path, delimiter="x")


def test_a_byte_order_mark_is_accepted_with_or_without_header(tmp_path: Path) -> None:
    assert read_csv(write(tmp_path, b"\xef\xbb\xbf1,2,1\n")).X == ((1, 2),)
    assert read_csv(write(tmp_path, b"\xef\xbb\xbfx;y;label\n1;2;-1\n")).y == (-1,)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1,2,1\n1_000,2,1\n", "line 2, column 1: value '1_000' is not a number"),
        ("1,2,1\n3,,1\n", "line 2, column 2 is empty"),
        ("1,2,1\n3,4,\n", "line 2, column 3 (the label) is empty"),
        ("# c\n\n1,2,1\n0x10,2,1\n", "line 4, column 1: value '0x10' is not a number"),
        ("1,2,1\n3 4,2,1\n", "line 2, column 1: value '3 4' is not a number"),
        ("1,2,1\n1e999999999,2,1\n", "line 2, column 1: value '1e999999999' has exponent"),
        ("1\n2\n", "line 1 needs at least one feature and a label"),
    ],
)
def test_ambiguous_numerals_are_refused_with_line_and_column(
    tmp_path: Path, text: str, message: str
) -> None:
    for fast in (False, True):
        with pytest.raises(InputError) as exc:
            read_csv(write(tmp_path, text), fast=fast)
        assert message in str(exc.value)


def test_word_labels(tmp_path: Path) -> None:
    path = write(tmp_path, "A,B,decision\n10,10,accept\n0,15,decline\n")
    for fast in (False, True):
        ds = read_csv(path, labels="accept=1,decline=-1", fast=fast)
        assert ds.y == (1, -1)
    with pytest.raises(
        InputError, match="line 2, column 2: label 'maybe' is not one of the words accept"
    ):
        read_csv(write(tmp_path, "1,accept\n2,maybe\n"), labels="accept=1,decline=-1")
    with pytest.raises(InputError, match="maps to 0"):
        read_csv(path, labels="accept=1,decline=0")
    npz = tmp_path / "w.npz"
    np.savez(npz, X=np.array([[1, 2], [3, 4]]), y=np.array(["yes", "no"]))
    assert read_npz(str(npz), labels="yes=1,no=-1").y == (1, -1)
    with pytest.raises(InputError, match="word labels"):
        read_npz(str(npz))


def test_a_file_wins_over_a_builtin_and_the_prefix_selects_the_builtin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("xor").write_text("5,1\n")
    assert shadowed_builtin("xor") and not shadowed_builtin("students")
    assert load("xor").n == 1 and load("xor").name == "xor"
    assert load("builtin:xor").n == 4
    with pytest.raises(InputError, match="no such built-in"):
        load("builtin:nope")


def test_exponents_big_integers_and_long_decimals_are_exact_in_the_fast_reader(
    tmp_path: Path,
) -> None:
    rows = [
        "1.5e-3,2,1",
        "123456789012345678901234567890,0.25,-1",
        "0.1000000000000000000000001,1,1",
        "-7,1e400,-1",
        "3.14159,-2.5,1",
    ]
    path = write(tmp_path, "\n".join(rows) + "\n")
    fast, slow = read_csv(path, fast=True), read_csv(path, fast=False)
    assert fast.X == slow.X and fast.y == slow.y
    assert fast.X[0][0] == Fraction(3, 2000) and fast.X[3][1] == 10**400
    assert fast.X[2][0] == Fraction(10**24 + 1, 10**25)


cells = st.one_of(
    st.integers(-(10**20), 10**20).map(str),
    st.integers(0, 25)
    .flatmap(lambda p: st.decimals(allow_nan=False, allow_infinity=False, places=p))
    .map(lambda d: format(d, "f")),
    st.sampled_from(["0", "-0", "+3", ".5", "5.", "1e3", "2.5E-4", "-0.000001"]),
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(st.lists(cells, min_size=2, max_size=2), min_size=1, max_size=6),
    st.lists(st.sampled_from(["1", "-1"]), min_size=6, max_size=6),
    st.sampled_from([",", ";", "\t"]),
    st.booleans(),
)
def test_the_fast_reader_agrees_with_the_exact_reader(
    tmp_path: Path, rows: list[list[str]], labels: list[str], sep: str, blank: bool
) -> None:
    lines = [sep.join([*r, labels[i]]) for i, r in enumerate(rows)]
    if blank:
        lines.insert(len(lines) // 2, "")
    path = write(tmp_path, "\n".join(lines) + "\n", name="h.csv")
    try:
        slow = read_csv(path, fast=False)
    except InputError as exc:
        with pytest.raises(InputError) as fast_exc:
            read_csv(path, fast=True)
        assert str(fast_exc.value) == str(exc)
        return
    fast = read_csv(path, fast=True)
    assert fast.X == slow.X and fast.y == slow.y
    assert all(
        Fraction(c) == v
        for r, x in zip(rows, fast.X, strict=True)
        for c, v in zip(r, x, strict=True)
    )


def test_a_big_file_takes_the_fast_reader(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    Z = rng.integers(-999, 1000, size=(20_000, 5))
    y = np.where(rng.random(20_000) < 0.5, -1, 1)
    path = tmp_path / "big.csv"
    with open(path, "w") as fh:
        fh.write("a,b,c,d,e,label\n")
        for z, lab in zip(Z, y, strict=True):
            fh.write(",".join(f"{v / 100:.2f}" for v in z) + f",{lab}\n")
    assert os.path.getsize(path) > 256 * 1024
    ds = read_csv(str(path))
    Zs, s = ds.integer_points()
    assert s == 100 and np.array_equal(np.asarray(Zs, dtype=np.int64), Z)
    assert ds.y == tuple(int(v) for v in y)


def bag_of_words_rows(path: Path, rows: int, columns: int) -> None:
    """``rows`` sparse count vectors of ``columns`` words, labels alternating."""
    rng = np.random.default_rng(7)
    with open(path, "w", encoding="utf-8") as fh:
        for r in range(rows):
            counts = rng.poisson(0.05, size=columns)
            fh.write(",".join(map(str, counts)) + f",{1 if r % 2 == 0 else -1}\n")


@pytest.mark.parametrize("rows", [1, 3])
def test_a_row_of_100000_columns_is_read(tmp_path: Path, rows: int) -> None:
    # the delimiter sniffing once split such a row on ';' and tab into one field past
    # the csv module's limit (131,072 characters): an internal error (exit 4)
    path = tmp_path / "words.csv"
    bag_of_words_rows(path, rows, 100_000)
    data = read_csv(path)
    assert (data.n, data.d) == (rows, 100_000)
    assert read_csv(path, fast=False).X == data.X  # the exact reader agrees


def test_a_field_past_the_csv_limit_is_refused_with_its_line(tmp_path: Path) -> None:
    from pla_proof.cli import main

    path = tmp_path / "long.csv"
    path.write_text("1,1\n" + "7" * 200_000 + ",1\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"line 2: a field longer than 131,072 characters"):
        read_csv(path)
    quoted = tmp_path / "quoted.csv"
    quoted.write_text("1,1\n" + '"' + "7" * 200_000 + '",1\n', encoding="utf-8")
    assert main(["trace", str(quoted)]) == 2
