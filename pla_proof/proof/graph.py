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
from typing import Any

from . import notation
from .blueprint import Blueprint
from .statements import END_LEMMAS, RUNTIME_LEMMAS

__all__ = ["COLOURS", "graph", "to_dot", "to_html"]

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


def graph(bp: Blueprint) -> dict[str, Any]:
    """Nodes (id, title, kind, status, statements, obligations) and edges (from, to)."""
    runtime = {lem.id for lem in (*RUNTIME_LEMMAS, *END_LEMMAS)}
    by_node: dict[str, list[Any]] = {}
    for r in bp.results:
        by_node.setdefault(r.obligation.node, []).append(r)
    ids = {n.id for n in bp.nodes}
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
                        "checkers": bp.agreement.get(
                            r.obligation.id, {r.obligation.checker: r.status}
                        ),
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


def _layout(g: dict[str, Any]) -> dict[str, tuple[float, float]]:
    """Layers by longest path from the roots; nodes spread evenly within a layer."""
    deps: dict[str, list[str]] = {n["id"]: [] for n in g["nodes"]}
    for a, b in g["edges"]:
        deps[b].append(a)
    depth: dict[str, int] = {}

    def level(x: str, seen: frozenset[str] = frozenset()) -> int:
        if x not in depth:
            parents = [p for p in deps[x] if p not in seen]
            depth[x] = 1 + max((level(p, seen | {x}) for p in parents), default=-1)
        return depth[x]

    for n in g["nodes"]:
        level(n["id"])
    layers: dict[int, list[str]] = {}
    for n in g["nodes"]:
        layers.setdefault(depth[n["id"]], []).append(n["id"])
    pos: dict[str, tuple[float, float]] = {}
    width = max(len(v) for v in layers.values())
    for lv, ids in layers.items():
        step = 150 * width / len(ids)
        for j, nid in enumerate(ids):
            pos[nid] = (step * (j + 0.5), 70 + 90 * lv)
    return pos


_CSS = """
body{font-family:Helvetica,Arial,sans-serif;margin:0;display:flex;height:100vh}
#graph{flex:3;overflow:auto;border-right:1px solid #ccc}
#panel{flex:1;padding:12px;overflow:auto;font-size:14px;min-width:280px}
.node rect{stroke:#444;stroke-width:1;rx:6;cursor:pointer}
.node.runtime rect{stroke-width:3;stroke:#333}
.node text{font-size:11px;pointer-events:none}
.node.dim,.edge.dim{opacity:.15}
.node.selected rect{stroke:#d62728;stroke-width:3}
.edge{stroke:#999;stroke-width:1;fill:none}
.legend span{display:inline-block;width:12px;height:12px;margin-right:4px;border:1px solid #444}
code{background:#f4f4f4;padding:1px 3px}
"""

_JS = """
const G = JSON.parse(document.getElementById('data').textContent);
const byId = Object.fromEntries(G.nodes.map(n => [n.id, n]));
const parents = {}; G.nodes.forEach(n => parents[n.id] = []);
G.edges.forEach(([a, b]) => parents[b].push(a));
let selected = null;
function esc(s){const d=document.createElement('div');d.textContent=s;return d.innerHTML;}
function show(id){
  selected = id; const n = byId[id];
  document.querySelectorAll('.node').forEach(
    e => e.classList.toggle('selected', e.dataset.id === id));
  let h = `<h2 id="p-id">${esc(n.id)}: ${esc(n.title)}</h2>`;
  h += `<p><b>kind</b> ${esc(n.kind)}; <b>status</b> <span id="p-status">${esc(n.status)}</span>`;
  h += n.runtime ? '; checked at run time' : '';
  h += `</p><p id="p-statement"><code>${esc(n.statement)}</code></p>`;
  h += `<p><b>source</b> ${esc(n.source)}; <b>time</b> ${n.seconds.toFixed(3)} s</p>`;
  h += '<button id="focus">focus on its dependencies</button> <button id="all">show all</button>';
  h += '<ul id="p-obligations">';
  n.obligations.forEach(o => {
    const c = Object.entries(o.checkers).map(([k, v]) => `${k}: ${v}`).join(', ');
    h += `<li><b>${esc(o.id)}</b> (${esc(c)}; ${o.seconds.toFixed(3)} s)<br>`;
    h += `<code>${esc(o.statement)}</code></li>`;
  });
  h += '</ul>';
  document.getElementById('panel').innerHTML = h;
  document.getElementById('focus').onclick = () => focus(id);
  document.getElementById('all').onclick = () => focus(null);
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
document.querySelectorAll('.node').forEach(
  e => e.addEventListener('click', () => show(e.dataset.id)));
"""


def to_html(g: dict[str, Any]) -> str:
    """One self-contained page: the graph as inline SVG, a side panel, no network."""
    pos = _layout(g)
    w = max(x for x, _ in pos.values()) + 100
    h = max(y for _, y in pos.values()) + 60
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}">']
    for a, b in g["edges"]:
        (x1, y1), (x2, y2) = pos[a], pos[b]
        svg.append(
            f'<line class="edge" data-from="{html.escape(a)}" data-to="{html.escape(b)}" '
            f'x1="{x1:.0f}" y1="{y1 + 18:.0f}" x2="{x2:.0f}" y2="{y2 - 18:.0f}"/>'
        )
    for n in g["nodes"]:
        x, y = pos[n["id"]]
        cls = "node runtime" if n["runtime"] else "node"
        fill = COLOURS[n["status"]][0]
        svg.append(
            f'<g class="{cls}" data-id="{html.escape(n["id"])}" data-status="{n["status"]}">'
            f'<rect x="{x - 65:.0f}" y="{y - 18:.0f}" width="130" height="36" fill="{fill}"/>'
            f'<text x="{x:.0f}" y="{y - 3:.0f}" text-anchor="middle" font-weight="bold">'
            f"{html.escape(n['id'])}</text>"
            f'<text x="{x:.0f}" y="{y + 11:.0f}" text-anchor="middle">'
            f"{html.escape(n['title'][:22])}</text></g>"
        )
    svg.append("</svg>")
    legend = " ".join(
        f'<span style="background:{c}"></span>{html.escape(t)}' for c, t in COLOURS.values()
    )
    data = json.dumps(g).replace("</", "<\\/")
    return (
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
        "<title>pla_proof blueprint</title>"
        f"<style>{_CSS}</style></head><body>"
        f'<div id="graph"><p class="legend">{legend}; double border: checked at run time</p>'
        f'<p id="verdict">{html.escape(g["verdict"])}</p>{"".join(svg)}</div>'
        '<div id="panel"><p>Click a node to see its statement, checkers and time.</p></div>'
        f'<script type="application/json" id="data">{data}</script>'
        f"<script>{_JS}</script></body></html>\n"
    )
