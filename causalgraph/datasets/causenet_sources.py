"""Every source of a CauseNet edge, read on demand from the compressed file through a seek index.

Loading CauseNet keeps counts per edge, not its sentences (a full CauseNet's
provenance is tens of GB).  This module keeps *where* they are instead:
:func:`build_index` reads the file once and records, for every merged edge
(cause, effect — concepts with ``_`` read as spaces, as the loader merges
them), the place of each of its lines — the compressed byte offset of the
stream the line starts in and the line's byte offset inside that stream's
decompressed bytes — and :func:`edge_sources` decompresses only those
streams to return the sources.

Streams
    A multi-stream bz2 file (``pbzip2``'s; the stand-in of
    :mod:`~causalgraph.datasets.causenet_standin`) and a
    multi-member gzip file are sequences of independent streams that start
    on a byte boundary: the standard library's decompressors find where each
    ends (``unused_data``), so the index needs no other dependency.  A plain
    file is cut into 1 MiB pieces.  A single-stream bz2 or gzip file has one
    seek point, at its start: every query decompresses it from there (correct,
    slow; recompress it with ``pbzip2`` or ``bgzip``, or see docs/data.md on
    what a block-level decompressor would add).  A line may start in one
    stream and end in the next; it is then read across both.  CauseNet's own
    build (``02-graph-construction`` of causenet-org/CIKM-20) writes
    CauseNet-Full with Python's ``bz2.open``, one stream: unless the download
    was recompressed, it is such a file (``causenet index`` prints its streams).

The index lives in the causalgraph cache (``$CAUSALGRAPH_CACHE/causenet-index/``),
one folder per file content, named by its size and sha256; a small locator
per path remembers the size, modification time and checksum seen, so that a
query of an unchanged file computes no checksum.  A file whose size or time
changed is checksummed again: the same content reuses its index, other
content is indexed again (or, with ``reindex=False``, refused with
:class:`StaleIndex`).  Each stream's CRC-32 is kept too, and checked on every
read: a file changed in place under the same size and time is caught there.
"""

from __future__ import annotations

import bisect
import bz2
import hashlib
import json
import os
import re
import shutil
import zlib
from array import array
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import numpy as np

from ..errors import SchemaError
from ..graph.merged import MergedGraph
from ._streams import StreamReader, file_kind, streams
from .causenet import causenet_file, concept_name, load_causenet
from .fetch import cache_dir, sha256_file

__all__ = ["EdgeSource", "ProvenanceIndex", "StaleIndex", "build_index", "open_index", "edge_sources",
           "stream_offsets", "attach_sources", "index_cached", "load_causenet_indexed", "INDEX_VERSION", "SOURCE_COLUMNS"]

INDEX_VERSION = 1
# Decompressed streams an index keeps between queries (900 kB of text each for the release).
_RECENT_STREAMS = 16
# Streams a query decompresses at once (on every core); at most half the streams kept, so that the
# streams a line runs on into never push out the ones just decompressed.
_PREFETCH = 8
#: Columns of ``causalgraph causenet sources``.
SOURCE_COLUMNS = ("cause", "effect", "line", "stream", "stream_offset", "type", "sentence", "reference",
                  "page_id", "timestamp", "path_pattern")
# The release writes the relation first; a line of this form is read without a JSON parse (the rest of
# the line, its sources, is not needed to index it).  Anything else is parsed.
_HEAD = re.compile(rb'\A\s*\{\s*"causal_relation"\s*:\s*\{\s*"cause"\s*:\s*\{\s*"concept"\s*:\s*"([^"\\]*)"\s*\}'
                   rb'\s*,\s*"effect"\s*:\s*\{\s*"concept"\s*:\s*"([^"\\]*)"\s*\}\s*\}')


class StaleIndex(SchemaError):
    """The file changed since it was indexed (and re-indexing was not allowed)."""


@dataclass(frozen=True)
class EdgeSource:
    """One source of one relation line: where it is in the file and what it says."""

    cause: str
    effect: str
    line: int              #: 1-based line of the relation in the decompressed file
    stream: int            #: 0-based stream (bz2 stream, gzip member, 1 MiB piece of a plain file)
    stream_offset: int     #: compressed byte offset of that stream in the file
    type: str
    sentence: Optional[str]
    reference: Optional[str]   #: ClueWeb12 page URL or Wikipedia page title
    page_id: Optional[str]
    timestamp: Optional[str]
    path_pattern: Optional[str]
    payload: dict = field(default_factory=dict, compare=False, repr=False)

    def row(self) -> dict:
        """The record as a table row (:data:`SOURCE_COLUMNS`)."""
        return {c: getattr(self, c) for c in SOURCE_COLUMNS}


def stream_offsets(path) -> list[int]:
    """The compressed byte offset of every stream of ``path`` (bz2 streams, gzip members, 1 MiB plain pieces).

    Examples
    --------
    >>> import tempfile, os, bz2
    >>> f = tempfile.NamedTemporaryFile(suffix=".bz2", delete=False)
    >>> a = bz2.compress(b"x\\n"); _ = f.write(a + bz2.compress(b"y\\n")); f.close()
    >>> stream_offsets(f.name) == [0, len(a)]
    True
    >>> os.unlink(f.name)
    """
    p = Path(path)
    out = []
    for start, _, pieces in streams(p, file_kind(p)):
        out.append(start)
        for _ in pieces:
            pass
    return out


# -- building the index -----------------------------------------------------------------------------

def _edge_of(raw: bytes, path: Path, line: int) -> Optional[tuple[str, str]]:
    """(cause, effect) of a line, as the loader names them; ``None`` for a blank line."""
    m = _HEAD.match(raw)
    if m:
        try:
            cause, effect = m.group(1).decode("utf-8"), m.group(2).decode("utf-8")
        except UnicodeDecodeError:
            cause = effect = ""
        if cause.strip() and effect.strip():  # a blank concept goes on to the parse, which refuses it
            return concept_name(cause), concept_name(effect)
    if not raw.strip():
        return None
    try:
        obj = json.loads(raw)
        cause, effect = obj["causal_relation"]["cause"]["concept"], obj["causal_relation"]["effect"]["concept"]
    except (ValueError, UnicodeDecodeError, KeyError, TypeError):
        raise SchemaError(f"{path}, line {line}: not a CauseNet relation (expected one JSON object with "
                          '"causal_relation": {"cause": {"concept": …}, "effect": {"concept": …}})') from None
    if not isinstance(cause, str) or not isinstance(effect, str) or not cause.strip() or not effect.strip():
        raise SchemaError(f"{path}, line {line}: field causal_relation: found a concept that is not a "
                          "non-empty string")
    return concept_name(cause), concept_name(effect)


class _Builder:
    def __init__(self, path: Path):
        self.path = path
        self.names: dict[str, int] = {}
        self.src, self.dst = array("q"), array("q")
        self.l_stream, self.l_pos, self.l_line = array("q"), array("q"), array("q")
        self.offsets, self.crcs = array("q"), array("L")
        self.lines = 0

    def line(self, raw: bytes, stream: int, pos: int) -> None:
        self.lines += 1
        e = _edge_of(raw, self.path, self.lines)
        if e is None:
            return
        for name, out in zip(e, (self.src, self.dst)):
            i = self.names.get(name)
            if i is None:
                i = self.names[name] = len(self.names)
            out.append(i)
        self.l_stream.append(stream)
        self.l_pos.append(pos)
        self.l_line.append(self.lines)

    def run(self) -> None:
        kind = file_kind(self.path)
        partial = b""
        p_stream = p_pos = 0  # where the pending partial line starts
        crc_file = open(self.path, "rb")
        try:
            for start, k, pieces in streams(self.path, kind):
                self.offsets.append(start)
                at = 0
                for data in pieces:
                    cut = 0
                    while True:
                        nl = data.find(b"\n", cut)
                        if nl < 0:
                            break
                        if partial:
                            self.line(partial + data[cut:nl], p_stream, p_pos)
                            partial = b""
                        else:
                            self.line(data[cut:nl], k, at + cut)
                        cut = nl + 1
                    if cut < len(data):
                        if not partial:
                            p_stream, p_pos = k, at + cut
                        partial += data[cut:]
                    at += len(data)
            if partial:
                self.line(partial, p_stream, p_pos)
            self.offsets.append(self.path.stat().st_size)
            for a, b in zip(self.offsets[:-1], self.offsets[1:]):
                crc_file.seek(a)
                self.crcs.append(zlib.crc32(crc_file.read(b - a)))
        finally:
            crc_file.close()


class _Recorder(StreamReader):
    """The decompressed bytes of a file, read stream by stream as :func:`build_index` reads them, noting each
    stream's compressed offset, where its bytes start in the decompressed whole, and every newline: the
    loader reads through it (``load_causenet(..., index=True)``) and the index comes out of the same pass."""

    def __init__(self, path: Path):
        super().__init__(path)
        self.offsets, self.dstart = array("q"), array("q")
        self.newlines: list[np.ndarray] = []
        self.total = 0

    def _stream_started(self, start: int) -> None:
        self.offsets.append(start)
        self.dstart.append(self.total)

    def _piece(self, data: bytes) -> None:
        nl = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == 10)
        if len(nl):
            self.newlines.append(nl + self.total)
        self.total += len(data)


def _index_from_load(rec: _Recorder, st: os.stat_result, sha: str, src, dst, names_by_id: list
                     ) -> Optional["ProvenanceIndex"]:
    """The index of a file the loader read through ``rec``, its relations ``src``/``dst`` (ids into
    ``names_by_id``) in line order; ``None`` (nothing written) unless every non-empty line was one relation
    (a skipped or whitespace-only line would shift lines against relations)."""
    nl = np.concatenate(rec.newlines) if rec.newlines else np.zeros(0, np.int64)
    starts = np.concatenate((np.zeros(1, np.int64), nl + 1))
    starts = starts[starts < rec.total]
    ends = np.append(nl, rec.total)[:len(starts)]
    line_no = np.flatnonzero(ends > starts) + 1
    if len(line_no) != len(src) or len(src) != len(dst):
        return None
    at = starts[line_no - 1]
    dstart = np.asarray(rec.dstart, dtype=np.int64)
    stream = np.searchsorted(dstart, at, side="right") - 1
    pos = at - dstart[stream]
    offsets = array("q", rec.offsets)
    offsets.append(st.st_size)
    crcs = array("L")
    with open(rec.path, "rb") as f:
        for a, b in zip(offsets[:-1], offsets[1:]):
            f.seek(a)
            crcs.append(zlib.crc32(f.read(b - a)))
    return _write_index(rec.path, st, sha, rec.kind, names_by_id, src, dst, stream, pos, line_no, offsets, crcs,
                        len(starts))


def load_causenet_indexed(path, **options) -> MergedGraph:
    """:func:`~causalgraph.datasets.causenet.load_causenet`, recording the file's seek index in the same pass.

    The file is read through this module's stream reader, which notes each
    stream's compressed offset and every newline as the decompressed bytes go
    by to the parser; the index written is the one :func:`build_index` writes
    (same arrays, same cache key), so :func:`open_index` then finds it
    ``"cached"``.  ``graph.report["index"]`` says ``"written"``, or ``"not
    written"`` when a line was skipped (``strict=False``) or is blank but for
    spaces (its first query then indexes the file).  ``options`` are
    ``load_causenet``'s.

    Examples
    --------
    >>> import tempfile, os; from unittest import mock
    >>> env = mock.patch.dict(os.environ, CAUSALGRAPH_CACHE=tempfile.mkdtemp()); _ = env.start()
    >>> f = tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False)
    >>> _ = f.write('{"causal_relation": {"cause": {"concept": "rain"}, "effect": {"concept": "flood"}}}\\n'); f.close()
    >>> load_causenet_indexed(f.name).report["index"], open_index(f.name)[1]
    ('written', 'cached')
    >>> os.unlink(f.name)
    >>> _ = env.stop()   # the caller's cache again
    """
    p = causenet_file(path)
    st = p.stat()  # the key the index is stored under: the file as it was when the load began
    sha = sha256_file(p)
    capture: dict = {"recorder_for": _Recorder}
    g = load_causenet(p, **options, _capture=capture)
    src, dst, names = capture["relations"]
    written = _index_from_load(capture["recorder"], st, sha, src, dst, names)
    g.report["index"] = "written" if written is not None else "not written"
    return g


def _folder(size: int, sha: str) -> Path:
    return cache_dir() / "causenet-index" / f"{size}-{sha[:32]}"


def _locator(path: Path) -> Path:
    key = hashlib.sha256(str(path.resolve()).encode("utf-8")).hexdigest()[:32]
    return cache_dir() / "causenet-index" / "paths" / f"{key}.json"


def build_index(path) -> "ProvenanceIndex":
    """Read ``path`` once and write its seek index to the cache; the index, opened.

    Examples
    --------
    >>> import tempfile, os; from unittest import mock
    >>> env = mock.patch.dict(os.environ, CAUSALGRAPH_CACHE=tempfile.mkdtemp()); _ = env.start()
    >>> f = tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False)
    >>> _ = f.write('{"causal_relation": {"cause": {"concept": "rain"}, "effect": {"concept": "flood"}}}\\n'); f.close()
    >>> idx = build_index(f.name)
    >>> idx.n_edges, idx.n_lines, idx.kind
    (1, 1, 'plain')
    >>> os.unlink(f.name)
    >>> _ = env.stop()   # the caller's cache again
    """
    p = causenet_file(path)
    st = p.stat()
    sha = sha256_file(p)
    b = _Builder(p)
    b.run()
    return _write_index(p, st, sha, file_kind(p), list(b.names), b.src, b.dst, b.l_stream, b.l_pos, b.l_line,
                        b.offsets, b.crcs, b.lines)


def _write_index(p: Path, st: os.stat_result, sha: str, kind: str, names_by_id: list, src, dst, l_stream, l_pos,
                 l_line, offsets, crcs, n_lines: int) -> "ProvenanceIndex":
    """Write the index of one file's relations to the cache: ``src``/``dst`` are ids into ``names_by_id``, one
    pair a relation line, with that line's stream, offset in the stream and 1-based line number."""
    names = sorted(names_by_id, key=lambda s: s.encode("utf-8"))
    id_of = {name: i for i, name in enumerate(names_by_id)}
    rank = np.empty(len(names), dtype=np.int64)
    order = np.array([id_of[s] for s in names], dtype=np.int64)
    rank[order] = np.arange(len(names), dtype=np.int64)
    n = max(1, len(names))
    src = rank[np.asarray(src, dtype=np.int64)] if len(src) else np.zeros(0, np.int64)
    dst = rank[np.asarray(dst, dtype=np.int64)] if len(dst) else np.zeros(0, np.int64)
    key = src * n + dst
    lines = np.asarray(l_line, dtype=np.int64) if len(l_line) else np.zeros(0, np.int64)
    o = np.lexsort((lines, key))  # by edge, then by line
    key_sorted = key[o]
    edge_key, first = np.unique(key_sorted, return_index=True)
    ptr = np.append(first, len(key_sorted)).astype(np.int64)
    blob = "".join(names).encode("utf-8")
    name_off = np.zeros(len(names) + 1, dtype=np.int64)
    np.cumsum([len(s.encode("utf-8")) for s in names], out=name_off[1:])
    folder = _folder(st.st_size, sha)
    tmp = folder.with_name(folder.name + f".tmp{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    arrays = {"stream_offsets": np.asarray(offsets, dtype=np.int64),
              "stream_crc": np.array(crcs, dtype=np.uint32),
              "name_offsets": name_off, "edge_key": edge_key.astype(np.int64), "edge_ptr": ptr,
              "entry_stream": np.asarray(l_stream, dtype=np.int64)[o].astype(np.int32),
              "entry_pos": np.asarray(l_pos, dtype=np.int64)[o], "entry_line": lines[o]}
    for name, arr in arrays.items():
        np.save(tmp / f"{name}.npy", arr)
    (tmp / "names.bin").write_bytes(blob)
    meta = {"version": INDEX_VERSION, "file": str(p), "size": st.st_size, "sha256": sha, "kind": kind,
            "lines": n_lines, "relations": int(len(lines)), "concepts": len(names), "edges": int(len(edge_key)),
            "streams": len(offsets) - 1}
    (tmp / "meta.json").write_text(json.dumps(meta, indent=1))
    shutil.rmtree(folder, ignore_errors=True)
    tmp.replace(folder)
    _write_locator(p, st, sha)
    return ProvenanceIndex(p, folder)


def _write_locator(p: Path, st: os.stat_result, sha: str) -> None:
    loc = _locator(p)
    loc.parent.mkdir(parents=True, exist_ok=True)
    loc.write_text(json.dumps({"file": str(p.resolve()), "size": st.st_size, "mtime_ns": st.st_mtime_ns,
                               "sha256": sha}))


def open_index(path, *, reindex: bool = True) -> tuple["ProvenanceIndex", str]:
    """The seek index of ``path`` and how it was found: ``"cached"``, ``"built"`` or ``"rebuilt"``.

    ``"rebuilt"``: the file's content changed since it was indexed (another
    checksum); with ``reindex=False`` that is a :class:`StaleIndex` error
    instead.  A file never indexed is indexed (``"built"``) either way.

    Examples
    --------
    >>> import tempfile, os; from unittest import mock
    >>> env = mock.patch.dict(os.environ, CAUSALGRAPH_CACHE=tempfile.mkdtemp()); _ = env.start()
    >>> f = tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False)
    >>> _ = f.write('{"causal_relation": {"cause": {"concept": "rain"}, "effect": {"concept": "flood"}}}\\n'); f.close()
    >>> [open_index(f.name)[1] for _ in range(2)]
    ['built', 'cached']
    >>> os.unlink(f.name)
    >>> _ = env.stop()   # the caller's cache again
    """
    p = causenet_file(path)
    st = p.stat()
    seen = _seen(_locator(p))
    if seen and seen["size"] == st.st_size and seen["mtime_ns"] == st.st_mtime_ns:
        idx = _opened(p, _folder(st.st_size, seen["sha256"]))
        if idx is not None:
            return idx, "cached"
    sha = sha256_file(p)
    idx = _opened(p, _folder(st.st_size, sha))
    if idx is not None:
        _write_locator(p, st, sha)
        return idx, "cached"
    changed = bool(seen) and seen["sha256"] != sha
    if changed and not reindex:
        raise StaleIndex(f"{p}: the file changed since it was indexed (size {seen.get('size'):,} → {st.st_size:,} "
                         "bytes, another checksum); index it again (causalgraph causenet index --data causenet:PATH)")
    return build_index(p), "rebuilt" if changed else "built"


def index_cached(path) -> bool:
    """Whether ``path``'s seek index is in the cache for the file as it is now (its size and time as last
    seen; no checksum is computed): a loader that will ask for sources records the index only when not.

    Examples
    --------
    >>> import tempfile, os; from unittest import mock
    >>> env = mock.patch.dict(os.environ, CAUSALGRAPH_CACHE=tempfile.mkdtemp()); _ = env.start()
    >>> f = tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False)
    >>> _ = f.write('{"causal_relation": {"cause": {"concept": "rain"}, "effect": {"concept": "flood"}}}\\n'); f.close()
    >>> before = index_cached(f.name); _ = build_index(f.name)
    >>> before, index_cached(f.name)
    (False, True)
    >>> os.unlink(f.name)
    >>> _ = env.stop()   # the caller's cache again
    """
    p = causenet_file(path)
    st = p.stat()
    seen = _seen(_locator(p))
    return bool(seen) and seen["size"] == st.st_size and seen["mtime_ns"] == st.st_mtime_ns and \
        _opened(p, _folder(st.st_size, seen["sha256"])) is not None


def _seen(loc: Path) -> Optional[dict]:
    """The locator's record (size, time and checksum last seen), or ``None`` when it is missing or damaged."""
    try:
        seen = json.loads(loc.read_text())
    except (OSError, ValueError):
        return None
    ok = (isinstance(seen, dict) and all(isinstance(seen.get(k), int) for k in ("size", "mtime_ns"))
          and isinstance(seen.get("sha256"), str) and re.fullmatch(r"[0-9a-f]{64}", seen["sha256"]))
    return seen if ok else None


def _opened(p: Path, folder: Path) -> Optional["ProvenanceIndex"]:
    """The index in ``folder``, or ``None`` when it is missing, of another version or damaged: the cache is
    ours, so a damaged entry is built again rather than reported."""
    try:
        meta = json.loads((folder / "meta.json").read_text())
        if not isinstance(meta, dict) or meta.get("version") != INDEX_VERSION or \
                not all(isinstance(meta.get(k), int) for k in ("lines", "relations", "concepts", "edges", "streams")) \
                or meta.get("kind") not in ("bz2", "gzip", "plain"):
            return None
        return ProvenanceIndex(p, folder)
    except (OSError, ValueError):
        return None


# -- reading ----------------------------------------------------------------------------------------

class _Names:
    """The index's sorted concept names (UTF-8 byte order), read from a memory-mapped blob."""

    def __init__(self, blob: np.ndarray, offsets: np.ndarray):
        self.blob, self.offsets = blob, offsets

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def __getitem__(self, i: int) -> bytes:
        return self.blob[int(self.offsets[i]):int(self.offsets[i + 1])].tobytes()


class ProvenanceIndex:
    """A CauseNet file's seek index (read-only, memory-mapped): edges → the places of their lines."""

    def __init__(self, path: Path, folder: Path):
        self.path, self.folder = Path(path), Path(folder)
        self.meta = json.loads((folder / "meta.json").read_text())
        load = lambda name: np.load(folder / f"{name}.npy", mmap_mode="r")  # noqa: E731
        self.stream_offsets = load("stream_offsets")
        self.stream_crc = load("stream_crc")
        self.edge_key, self.edge_ptr = load("edge_key"), load("edge_ptr")
        self.entry_stream, self.entry_pos, self.entry_line = load("entry_stream"), load("entry_pos"), load("entry_line")
        blob = np.memmap(folder / "names.bin", dtype=np.uint8, mode="r") if (folder / "names.bin").stat().st_size \
            else np.zeros(0, np.uint8)
        self.names = _Names(blob, load("name_offsets"))
        self.kind = self.meta["kind"]
        # streams decompressed lately (a subgraph's edges often share streams); emptied whenever the
        # file's size or time changes, so that a changed file is read, and its CRCs checked, again
        self._recent: OrderedDict[int, bytes] = OrderedDict()
        self._seen: Optional[tuple[int, int]] = None

    @property
    def n_edges(self) -> int:
        return int(self.meta["edges"])

    @property
    def n_lines(self) -> int:
        return int(self.meta["relations"])

    @property
    def n_streams(self) -> int:
        return int(self.meta["streams"])

    def _find(self, concept: str) -> Optional[tuple[int, str]]:
        """(rank, name) of ``concept``: as written first (the loader keeps a concept's edge spaces and
        underscores, and sample-subgraphs asks for its names), else without the spaces around it."""
        for name in dict.fromkeys((concept_name(concept), concept_name(concept.strip()))):
            try:
                want = name.encode("utf-8")
            except UnicodeEncodeError:
                # a lone surrogate (bytes that are not UTF-8 on the command line): no concept of a UTF-8 file
                return None
            i = bisect.bisect_left(self.names, want)
            if i < len(self.names) and self.names[i] == want:
                return i, name
        return None

    def places(self, cause: str, effect: str) -> list[tuple[int, int, int]]:
        """(line, stream, offset in the decompressed stream) of every line of the edge, in file order;
        a :class:`SchemaError` naming the edge when the file has no such relation."""
        return self._places(cause, effect)[0]

    def _places(self, cause: str, effect: str) -> tuple[list[tuple[int, int, int]], tuple[str, str]]:
        """:meth:`places` and the (cause, effect) names found in the index."""
        fa, fb = self._find(cause), self._find(effect)
        if fa is None or fb is None:
            missing = cause if fa is None else effect
            raise SchemaError(f"{self.path}: no concept {missing!r} among its {len(self.names):,} concepts")
        (a, name_a), (b, name_b) = fa, fb
        k = a * max(1, len(self.names)) + b
        j = int(np.searchsorted(self.edge_key, k))
        if j >= len(self.edge_key) or int(self.edge_key[j]) != k:
            raise SchemaError(f"{self.path}: no relation {cause!r} → {effect!r} among its {self.n_edges:,} edges "
                              "(both concepts exist)")
        lo, hi = int(self.edge_ptr[j]), int(self.edge_ptr[j + 1])
        return ([(int(self.entry_line[i]), int(self.entry_stream[i]), int(self.entry_pos[i])) for i in range(lo, hi)],
                (name_a, name_b))

    def _raw(self, f, s: int) -> bytes:
        """Stream ``s``'s compressed bytes, checked against the CRC-32 recorded when it was indexed."""
        a, b = int(self.stream_offsets[s]), int(self.stream_offsets[s + 1])
        f.seek(a)
        raw = f.read(b - a)
        if len(raw) != b - a or zlib.crc32(raw) != int(self.stream_crc[s]):
            raise SchemaError(f"{self.path}: stream {s} at byte {a:,} is not what was indexed; the file changed "
                              "since it was indexed (index it again: causalgraph causenet index --data causenet:PATH)")
        return raw

    def _decompress(self, s: int, raw: bytes) -> bytes:
        """Stream ``s``'s text (thread-safe: it touches no state; bz2 and zlib release the GIL)."""
        if self.kind == "plain":
            return raw
        try:
            if self.kind == "gzip":
                return zlib.decompress(raw, wbits=31)
            # One stream: the last one's bytes run to the end of the file, padding included (build_index let
            # it pass); bz2.decompress would read a short padding as a stream cut before its end marker.
            d = bz2.BZ2Decompressor()
            out = d.decompress(raw)
            if not d.eof:
                raise EOFError("compressed data ended before the end-of-stream marker was reached")
            return out
        except (OSError, EOFError, ValueError, zlib.error) as exc:
            a = int(self.stream_offsets[s])
            raise SchemaError(f"{self.path}: stream {s} at byte {a:,} cannot be decompressed ({exc}); "
                              "the file is damaged") from None

    def _keep(self, s: int, data: bytes) -> None:
        cache = self._recent
        cache[s] = data
        cache.move_to_end(s)
        while len(cache) > _RECENT_STREAMS:
            cache.popitem(last=False)

    def _stream(self, f, s: int) -> bytes:
        """Stream ``s``'s text, from the recent streams or decompressed now."""
        if s in self._recent:
            self._recent.move_to_end(s)
        else:
            self._keep(s, self._decompress(s, self._raw(f, s)))
        return self._recent[s]

    def _prefetch(self, f, group: list[int]) -> None:
        """Decompress the streams of ``group`` not kept yet, on every core at once: a query's time is that of
        its streams' decompression, and an edge read in several streams would otherwise pay them one by one."""
        need = [s for s in group if s not in self._recent]
        raws = [(s, self._raw(f, s)) for s in need]  # the reads and CRC checks in order, on this thread
        workers = min(len(raws), os.cpu_count() or 1)
        if self.kind == "plain" or workers < 2:
            texts = [self._decompress(s, raw) for s, raw in raws]
        else:
            with ThreadPoolExecutor(max_workers=workers) as pool:
                texts = list(pool.map(lambda sr: self._decompress(*sr), raws))
        for (s, _), data in zip(raws, texts):
            self._keep(s, data)
        for s in group:
            self._recent.move_to_end(s)

    def sources(self, cause: str, effect: str) -> list[EdgeSource]:
        """Every source of every line of the edge ``cause → effect``, in file order.

        Only the streams holding those lines are read and decompressed, several
        at a time (one thread per core) when the lines lie in more than one.
        """
        return self.sources_many([(cause, effect)])[(cause, effect)]

    def sources_many(self, edges) -> dict[tuple[str, str], list[EdgeSource]]:
        """:meth:`sources` of each ``(cause, effect)`` of ``edges``, keyed as given.

        The streams of all the edges' lines are read in file order, each
        decompressed once, up to 8 at a time on every core; an edge the file
        does not have is a :class:`SchemaError` before any stream is read.

        Examples
        --------
        >>> import tempfile, os, bz2; from unittest import mock
        >>> env = mock.patch.dict(os.environ, CAUSALGRAPH_CACHE=tempfile.mkdtemp()); _ = env.start()
        >>> rel = ('{{"causal_relation": {{"cause": {{"concept": "{}"}}, "effect": {{"concept": "{}"}}}}, '
        ...        '"sources": [{{"type": "wikipedia_list", "payload": {{}}}}]}}\\n')
        >>> f = tempfile.NamedTemporaryFile(suffix=".jsonl.bz2", delete=False)
        >>> for a, b in [("rain", "flood"), ("flood", "loss"), ("rain", "flood")]:
        ...     _ = f.write(bz2.compress(rel.format(a, b).encode()))   # one stream a line
        >>> f.close()
        >>> got = open_index(f.name)[0].sources_many([("rain", "flood"), ("flood", "loss")])
        >>> {k: [(s.line, s.stream) for s in v] for k, v in got.items()}
        {('rain', 'flood'): [(1, 0), (3, 2)], ('flood', 'loss'): [(2, 1)]}
        >>> os.unlink(f.name)
        >>> _ = env.stop()   # the caller's cache again
        """
        found: dict[tuple[str, str], tuple[list[tuple[int, int, int]], tuple[str, str]]] = {}
        for key in edges:
            if not (isinstance(key, tuple) and len(key) == 2 and all(isinstance(x, str) for x in key)):
                raise SchemaError(f"an edge is a (cause, effect) pair of strings, got {key!r:.80}")
            if key not in found:
                found[key] = self._places(*key)
        out: dict[tuple[str, str], list[EdgeSource]] = {key: [] for key in found}
        # every line of every edge in file order (stream, then offset), so that each edge's sources stay in
        # file order and each stream is met in one run
        todo = sorted((s, pos, line, n) for n, (places, _) in enumerate(found.values()) for line, s, pos in places)
        keys = list(found)
        st = self.path.stat()
        if self._seen != (st.st_size, st.st_mtime_ns):
            self._recent.clear()
            self._seen = (st.st_size, st.st_mtime_ns)
        order = list(dict.fromkeys(t[0] for t in todo))
        with open(self.path, "rb") as f:
            i = 0
            for b in range(0, len(order), _PREFETCH):
                group = order[b:b + _PREFETCH]
                self._prefetch(f, group)
                last = group[-1]
                while i < len(todo) and todo[i][0] <= last:
                    s, pos, line, n = todo[i]
                    i += 1
                    data = self._stream(f, s)
                    end = data.find(b"\n", pos)
                    raw = data[pos:] if end < 0 else data[pos:end]
                    t = s
                    while end < 0 and t + 1 < self.n_streams:  # the line goes on in the next stream(s)
                        t += 1
                        nxt = self._stream(f, t)
                        end = nxt.find(b"\n")
                        raw += nxt if end < 0 else nxt[:end]
                    out[keys[n]].extend(self._parse(raw, line, s, found[keys[n]][1]))
        return out

    def _parse(self, raw: bytes, line: int, s: int, want: tuple[str, str]) -> list[EdgeSource]:
        try:
            obj = json.loads(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            # the index read this line's relation from its first bytes (_HEAD) without parsing the rest: a
            # line cut or damaged after them is the file's fault, not a sign that it changed since indexed
            if _HEAD.match(raw) and _edge_of(raw, self.path, line) == want:
                raise SchemaError(f"{self.path}, line {line}: not valid JSON ({exc}); expected one CauseNet "
                                  "relation a line") from None
            obj = None
        try:
            cr = obj["causal_relation"]
            got = (concept_name(cr["cause"]["concept"]), concept_name(cr["effect"]["concept"]))
        except (ValueError, UnicodeDecodeError, KeyError, TypeError):
            got = None
        if got != want:
            raise SchemaError(f"{self.path}, line {line}: not the relation {want[0]!r} → {want[1]!r} the index "
                              "points to; the file changed since it was indexed (index it again: "
                              "causalgraph causenet index --data causenet:PATH)")
        sources = obj.get("sources") or []
        if not isinstance(sources, list):
            raise SchemaError(f"{self.path}, line {line}: field sources: found {type(sources).__name__}; "
                              "expected a list of sources")
        off = int(self.stream_offsets[s])
        out = []
        for k, src in enumerate(sources):
            if not isinstance(src, dict) or not isinstance(src.get("type"), str):
                raise SchemaError(f"{self.path}, line {line}: field sources[{k}]: found {src!r:.60}; "
                                  'expected an object {"type": …, "payload": …}')
            p = src.get("payload") if isinstance(src.get("payload"), dict) else {}
            sent = p.get("sentence")
            if isinstance(sent, dict):
                sent = sent.get("surface")
            out.append(EdgeSource(
                cause=want[0], effect=want[1], line=line, stream=s, stream_offset=off, type=src["type"],
                sentence=sent if isinstance(sent, str) else None,
                reference=_text(p.get("clueweb12_page_reference") or p.get("wikipedia_page_title")),
                page_id=_text(p.get("clueweb12_page_id") or p.get("wikipedia_page_id")),
                timestamp=_text(p.get("clueweb12_page_timestamp") or p.get("wikipedia_revision_timestamp")),
                path_pattern=_text(p.get("path_pattern")), payload=p))
        return out


def _text(v) -> Optional[str]:
    return None if v is None else str(v)


def edge_sources(path, cause: str, effect: str, *, reindex: bool = True) -> list[EdgeSource]:
    """Every source of the CauseNet edge ``cause → effect`` in ``path``, read through its seek index.

    The index is built on the first call (one pass over the file) and
    reused while the file is unchanged; see the module docstring.

    Examples
    --------
    >>> import tempfile, os, bz2; from unittest import mock
    >>> env = mock.patch.dict(os.environ, CAUSALGRAPH_CACHE=tempfile.mkdtemp()); _ = env.start()
    >>> line = ('{"causal_relation": {"cause": {"concept": "heavy_rain"}, "effect": {"concept": "flood"}}, '
    ...         '"sources": [{"type": "wikipedia_sentence", "payload": {"wikipedia_page_title": "Flood", '
    ...         '"sentence": {"surface": "Heavy rain causes floods."}}}]}\\n')
    >>> f = tempfile.NamedTemporaryFile(suffix=".jsonl.bz2", delete=False)
    >>> _ = f.write(bz2.compress(line.encode()) * 2); f.close()   # two streams, one relation each
    >>> [(s.line, s.stream, s.sentence, s.reference) for s in edge_sources(f.name, "heavy rain", "flood")]
    [(1, 0, 'Heavy rain causes floods.', 'Flood'), (2, 1, 'Heavy rain causes floods.', 'Flood')]
    >>> os.unlink(f.name)
    >>> _ = env.stop()   # the caller's cache again
    """
    idx, _ = open_index(path, reindex=reindex)
    return idx.sources(cause, effect)


def attach_sources(rows: list[dict], index: ProvenanceIndex, *, max_per_edge: int = 5) -> list[dict]:
    """Relations-format rows (``subgraph_rows``) with every edge's sources read from the file.

    Each edge of each statement's ``context`` gains ``sources_shown`` — at
    most ``max_per_edge`` of its sources, in file order, each its ``type``,
    ``sentence``, ``reference`` (page URL or title), ``page_id``,
    ``timestamp`` and ``line`` — and ``sources_total``; the statement's text
    becomes the first sentence of each edge (the relation written out,
    ``"<cause> causes <effect>."``, for an edge without one), as
    ``--keep-sentences`` writes it, without loading every sentence of the file.

    Examples
    --------
    >>> import tempfile, os, json, bz2; from unittest import mock
    >>> env = mock.patch.dict(os.environ, CAUSALGRAPH_CACHE=tempfile.mkdtemp()); _ = env.start()
    >>> line = ('{"causal_relation": {"cause": {"concept": "rain"}, "effect": {"concept": "flood"}}, '
    ...         '"sources": [{"type": "wikipedia_sentence", "payload": {"wikipedia_page_title": "Flood", '
    ...         '"sentence": {"surface": "Rain brings floods."}}}]}\\n')
    >>> f = tempfile.NamedTemporaryFile(suffix=".jsonl.bz2", delete=False)
    >>> _ = f.write(bz2.compress(line.encode())); f.close()
    >>> ctx = json.dumps({"edges": [{"cause": "rain", "effect": "flood"}]})
    >>> rows = [{"text": "rain causes flood.", "cause": "rain", "effect": "flood", "statement_id": "s1",
    ...          "context": ctx}]
    >>> out = attach_sources(rows, open_index(f.name)[0])
    >>> out[0]["text"], json.loads(out[0]["context"])["edges"][0]["sources_shown"][0]["reference"]
    ('Rain brings floods.', 'Flood')
    >>> os.unlink(f.name)
    >>> _ = env.stop()   # the caller's cache again
    """
    if isinstance(max_per_edge, bool) or not isinstance(max_per_edge, int) or max_per_edge < 0:
        raise SchemaError(f"max_per_edge must be a non-negative integer, got {max_per_edge!r}")
    # every edge of every statement first, so that the streams they are read from are decompressed
    # once each, several at a time (ProvenanceIndex.sources_many)
    contexts: dict[str, dict] = {}
    for r in rows:
        if r["statement_id"] not in contexts:
            contexts[r["statement_id"]] = json.loads(r["context"])
    found = index.sources_many([(e["cause"], e["effect"]) for ctx in contexts.values() for e in ctx.get("edges", [])])
    done: dict[str, tuple[str, str]] = {}
    out = []
    for r in rows:
        sid = r["statement_id"]
        if sid not in done:
            ctx = contexts[sid]
            texts: list[str] = []
            for e in ctx.get("edges", []):
                key = (e["cause"], e["effect"])
                srcs = found[key]
                e["sources_total"] = len(srcs)
                e["sources_shown"] = [{"type": s.type, "sentence": s.sentence, "reference": s.reference,
                                       "page_id": s.page_id, "timestamp": s.timestamp, "line": s.line}
                                      for s in srcs[:max_per_edge]]
                first = next((s.sentence.strip() for s in srcs if s.sentence and s.sentence.strip()), None)
                text = first or f"{key[0]} causes {key[1]}."
                if text not in texts:
                    texts.append(text)
            done[sid] = (" ".join(texts) if texts else r["text"],
                         json.dumps(ctx, ensure_ascii=False, separators=(",", ":")))
        text, context = done[sid]
        out.append({**r, "text": text, "context": context})
    return out
