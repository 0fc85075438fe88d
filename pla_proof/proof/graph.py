"""The blueprint as a dependency graph: Graphviz text and one self-contained HTML page.

Each node of the proof is coloured by how it is established: proved by Coq as well
(every obligation compiled by ``coqc``), proved by Z3, proved by SymPy, or taken as
given (assumptions and definitions); a node the monitor evaluates on every run has a
double border ("checked at run time").  The page needs no network: CSS, JavaScript
and the SVG drawing are inline.

>>> from pla_proof.proof.blueprint import check_all
>>> g = graph(check_all())
>>> g["nodes"][0]["id"], ("L2", "L3") in {(e[0], e[1]) for e in g["edges"]}
('A1', True)
>>> to_dot(g).splitlines()[0]
'digraph blueprint {'
"""

from __future__ import annotations

import html
import json
import textwrap
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from . import notation
from .blueprint import Blueprint
from .statements import END_LEMMAS, RUNTIME_LEMMAS

__all__ = ["COLOURS", "Box", "crossings", "graph", "layout", "to_dot", "to_html"]

#: status -> (fill colour, legend)
COLOURS: dict[str, tuple[str, str]] = {
    "coq": ("#7fc97f", "proved, and Coq agrees"),
    "z3": ("#80b1d3", "proved by Z3"),
    "sympy": ("#fdb462", "proved by SymPy"),
    "given": ("#e0e0e0", "taken as given (assumption or definition)"),
    "open": ("#fb8072", "NOT proved"),
}


def _status(results: list[Any], agreement: dict[str, dict[str, str]]) -> str:
    if not results:
        return "given"
    if not all(r.proved for r in results):
        return "open"
    if all(agreement.get(r.obligation.id, {}).get("coq") == "proved" for r in results):
        return "coq"
    checkers = [r.obligation.checker for r in results]
    return "z3" if checkers.count("z3") >= checkers.count("sympy") else "sympy"


def tint(colour: str, share: float = 0.45) -> str:
    """``colour`` (``#rrggbb``) mixed with white: ``share`` of the colour is kept.

    >>> tint("#000000", 0.5), tint("#80b1d3", 1)
    ('#808080', '#80b1d3')
    """
    rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(255 - (255 - v) * share):02x}" for v in rgb)


def _sources(bp: Blueprint, oid: str) -> str:
    """Where an obligation's hypotheses come from, as ``verify`` prints it."""
    out = []
    for s in bp.chain.sources.get(oid, []) if bp.chain is not None else []:
        out.append(
            "UNDISCHARGED"
            if s.kind == "undischarged"
            else f"{s.source} [{s.renaming}]"
            if s.renaming not in ("", "same")
            else s.source
        )
    return ", ".join(out)


def graph(bp: Blueprint) -> dict[str, Any]:
    """Nodes (id, title, kind, status, statements, obligations) and edges (from, to)."""
    runtime = {lem.id for lem in (*RUNTIME_LEMMAS, *END_LEMMAS)}
    by_node: dict[str, list[Any]] = {}
    for r in bp.results:
        by_node.setdefault(r.obligation.node, []).append(r)
    ids = {n.id for n in bp.nodes}
    kernel = bp.kernel_nodes()
    nodes = []
    for n in bp.nodes:
        results = by_node.get(n.id, [])
        nodes.append(
            {
                "id": n.id,
                "title": n.title,
                "kind": n.kind,
                "status": _status(results, bp.agreement),
                "runtime": n.id in runtime,
                "kernel": kernel.get(n.id, []),
                "text": n.text,
                "statement": notation.text(n) if n.runtime is not None else n.text,
                "latex": notation.latex(n) if n.runtime is not None else "",
                "source": n.source,
                "seconds": round(sum(r.seconds for r in results), 6),
                "obligations": [
                    {
                        "id": r.obligation.id,
                        "statement": r.obligation.statement,
                        "status": r.status,
                        "colour": _status([r], bp.agreement),
                        "checkers": bp.agreement.get(
                            r.obligation.id, {r.obligation.checker: r.status}
                        ),
                        "from": _sources(bp, r.obligation.id),
                        "seconds": round(r.seconds, 6),
                    }
                    for r in results
                ],
            }
        )
    edges = [(dep, n.id) for n in bp.nodes for dep in n.depends_on if dep in ids]
    return {"nodes": nodes, "edges": edges, "verdict": bp.verdict()}


def to_dot(g: dict[str, Any]) -> str:
    """Graphviz ``dot`` text: ``dot -Tsvg`` draws it."""
    lines = [
        "digraph blueprint {",
        "  rankdir=TB;",
        '  node [shape=box, style="rounded,filled", fontname="Helvetica"];',
    ]
    for n in g["nodes"]:
        fill = COLOURS[n["status"]][0]
        label = f"{n['id']}\\n{n['title']}".replace('"', "'")
        extra = ", peripheries=2" if n["runtime"] else ""
        lines.append(f'  "{n["id"]}" [label="{label}", fillcolor="{fill}"{extra}];')
    for a, b in g["edges"]:
        lines.append(f'  "{a}" -> "{b}";')
    lines.append("}")
    return "\n".join(lines) + "\n"


#: the drawing's measures (px): node width, gaps, chip and text sizes
NODE_W, GAP_X, GAP_Y, PAD = 176, 28, 56, 8
CHIP_H, CHIP_GAP, CHAR_W, LINE_H = 16, 4, 6.2, 13
#: a layer with more nodes than this is drawn as several rows
ROW_MAX = 5


@dataclass
class Box:
    """A node's place: centre ``x``, top ``y``, height, title lines and chip rectangles."""

    x: float
    y: float
    h: float
    lines: list[str]
    #: obligation id -> (x, y, width) of its chip, relative to the box's top-left corner
    chips: dict[str, tuple[float, float, float]]

    @property
    def left(self) -> float:
        return self.x - NODE_W / 2


def chip_label(node: str, oid: str) -> str:
    """An obligation's label inside its node: the id without the node's prefix.

    >>> chip_label("L3", "L3.step"), chip_label("L4", "L4"), chip_label("DEF_ALG", "START.ps")
    ('step', 'L4', 'START.ps')
    """
    return oid[len(node) + 1 :] if oid.startswith(node + ".") else oid


def _measure(n: dict[str, Any]) -> tuple[list[str], dict[str, tuple[float, float, float]], float]:
    """Title lines, chips (wrapped in rows) and the height of one node's box."""
    lines = textwrap.wrap(n["title"], 26)[:2] or [""]
    top = PAD + LINE_H * (1 + len(lines)) + 4
    chips: dict[str, tuple[float, float, float]] = {}
    x, y = float(PAD), float(top)
    for ob in n["obligations"]:
        w = CHAR_W * len(chip_label(n["id"], ob["id"])) + 10
        if x + w > NODE_W - PAD and x > PAD:
            x, y = PAD, y + CHIP_H + CHIP_GAP
        chips[ob["id"]] = (x, y, w)
        x += w + CHIP_GAP
    height = (y + CHIP_H + PAD) if chips else top + PAD - 4
    return lines, chips, height


def _layers(g: dict[str, Any]) -> list[list[str]]:
    """Longest path from the roots; wide layers split into rows of at most ``ROW_MAX``."""
    parents: dict[str, list[str]] = {n["id"]: [] for n in g["nodes"]}
    for a, b in g["edges"]:
        parents[b].append(a)
    depth: dict[str, int] = {}

    def level(x: str, seen: frozenset[str] = frozenset()) -> int:
        if x not in depth:
            ps = [p for p in parents[x] if p not in seen]
            depth[x] = 1 + max((level(p, seen | {x}) for p in ps), default=-1)
        return depth[x]

    layers: dict[int, list[str]] = {}
    for n in g["nodes"]:
        layers.setdefault(level(n["id"]), []).append(n["id"])
    return [layers[lv] for lv in sorted(layers)]


def _rows(layers: list[list[str]]) -> list[list[str]]:
    """Each layer in as few rows of at most ``ROW_MAX`` as it needs, of equal length.

    >>> [len(r) for r in _rows([list("abcdef"), list("ab")])]
    [3, 3, 2]
    """
    out = []
    for layer in layers:
        size = -(-len(layer) // -(-len(layer) // ROW_MAX))
        out += [layer[i : i + size] for i in range(0, len(layer), size)]
    return out


def _place(rows: list[list[str]], sizes: dict[str, Any]) -> dict[str, Box]:
    """Rows top to bottom, each centred; a row is as tall as its tallest box."""
    widest = max(len(r) for r in rows) * (NODE_W + GAP_X)
    boxes: dict[str, Box] = {}
    y = 16.0
    for row in rows:
        left = (widest - len(row) * (NODE_W + GAP_X)) / 2 + GAP_X / 2
        for j, nid in enumerate(row):
            lines, chips, h = sizes[nid]
            boxes[nid] = Box(left + j * (NODE_W + GAP_X) + NODE_W / 2, y, h, lines, chips)
        y += max(sizes[nid][2] for nid in row) + GAP_Y
    return boxes


def crossings(edges: list[tuple[str, str]], boxes: dict[str, Box]) -> int:
    """How many pairs of edges cross, each drawn straight from bottom to top."""

    def seg(a: str, b: str) -> tuple[float, float, float, float]:
        return boxes[a].x, boxes[a].y + boxes[a].h, boxes[b].x, boxes[b].y

    def ccw(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float]) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    count = 0
    for (a, b), (c, d) in combinations(edges, 2):
        if {a, b} & {c, d}:
            continue
        x1, y1, x2, y2 = seg(a, b)
        x3, y3, x4, y4 = seg(c, d)
        p1, p2, p3, p4 = (x1, y1), (x2, y2), (x3, y3), (x4, y4)
        if ccw(p1, p2, p3) * ccw(p1, p2, p4) < 0 and ccw(p3, p4, p1) * ccw(p3, p4, p2) < 0:
            count += 1
    return count


def layout(g: dict[str, Any], *, sweeps: int = 12) -> dict[str, Box]:
    """A layered drawing: longest-path layers, wide layers in rows, and the order within
    each row chosen by barycentre sweeps (down: mean place of the parents, up: of the
    children), keeping the order with the fewest crossing edges."""
    sizes = {n["id"]: _measure(n) for n in g["nodes"]}
    parents: dict[str, list[str]] = {n["id"]: [] for n in g["nodes"]}
    children: dict[str, list[str]] = {n["id"]: [] for n in g["nodes"]}
    for a, b in g["edges"]:
        parents[b].append(a)
        children[a].append(b)
    layers = _layers(g)

    def place(order: list[list[str]]) -> dict[str, Box]:
        return _place(_rows(order), sizes)

    best = place(layers)
    best_count = crossings(g["edges"], best)
    order = [list(layer) for layer in layers]
    for sweep in range(sweeps):
        boxes = place(order)
        down = sweep % 2 == 0
        for layer in order if down else reversed(order):
            near = parents if down else children
            key = {
                nid: sum(boxes[m].x for m in near[nid]) / len(near[nid])
                if near[nid]
                else boxes[nid].x
                for nid in layer
            }
            layer.sort(key=lambda nid: key[nid])
            boxes = place(order)
        count = crossings(g["edges"], boxes)
        if count < best_count:
            best, best_count = boxes, count
    return best


_CSS = """
body{font-family:Helvetica,Arial,sans-serif;margin:0;display:flex;height:100vh}
#graph{flex:3;overflow:auto;border-right:1px solid #ccc;padding:0 8px}
#panel{flex:1;padding:12px;overflow:auto;font-size:14px;min-width:300px}
.node .box{stroke:#444;stroke-width:1;rx:6;cursor:pointer}
.node.runtime .box{stroke-width:3;stroke:#333}
.node text{font-size:11px;pointer-events:none}
.node text.id{font-weight:bold;font-size:12px}
.ob rect{stroke:#333;stroke-width:.6;rx:3;cursor:pointer}
.ob text{font-size:10px}
.node.dim,.edge.dim{opacity:.15}
.node.kernel .box{stroke:#1b7837;stroke-width:3.5}
.node.selected .box{stroke:#d62728;stroke-width:3}
.ob.selected rect{stroke:#d62728;stroke-width:2}
.edge{stroke:#888;stroke-width:1.2;fill:none}
.legend span{display:inline-block;width:12px;height:12px;margin-right:4px;border:1px solid #444}
#p-obligations li.selected{background:#fde0dd}
code{background:#f4f4f4;padding:1px 3px}
"""

_JS = """
const G = JSON.parse(document.getElementById('data').textContent);
const byId = Object.fromEntries(G.nodes.map(n => [n.id, n]));
const parents = {}; G.nodes.forEach(n => parents[n.id] = []);
G.edges.forEach(([a, b]) => parents[b].push(a));
function esc(s){const d=document.createElement('div');d.textContent=s;return d.innerHTML;}
function show(id, ob){
  const n = byId[id];
  document.querySelectorAll('.node').forEach(
    e => e.classList.toggle('selected', e.dataset.id === id));
  document.querySelectorAll('.ob').forEach(
    e => e.classList.toggle('selected', e.dataset.ob === ob));
  let h = `<h2 id="p-id">${esc(n.id)}: ${esc(n.title)}</h2>`;
  h += `<p><b>kind</b> ${esc(n.kind)}; <b>status</b> <span id="p-status">${esc(n.status)}</span>`;
  h += n.runtime ? '; checked at run time' : '';
  h += n.kernel.length ? `; <span id="p-kernel">kernel-checked end to end by Coq: `
    + `${esc(n.kernel.join(', '))}</span>` : '';
  h += `</p><p id="p-statement"><code>${esc(n.statement)}</code></p>`;
  h += `<p><b>source</b> ${esc(n.source)}; <b>time</b> ${n.seconds.toFixed(3)} s</p>`;
  h += '<button id="focus">focus on its dependencies</button> <button id="all">show all</button>';
  h += '<ul id="p-obligations">';
  n.obligations.forEach(o => {
    const c = Object.entries(o.checkers).map(([k, v]) => `${k}: ${v}`).join(', ');
    const cls = o.id === ob ? ' class="selected"' : '';
    h += `<li${cls} data-ob="${esc(o.id)}"><b>${esc(o.id)}</b> (${esc(c)}; `;
    h += `${o.seconds.toFixed(3)} s)<br><code>${esc(o.statement)}</code>`;
    h += o.from ? `<br><small>from: ${esc(o.from)}</small>` : '';
    h += '</li>';
  });
  h += '</ul>';
  document.getElementById('panel').innerHTML = h;
  document.getElementById('focus').onclick = () => focus(id);
  document.getElementById('all').onclick = () => focus(null);
  const picked = document.querySelector('#p-obligations li.selected');
  if (picked) picked.scrollIntoView({block: 'nearest'});
}
function ancestors(id){
  const out = new Set([id]); const stack = [id];
  while (stack.length){ const x = stack.pop(); parents[x].forEach(p => {
    if (!out.has(p)){ out.add(p); stack.push(p); } }); }
  return out;
}
function focus(id){
  const keep = id === null ? null : ancestors(id);
  document.querySelectorAll('.node').forEach(e =>
    e.classList.toggle('dim', keep !== null && !keep.has(e.dataset.id)));
  document.querySelectorAll('.edge').forEach(e =>
    e.classList.toggle('dim', keep !== null &&
      !(keep.has(e.dataset.from) && keep.has(e.dataset.to))));
}
document.querySelectorAll('.node').forEach(e => e.addEventListener('click', ev => {
  const chip = ev.target.closest('.ob');
  show(e.dataset.id, chip ? chip.dataset.ob : null);
}));
"""


def _svg(g: dict[str, Any]) -> str:
    """The drawing: curved edges under the boxes; each box holds its obligations as chips."""
    boxes = layout(g)
    width = max(b.x for b in boxes.values()) + NODE_W / 2 + GAP_X / 2
    height = max(b.y + b.h for b in boxes.values()) + 16
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}">']
    for a, b in g["edges"]:
        x1, y1 = boxes[a].x, boxes[a].y + boxes[a].h
        x2, y2 = boxes[b].x, boxes[b].y
        bend = max(24.0, (y2 - y1) / 2)
        out.append(
            f'<path class="edge" data-from="{html.escape(a)}" data-to="{html.escape(b)}" '
            f'd="M{x1:.0f},{y1:.0f} C{x1:.0f},{y1 + bend:.0f} {x2:.0f},{y2 - bend:.0f} '
            f'{x2:.0f},{y2:.0f}"/>'
        )
    for n in g["nodes"]:
        box = boxes[n["id"]]
        cls = "node runtime" if n["runtime"] else "node"
        cls += " kernel" if n["kernel"] else ""
        x0, y0 = box.left, box.y
        parts = [
            f'<g class="{cls}" data-id="{html.escape(n["id"])}" data-status="{n["status"]}">',
            f'<rect class="box" x="{x0:.0f}" y="{y0:.0f}" width="{NODE_W}" height="{box.h:.0f}" '
            f'fill="{tint(COLOURS[n["status"]][0])}"/>',
            f'<text class="id" x="{box.x:.0f}" y="{y0 + PAD + 10:.0f}" text-anchor="middle">'
            f"{html.escape(n['id'])}</text>",
        ]
        for j, line in enumerate(box.lines):
            parts.append(
                f'<text class="title" x="{box.x:.0f}" y="{y0 + PAD + 10 + LINE_H * (j + 1):.0f}" '
                f'text-anchor="middle">{html.escape(line)}</text>'
            )
        for ob in n["obligations"]:
            cx, cy, cw = box.chips[ob["id"]]
            parts.append(
                f'<g class="ob" data-ob="{html.escape(ob["id"])}" data-status="{ob["status"]}">'
                f"<title>{html.escape(ob['id'])}: {html.escape(ob['status'])}</title>"
                f'<rect x="{x0 + cx:.0f}" y="{y0 + cy:.0f}" width="{cw:.0f}" height="{CHIP_H}" '
                f'fill="{COLOURS[ob["colour"]][0]}"/>'
                f'<text x="{x0 + cx + cw / 2:.0f}" y="{y0 + cy + 12:.0f}" text-anchor="middle">'
                f"{html.escape(chip_label(n['id'], ob['id']))}</text></g>"
            )
        parts.append("</g>")
        out.append("".join(parts))
    out.append("</svg>")
    return "".join(out)


def to_html(g: dict[str, Any]) -> str:
    """One self-contained page: the graph as inline SVG, a side panel, no network."""
    legend = " ".join(
        f'<span style="background:{c}"></span>{html.escape(t)}' for c, t in COLOURS.values()
    )
    data = json.dumps(g).replace("</", "<\\/")
    return (
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
        "<title>pla_proof blueprint</title>"
        f"<style>{_CSS}</style></head><body>"
        f'<div id="graph"><p class="legend">{legend}; double border: checked at run time; '
        "thick green border: kernel-checked end to end (verify --coq); "
        "small boxes: the node's obligations</p>"
        f'<p id="verdict">{html.escape(g["verdict"])}</p>{_svg(g)}</div>'
        '<div id="panel"><p>Click a node or one of its obligations to see the statements, '
        "checkers, sources and times.</p></div>"
        f'<script type="application/json" id="data">{data}</script>'
        f"<script>{_JS}</script></body></html>\n"
    )
