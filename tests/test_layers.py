"""The package's structure: its imports form no circle, between modules or between
packages, and no module imports a private name of another.

The graph is read from the source (every ``import``, at module level or inside a
function, under ``TYPE_CHECKING`` too), so a circle cannot hide behind a lazy import.
``python tests/test_layers.py`` prints what it finds.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "pla_proof"


def module_name(path: Path) -> str:
    """``pla_proof/engine/kernel.py`` -> ``pla_proof.engine.kernel``."""
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _absolute(mod: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = mod.split(".") if is_package else mod.split(".")[:-1]
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def imports(known: dict[str, Path]) -> Iterator[tuple[str, str, str]]:
    """``(importer, imported module, name)`` for every import of one module of the
    package by another (``name`` is ``""`` for ``import a.b``)."""
    for mod, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        is_package = path.name == "__init__.py"
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name in known:
                        yield mod, a.name, ""
            elif isinstance(node, ast.ImportFrom):
                target = _absolute(mod, is_package, node)
                for a in node.names:
                    sub = f"{target}.{a.name}"
                    if sub in known:
                        yield mod, sub, ""
                    elif target in known:
                        yield mod, target, a.name


def _edges(known: dict[str, Path], level: str) -> dict[str, set[str]]:
    def node(m: str) -> str:
        if level == "module":
            return m
        # a package's node: its folder (pla_proof.engine); a top-level module stands alone
        path = known[m]
        if path.parent == ROOT:
            return m if path.name != "__init__.py" else "pla_proof"
        return module_name(path.parent / "__init__.py")

    graph: dict[str, set[str]] = {node(m): set() for m in known}
    for a, b, _ in imports(known):
        na, nb = node(a), node(b)
        if level == "package" and (nb == "pla_proof" or na == "pla_proof"):
            continue  # the public API re-exports everything; it is the top, not a layer
        if na != nb:
            graph[na].add(nb)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _describe(graph: dict[str, set[str]], comp: list[str]) -> str:
    arrows = [f"{a} -> {b}" for a in comp for b in sorted(graph[a]) if b in comp]
    return f"circle of {len(comp)}: " + "; ".join(arrows)


def private_imports(known: dict[str, Path]) -> list[str]:
    return [
        f"{a} imports {b}.{name}"
        for a, b, name in imports(known)
        if name.startswith("_") and not name.startswith("__")
    ] + [
        f"{a} imports the private module {b}"
        for a, b, name in imports(known)
        if not name and b.rsplit(".", 1)[-1].startswith("_") and not b.endswith("__init__")
    ]


@pytest.mark.parametrize("level", ["module", "package"])
def test_no_import_circle(level: str) -> None:
    graph = _edges(modules(), level)
    found = circles(graph)
    assert not found, "\n".join(_describe(graph, c) for c in found)


def test_no_private_name_imported_across_modules() -> None:
    found = private_imports(modules())
    assert not found, "\n".join(found)


def test_no_module_imports_an_old_place_of_a_moved_module() -> None:
    """A moved module's old name works for users (pla_proof.moved) but would hide an
    arrow from this test: the package itself imports every module by its new name."""
    from pla_proof.moved import MOVED

    known = modules()
    found = []
    for mod, path in known.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                target = _absolute(mod, path.name == "__init__.py", node)
                names = [target, *(f"{target}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            found += [f"{mod} imports {n} (now {MOVED[n]})" for n in names if n in MOVED]
    assert not found, "\n".join(found)


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


if __name__ == "__main__":
    known = modules()
    for level in ("module", "package"):
        g = _edges(known, level)
        for c in circles(g):
            print(level, _describe(g, c))
    for line in private_imports(known):
        print("private:", line)
