"""Corpus loaders and dataset resolution.

``load_corpus(data)`` is what every ``--data NAME|PATH`` option calls: a
dataset name (``climatecause``, ``pubmedcausal``, ``pubmedcausal:train``), a
file, or a folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from ..errors import ConfigError, DataNotFound, SchemaError
from ..model import Corpus
from .causenet import causenet_path, load_causenet
from .climatecause import load_climatecause
from .detect import detect_file, detect_folder
from .fetch import DATASETS, cache_dir, data_dir, download, resolve_file, sha256_file
from .graphfiles import load_graph_files
from .pubmedcausal import load_pubmedcausal
from .relations import example_relations_path, load_relations

__all__ = [
    "load_climatecause",
    "load_pubmedcausal",
    "load_causenet",
    "causenet_path",
    "load_relations",
    "load_graph_files",
    "example_relations_path",
    "detect_file",
    "detect_folder",
    "load_corpus",
    "resolve_file",
    "download",
    "cache_dir",
    "data_dir",
    "sha256_file",
    "DATASETS",
    "DATASET_NAMES",
    "sample_path",
]

DATASET_NAMES = ("climatecause", "pubmedcausal", "sample")


def sample_path() -> Path:
    """The tiny ClimateCause-format corpus shipped with the package.

    Four statements written by the causalgraph authors (not IPCC text) that
    exercise a negative chain, a common-cause structure with a negative
    relation type, nesting and a non-causal statement.  It needs no data
    folder and no download, so examples and quick checks run anywhere.

    Examples
    --------
    >>> len(load_corpus("sample"))
    4
    """
    return Path(__file__).with_name("sample") / "sample_climatecause.csv"


def load_corpus(data: Optional[str | Path] = None, *, split: Optional[str] = None) -> Corpus:
    """Load a corpus from a dataset name, a file or a folder.

    Parameters
    ----------
    data
        ``None`` or ``"climatecause"``: ClimateCause; ``"pubmedcausal"``
        (optionally ``"pubmedcausal:train"``): PubMedCausal; a ``.xlsx`` or
        ``.csv`` file: ClimateCause; a ``.json`` file: PubMedCausal; a
        folder: the ClimateCause spreadsheet in it, else PubMedCausal's
        ``extraction_<split>.json``.  A CSV, TSV or JSON Lines file (or a
        folder's spreadsheet) whose header has a ``cause`` or ``effect``
        column and no ``Causal?`` column, and any Parquet file, is the
        relations format (:func:`load_relations`); a ``.graphml``, ``.gml``,
        ``.dot`` or node-link ``.json`` file, or a folder of them, is read by
        :func:`load_graph_files` (docs/data.md).  Another file type is a
        :class:`~causalgraph.errors.SchemaError` listing the types read
        (:data:`~causalgraph.datasets.detect.FILE_FORMATS`).
    split
        PubMedCausal split (default ``"test"``).

    Examples
    --------
    >>> load_corpus("climatecause").name  # doctest: +SKIP
    'climatecause'
    """
    if data is None:
        return load_climatecause()
    if causenet_path(data) is not None:
        raise ConfigError(f"{data}: CauseNet is one merged graph, not a corpus of statements; `causalgraph chains` "
                          "labels and counts it, and `causalgraph sample-subgraphs` writes statements from it that "
                          "--data reads")
    s = str(data)
    name, _, name_split = s.partition(":")
    if name.lower() in DATASET_NAMES and not Path(s).exists():
        if name_split and name.lower() != "pubmedcausal":
            raise DataNotFound(f"{s}: dataset {name} has no split {name_split!r}; only pubmedcausal takes "
                               "one (pubmedcausal:train or pubmedcausal:test)")
        if name.lower() == "climatecause":
            return load_climatecause()
        if name.lower() == "sample":
            # Its own id prefix, so sample ids are never mistaken for ClimateCause's.
            corpus = load_climatecause(sample_path(), id_prefix="sample")
            corpus.name = "sample"
            return corpus
        return load_pubmedcausal(split=name_split or split or "test")
    p = Path(s).expanduser()
    if not p.exists():
        raise DataNotFound(f"{s}: no such dataset, file or folder; expected one of {', '.join(DATASET_NAMES)}, "
                           "an .xlsx/.csv/.json file, a relations or graph file, or a folder holding one")
    if p.is_dir():
        # A data root laid out as <root>/<name>/… is accepted too.
        for sub in ("climatecause", "pubmedcausal"):
            if (p / sub).is_dir() and not any(p.glob("*.xlsx")) and not any(p.glob("*.json")):
                p = p / sub
                break
        kind = detect_folder(p)
        if kind == "relations":
            return load_relations((sorted(p.glob("*.csv")))[0])
        if kind == "graph":
            return load_graph_files(p)
        if any(p.glob("*.xlsx")) or any(p.glob("*.csv")):
            return load_climatecause(p)
        if any(p.glob("*.json")):
            return load_pubmedcausal(p, split=split or "test")
        raise SchemaError(f"{p}: folder holds no .xlsx, .csv or .json corpus file, nor graph files")
    kind = detect_file(p)
    if kind == "relations":
        return load_relations(p)
    if kind == "graph":
        return load_graph_files(p)
    if kind == "pubmedcausal":
        return load_pubmedcausal(p, split=split or "test")
    return load_climatecause(p)
