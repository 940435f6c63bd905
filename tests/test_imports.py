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


# --- Generic layers ask the Task record; they never name a task or a corpus -------------------------

#: The packages and modules that must know tasks only through ``causalgraph.tasks`` (the registry and
#: the Task record): the engine, the statistics, the viewer, the backends and the corpus report.
GENERIC = ("causalgraph.bench", "causalgraph.stats", "causalgraph.viewer", "causalgraph.llm", "causalgraph.report")

#: (module, literal found) that may stay, each for a reason that is not recognising a task:
NAME_ALLOWLIST = {
    # The error for a folder that is not a run names the CLI commands that write run folders
    # (``causalgraph annotate``), not the task of a record.
    ("causalgraph.bench.store", "annotate"),
    # The corpus report compares a corpus with the ClimateCause paper's own figures (§5.2) when the
    # corpus is the released spreadsheet, recognised by its sha256 (datasets.fetch.DATASETS): a
    # statement about the paper, not about a task.
    ("causalgraph.report", "climatecause"),
}


def _generic_modules() -> dict[str, Path]:
    return {m: p for m, (p, _) in _modules().items() if any(m == g or m.startswith(g + ".") for g in GENERIC)}


def _task_names() -> list[str]:
    from causalgraph.datasets import DATASET_NAMES
    from causalgraph.tasks import builtin_tasks

    return sorted(set(builtin_tasks()) | (set(DATASET_NAMES) - {"sample"}))


def _literals(path: Path):
    """``(line, text)`` of every string literal of a module except docstrings (prose may mention a task)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    for n in ast.walk(tree):
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs:
            yield n.lineno, n.value


def _name_pattern():
    import re

    names = _task_names()
    # The task names, the corpus names, and any name of the ClimateCause families (ccr-…, corri…).
    return re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, names)) + r"|ccr-[\w-]*|corri[\w-]*)(?![\w-])", re.I)


def test_the_name_scan_finds_task_names_and_corpus_names():
    assert {"corri", "ccr-position", "parents", "pubmedcausal-extract", "climatecause", "pubmedcausal"} <= set(
        _task_names())
    assert len(_generic_modules()) > 30 and "causalgraph.stats.compare" in _generic_modules()
    pat = _name_pattern()
    assert [m.group(0) for m in pat.finditer("ccr-eci-member, corri-rc, ccr-new, PubMedCausal:test")] == [
        "ccr-eci-member", "corri-rc", "ccr-new", "PubMedCausal"]
    assert pat.search("grandparents, max-parents, parents_of") is None
    path = ROOT / "stats" / "compare.py"
    assert all(isinstance(t, str) for _, t in _literals(path))


def test_generic_layers_import_no_task_module():
    graph = _import_graph()
    bad = sorted((m, t) for m in _generic_modules() for t in graph[m] if t.startswith("causalgraph.tasks."))
    assert bad == [], "generic layers import task modules (ask the Task record instead): " + repr(bad)


def test_generic_layers_name_no_task_and_no_corpus():
    pat = _name_pattern()
    found = sorted({(m, line, hit.group(0).lower()) for m, p in _generic_modules().items()
                    for line, text in _literals(p) for hit in pat.finditer(text)})
    bad = [(m, line, name) for m, line, name in found if (m, name) not in NAME_ALLOWLIST]
    assert bad == [], "generic layers name tasks or corpora (declare it on the Task record): " + repr(bad)
    # Every allowlist entry is still needed (drop it when its literal goes).
    assert {(m, name) for m, _, name in found} >= NAME_ALLOWLIST
