"""``verify --dot`` and ``verify --html``: the blueprint graph, driven in real Chromium."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pla_proof.cli import main
from pla_proof.proof.blueprint import check_all
from pla_proof.proof.graph import (
    ROW_MAX,
    _layers,
    _measure,
    _place,
    _rows,
    crossings,
    graph,
    layout,
)
from pla_proof.proof.obligations import all_obligations

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


#: in the page: overlapping node boxes, labels wider than their box, the drawing's width
GEOMETRY = """() => {
  const boxes = [...document.querySelectorAll('.node')].map(g => {
    const r = g.querySelector('.box').getBBox();
    return {id: g.dataset.id, x: r.x, y: r.y, w: r.width, h: r.height}; });
  const overlaps = [];
  boxes.forEach((a, i) => boxes.slice(i + 1).forEach(b => {
    if (a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h)
      overlaps.push([a.id, b.id]); }));
  const spills = [];
  document.querySelectorAll('.node').forEach(g => {
    const r = g.querySelector('.box').getBBox();
    g.querySelectorAll('text').forEach(t => {
      const q = t.getBBox();
      const out = q.x < r.x || q.x + q.width > r.x + r.width;
      if (out) spills.push(`${g.dataset.id}: ${t.textContent}`);
    });
  });
  document.querySelectorAll('.ob').forEach(g => {
    const r = g.querySelector('rect').getBBox(), q = g.querySelector('text').getBBox();
    if (q.x < r.x || q.x + q.width > r.x + r.width) spills.push(g.dataset.ob); });
  return {overlaps, spills, width: document.querySelector('svg').getBBox().width};
}"""


def test_dot_on_stdout_names_every_node_and_edge(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "--dot"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("digraph blueprint {") and out.rstrip().endswith("}")
    assert '"L2" -> "L3";' in out and '"L3" -> "T";' in out
    assert '"T" [label="T\\nconvergence bound"' in out
    assert "peripheries=2" in out  # run-time checks have a double border


def test_dot_to_a_file_and_a_bad_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "b.dot"
    assert main(["verify", "--brief", "--dot", str(path)]) == 0
    assert path.read_text().startswith("digraph")
    assert main(["verify", "--dot", str(tmp_path / "no" / "b.dot")]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_layout_reduces_crossings_and_keeps_rows_narrow() -> None:
    g = graph(check_all())
    boxes = layout(g)
    assert set(boxes) == {n["id"] for n in g["nodes"]}
    sizes = {n["id"]: _measure(n) for n in g["nodes"]}
    as_listed = _place(_rows(_layers(g)), sizes)  # the same rows, in the order listed
    assert crossings(g["edges"], boxes) < crossings(g["edges"], as_listed)
    rows: dict[float, int] = {}
    for b in boxes.values():
        rows[b.y] = rows.get(b.y, 0) + 1
    assert max(rows.values()) <= ROW_MAX
    # every edge goes down: a node sits below everything it depends on
    assert all(boxes[a].y + boxes[a].h < boxes[b].y for a, b in g["edges"])
    # every obligation is drawn, as a chip inside its node
    chips = sum(len(b.chips) for b in boxes.values())
    assert chips == len(all_obligations())


def test_crossings_counts_crossing_edges() -> None:
    from pla_proof.proof.graph import Box

    def box(x: float, y: float) -> Box:
        return Box(x, y, 10, [], {})

    boxes = {"a": box(0, 0), "b": box(100, 0), "c": box(0, 100), "d": box(100, 100)}
    assert crossings([("a", "d"), ("b", "c")], boxes) == 1
    assert crossings([("a", "c"), ("b", "d")], boxes) == 0


@pytest.fixture(scope="module")
def page_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("html") / "blueprint.html"
    assert main(["verify", "--brief", "--html", str(path)]) == 0
    return path


def test_page_is_self_contained(page_file: Path) -> None:
    text = page_file.read_text()
    for needle in ("http://", "https://", "<link", "src="):
        assert needle not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")


def test_page_in_chromium(page_file: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api", reason="the [html] extra (playwright)")
    if not Path(CHROMIUM).exists():
        pytest.skip("chromium is not installed (Debian package 'chromium'; .ci/system-packages)")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page()
        requests: list[str] = []
        page.on("request", lambda r: requests.append(r.url))
        page.goto(page_file.as_uri())
        assert page.locator(".node").count() >= 20
        assert page.locator('.node[data-id="L4"]').get_attribute("data-status") in ("z3", "sympy")
        page.click('.node[data-id="T"] .box', position={"x": 20, "y": 8})
        assert page.inner_text("#p-id").startswith("T: convergence bound")
        assert "k·g² ≤ R²·‖u‖²" in page.inner_text("#p-statement")
        assert "T.seed" in page.inner_text("#p-obligations")
        # every obligation is a chip in its node; a chip opens its node at that obligation
        assert page.locator(".ob").count() == len(all_obligations())
        page.click('.ob[data-ob="L3.step"]')
        assert page.inner_text("#p-id").startswith("L3: ")
        picked = page.inner_text("#p-obligations li.selected")
        assert picked.startswith("L3.step") and "from: DOM.step, L3 [previous update], L2" in picked
        assert page.locator('.ob.selected[data-ob="L3.step"]').count() == 1
        # readable: no two boxes overlap, every label fits its box, the drawing is narrow
        geometry = page.evaluate(GEOMETRY)
        assert geometry["overlaps"] == [] and geometry["spills"] == []
        assert geometry["width"] <= 1100
        page.click('.node[data-id="T"] .box', position={"x": 20, "y": 8})
        page.click("#focus")
        dim = set(page.eval_on_selector_all(".node.dim", "es => es.map(e => e.dataset.id)"))
        kept = set(page.eval_on_selector_all(".node:not(.dim)", "es => es.map(e => e.dataset.id)"))
        assert {"T", "L3", "L2", "L1", "L4", "L7", "A1"} <= kept
        assert {"DUAL", "RATE", "BIAS3", "SEP"} <= dim
        page.click("#all")
        assert page.locator(".node.dim").count() == 0
        browser.close()
    assert requests == [page_file.as_uri()], requests
