"""Write the graphs of a corpus to files, one per statement or merged (``causalgraph export-graphs``).

docs/graphs.md describes the formats and the choices: the files are named by statement id (characters a
file name cannot hold replaced by ``_``), statements without relations have no graph and are skipped,
``merged`` compiles every chosen statement's relations into one graph (events of the same name become
one node), and files already there are replaced only with ``overwrite``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence

from ..errors import ConfigError
from ..graph import compile_graph
from ..readwrite import get_format, graph_text
from .._core.outputs import output_dir

__all__ = ["GraphExport", "export_graphs", "file_stem"]

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


@dataclass
class GraphExport:
    """What :func:`export_graphs` wrote: the files (in statement order) and the statements skipped."""

    files: list[Path] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


def file_stem(statement_id: str) -> str:
    """A file name for a statement id: characters other than letters, digits, ``.``, ``_``, ``-`` become ``_``.

    Examples
    --------
    >>> file_stem("cc-001"), file_stem("pubmed/8084 a")
    ('cc-001', 'pubmed_8084_a')
    """
    stem = _UNSAFE.sub("_", str(statement_id)).lstrip(".")
    return stem or "_"


def export_graphs(corpus, out, fmt: str, *, statements: Optional[Sequence[str]] = None, merged: bool = False,
                  overwrite: bool = False) -> GraphExport:
    """Write the graph of each statement (or one merged graph) of ``corpus`` into the folder ``out``.

    Parameters
    ----------
    corpus
        A :class:`~causalgraph.model.Corpus`.
    out
        The folder (created when missing).
    fmt
        One of :data:`~causalgraph.readwrite.GRAPH_FORMATS`, or a format registered with
        :func:`~causalgraph.readwrite.register_format` (a plugin's).
    statements
        Statement ids to write (default: every statement with relations).
    merged
        Write one file, ``merged.<suffix>``, holding every chosen statement's relations.
    overwrite
        Replace files already there (otherwise they are an error, before anything is written).

    Examples
    --------
    >>> import tempfile
    >>> from causalgraph.datasets import load_corpus
    >>> res = export_graphs(load_corpus("sample"), tempfile.mkdtemp(), "gml")
    >>> [p.name for p in res.files], res.skipped
    (['sample-001.gml', 'sample-002.gml', 'sample-003.gml'], ['sample-004'])
    """
    suffix = get_format(fmt).suffix  # an unknown name: one line listing the formats
    if statements:
        chosen = []
        for sid in statements:
            try:
                st = corpus[sid]
            except KeyError:
                ids = [s.id for s in corpus]
                span = f"{ids[0]} … {ids[-1]}" if ids else "none"
                raise ConfigError(f"--statement {sid!r}: no such statement in corpus {corpus.name!r} "
                                  f"({len(ids)} statements, ids {span})") from None
            if not st.relations:
                raise ConfigError(f"--statement {sid!r}: the statement has no causal relations, so no graph")
            chosen.append(st)
    else:
        chosen = [s for s in corpus if s.relations]
    result = GraphExport(skipped=[] if statements else [s.id for s in corpus if not s.relations])
    if not chosen:
        raise ConfigError(f"corpus {corpus.name!r} has no statement with causal relations: no graph to write")
    if merged:
        relations = [r for s in chosen for r in s.relations]
        jobs = [("merged", compile_graph(relations))]
    else:
        jobs = [(file_stem(s.id), compile_graph(s)) for s in chosen]
        stems: dict[str, str] = {}
        for (stem, _), st in zip(jobs, chosen):
            if stem in stems:
                raise ConfigError(f"statements {stems[stem]!r} and {st.id!r} would both be written to "
                                  f"{stem}{suffix}; expected ids that differ in letters, digits, '.', '_' or '-'")
            stems[stem] = st.id
    # Every text first: a graph a DAG format refuses (or a format with no writer) stops the export before
    # any file is written.
    texts = [(stem, graph_text(g, fmt)) for stem, g in jobs]
    folder = output_dir(out, "graph folder")
    targets = [folder / f"{stem}{suffix}" for stem, _ in texts]
    there = [t for t in targets if t.exists()]
    if there and not overwrite:
        raise ConfigError(f"{there[0]} exists ({len(there)} of the {len(targets)} files to write do); pass "
                          "--overwrite to replace them, or choose another folder")
    for target, (_, text) in zip(targets, texts):
        target.write_text(text, encoding="utf-8")
        result.files.append(target)
    return result
