"""The teaching figures, rendered and read back: what is drawn must say what the proof says."""

from __future__ import annotations

import itertools
import math
import sys
from fractions import Fraction
from pathlib import Path

import pytest

pytest.importorskip("matplotlib", reason="the figures need the plot extra (matplotlib)")

from _drawing import (
    distance,
    distinct_colours,
    groups,
    has_colour,
    markers,
    path_points,
    png_pixels,
    separates,
)

from pla_proof.data import from_arrays, load
from pla_proof.errors import InputError
from pla_proof.geometry import optimal_comparator, optimal_margin
from pla_proof.render import figures
from pla_proof.trainer import Run, train


def _run(name: str, rule: str = "cyclic") -> tuple[object, Run]:
    data = load(name)
    return data, train(data, rule=rule, comparator=optimal_comparator(data))


def _panel(g: dict, k: int) -> tuple[list, list, list, list]:  # type: ignore[type-arg]
    return (
        path_points(g[f"boundary-{k}"]),
        path_points(g[f"normal-{k}"]),
        markers(g[f"positive-{k}"]),
        markers(g[f"negative-{k}"]),
    )


# --- hyperplane -------------------------------------------------------------------------


def test_hyperplane_last_boundary_separates_the_drawn_points(tmp_path: Path) -> None:
    data, run = _run("demo2d")
    svg = Path(figures.write("hyperplane", data, run, tmp_path / "h.svg"))  # type: ignore[arg-type]
    g = groups(svg)
    last = run.updates
    assert separates(*_panel(g, last))
    # the same reading rejects a boundary that does not separate: the first update's
    assert not separates(*_panel(g, 1))
    # every panel rings the point the run picked, drawn where that point is
    for k in range(1, last + 1):
        ring = markers(g[f"picked-{k}"])[0]
        j = run.choices[k - 1]
        kind = "positive" if data.y[j] == 1 else "negative"  # type: ignore[attr-defined]
        assert min(math.dist(ring, p) for p in markers(g[f"{kind}-{k}"])) < 0.01
        assert len(markers(g[f"positive-{k}"])) == data.y.count(1)  # type: ignore[attr-defined]


def test_hyperplane_png_has_the_documented_size_and_both_classes(tmp_path: Path) -> None:
    data, run = _run("demo2d")
    png = Path(figures.write("hyperplane", data, run, tmp_path / "h.png"))  # type: ignore[arg-type]
    size, pixels = png_pixels(png)
    panels = run.updates  # 20 <= MAX_PANELS: one panel per update
    cols = figures.COLUMNS
    rows = math.ceil(panels / cols)
    inch = figures.PANEL_INCHES * figures.DPI
    assert size == (round(cols * inch), round(rows * inch + 0.6 * figures.DPI))
    assert has_colour(pixels, figures.POSITIVE) > 200 and has_colour(pixels, figures.NEGATIVE) > 200
    assert distinct_colours(pixels) > 50  # not a blank canvas


@pytest.mark.parametrize(
    ("X", "y", "bias"),
    [
        ([[1], [2], ["-1/2"]], [1, 1, -1], "augment"),  # one raw coordinate, with a bias
        ([[2, 1], [1, 3], [-1, -1], ["-1/2", -2]], [1, 1, -1, -1], None),  # through the origin
        ([[3, 1], [1, 2], [2, 4]], [1, -1, -1], "minus-one"),  # the course page's convention
    ],
)
def test_hyperplane_from_any_planar_data(
    tmp_path: Path, X: list[list[object]], y: list[int], bias: str | None
) -> None:
    data = from_arrays(X, y, name="mine", bias=bias)
    run = train(data)
    assert run.status == "converged"
    g = groups(Path(figures.write("hyperplane", data, run, tmp_path / "h.svg")))
    assert separates(*_panel(g, run.updates))


def test_hyperplane_shows_the_updates_of_a_non_separable_run(tmp_path: Path) -> None:
    data = load("xor")
    run = train(data)
    assert run.status == "not_separable"
    svg = tmp_path / "xor.svg"
    figures.write("hyperplane", data, run, svg)
    g = groups(svg)
    assert {f"picked-{k}" for k in range(1, run.updates + 1)} <= set(g)
    assert "not separable" in svg.read_text(encoding="utf-8")


def test_long_runs_show_the_first_and_last_updates(tmp_path: Path) -> None:
    data = load("maxviol:1/10")
    run = train(data, rule="maxviol", comparator=None)
    assert run.updates > figures.MAX_PANELS
    svg = tmp_path / "long.svg"
    figures.write("hyperplane", data, run, svg)
    picked = sorted(int(k.split("-")[1]) for k in groups(svg) if k.startswith("picked-"))
    assert len(picked) == figures.MAX_PANELS
    assert picked[0] == 1 and picked[-1] == run.updates
    assert f"{run.updates - figures.MAX_PANELS} middle updates not shown" in svg.read_text("utf-8")


def test_hyperplane_and_geometry_refuse_more_than_two_coordinates() -> None:
    data, run = _run("students")
    for kind in ("hyperplane", "geometry"):
        with pytest.raises(InputError, match=r"at most 2 coordinates.*students has 5"):
            figures.figure(kind, data, run)  # type: ignore[arg-type]
    assert figures.applicable(data) == ("sandwich", "margin-sweep", "orders")  # type: ignore[arg-type]


# --- sandwich -----------------------------------------------------------------------------


def _sandwich_holds(g: dict, ks: int) -> bool:  # type: ignore[type-arg]
    """Read the four drawn curves and check k·γ ≤ u·w/‖u‖ ≤ ‖w‖ ≤ √k·R at every drawn k
    (on the page y grows downwards, so the larger value has the smaller y)."""
    curves = [path_points(g[name]) for name in ("lower", "progress", "norm", "upper")]
    assert all(len(c) == ks for c in curves)
    tol = 0.01
    for points in zip(*curves, strict=True):
        ys = [p[1] for p in points]
        if not all(a >= b - tol for a, b in itertools.pairwise(ys)):
            return False
    return True


@pytest.mark.parametrize("name", ["orthonormal:3", "demo2d", "students"])
def test_sandwich_curves_are_ordered_and_meet_at_the_bound(tmp_path: Path, name: str) -> None:
    data, run = _run(name)
    svg = tmp_path / "s.svg"
    figures.write("sandwich", data, run, svg)  # type: ignore[arg-type]
    g = groups(svg)
    assert _sandwich_holds(g, run.updates)
    bound_x = path_points(g["bound"])[0][0]
    last_x = path_points(g["upper"])[-1][0]
    assert bound_x >= last_x - 0.01
    # the continued outer curves k·γ and √k·R cross where the bound line is drawn
    lower, upper = path_points(g["lower-continued"]), path_points(g["upper-continued"])
    crossing = next(
        i for i in range(1, len(lower)) if lower[i][1] <= upper[i][1]
    )  # first grid point where k·γ is above √k·R
    assert lower[crossing - 1][0] <= bound_x + 0.01 and bound_x <= lower[crossing][0] + 0.01
    text = svg.read_text(encoding="utf-8")
    assert "square roots" in text and "only to draw" in text


def test_sandwich_reading_rejects_a_broken_update(tmp_path: Path) -> None:
    data = load("orthonormal:3")
    comp = optimal_comparator(data)
    # w <- w + x (the label ignored): the monitor stops at the violated lemma; the
    # drawing of the updates made so far shows the sandwich broken
    run = train(
        data, comparator=comp, update=lambda w, x, y: [a + b for a, b in zip(w, x, strict=True)]
    )
    assert run.status == "violation"
    svg = tmp_path / "bad.svg"
    figures.write("sandwich", data, run, svg)
    assert not _sandwich_holds(groups(svg), len(run.steps))


# --- geometry -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["demo2d", "orthonormal:2"])
def test_geometry_support_points_lie_on_the_band_edges(tmp_path: Path, name: str) -> None:
    data = load(name)
    svg = tmp_path / "g.svg"
    figures.write("geometry", data, None, svg)
    g = groups(svg)
    boundary = path_points(g["boundary-optimal"])
    edges = [path_points(g[f"band-{s}"]) for s in ("plus", "minus") if f"band-{s}" in g]
    assert edges
    half_width = distance(boundary[0], boundary[-1], edges[0][0])
    support = markers(g["support"])
    assert len(support) == len(optimal_margin(data).support)
    for p in support:
        assert min(distance(e[0], e[-1], p) for e in edges) < 0.05
    points = markers(g["positive-all"]) + markers(g["negative-all"])
    assert len(points) == data.n
    inside = [p for p in points if distance(boundary[0], boundary[-1], p) < half_width - 0.05]
    assert inside == []  # no point inside the band
    non_support = [p for p in points if min(math.dist(p, s) for s in support) > 0.01]
    if non_support:  # the edge test above tells support points from the others
        assert any(min(distance(e[0], e[-1], p) for e in edges) > 0.5 for p in non_support)


def test_geometry_of_non_separable_data_is_refused() -> None:
    with pytest.raises(InputError, match="not linearly separable"):
        figures.figure("geometry", load("xor"))


# --- margin sweep --------------------------------------------------------------------------


def test_add_within_margin_halves_the_margin_of_the_copied_point() -> None:
    data = load("demo2d")
    om = optimal_margin(data)
    moved, p = figures.add_within_margin(data, label=-1)
    assert moved.n == data.n + 1 and moved.y[-1] == data.y[p] == -1
    assert p in om.support
    margin = moved.y[-1] * sum((a * b for a, b in zip(om.u, moved.X[-1], strict=True)), Fraction(0))
    assert margin == om.margin / 2
    assert moved.X[-1][-1] == data.X[p][-1]  # the bias coordinate keeps its constant
    assert optimal_margin(moved).gamma_squared < om.gamma_squared


def test_margin_sweep_updates_stay_under_the_bound_as_the_margin_shrinks(tmp_path: Path) -> None:
    data = load("demo2d")
    svg = tmp_path / "m.svg"
    figures.write("margin-sweep", data, None, svg, sweep=4)
    g = groups(svg)
    bound, updates, epochs = (path_points(g[f"sweep-{s}"]) for s in ("bound", "updates", "epochs"))
    assert len(bound) == len(updates) == len(epochs) == 4
    xs = [p[0] for p in bound]
    assert xs == sorted(xs) and len(set(xs)) == 4  # the margin shrinks from left to right
    for b, u, e in zip(bound, updates, epochs, strict=True):
        assert u[1] >= b[1] and e[1] >= u[1] - 0.01  # epochs <= updates <= bound (y down)
    # the counts drawn are those of the runs, recomputed here
    current, counts = data, []
    for i in range(4):
        if i:
            current, _ = figures.add_within_margin(current, label=1 if i % 2 else -1)
        counts.append(train(current, comparator=None).updates)
    assert counts[-1] > counts[0]
    assert (updates[-1][1] < updates[0][1]) == (counts[-1] > counts[0])


def test_cyclic_epochs() -> None:
    run = train(load("demo2d"), comparator=None)
    # replay: count the passes of the cyclic scan directly
    n, pos, passes, updates = len(run.choices), 0, 1, 0
    for j in run.choices:
        if j < pos:
            passes += 1
        pos = j + 1
        updates += 1
    assert updates == n and figures.cyclic_epochs(run.choices) == passes + 1


# --- orders --------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "count"), [("demo2d", 30), ("orthonormal:5", 5)])
def test_orders_histogram_counts_the_random_runs(tmp_path: Path, name: str, count: int) -> None:
    data = load(name)
    svg = tmp_path / "o.svg"
    figures.write("orders", data, None, svg, orders=count, seed=3)
    g = groups(svg)
    counts = [
        train(data, rule="random", seed=s, comparator=None).updates for s in range(3, 3 + count)
    ]
    bars = {int(k.split("-")[1]): path_points(v) for k, v in g.items() if k.startswith("bar-")}
    assert sorted(bars) == sorted(set(counts))
    heights = {v: abs(pts[0][1] - pts[2][1]) for v, pts in bars.items()}
    unit = heights[counts[0]] / counts.count(counts[0])
    for value, height in heights.items():
        assert height == pytest.approx(unit * counts.count(value), rel=1e-4)
    bound = optimal_margin(data).bound
    assert all(c <= bound for c in counts)
    if "bound" in g:
        bound_x = path_points(g["bound"])[0][0]
        assert all(bound_x >= (pts[0][0] + pts[1][0]) / 2 - 0.01 for pts in bars.values())
    else:
        assert "bound R²/γ² = " in svg.read_text(encoding="utf-8")


# --- formats and the extra ------------------------------------------------------------------


def test_pdf_and_unknown_formats(tmp_path: Path) -> None:
    data, run = _run("orthonormal:2")
    pdf = Path(figures.write("sandwich", data, run, tmp_path / "s.pdf"))  # type: ignore[arg-type]
    assert pdf.read_bytes().startswith(b"%PDF") and pdf.stat().st_size > 2000
    with pytest.raises(InputError, match="unknown figure format 'jpg'"):
        figures.write("sandwich", data, run, tmp_path / "s.jpg")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="unknown figure kind"):
        figures.figure("pie", data, run)  # type: ignore[arg-type]


def test_missing_matplotlib_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(InputError) as exc:
        figures.require_matplotlib()
    assert str(exc.value) == "matplotlib is not installed: pip install 'pla_proof[plot]'"
