"""The import graph of the package: layers in a stated order, no cycle, every module importable alone.

The graph is read from the source: every ``import`` and ``from … import``
statement, at module level or nested, plus the import every module makes of
its parent packages (``import causalgraph.bench.runner`` runs
``causalgraph/bench/__init__.py`` first).  So a cycle that only shows when
some function runs, or that import order hides, is caught too.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import causalgraph

ROOT = Path(causalgraph.__file__).parent
REPO = ROOT.parent

#: The layers, bottom first (docs/architecture.md, "Layers", shows the same table, checked below).  A
#: package (a top-level module or subpackage of causalgraph) may import packages of its own layer or of
#: lower ones, never of a higher one; within a layer, the cycle test forbids loops.  The root package
#: ``causalgraph`` is the facade above them all: it names its exports lazily (PEP 562).
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("foundation", ("_version", "errors", "_core", "scoring", "conftest")),
    ("model", ("model",)),
    ("files", ("readwrite",)),
    ("graphs", ("graph",)),
    ("corpora", ("datasets",)),
    ("graph analyses", ("metrics", "encodings", "prompts", "html")),
    ("task kit and run log", ("taskkit", "runlog")),
    ("domain", ("extraction", "annotation", "alignment")),
    ("tasks", ("tasks",)),
    ("backends", ("llm",)),
    ("engine", ("bench",)),
    ("extension API", ("extend",)),
    ("analyses and applications", ("stats", "apps")),
    ("views and interchange", ("viewer", "interop")),
    ("command line", ("cli", "__main__")),
]

#: Modules whose top level needs a package outside causalgraph's dependencies (an extra): the only
#: causalgraph modules another module may import inside a function, so that the importer works without it.
OPTIONAL_MODULES = {
    "causalgraph.interop.inspect": "inspect_ai",
    "causalgraph.conftest": "pytest",
}


def _modules() -> dict[str, tuple[Path, bool]]:
    out = {}
    for p in ROOT.rglob("*.py"):
        parts = ["causalgraph", *p.relative_to(ROOT).with_suffix("").parts]
        is_pkg = parts[-1] == "__init__"
        out[".".join(parts[:-1] if is_pkg else parts)] = (p, is_pkg)
    return out


def _imports() -> list[tuple[str, str, int, bool]]:
    """``(importer, imported module, line, inside a function)`` for every import statement of the package.

    The imported module is the most specific module of the package the statement names
    (``from causalgraph.bench import runner`` imports ``causalgraph.bench.runner``,
    ``from .item import Item`` the module ``item``).
    """
    mods = _modules()

    def known(name: str) -> str:
        while name not in mods and "." in name:
            name = name.rsplit(".", 1)[0]
        return name

    out = []
    for mod, (path, is_pkg) in mods.items():
        package = mod if is_pkg else mod.rsplit(".", 1)[0]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        in_function = {id(n) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                       for n in ast.walk(f)}
        type_checking = {id(n) for i in ast.walk(tree) if isinstance(i, ast.If)
                         and ast.unparse(i.test).endswith("TYPE_CHECKING") for n in ast.walk(i)}
        for node in ast.walk(tree):
            if id(node) in type_checking:
                continue  # read by type checkers only, never run
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
                        out.append((mod, t, node.lineno, id(node) in in_function))
    return out


def _import_graph(*, parents: bool = False) -> dict[str, set[str]]:
    """Module → the modules its statements import; with ``parents``, also the parent packages every import runs."""
    graph: dict[str, set[str]] = {m: set() for m in _modules()}
    for mod, target, _, _ in _imports():
        graph[mod].add(target)
        if parents:
            # ``import a.b.c`` runs ``a/__init__`` and ``a/b/__init__`` first
            graph[mod].update(_parents(target))
    if parents:
        for mod in graph:
            graph[mod].update(_parents(mod))
    return graph


def _parents(mod: str) -> list[str]:
    parts = mod.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def _package(mod: str) -> str:
    """The top-level unit a module belongs to: ``causalgraph.bench.runner`` → ``bench``."""
    parts = mod.split(".")
    return parts[1] if len(parts) > 1 else "causalgraph"


def _package_graph() -> dict[str, set[str]]:
    """Package → packages it imports (through any module of it, at any depth, parent imports included)."""
    graph: dict[str, set[str]] = {}
    for mod, targets in _import_graph(parents=True).items():
        src = _package(mod)
        graph.setdefault(src, set())
        for t in targets:
            if _package(t) != src:
                graph[src].add(_package(t))
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Groups of nodes that import each other (strongly connected components of two or more)."""
    import networkx as nx

    g = nx.DiGraph((m, t) for m, ts in graph.items() for t in ts)
    g.add_nodes_from(graph)
    return sorted(sorted(c) for c in nx.strongly_connected_components(g) if len(c) > 1)


def _layer_of() -> dict[str, int]:
    return {p: i for i, (_, ps) in enumerate(LAYERS) for p in ps}


def test_the_import_graph_reads_nested_relative_and_parent_imports():
    graph = _import_graph()
    assert {"causalgraph", "causalgraph.bench"} <= _import_graph(parents=True)["causalgraph.bench.runner"]
    # a module-level relative import, and one inside a function (causalgraph.cli imports its version lazily)
    assert "causalgraph.errors" in graph["causalgraph.encodings.base"]
    assert "causalgraph.prompts" in graph["causalgraph.tasks.climatecause"]  # ``from .. import prompts``
    # a package's __init__ importing its own modules is no cycle: parent imports count between packages
    assert "causalgraph.bench" not in graph["causalgraph.bench.runner"]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _package("causalgraph.bench.runner") == "bench" and _package("causalgraph") == "causalgraph"


def test_no_module_imports_one_that_imports_it_back():
    """Module by module, statements only (a package's ``__init__`` importing its own modules is the
    package's business; between packages, parent imports count: the next test)."""
    assert _cycles(_import_graph()) == []


def test_no_package_imports_one_that_imports_it_back():
    graph = _package_graph()
    # The root package is the facade: its module-level code imports only what
    # test_the_root_package_imports_its_exports_lazily allows, so the parent import every module makes of
    # it closes no loop.
    graph.pop("causalgraph", None)
    for targets in graph.values():
        targets.discard("causalgraph")
    assert _cycles(graph) == []


def _against_order(imports, layer: dict[str, int]) -> list[tuple[str, str, int]]:
    """``(importer, imported, line)`` of every import of a package of a higher layer (the root excepted)."""
    return sorted((mod, t, line) for mod, t, line, _ in imports
                  if _package(mod) != "causalgraph" and _package(t) != "causalgraph"
                  and layer[_package(t)] > layer[_package(mod)])


def test_every_package_has_a_layer_and_imports_none_above_it():
    layer = _layer_of()
    packages = set(_package_graph()) - {"causalgraph"}
    assert packages - set(layer) == set(), "packages missing from LAYERS"
    assert set(layer) - packages == set(), "LAYERS names packages that do not exist"
    against = _against_order(_imports(), layer)
    assert against == [], "imports against the layer order (importer, imported, line): " + repr(against)


def test_the_layer_check_finds_an_import_against_the_order():
    layer = _layer_of()
    imports = [
        ("causalgraph.bench.runner", "causalgraph.tasks.base", 1, False),       # engine → tasks: down, allowed
        ("causalgraph.tasks.climatecause", "causalgraph.bench.runner", 7, True),  # tasks → engine: up
        ("causalgraph.errors", "causalgraph.cli", 3, False),                     # foundation → cli: up
        ("causalgraph.stats.compare", "causalgraph.apps.annotator", 9, False),   # same layer: allowed
        ("causalgraph", "causalgraph.cli", 2, False),                            # the facade: above all
    ]
    assert _against_order(imports, layer) == [("causalgraph.errors", "causalgraph.cli", 3),
                                              ("causalgraph.tasks.climatecause", "causalgraph.bench.runner", 7)]


def test_a_function_level_import_of_causalgraph_is_only_of_an_optional_module():
    nested = sorted((mod, t, line) for mod, t, line, in_function in _imports()
                    if in_function and t not in OPTIONAL_MODULES)
    assert nested == [], ("causalgraph modules imported inside functions (hoist them to the top; only modules "
                          "needing an extra may be imported late): " + repr(nested))


def test_the_optional_modules_are_exactly_those_that_need_an_extra():
    """Each module of OPTIONAL_MODULES imports its package at the top, and no other module does."""
    import importlib.metadata as md

    required = {re.split(r"[<>=!~ \[;]", r, maxsplit=1)[0].lower().replace("-", "_")
                for r in md.requires("causalgraph") or [] if "extra ==" not in r}
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    found = {}
    for mod, (path, _) in _modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        # statements run at import: the module's own, and those inside its top-level try/if blocks
        top = [n for stmt in tree.body if not (isinstance(stmt, ast.If) and ast.unparse(stmt.test).endswith(
            "TYPE_CHECKING")) for n in ast.walk(stmt) if isinstance(n, (ast.Import, ast.ImportFrom))
            and not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
        names = {a.name.split(".")[0] for n in top if isinstance(n, ast.Import) for a in n.names}
        names |= {n.module.split(".")[0] for n in top if isinstance(n, ast.ImportFrom) and not n.level and n.module}
        extra = {n for n in names if n not in stdlib and n != "causalgraph" and n.lower() not in required}
        if extra:
            found[mod] = sorted(extra)
    assert found == {m: [pkg] for m, pkg in OPTIONAL_MODULES.items()}


def test_the_root_package_imports_its_exports_lazily():
    tree = ast.parse((ROOT / "__init__.py").read_text(encoding="utf-8"))
    top = [n for n in tree.body if isinstance(n, ast.ImportFrom) and n.level]
    assert sorted(n.module for n in top) == ["_version"]
    code = ("import sys, causalgraph; "
            "print(sorted(m for m in sys.modules if m.startswith('causalgraph')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['causalgraph', 'causalgraph._version']"
    # The TYPE_CHECKING block (what type checkers read) lists the exports a second time, as imports:
    # every name resolves lazily to the very object that import names, and no name is in one list only.
    import importlib

    checking = next(n for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING")
    declared = {}
    for node in ast.walk(checking):
        if isinstance(node, ast.ImportFrom):
            base = "causalgraph" + (f".{node.module}" if node.module else "")
            for a in node.names:
                declared[a.asname or a.name] = (base, a.name)
    assert set(declared) == set(causalgraph.__all__) - {"__version__"}
    for name, (module, attr) in declared.items():
        mod = importlib.import_module(module)
        expected = getattr(mod, attr) if hasattr(mod, attr) else importlib.import_module(f"{module}.{attr}")
        assert getattr(causalgraph, name) is expected, name
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        causalgraph.no_such_name  # noqa: B018


def _importable_modules() -> list[str]:
    # ``causalgraph.__main__`` runs the command line when imported; test_the_main_module_runs_the_cli covers it.
    return sorted(m for m in _modules() if m != "causalgraph.__main__")


#: Run in one child interpreter: it imports the heavy third-party packages once (never a causalgraph module),
#: then forks a child per causalgraph module, which imports that module into a ``sys.modules`` holding no
#: causalgraph module — what a fresh interpreter gives it — and reports ``rc`` and the error's last line.
#: Pre-importing numpy, pandas and networkx hides nothing: each imports its own submodules eagerly, so a
#: module that used one without importing it would see the same attributes in a fresh interpreter.
_FORKING_IMPORTER = r"""
import importlib, json, os, sys
modules = json.load(sys.stdin)
for heavy in ("numpy", "pandas", "networkx"):
    try:
        importlib.import_module(heavy)
    except Exception:
        pass
assert not any(m == "causalgraph" or m.startswith("causalgraph.") for m in sys.modules)
results, running = [], {}

def reap():
    pid, status = os.wait()
    mod, r = running.pop(pid)
    with os.fdopen(r, "rb") as f:
        msg = f.read().decode("utf-8", "replace")
    results.append([mod, os.waitstatus_to_exitcode(status), msg])

for mod in modules:
    if len(running) >= int(sys.argv[1]):
        reap()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        rc, msg = 0, ""
        try:
            importlib.import_module(mod)
        except BaseException as exc:
            rc, msg = 1, (f"{type(exc).__name__}: {exc}".strip().splitlines() or [""])[-1]
        os.write(w, msg.encode("utf-8")[:60000])
        os._exit(rc)
    os.close(w)
    running[pid] = (mod, r)
while running:
    reap()
json.dump(results, sys.stdout)
"""


def _import_each_alone(modules: list[str]) -> list[tuple[str, int, str]]:
    """``(module, exit code, last line of the error)`` of each module imported first, in a forked child."""
    env = {**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    proc = subprocess.run([sys.executable, "-c", _FORKING_IMPORTER, str(max(2, os.cpu_count() or 2))],
                          input=json.dumps(modules), capture_output=True, text=True, env=env, check=True)
    return [tuple(r) for r in json.loads(proc.stdout.strip().splitlines()[-1])]


def test_every_module_imports_alone_in_a_fresh_interpreter():
    """Each module first, with no other causalgraph module loaded: an order-dependent (partially initialised)
    import fails here. One interpreter forks a child per module (:data:`_FORKING_IMPORTER`) instead of
    starting one interpreter per module: the same check without re-importing numpy and pandas each time."""
    results = _import_each_alone(_importable_modules())
    assert len(results) > 150
    failed = [(m, err) for m, rc, err in results if rc != 0 and not err.startswith("ModuleNotFoundError")]
    missing = [(m, err) for m, rc, err in results if rc != 0 and err.startswith("ModuleNotFoundError")]
    assert failed == []
    # only modules needing an extra may miss a package, and only that package
    assert all(m in OPTIONAL_MODULES and repr(OPTIONAL_MODULES[m]) in err for m, err in missing), missing


def test_the_forking_importer_reports_a_partially_initialised_import_and_a_missing_package(tmp_path, monkeypatch):
    # A throw-away package: a imports b, which imports a name that a defines only after its import of b —
    # importing b first works, a first fails (partially initialised); and c needs a package that does not exist.
    pkg = tmp_path / "cyc"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .b import B\nA = 1\n")
    (pkg / "b.py").write_text("B = 2\nfrom .a import A\n")
    (pkg / "c.py").write_text("import no_such_package_for_this_test\n")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")])))
    got = {m: (rc, err) for m, rc, err in _import_each_alone(["cyc.a", "cyc.b", "cyc.c"])}
    assert got["cyc.a"][0] == 1 and "ImportError" in got["cyc.a"][1] and "partially initialized" in got["cyc.a"][1]
    assert got["cyc.b"] == (0, "")
    assert got["cyc.c"] == (1, "ModuleNotFoundError: No module named 'no_such_package_for_this_test'")


def test_the_main_module_runs_the_cli():
    proc = subprocess.run([sys.executable, "-m", "causalgraph", "--version"], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.startswith("causalgraph ")


def test_the_layer_table_of_the_docs_is_the_one_tested():
    """docs/architecture.md lists the layers; its table must say what LAYERS says."""
    doc = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = doc.split("## Layers", 1)[1].split("\n## ", 1)[0]
    rows = [r for r in section.splitlines() if re.match(r"\|\s*\d+\s*\|", r)]
    table = []
    for r in rows:
        cells = [c.strip() for c in r.strip().strip("|").split("|")]
        table.append((cells[1], tuple(re.findall(r"`([\w.]+)`", cells[2]))))
    assert table == LAYERS


# --- Generic layers ask the Task record; they never name a task or a corpus -------------------------

#: The packages that own a task family or a corpus, and so may name them: the tasks themselves, the
#: corpora and their loaders, the prompt catalogs, the two families' domain packages and their
#: applications, and the command line (whose defaults and help name the released corpora).  Every
#: other package is generic: it knows tasks only through ``causalgraph.tasks`` (the registry and the
#: Task record) and corpora only through ``causalgraph.datasets``.
FAMILY_PACKAGES = ("tasks", "datasets", "prompts", "extraction", "annotation", "apps", "cli")

#: (module, literal found) that may stay, each for a reason that is not recognising a task:
NAME_ALLOWLIST = {
    # The error for a folder that is not a run names the CLI commands that write run folders
    # (``causalgraph annotate``), not the task of a record.
    ("causalgraph.runlog.store", "annotate"),
    # The corpus report compares a corpus with the ClimateCause paper's own figures (§5.2) when the
    # corpus is the released spreadsheet, recognised by its sha256 (datasets.fetch.DATASETS): a
    # statement about the paper, not about a task.
    ("causalgraph.viewer.report", "climatecause"),
    # "sources" is the provenance field of a merged edge (the statements it came from), a word the
    # structure task of source events happens to share.
    ("causalgraph.graph.merged", "sources"),
    # The facade's docstring-free export table names the annotator's function, not a task.
    ("causalgraph", "annotate"),
    # The Hugging Face dataset card that export-dataset writes is prose for readers: it says which corpus
    # a statement id comes from, whose prompts the `authors` catalog holds, and heads its credits
    # "Sources and licences".  Which corpus a configuration came from is read from the items, and the
    # credits from datasets/cards.py.
    ("causalgraph.interop.export", "climatecause"),
    ("causalgraph.interop.export", "pubmedcausal"),
    ("causalgraph.interop.export", "sources"),
}


def _generic_modules() -> dict[str, Path]:
    return {m: p for m, (p, _) in _modules().items()
            if _package(m) not in FAMILY_PACKAGES and m != "causalgraph.conftest"}


def _task_names() -> list[str]:
    from causalgraph.datasets import DATASET_NAMES
    from causalgraph.tasks import builtin_tasks

    # CauseNet is read by --data causenet:PATH rather than by name, so it is not among DATASET_NAMES.
    return sorted(set(builtin_tasks()) | (set(DATASET_NAMES) - {"sample"}) | {"causenet"})


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


def _exported_but_not_defined(path: Path) -> list[str]:
    """The names of a module's ``__all__`` that it neither defines nor serves from a module ``__getattr__``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    exported: list[str] = []
    defined: set[str] = set()

    def targets(t):
        if isinstance(t, ast.Name):
            yield t.id
        elif isinstance(t, (ast.Tuple, ast.List)):
            for e in t.elts:
                yield from targets(e)

    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.add(node.name)
            if node.name == "__getattr__" and node in tree.body:  # lazily served names
                defined |= {c.value for c in ast.walk(node) if isinstance(c, ast.Constant) and isinstance(c.value, str)}
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                defined |= set(targets(t))
                if isinstance(t, ast.Name) and t.id == "__all__":
                    exported = list(ast.literal_eval(node.value))
        elif isinstance(node, ast.AnnAssign):
            defined |= set(targets(node.target))
    return [n for n in exported if n not in defined]


def test_no_module_but_a_packages_init_lists_a_name_it_imports_in_its_all():
    found = {}
    for path in sorted(ROOT.rglob("*.py")):
        if path.name == "__init__.py" or path == ROOT / "extend.py":
            continue  # a package's facade, and the extension authors' one (issue 36 asks for it)
        missing = _exported_but_not_defined(path)
        if missing:
            found[path.relative_to(ROOT).as_posix()] = missing
    # The runner's 16 re-exports (RunConfig, make_record …) and the 14 other modules' (binary_scores, prf, pair_key,
    # the stats/agreement.py shim of fleiss_kappa …) come from their homes: no module lists a name it imports.
    assert found == {}
