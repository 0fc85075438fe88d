from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pla_proof.data import Bias, Dataset, from_arrays, load, read_csv, read_npz
from pla_proof.errors import InputError


def write(tmp_path: Path, text: str, name: str = "d.csv") -> str:
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def test_csv_decimals_are_exact_and_header_is_skipped(tmp_path: Path) -> None:
    ds = read_csv(write(tmp_path, "x1,x2,label\n0.1,0.2,1\n-0.3,1e-1,-1\n"))
    assert ((Fraction(1, 10), Fraction(1, 5)), (Fraction(-3, 10), Fraction(1, 10))) == ds.X
    assert ds.y == (1, -1)
    assert ds.radius_squared == Fraction(1, 10)


def test_csv_skips_blank_and_comment_lines(tmp_path: Path) -> None:
    ds = read_csv(write(tmp_path, "# a comment\n\n1,2,+1\n\n3,4,-1\n"))
    assert ds.n == 2


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1,2,1\n3,1\n", "line 2 has 2 columns, expected 3"),
        ("1,2,1\n3,abc,1\n", "line 2, column 2: value 'abc' is not a number"),
        ("1,2,1\nnan,2,1\n", "line 2, column 1: value 'nan' is not finite"),
        ("1,2,1\ninf,2,1\n", "line 2, column 1: value 'inf' is not finite"),
        ("1,2,2\n", "line 1, column 3: label 2 is not -1 or +1"),
        ("1,2,0\n", "use labels='01' / --labels 01"),
        ("1\n-1\n", "needs at least one feature"),
        ("x,y,label\n", "empty"),
        ("", "empty"),
    ],
)
def test_bad_csv_is_refused_with_the_line(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(
        InputError, match=message.replace("(", r"\(").replace(")", r"\)").replace("+", r"\+")
    ):
        read_csv(write(tmp_path, text))


def test_zero_one_labels_map_with_the_option(tmp_path: Path) -> None:
    ds = read_csv(write(tmp_path, "1,2,0\n3,4,1\n"), labels="01")
    assert ds.y == (-1, 1)
    with pytest.raises(InputError, match="not 0 or 1"):
        read_csv(write(tmp_path, "1,2,-1\n"), labels="01")


def test_missing_file_and_directory(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        read_csv(str(tmp_path / "nope.csv"))
    with pytest.raises(InputError, match=r"no such file$"):
        load(str(tmp_path / "nope"))
    with pytest.raises(InputError, match="no such file or built-in"):
        load("nope")
    with pytest.raises(InputError, match="is a directory"):
        load(str(tmp_path))


def test_binary_file_is_refused(tmp_path: Path) -> None:
    p = tmp_path / "b.csv"
    p.write_bytes(b"\xff\xfe\x00\x81")
    with pytest.raises(InputError, match="not a UTF-8"):
        read_csv(str(p))


def test_npz_roundtrip_and_refusals(tmp_path: Path) -> None:
    good = tmp_path / "g.npz"
    np.savez(good, X=np.array([[0.5, 1.0], [2.0, -1.0]]), y=np.array([1, -1]))
    ds = read_npz(str(good))
    assert ds.X[0] == (Fraction(1, 2), Fraction(1))
    assert load(str(good)).y == (1, -1)

    pickled = tmp_path / "p.npz"
    np.savez(pickled, X=np.array([[Fraction(1, 2)]], dtype=object), y=np.array([1]))
    with pytest.raises(InputError, match="pickled"):
        read_npz(str(pickled))

    missing = tmp_path / "m.npz"
    np.savez(missing, X=np.array([[1.0]]))
    with pytest.raises(InputError, match="missing array"):
        read_npz(str(missing))

    flat = tmp_path / "f.npz"
    np.savez(flat, X=np.array([1.0, 2.0]), y=np.array([1, 1]))
    with pytest.raises(InputError, match="2-dimensional"):
        read_npz(str(flat))

    nan = tmp_path / "n.npz"
    np.savez(nan, X=np.array([[np.nan]]), y=np.array([1]))
    with pytest.raises(InputError, match="NaN"):
        read_npz(str(nan))

    garbage = tmp_path / "x.npz"
    garbage.write_text("not a zip")
    with pytest.raises(InputError, match=r"not a valid \.npz"):
        read_npz(str(garbage))


@pytest.mark.parametrize(
    ("X", "y", "message"),
    [
        ([], [], "empty"),
        ([[]], [1], "zero features"),
        ([[1, 2], [3]], [1, 1], "row 2 has 1 features, expected 2"),
        ([[1, 2]], [1, 1], "shape mismatch"),
        ([[1, float("inf")]], [1], "infinite"),
        ([[1, 2]], [3], "not -1 or \\+1"),
        ([["a", 2]], [1], "not a number"),
    ],
)
def test_bad_arrays_are_refused(X: list[Any], y: list[Any], message: str) -> None:
    with pytest.raises(InputError, match=message):
        from_arrays(X, y)


def test_dataset_constructor_validates() -> None:
    with pytest.raises(InputError, match="label"):
        Dataset(((Fraction(1),),), (0,))


def test_bias_conventions_augment_and_radius_is_after_augmentation() -> None:
    raw = from_arrays([[3, 4]], [1])
    assert raw.radius_squared == 25
    assert raw.with_bias("augment:2").X == ((3, 4, 2),)
    assert raw.with_bias("augment:2").radius_squared == 29
    assert raw.with_bias("minus-one").X == ((3, 4, -1),)
    assert raw.with_bias("separate").X == ((3, 4, 1),)
    assert raw.with_bias("augment").without_bias() == raw
    with pytest.raises(InputError, match="c must be > 0"):
        Bias.parse("augment:-1")
    with pytest.raises(InputError, match="unknown bias"):
        Bias.parse("sideways")
    with pytest.raises(InputError, match="already carries"):
        raw.with_bias("augment").with_bias("augment")


def test_bias_split_gives_each_conventions_decision() -> None:
    x = (Fraction(3), Fraction(4))
    w_hat = (Fraction(1), Fraction(-1), Fraction(5))
    for name in ("augment:2", "minus-one", "separate"):
        conv = Bias.parse(name)
        assert conv is not None
        w, b = conv.split(w_hat)
        augmented = sum(a * c for a, c in zip(w_hat, (*x, conv.c), strict=True))
        own = sum(a * c for a, c in zip(w, x, strict=True)) + (
            -b if conv.name == "minus-one" else b
        )
        assert own == augmented


def test_builtins() -> None:
    students = load("students")
    assert (students.n, students.d, students.y) == (3, 6, (1, 1, -1))
    assert load("students", bias="none").d == 5
    ortho = load("orthonormal:4")
    assert ortho.radius_squared == 1 and ortho.d == 4
    assert load("xor").bias is not None
    mv = load("maxviol:1/4")
    assert mv.X[0] == (Fraction(1, 4), Fraction(1, 2)) and set(mv.y) == {1}
    for bad in ("orthonormal:0", "orthonormal:x", "maxviol:2", "maxviol:-1"):
        with pytest.raises(InputError):
            load(bad)
