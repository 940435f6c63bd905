"""The names README.md and docs/ give for causalgraph's modules, functions and classes exist (issue 36, item 6).

Every backticked dotted name that starts with ``causalgraph.``, or with a causalgraph subpackage and is called
(`` `stats.power.power_table(design)` ``), is resolved: the longest importable module prefix, then attributes.
So a module moved or a function renamed without its docs fails here. Not checked: file names (``graph.py``,
``metrics.json``), prose about objects (`` `graph.edges` ``), the "Moved by the layering" table of
docs/architecture.md (old names on purpose), and the names below, which are not causalgraph's.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import causalgraph
from causalgraph._core.registry import ENTRY_POINT_GROUPS

REPO = Path(causalgraph.__file__).resolve().parent.parent
SUBPACKAGES = {m.name for m in pkgutil.iter_modules(causalgraph.__path__) if m.ispkg}
FILE_SUFFIXES = {"py", "json", "jsonl", "md", "csv", "html", "txt", "toml", "yaml", "yml", "parquet", "sqlite", "bz2",
                 "gz", "xlsx"}
#: Dotted names in the docs that are not causalgraph objects, and what they are.
NOT_OURS = {"datasets.load_dataset": "Hugging Face's datasets library, which shares a name with causalgraph.datasets",
            "graph.edges": "networkx's DiGraph.edges() in the authors' code (causalgraph.graph is a package now)",
            **{group: "an entry-point group" for group in ENTRY_POINT_GROUPS.values()}}
NAME = re.compile(r"`((?:causalgraph\.)?[a-z_][a-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+)([(`\[])")


def _doc_names():
    """``(file, line, name)`` of every name the docs give that this test checks."""
    for path in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]:
        moved = False
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if line.startswith("## "):
                moved = line.startswith("## Moved by")
            if moved:
                continue
            for m in NAME.finditer(line):
                name, after = m.groups()
                parts = name.split(".")
                if parts[-1] in FILE_SUFFIXES or name in NOT_OURS:
                    continue
                if parts[0] != "causalgraph" and (parts[0] not in SUBPACKAGES or after != "("):
                    continue
                yield path.relative_to(REPO).as_posix(), number, name


def _resolves(name: str) -> bool:
    parts = name.split(".")
    if parts[0] != "causalgraph":
        parts = ["causalgraph", *parts]
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ModuleNotFoundError as exc:
            if exc.name and not exc.name.startswith("causalgraph"):
                return True  # a module of an optional extra that is not installed here: not a stale name
            continue
        try:
            for attr in parts[i:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return False
        return True
    return False


def test_every_causalgraph_name_the_docs_give_exists():
    names = list(_doc_names())
    assert len(names) > 80  # the docs name about 100; a pattern gone wrong would check none
    missing = [f"{f}:{line}: {name}" for f, line, name in names if not _resolves(name)]
    assert missing == []


def test_a_stale_name_is_caught_and_prose_about_objects_is_not():
    assert not _resolves("causalgraph.stats.agreement.fleiss_kappa")  # the shim deleted this session
    assert not _resolves("stats.power.no_such_function")
    assert _resolves("stats.power.power_table") and _resolves("causalgraph.scoring.agreement.fleiss_kappa")
    line = "`graph.edges` and `graph.py` and `stats.power.power_table(design)` and `causalgraph.nope.x`"
    found = [(m.group(1), m.group(2)) for m in NAME.finditer(line)]
    assert found == [("graph.edges", "`"), ("graph.py", "`"), ("stats.power.power_table", "("),
                     ("causalgraph.nope.x", "`")]
