"""Figures for teaching the proof (matplotlib, the ``plot`` extra).

Five kinds, each drawn from a run record or the exact geometry:

* ``hyperplane`` -- 2-D data (bias removed), the boundary and the normal ``w_{k+1}``
  after each update ``k`` as small multiples, the picked point ringed;
* ``sandwich`` -- ``k·γ ≤ u·w_{k+1}/‖u‖ ≤ ‖w_{k+1}‖ ≤ √k·R`` against k, with the bound
  ``R²/γ²`` where the two outer curves meet;
* ``geometry`` -- the optimal comparator ``u*``, the margin band, the radius R and the
  support points;
* ``margin-sweep`` -- the course page's exercise: a point moved towards the boundary, and the
  bound, the updates and the epochs against the optimal margin;
* ``orders`` -- the DSC 255 handout §6.2: the update counts over many random orders, with the bound.

Every number is exact until it is drawn: square roots (``‖w‖``, ``R``, ``γ``) are taken
only to place a mark on the page, and each figure says so.  Each drawn element carries
an id (``set_gid``) so that an SVG can be read back and checked (the tests do).

>>> from pla_proof.data import load
>>> applicable(load("demo2d"))
('hyperplane', 'sandwich', 'geometry', 'margin-sweep', 'orders')
>>> applicable(load("students"))
('sandwich', 'margin-sweep', 'orders')
"""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..errors import InputError

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from ..data import Dataset
    from ..geometry import OptimalMargin
    from ..monitor import Comparator
    from ..trainer import Run

__all__ = [
    "DPI",
    "FORMATS",
    "KINDS",
    "PANEL_INCHES",
    "SIZES",
    "add_within_margin",
    "applicable",
    "cyclic_epochs",
    "figure",
    "format_of",
    "require_matplotlib",
    "save",
    "write",
]

KINDS = ("hyperplane", "sandwich", "geometry", "margin-sweep", "orders")
FORMATS = ("png", "svg", "pdf")
#: dots per inch of every figure; sizes below are in inches
DPI = 100
#: one small multiple of the hyperplane figure (square), and the fixed sizes of the others
PANEL_INCHES = 2.5
SIZES = {
    "sandwich": (8.0, 5.0),
    "geometry": (6.5, 6.5),
    "margin-sweep": (8.0, 5.0),
    "orders": (8.0, 5.0),
}
#: at most this many small multiples; longer runs show the first and the last updates
MAX_PANELS = 24
COLUMNS = 4

POSITIVE, NEGATIVE = "#1f5fbf", "#d9541e"
BOUNDARY, PREVIOUS, BAND = "#222222", "#9a9a9a", "#7fb77e"
ROOTS_NOTE = "square roots (‖w‖, R, γ) are taken only to draw; every check is exact, on squares"
EXTRA_MESSAGE = "matplotlib is not installed: pip install 'pla_proof[plot]'"


def require_matplotlib() -> Any:
    """The ``matplotlib`` module, or an :class:`InputError` naming the extra to install."""
    try:
        import matplotlib
        from matplotlib.figure import Figure  # noqa: F401
    except ImportError:
        raise InputError(EXTRA_MESSAGE) from None
    return matplotlib


def raw_dimension(data: Dataset) -> int:
    """The number of coordinates drawn: the data's, without a bias coordinate."""
    return data.original_d


def applicable(data: Dataset) -> tuple[str, ...]:
    """The kinds that can be drawn for ``data`` (the plane needs at most 2 raw coordinates)."""
    planar = raw_dimension(data) <= 2
    return tuple(k for k in KINDS if planar or k not in ("hyperplane", "geometry"))


def format_of(path: str | os.PathLike[str]) -> str:
    """The figure format named by a file's extension (``png``, ``svg`` or ``pdf``).

    >>> format_of("sandwich.SVG")
    'svg'
    """
    name = os.fspath(path)
    ext = os.path.splitext(name)[1].lower().lstrip(".")
    if ext not in FORMATS:
        raise InputError(
            f"{name}: unknown figure format {ext or '(none)'!r} (use .png, .svg or .pdf)"
        )
    return ext


def save(fig: Figure, path: str | os.PathLike[str]) -> str:
    """Write ``fig`` as PNG, SVG or PDF, chosen by the file's extension."""
    mpl = require_matplotlib()
    name = os.fspath(path)
    ext = format_of(name)
    metadata: dict[str, Any] = {
        "png": {"Software": None},
        "svg": {"Date": None},
        "pdf": {"CreationDate": None},
    }[ext]
    try:
        with mpl.rc_context({"svg.hashsalt": "pla-proof", "svg.fonttype": "none"}):
            fig.savefig(name, dpi=DPI, format=ext, metadata=metadata)
    except OSError as exc:
        raise InputError(f"{name}: cannot write ({exc.strerror or exc})") from None
    return name


def figure(
    kind: str,
    data: Dataset,
    run: Run | None = None,
    *,
    orders: int = 200,
    sweep: int = 6,
    seed: int = 0,
    budget: int | None = None,
) -> Figure:
    """Draw one kind of figure (``run`` is needed by ``hyperplane`` and ``sandwich``)."""
    require_matplotlib()
    if kind not in KINDS:
        raise InputError(f"unknown figure kind {kind!r} (choose {', '.join(KINDS)})")
    if kind in ("hyperplane", "geometry") and raw_dimension(data) > 2:
        raise InputError(
            f"the {kind} figure needs points in at most 2 coordinates (after removing the "
            f"bias); {data.name} has {raw_dimension(data)}: try sandwich, margin-sweep or orders"
        )
    if kind == "hyperplane":
        return _hyperplane(data, _need_run(run, kind))
    if kind == "sandwich":
        return _sandwich(data, _need_run(run, kind))
    if kind == "geometry":
        return _geometry(data)
    comparator = run.comparator if run is not None else None
    if kind == "margin-sweep":
        return _margin_sweep(data, steps=sweep, budget=budget)
    return _orders(data, count=orders, seed=seed, budget=budget, comparator=comparator)


def write(
    kind: str, data: Dataset, run: Run | None, path: str | os.PathLike[str], **options: Any
) -> str:
    """Draw ``kind`` and save it to ``path`` (format from the extension)."""
    format_of(path)
    fig = figure(kind, data, run, **options)
    return save(fig, path)


def _need_run(run: Run | None, kind: str) -> Run:
    if run is None:
        raise InputError(f"the {kind} figure needs a run")
    return run


# --- numbers on figures ------------------------------------------------------------------


def _q(v: Fraction | int) -> str:
    """An exact value for a label: the fraction, and a decimal beside it when needed."""
    v = Fraction(v)
    if v.denominator == 1:
        return str(v.numerator)
    exact = f"{v.numerator}/{v.denominator}"
    approx = f"{float(v):.6g}"
    return f"≈ {approx}" if len(exact) > 60 else f"{exact} (≈ {approx})"


def _sqrt(v: Fraction | int) -> float:
    return math.sqrt(float(v))


def _new_figure(width: float, height: float) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=DPI, layout="constrained")


# --- the plane ----------------------------------------------------------------------------


def _planar(data: Dataset) -> list[tuple[float, float]]:
    """The raw points as floats in the plane (1-D data on the horizontal axis)."""
    raw = data.without_bias()
    return [(float(x[0]), float(x[1]) if len(x) > 1 else 0.0) for x in raw.X]


def _affine(data: Dataset, w_hat: Sequence[Fraction]) -> tuple[tuple[Fraction, Fraction], Fraction]:
    """``(a, c0)`` with decision ``a·x + c0`` in the raw plane for trained-on weights ``w_hat``."""
    if data.bias is not None:
        a = list(w_hat[:-1])
        c0 = Fraction(w_hat[-1]) * data.bias.c
    else:
        a, c0 = list(w_hat), Fraction(0)
    a2 = (Fraction(a[0]), Fraction(a[1]) if len(a) > 1 else Fraction(0))
    return a2, c0


def _view(points: list[tuple[float, float]], origin: bool) -> tuple[float, float, float, float]:
    xs = [p[0] for p in points] + ([0.0] if origin else [])
    ys = [p[1] for p in points] + ([0.0] if origin else [])
    lo_x, hi_x, lo_y, hi_y = min(xs), max(xs), min(ys), max(ys)
    span = max(hi_x - lo_x, hi_y - lo_y, 1e-9)
    cx, cy = (lo_x + hi_x) / 2, (lo_y + hi_y) / 2
    half = span / 2 * 1.25 + span * 0.05
    return cx - half, cx + half, cy - half, cy + half


def _clip_line(
    a: tuple[float, float], c0: float, box: tuple[float, float, float, float]
) -> list[tuple[float, float]] | None:
    """The segment of ``a·x + c0 = 0`` inside ``box`` (None if it misses the box)."""
    x0, x1, y0, y1 = box
    ax, ay = a
    pts: list[tuple[float, float]] = []
    if ay != 0:
        for x in (x0, x1):
            y = -(c0 + ax * x) / ay
            if y0 <= y <= y1:
                pts.append((x, y))
    if ax != 0:
        for y in (y0, y1):
            x = -(c0 + ay * y) / ax
            if x0 <= x <= x1:
                pts.append((x, y))
    uniq: list[tuple[float, float]] = []
    for p in pts:
        if all(abs(p[0] - q[0]) + abs(p[1] - q[1]) > 1e-12 for q in uniq):
            uniq.append(p)
    return uniq[:2] if len(uniq) >= 2 else None


def _draw_points(
    ax: Axes, data: Dataset, pts: list[tuple[float, float]], tag: str, size: float = 28
) -> None:
    for label, colour, marker, name in (
        (1, POSITIVE, "o", "positive"),
        (-1, NEGATIVE, "s", "negative"),
    ):
        chosen = [p for p, y in zip(pts, data.y, strict=True) if y == label]
        if chosen:
            sc = ax.scatter(
                [p[0] for p in chosen],
                [p[1] for p in chosen],
                s=size,
                c=colour,
                marker=marker,
                zorder=3,
                label=f"y = {label:+d}",
                edgecolors="white",
                linewidths=0.5,
            )
            sc.set_gid(f"{name}-{tag}")


def _draw_boundary(
    ax: Axes,
    a: tuple[Fraction, Fraction],
    c0: Fraction,
    box: tuple[float, float, float, float],
    tag: str,
    *,
    colour: str = BOUNDARY,
    style: str = "-",
    arrow: bool = True,
    label: str | None = None,
) -> bool:
    af, cf = (float(a[0]), float(a[1])), float(c0)
    seg = _clip_line(af, cf, box)
    if seg is None:
        return False
    (line,) = ax.plot(
        [seg[0][0], seg[1][0]],
        [seg[0][1], seg[1][1]],
        style,
        color=colour,
        lw=1.6,
        zorder=2,
        label=label,
    )
    line.set_gid(f"boundary-{tag}")
    if arrow:
        # the normal, from the boundary point nearest the view's centre, pointing to a.x + c0 > 0
        cx, cy = (box[0] + box[1]) / 2, (box[2] + box[3]) / 2
        n2 = af[0] ** 2 + af[1] ** 2
        s = (af[0] * cx + af[1] * cy + cf) / n2
        fx, fy = cx - s * af[0], cy - s * af[1]
        scale = 0.18 * (box[1] - box[0]) / math.sqrt(n2)
        tx, ty = fx + scale * af[0], fy + scale * af[1]
        (shaft,) = ax.plot([fx, tx], [fy, ty], "-", color=colour, lw=1.4, zorder=4)
        shaft.set_gid(f"normal-{tag}")
        ax.annotate(
            "",
            xy=(tx, ty),
            xytext=(fx, fy),
            zorder=4,
            arrowprops={"arrowstyle": "-|>", "color": colour, "lw": 1.4},
        )
    return True


def _frame(ax: Axes, box: tuple[float, float, float, float]) -> None:
    ax.set_xlim(box[0], box[1])
    ax.set_ylim(box[2], box[3])
    ax.set_aspect("equal")
    ax.axhline(0, color="#dddddd", lw=0.6, zorder=0)
    ax.axvline(0, color="#dddddd", lw=0.6, zorder=0)
    ax.tick_params(labelsize=7)


def _vec(v: Sequence[Fraction]) -> str:
    return "(" + ", ".join(_q(x) for x in v) + ")"


def _shown_updates(total: int) -> list[int]:
    if total <= MAX_PANELS:
        return list(range(1, total + 1))
    head = MAX_PANELS - 4
    return [*range(1, head + 1), *range(total - 3, total + 1)]


def _decision_text(data: Dataset, w_hat: Sequence[Fraction], k: int) -> str:
    """The weights after update k, ``w_{k+1}``; with a bias, in its own (w, b)."""
    name = f"$w_{{{k + 1}}}$"
    if data.bias is None:
        return f"{name} = " + _vec(w_hat)
    w, b = data.bias.split(w_hat)
    return f"{name}: w = " + _vec(w) + f", b = {_q(b)}"


def _hyperplane(data: Dataset, run: Run) -> Figure:
    shown = _shown_updates(run.updates)
    pts = _planar(data)
    box = _view(pts, origin=data.bias is None)
    fig, axes = _panel_grid(max(len(shown), 1))
    _hyperplane_title(fig, data, run, len(shown))
    for idx, ax in enumerate(axes.flat):
        if idx >= len(shown):
            ax.set_axis_off()
            continue
        _update_panel(ax, data, run, pts, box, shown[idx])
    return fig


def _panel_grid(panels: int) -> tuple[Figure, Any]:
    """A figure of ``panels`` panels in rows of at most :data:`COLUMNS`, sharing axes."""
    cols = min(COLUMNS, panels)
    rows = math.ceil(panels / cols)
    from matplotlib.figure import Figure

    # a fixed layout (shared axes, margins in inches): drawing many panels stays fast
    width, height = PANEL_INCHES * cols, PANEL_INCHES * rows + 0.6
    fig = Figure(figsize=(width, height), dpi=DPI)
    fig.subplots_adjust(
        left=0.45 / width,
        right=1 - 0.1 / width,
        bottom=0.3 / height,
        top=1 - 0.75 / height,
        wspace=0.35,
        hspace=0.45,
    )
    axes = fig.subplots(rows, cols, squeeze=False, sharex=True, sharey=True)
    return fig, axes


def _hyperplane_title(fig: Figure, data: Dataset, run: Run, shown: int) -> None:
    form = (
        "w·x + b"
        if data.bias is not None and data.bias.name != "minus-one"
        else ("w·x − b" if data.bias is not None else "w·x")
    )
    skipped = run.updates - shown
    fig.suptitle(
        f"{data.name}: the boundary {form} = 0 after each update"
        + (f" ({skipped} middle updates not shown)" if skipped else "")
        + "; ringed: the point picked"
        + (
            f"\nnot separable: the weights after update {run.updates} repeat earlier ones"
            if run.status == "not_separable"
            else ""
        ),
        fontsize=9,
    )


def _update_panel(
    ax: Axes,
    data: Dataset,
    run: Run,
    pts: list[tuple[float, float]],
    box: tuple[float, float, float, float],
    k: int,
) -> None:
    """Update ``k``: the boundary before (dashed) and after, the point picked ringed."""
    j = run.choices[k - 1]
    _frame(ax, box)
    _draw_points(ax, data, pts, str(k))
    before = run.w_after(k - 1)
    if any(before):
        a0, c0 = _affine(data, before)
        _draw_boundary(ax, a0, c0, box, f"previous-{k}", colour=PREVIOUS, style="--", arrow=False)
    after = run.w_after(k)
    a1, c1 = _affine(data, after)
    if a1[0] == 0 and a1[1] == 0:
        _panel_note(ax, "w = 0 in the plane: no boundary")
    elif not _draw_boundary(ax, a1, c1, box, str(k)):
        _panel_note(ax, "the boundary lies outside this view")
    ring = ax.scatter(
        [pts[j][0]],
        [pts[j][1]],
        s=150,
        facecolors="none",
        edgecolors="black",
        linewidths=1.3,
        zorder=5,
    )
    ring.set_gid(f"picked-{k}")
    ax.set_title(f"update k = {k}: j = {j + 1}\n{_decision_text(data, after, k)}", fontsize=7)


def _panel_note(ax: Axes, text: str) -> None:
    ax.text(0.5, 0.05, text, transform=ax.transAxes, ha="center", fontsize=7)


# --- the sandwich ---------------------------------------------------------------------------


def _sandwich(data: Dataset, run: Run) -> Figure:
    comp = run.comparator
    if comp is None or not run.steps:
        raise InputError("the sandwich figure needs a monitored run with at least one update")
    uu, g, r2 = comp.uu, comp.gamma, comp.radius_squared
    ks = [s.k for s in run.steps]
    gamma = float(g) / _sqrt(uu)
    radius = _sqrt(r2)
    lower = [k * gamma for k in ks]
    progress = [float(Fraction(s.values["pu1"])) / _sqrt(uu) for s in run.steps]  # type: ignore[arg-type]
    norm = [_sqrt(Fraction(s.values["n1"])) for s in run.steps]  # type: ignore[arg-type]
    upper = [_sqrt(k * r2) for k in ks]
    bound = comp.bound
    fig = _new_figure(*SIZES["sandwich"])
    ax = fig.subplots()
    far = float(bound) > 20 * max(ks)
    end = max(float(bound), ks[-1]) * (1.6 if far else 1.08)
    grid = _grid(1.0 if far else 0.0, end, far)
    (a,) = ax.plot(grid, [k * gamma for k in grid], ":", color=POSITIVE, lw=1)
    (b,) = ax.plot(grid, [math.sqrt(k) * radius for k in grid], ":", color=NEGATIVE, lw=1)
    a.set_gid("lower-continued")
    b.set_gid("upper-continued")
    series = (
        ("lower", lower, "k·γ", POSITIVE, "v"),
        ("progress", progress, "u·w_{k+1}/‖u‖", "#2a9d8f", "o"),
        ("norm", norm, "‖w_{k+1}‖", "#6a4c93", "s"),
        ("upper", upper, "√k·R", NEGATIVE, "^"),
    )
    for gid, ys, label, colour, marker in series:
        (line,) = ax.plot(
            ks, ys, "-", marker=marker, ms=4, color=colour, lw=1.4, label=f"${_tex(label)}$"
        )
        line.set_gid(gid)
    vline = ax.axvline(
        float(bound), color="black", lw=1.2, ls="--", label=f"bound R²/γ² = {_q(bound)}"
    )
    vline.set_gid("bound")
    if far:
        ax.set_xscale("log")
        ax.set_yscale("log")
    ax.set_xlabel("k = number of updates made (the weights are then $w_{k+1}$)")
    ax.set_ylabel("length")
    rel = "<" if comp.strict else r"\leq"
    chain = (
        rf"k\gamma {rel} u\cdot w_{{k+1}}/\Vert u\Vert \leq \Vert w_{{k+1}}\Vert \leq \sqrt{{k}}R"
    )
    conclusion = rf"k {rel} R^2/\gamma^2"
    ax.set_title(
        f"{data.name}, rule {run.rule}: ${chain}$, so ${conclusion}$  ({run.updates} updates made)",
        fontsize=9,
    )
    ax.legend(fontsize=8, loc="upper left")
    fig.supxlabel(ROOTS_NOTE + f"; u is {comp.source}", fontsize=7, color="#555555")
    return fig


def _tex(label: str) -> str:
    """A series label in matplotlib's mathtext."""
    return (
        label.replace("·", r"\cdot ")
        .replace("γ", r"\gamma")
        .replace("‖", r"\Vert ")
        .replace("√k", r"\sqrt{k}")
    )


def _grid(lo: float, hi: float, log: bool, n: int = 200) -> list[float]:
    if log:
        a, b = math.log(max(lo, 1.0)), math.log(hi)
        return [math.exp(a + (b - a) * i / (n - 1)) for i in range(n)]
    return [lo + (hi - lo) * i / (n - 1) for i in range(n)]


# --- the geometry ---------------------------------------------------------------------------


def _geometry(data: Dataset) -> Figure:
    from ..geometry import NotSeparable, optimal_margin

    try:
        om = optimal_margin(data)
    except NotSeparable:
        raise InputError(
            f"{data.name}: not linearly separable -- no optimal margin to draw"
        ) from None
    pts = _planar(data)
    raw = data.without_bias()
    r2_raw = raw.radius_squared
    box = _view(
        [*pts, (-_sqrt(r2_raw), 0.0), (_sqrt(r2_raw), 0.0)] if data.bias is None else pts,
        origin=data.bias is None,
    )
    fig = _new_figure(*SIZES["geometry"])
    ax = fig.subplots()
    _frame(ax, box)
    _draw_band(ax, data, om, box)
    _draw_radius_and_support(ax, data, om, pts, r2_raw)
    _geometry_text(ax, data, om)
    fig.supxlabel(ROOTS_NOTE, fontsize=7, color="#555555")
    return fig


def _draw_band(
    ax: Axes, data: Dataset, om: OptimalMargin, box: tuple[float, float, float, float]
) -> None:
    """The optimal boundary u*·x = 0, the band edges u*·x = ±g* and the band between."""
    g = om.margin
    a, c0 = _affine(data, om.u)
    hat = "x̂" if data.bias is not None else "x"
    _draw_boundary(ax, a, c0, box, "optimal", label=f"boundary u*·{hat} = 0")
    for sign, name in ((1, "plus"), (-1, "minus")):
        edge = _clip_line((float(a[0]), float(a[1])), float(c0 - sign * g), box)
        if edge is not None:
            (line,) = ax.plot(
                [edge[0][0], edge[1][0]],
                [edge[0][1], edge[1][1]],
                "-",
                color=BAND,
                lw=1.2,
                zorder=1,
                label=f"band edges u*·{hat} = ±g*" if sign == 1 else None,
            )
            line.set_gid(f"band-{name}")
    _band_fill(ax, a, c0, g, box)


def _draw_radius_and_support(
    ax: Axes,
    data: Dataset,
    om: OptimalMargin,
    pts: list[tuple[float, float]],
    r2_raw: Fraction,
) -> None:
    """The circle of radius R, the points, and the support points ringed."""
    from matplotlib.patches import Circle

    circle = Circle(
        (0, 0),
        _sqrt(r2_raw),
        fill=False,
        ls="--",
        color="#888888",
        lw=1,
        label=f"radius R, R² = {_q(r2_raw)}",
    )
    circle.set_gid("radius")
    ax.add_patch(circle)
    _draw_points(ax, data, pts, "all", size=36)
    support = [pts[i] for i in om.support]
    ring = ax.scatter(
        [p[0] for p in support],
        [p[1] for p in support],
        s=190,
        facecolors="none",
        edgecolors=BAND,
        linewidths=2,
        zorder=5,
        label="support points",
    )
    ring.set_gid("support")


def _geometry_text(ax: Axes, data: Dataset, om: OptimalMargin) -> None:
    """u*, g*, γ*² and the bound in a box; the title and the legend."""
    g = om.margin
    gamma2 = om.gamma_squared
    hat = "x̂" if data.bias is not None else "x"
    r2_name = "R̂²" if data.bias is not None else "R²"
    lines = [
        f"u* = {_vec(om.u)}",
        f"g* = min_i y_i u*·{hat}_i = {_q(g)}",
        f"γ*² = g*²/‖u*‖² = {_q(gamma2)}  (γ* ≈ {_sqrt(gamma2):.4g})",
        f"{r2_name} = {_q(om.radius_squared)}, bound {r2_name}/γ*² = {_q(om.bound)}",
    ]
    if data.bias is not None:
        lines.append(
            f"trained on x̂ = (x, {_q(data.bias.c)}): R̂² = R² + c², and γ* is measured on x̂"
        )
    ax.text(
        0.01,
        0.99,
        "\n".join(lines),
        transform=ax.transAxes,
        va="top",
        fontsize=7,
        family="monospace",
        bbox={"facecolor": "white", "alpha": 0.85, "lw": 0},
    )
    ax.set_title(
        f"{data.name}: the optimal comparator u*, its margin band and the radius", fontsize=9
    )
    ax.legend(fontsize=7, loc="lower right")


def _band_fill(
    ax: Axes, a: tuple[Fraction, Fraction], c0: Fraction, g: Fraction, box: tuple[float, ...]
) -> None:
    import numpy as np

    xs = np.linspace(box[0], box[1], 3)
    af, cf, gf = float(a[0]), float(a[1]), float(g)
    if af == 0 and cf == 0:
        return
    if abs(float(a[1])) > 1e-12:
        lo = (-(float(c0) + gf) - af * xs) / float(a[1])
        hi = (-(float(c0) - gf) - af * xs) / float(a[1])
        ax.fill_between(xs, lo, hi, color=BAND, alpha=0.15, lw=0, zorder=0).set_gid("band")
    else:
        x_lo, x_hi = sorted(((-float(c0) - gf) / af, (-float(c0) + gf) / af))
        ax.axvspan(x_lo, x_hi, color=BAND, alpha=0.15, lw=0, zorder=0).set_gid("band")


# --- the course page's exercise: the margin sweep -----------------------------------------


def add_within_margin(data: Dataset, label: int | None = None) -> tuple[Dataset, int]:
    """The course page's exercise, one step: ``data`` plus a copy of a support point moved
    towards the optimal boundary until its margin under ``u*`` is half of ``g*`` --
    inside the margin band, so the optimal margin shrinks.  ``label`` picks the class of
    the support point copied (default: the first support point's).  Only the raw
    coordinates move; a bias coordinate keeps its constant.  Returns the new data and
    the index of the point copied.

    >>> from pla_proof.data import load
    >>> moved, p = add_within_margin(load("orthonormal:2"))
    >>> moved.X[-1], moved.y[-1], p
    ((Fraction(3, 4), Fraction(1, 4)), 1, 0)
    """
    from ..data import Dataset
    from ..geometry import optimal_margin

    om = optimal_margin(data)
    raw_d = data.original_d
    v = list(om.u[:raw_d])
    vv = sum((c * c for c in v), Fraction(0))
    if vv == 0:
        raise InputError(
            f"{data.name}: u* has no component in the raw coordinates, so no point can move "
            "towards the boundary"
        )
    support = [i for i in om.support if label is None or data.y[i] == label] or list(om.support)
    p = support[0]
    yp = data.y[p]
    step = om.margin / 2 / vv
    moved = tuple(x - yp * step * v[c] if c < raw_d else x for c, x in enumerate(data.X[p]))
    return Dataset((*data.X, moved), (*data.y, yp), data.name, data.bias), p


def cyclic_epochs(choices: Sequence[int]) -> int:
    """Passes over the data the cyclic rule makes: the passes with an update (a new one
    starts when the picked index does not increase) plus the final pass without one.

    >>> cyclic_epochs([0, 2, 1, 0]), cyclic_epochs([])
    (4, 1)
    """
    passes = 1 if choices else 0
    for prev, cur in itertools.pairwise(choices):
        if cur <= prev:
            passes += 1
    return passes + 1


def _margin_sweep(data: Dataset, *, steps: int, budget: int | None) -> Figure:
    from ..geometry import NotSeparable, optimal_margin
    from ..trainer import train

    if not 1 <= steps <= 20:
        raise InputError(f"the margin sweep takes 1 to 20 steps, got {steps}")
    rows = []
    current = data
    for i in range(steps):
        if i:  # add one point inside the current margin band, alternating the classes
            current, _ = add_within_margin(current, label=1 if i % 2 else -1)
        try:
            om = optimal_margin(current)
        except NotSeparable:
            raise InputError(f"{data.name}: not linearly separable -- no margin to sweep") from None
        run = train(current, rule="cyclic", comparator=None, budget=budget)
        if run.status != "converged":
            raise InputError(
                f"{data.name}: the run with {i} added point(s) ended {run.status} after "
                f"{run.updates} updates (raise --budget)"
            )
        rows.append(
            (current.n, om.gamma_squared, om.bound, run.updates, cyclic_epochs(run.choices))
        )
    fig = _new_figure(*SIZES["margin-sweep"])
    ax = fig.subplots()
    gam = [_sqrt(r[1]) for r in rows]
    series = (
        ("sweep-bound", [float(r[2]) for r in rows], "bound R²/γ*²", "black", "D", "--"),
        ("sweep-updates", [r[3] for r in rows], "updates (cyclic rule)", POSITIVE, "o", "-"),
        ("sweep-epochs", [r[4] for r in rows], "epochs (cyclic rule)", NEGATIVE, "s", "-"),
    )
    for gid, ys, label, colour, marker, style in series:
        (line,) = ax.plot(gam, ys, style, marker=marker, color=colour, label=label, ms=5)
        line.set_gid(gid)
    for (n, *_), x, y in zip(rows, gam, series[0][1], strict=True):
        ax.annotate(
            f"n={n}", (x, y), textcoords="offset points", xytext=(0, 6), fontsize=7, ha="center"
        )
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.invert_xaxis()
    ax.set_xlabel("optimal margin γ* (smaller to the right)")
    ax.set_ylabel("count")
    ax.set_title(
        f"{data.name}: the course page's exercise -- add a point inside the margin band, rerun "
        f"from scratch ({steps - 1} additions)",
        fontsize=9,
    )
    ax.legend(fontsize=8)
    fig.supxlabel(
        "added: a support point moved to half the current margin under u*, classes "
        "alternating; epochs: passes of the cyclic rule, the last without an update\n" + ROOTS_NOTE,
        fontsize=7,
        color="#555555",
    )
    return fig


# --- the DSC 255 handout §6.2: random orders ----------------------------------------------


def _orders(
    data: Dataset, *, count: int, seed: int, budget: int | None, comparator: Comparator | None
) -> Figure:
    from ..geometry import NotSeparable, optimal_margin
    from ..trainer import train

    if not 1 <= count <= 100_000:
        raise InputError(f"--orders takes 1 to 100000 random orders, got {count}")
    if comparator is not None:
        bound, source = comparator.bound, comparator.source
    else:
        try:
            bound, source = optimal_margin(data).bound, "optimal u*"
        except NotSeparable:
            raise InputError(
                f"{data.name}: not linearly separable -- no bound to compare"
            ) from None
    counts = []
    for s in range(seed, seed + count):
        run = train(data, rule="random", seed=s, comparator=None, budget=budget)
        if run.status != "converged":
            raise InputError(f"{data.name}: the random order with seed {s} ended {run.status}")
        counts.append(run.updates)
    fig = _new_figure(*SIZES["orders"])
    ax = fig.subplots()
    lo, hi = min(counts), max(counts)
    for value in range(lo, hi + 1):
        n = counts.count(value)
        if n:
            (bar,) = ax.bar([value], [n], width=0.8, color=POSITIVE, alpha=0.85)
            bar.set_gid(f"bar-{value}")
    far = float(bound) > 3 * hi + 10
    if far:
        ax.text(
            0.99,
            0.97,
            f"bound R²/γ² = {_q(bound)} →\n(far to the right; "
            + (
                "every count is below it)"
                if all(c <= bound for c in counts)
                else "a count is ABOVE it)"
            ),
            transform=ax.transAxes,
            ha="right",
            va="top",
            fontsize=9,
            bbox={"facecolor": "white", "alpha": 0.9, "lw": 0.5},
        )
    else:
        vline = ax.axvline(
            float(bound), color="black", ls="--", lw=1.2, label=f"bound R²/γ² = {_q(bound)}"
        )
        vline.set_gid("bound")
        ax.legend(fontsize=8)
    ordered = sorted(counts)
    median = ordered[len(ordered) // 2]
    ax.set_xlabel("updates until the data are separated")
    ax.set_ylabel("random orders")
    ax.set_title(
        f"{data.name}: {count} random orders (a fresh permutation each epoch, seeds "
        f"{seed}..{seed + count - 1}): min {lo}, median {median}, max {hi}",
        fontsize=9,
    )
    fig.supxlabel(
        f"the bound is that of {source}; every count is exact", fontsize=7, color="#555555"
    )
    return fig
