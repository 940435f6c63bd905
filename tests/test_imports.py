"""No module of the package imports one that imports it back, not even inside a function.

The import graph is read from the source (every ``import`` and ``from … import`` statement, at module
level or nested), so a cycle that only shows when some function runs is caught too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import causalgraph

ROOT = Path(causalgraph.__file__).parent


def _modules() -> dict[str, tuple[Path, bool]]:
    out = {}
    for p in ROOT.rglob("*.py"):
        parts = ["causalgraph", *p.relative_to(ROOT).with_suffix("").parts]
        is_pkg = parts[-1] == "__init__"
        out[".".join(parts[:-1] if is_pkg else parts)] = (p, is_pkg)
    return out


def _import_graph() -> dict[str, set[str]]:
    mods = _modules()

    def known(name: str) -> str:
        while name not in mods and "." in name:
            name = name.rsplit(".", 1)[0]
        return name

    graph: dict[str, set[str]] = {m: set() for m in mods}
    for mod, (path, is_pkg) in mods.items():
        package = mod if is_pkg else mod.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    base_name = ".".join(base + ([node.module] if node.module else []))
                else:
                    base_name = node.module or ""
                # ``from pkg import sub`` imports the submodule; ``from mod import name`` the module
                targets = [f"{base_name}.{a.name}" if f"{base_name}.{a.name}" in mods else base_name
                           for a in node.names]
            for t in targets:
                if t == "causalgraph" or t.startswith("causalgraph."):
                    t = known(t)
                    if t != mod:
                        graph[mod].add(t)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Groups of modules that import each other (strongly connected components of two or more)."""
    import networkx as nx

    g = nx.DiGraph((m, t) for m, ts in graph.items() for t in ts)
    g.add_nodes_from(graph)
    return sorted(sorted(c) for c in nx.strongly_connected_components(g) if len(c) > 1)


def test_the_import_graph_reads_nested_and_relative_imports():
    graph = _import_graph()
    # a module-level relative import, and one inside a function (causalgraph.cli imports its version lazily)
    assert "causalgraph.errors" in graph["causalgraph.encodings.base"]
    assert "causalgraph.encodings" in graph["causalgraph.encoders"]  # ``from . import encodings``
    assert "causalgraph._version" in graph["causalgraph.cli"]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_module_imports_one_that_imports_it_back():
    assert _cycles(_import_graph()) == []
