"""``pla-proof plot``: one figure per command, from a teacher's point of view."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("matplotlib", reason="the plot command needs the plot extra (matplotlib)")

from _drawing import groups, markers, path_points, png_pixels, separates

from pla_proof.cli import main
from pla_proof.render import figures


@pytest.mark.parametrize("kind", figures.KINDS)
def test_every_kind_for_planar_data(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    target = tmp_path / f"{kind}.png"
    argv = ["plot", "demo2d", "--kind", kind, "-o", str(target), "--orders", "20", "--sweep", "3"]
    assert main(argv) == 0
    assert capsys.readouterr().out == f"wrote {target} ({kind}, demo2d)\n"
    size, pixels = png_pixels(target)
    width, height = figures.SIZES.get(kind, (0, 0))
    if kind != "hyperplane":
        assert size == (round(width * figures.DPI), round(height * figures.DPI))
    assert len(pixels) == size[0] * size[1] and pixels.std() > 10


def test_a_csv_of_ones_own(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    csv = tmp_path / "mine.csv"
    csv.write_text("x1,x2,label\n1,2,1\n2,3,1\n3,1,-1\n4,2,-1\n0.5,3,1\n", encoding="utf-8")
    svg = tmp_path / "mine.svg"
    code = main(["plot", str(csv), "--bias", "augment", "--kind", "hyperplane", "-o", str(svg)])
    assert code == 0
    capsys.readouterr()
    g = groups(svg)
    last = max(int(k.split("-")[1]) for k in g if k.startswith("picked-"))
    assert separates(
        path_points(g[f"boundary-{last}"]),
        path_points(g[f"normal-{last}"]),
        markers(g[f"positive-{last}"]),
        markers(g[f"negative-{last}"]),
    )


def test_json_names_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "s.svg"
    assert main(["plot", "students", "--kind", "sandwich", "-o", str(target), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "schema": "pla-proof/plot",
        "schema_version": 1,
        "kind": "sandwich",
        "file": str(target),
        "data": "students",
    }
    assert target.read_text(encoding="utf-8").startswith("<?xml")


def test_not_separable_exits_3(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for kind in ("sandwich", "geometry", "orders", "margin-sweep"):
        target = tmp_path / f"{kind}.png"
        assert main(["plot", "xor", "--kind", kind, "-o", str(target)]) == 3
        assert "not linearly separable" in capsys.readouterr().err
        assert not target.exists()
    # the hyperplane figure still shows the updates until the weights repeat
    target = tmp_path / "xor.png"
    assert main(["plot", "xor", "--kind", "hyperplane", "-o", str(target)]) == 3
    assert target.exists() and "repeated after 5 updates" in capsys.readouterr().err


def test_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def plot(data: str, kind: str, out: str, *extra: str) -> list[str]:
        return ["plot", data, "--kind", kind, "-o", out, *extra]

    cases = [
        (plot("students", "hyperplane", str(tmp_path / "h.png")), "students has 5"),
        (plot("demo2d", "sandwich", str(tmp_path / "s.gif")), "unknown figure format 'gif'"),
        (plot("demo2d", "orders", str(tmp_path / "o.png"), "--orders", "0"), "1 to 100000"),
        (plot("demo2d", "sandwich", "/nonexistent-dir/s.png"), "cannot write"),
    ]
    for argv, message in cases:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and message in err, (argv, err)


def test_missing_matplotlib_names_the_extra(tmp_path: Path) -> None:
    # a fresh interpreter where importing matplotlib fails, as without the plot extra
    argv = ["plot", "demo2d", "--kind", "geometry", "-o", str(tmp_path / "g.png")]
    code = (
        "import sys; sys.modules['matplotlib'] = None\n"
        f"from pla_proof.cli import main\nsys.exit(main({argv!r}))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr == (
        "pla-proof plot: error: matplotlib is not installed: pip install 'pla_proof[plot]'\n"
    )


def test_data_above_the_limit_draw_with_the_final_w_and_say_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("pla_proof.cli.common.EXACT_COMPARATOR_VALUES", 5)  # demo2d: more
    target = tmp_path / "s.svg"
    assert main(["plot", "demo2d", "--kind", "sandwich", "-o", str(target)]) == 0
    err = capsys.readouterr().err
    assert "pla-proof plot: comparator: the run's final w (u* is computed exactly up to 5" in err
