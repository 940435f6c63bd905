"""Stream the CauseNet graph (Heindorf et al., CIKM 2020) into a merged graph.

CauseNet is released as JSON Lines — CauseNet-Full and CauseNet-Precision as
``.jsonl.bz2``, the small CauseNet-Sample without provenance — with one
claimed causal relation a line::

    {"causal_relation": {"cause": {"concept": "smoking"}, "effect": {"concept": "lung_cancer"}},
     "support": 3,
     "sources": [{"type": "wikipedia_sentence",
                  "payload": {"sentence": {"surface": "Smoking causes lung cancer.", ...}, ...}}, ...]}

Concepts are written with ``_`` for spaces; the loader turns them into
spaces (``lung_cancer`` → ``lung cancer``), and :func:`find_concept` accepts
either spelling.  ``support`` and ``sources`` are optional (the sample has
neither).  A sentence payload may be the release's object (its ``surface``
is read) or a plain string.

The file may be plain, gzip or bz2 (told by its first bytes, not its
name; a bz2 file's bytes after its last stream that start ``BZh`` but form
no stream are refused, naming the byte offset, as the seek index of
:mod:`causalgraph.datasets.causenet_sources` refuses them).  It is read one line at a time: memory per line is constant, and the
graph is kept as interned ids and arrays (:class:`~causalgraph.graph.merged.MergedGraph`):
repeated relations merge into one edge with counts (relations, sources,
sources per type, summed support) and, with ``keep_sentences``, the
provenance sentences.  Where pyarrow is installed the lines are parsed by
its multithreaded JSON reader in blocks; the pure-Python reader gives the
same graph, and is what reports problems: a malformed line is a
:class:`~causalgraph.errors.SchemaError` naming the file, the line (1-based,
as an editor counts), the field, the value found and what was expected;
``strict=False`` skips bad lines and lists every problem.
"""

from __future__ import annotations

import gzip
import io
import json
import os
from pathlib import Path
from typing import Iterator, Optional

import numpy as np

from ..errors import ConfigError, DataNotFound, SchemaError
from ..graph.merged import MergedGraph, merge_ids
from ..model import Problem
from ._streams import CHUNK, StreamReader

__all__ = ["CAUSENET_PREFIX", "causenet_file", "causenet_path", "is_causenet", "load_causenet", "find_concept",
           "concept_name", "ENGINES"]

CAUSENET_PREFIX = "causenet:"
ENGINES = ("auto", "arrow", "python")
# Bytes read to sniff a file's format (one CauseNet line with full provenance is a few kB).
_SNIFF_BYTES = 1 << 20
_BLOCK = 16 << 20
# A line must fit in one pyarrow block; longer lines (a relation with thousands of sources) retry with larger
# blocks up to this size, beyond which the Python reader reads the file.
_MAX_BLOCK = 1 << 30


def concept_name(concept: str) -> str:
    """A CauseNet concept as text: ``_`` → space.

    Examples
    --------
    >>> concept_name("lung_cancer")
    'lung cancer'
    """
    return concept.replace("_", " ")


#: The end-of-stream magic of bzip2 (the 48 bits of √π), followed by the stream's 32-bit CRC.
_BZ2_EOS = 0x177245385090


def _ends_at_stream_end(p: Path) -> bool:
    """Whether the bz2 file ``p`` ends where its last stream does: the end-of-stream magic and CRC in its last
    bits, before at most 7 zero bits of padding — no byte after it (neither padding nor a damaged stream).

    The parallel reader is used only for such a file: it skips bytes after the last stream with a warning
    printed by its C++ code, where the loader's own readers refuse a damaged stream there in one line.

    Examples
    --------
    >>> import bz2, tempfile, os
    >>> f = tempfile.NamedTemporaryFile(suffix=".bz2", delete=False)
    >>> _ = f.write(bz2.compress(b"a\\n") + bz2.compress(b"b\\n")); f.close()
    >>> _ends_at_stream_end(Path(f.name))
    True
    >>> with open(f.name, "ab") as g:
    ...     _ = g.write(b"\\0")
    >>> _ends_at_stream_end(Path(f.name))
    False
    >>> os.unlink(f.name)
    """
    with open(p, "rb") as f:
        f.seek(0, os.SEEK_END)
        size = f.tell()
        if size < 14:  # "BZh9" and an empty stream's end are 14 bytes
            return False
        f.seek(size - 11)
        tail = int.from_bytes(f.read(11), "big")
    for pad in range(8):
        if tail & ((1 << pad) - 1):
            break  # padding bits are zero
        if (tail >> (pad + 32)) & ((1 << 48) - 1) == _BZ2_EOS:
            return True
    return False


def _parallel_bz2(p: Path, threads: int):
    """``indexed_bzip2``'s reader of ``p`` on ``threads`` threads, or ``None`` where the loader reads alone: the
    package missing, one thread, or a file with bytes after its last stream (:func:`_ends_at_stream_end`)."""
    if threads < 2:
        return None
    try:
        import indexed_bzip2
    except ImportError:
        return None
    if not _ends_at_stream_end(p):
        return None
    return indexed_bzip2.open(str(p), parallelization=threads)


def _open_binary(p: Path):
    """The file's bytes, decompressed when its first bytes say gzip or bz2 (bz2: stream by stream,
    :class:`~causalgraph.datasets._streams.StreamReader`, the seek index's reader)."""
    with open(p, "rb") as f:
        magic = f.read(3)
    if magic[:2] == b"\x1f\x8b":
        return gzip.open(p, "rb"), "gzip"
    if magic == b"BZh":
        return io.BufferedReader(StreamReader(p, "bz2"), buffer_size=CHUNK), "bz2"
    return open(p, "rb"), None


def _looks_like_causenet(obj) -> bool:
    if not isinstance(obj, dict):
        return False
    cr = obj.get("causal_relation")
    return isinstance(cr, dict) and isinstance(cr.get("cause"), dict) and isinstance(cr.get("effect"), dict)


def is_causenet(path) -> bool:
    """Whether ``path`` is a CauseNet JSON Lines file, told by its content (its first non-blank line).

    Examples
    --------
    >>> import tempfile, os
    >>> f = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
    >>> _ = f.write('{"causal_relation": {"cause": {"concept": "a"}, "effect": {"concept": "b"}}}\\n'); f.close()
    >>> is_causenet(f.name)
    True
    >>> os.unlink(f.name)
    """
    p = Path(path)
    if not p.is_file():
        return False
    try:
        stream, _ = _open_binary(p)
        with stream:
            head = stream.read(_SNIFF_BYTES)
    except (OSError, EOFError, ValueError):
        return False
    for line in head.split(b"\n"):
        if line.strip():
            try:
                return _looks_like_causenet(json.loads(line))
            except (ValueError, UnicodeDecodeError):
                return False
    return False


def causenet_file(path) -> Path:
    """The file ``path`` names (``causenet:PATH`` or a plain path), which must exist: the loader's and the seek index's.

    Examples
    --------
    >>> causenet_file("causenet:/no/such.jsonl")
    Traceback (most recent call last):
    ...
    causalgraph.errors.DataNotFound: /no/such.jsonl: no such CauseNet file
    """
    s = str(path)
    if s.startswith(CAUSENET_PREFIX):
        s = s[len(CAUSENET_PREFIX):]
    p = Path(s).expanduser()
    if not p.is_file():
        raise DataNotFound(f"{s}: no such CauseNet file")
    return p


def causenet_path(data) -> Optional[Path]:
    """The CauseNet file ``--data`` names, or ``None`` when it names something else.

    ``causenet:PATH`` always means CauseNet (a missing file is
    :class:`~causalgraph.errors.DataNotFound`); a plain path means CauseNet
    when its content does (:func:`is_causenet`).  This is the dataset layer's
    one test for CauseNet data.

    Examples
    --------
    >>> causenet_path("climatecause") is None
    True
    """
    if data is None:
        return None
    s = str(data)
    if s.startswith(CAUSENET_PREFIX):
        p = Path(s[len(CAUSENET_PREFIX):]).expanduser()
        if not p.is_file():
            raise DataNotFound(f"{s}: no such CauseNet file {str(p)!r}")
        return p
    p = Path(s).expanduser()
    if p.is_file() and p.suffix.lower() not in (".xlsx", ".csv") and is_causenet(p):
        return p
    return None


# -- the pure-Python reader --------------------------------------------------------------------------

class _Reader:
    """Line-by-line parse with exact problem reports; interning in first-appearance order."""

    def __init__(self, path: Path, keep_sentences: bool, strict: bool, capture: Optional[dict] = None):
        self.path, self.keep, self.strict = path, keep_sentences, strict
        self.capture = capture
        self.file = str(path)
        self.problems: list[Problem] = []
        self.index: dict[str, int] = {}
        self.src: list[int] = []
        self.dst: list[int] = []
        self.n_sources: list[int] = []
        self.types: dict[str, int] = {}
        self.type_line: list[int] = []
        self.type_code: list[int] = []
        self.support: list[float] = []
        self.has_support = False
        self.sentence_line: list[int] = []
        self.sentences: list[str] = []
        self.lines = 0

    def problem(self, line: int, field: str, value, expected: str) -> None:
        shown = repr(value)
        if len(shown) > 80:
            shown = shown[:79] + "…"
        msg = f"{self.file}, line {line}: field {field}: found {shown}; expected {expected}"
        if self.strict:
            raise SchemaError(msg)
        self.problems.append(Problem(self.file, line, field, value, expected, msg))

    def concept(self, cr: dict, side: str, line: int) -> Optional[str]:
        node = cr.get(side)
        if not isinstance(node, dict):
            self.problem(line, f"causal_relation.{side}", node, 'an object {"concept": …}')
            return None
        c = node.get("concept")
        if not isinstance(c, str) or not c.strip():
            self.problem(line, f"causal_relation.{side}.concept", c, "a non-empty string")
            return None
        return concept_name(c)

    def record(self, obj, line: int) -> None:
        if not isinstance(obj, dict):
            return self.problem(line, "(line)", obj, "a JSON object")
        cr = obj.get("causal_relation")
        if not isinstance(cr, dict):
            return self.problem(line, "causal_relation", cr, 'an object {"cause": …, "effect": …}')
        cause, effect = self.concept(cr, "cause", line), self.concept(cr, "effect", line)
        support = obj.get("support")
        if support is not None and (isinstance(support, bool) or not isinstance(support, (int, float))):
            return self.problem(line, "support", support, "a number")
        sources = obj.get("sources", [])
        if sources is None:
            sources = []
        if not isinstance(sources, list):
            return self.problem(line, "sources", sources, "a list of sources")
        types: list[str] = []
        texts: list[str] = []
        for k, src in enumerate(sources):
            where = f"sources[{k}]"
            if not isinstance(src, dict):
                return self.problem(line, where, src, 'an object {"type": …, "payload": …}')
            t = src.get("type")
            if not isinstance(t, str) or not t:
                return self.problem(line, f"{where}.type", t, "a non-empty string")
            types.append(t)
            payload = src.get("payload")
            if payload is None or not self.keep:
                continue  # payloads are read only for their sentences
            if not isinstance(payload, dict):
                return self.problem(line, f"{where}.payload", payload, "an object")
            sent = payload.get("sentence")
            if isinstance(sent, dict):
                sent = sent.get("surface")
                if sent is not None and not isinstance(sent, str):
                    return self.problem(line, f"{where}.payload.sentence.surface", sent, "a string")
            elif sent is not None and not isinstance(sent, str):
                return self.problem(line, f"{where}.payload.sentence", sent,
                                    'a string or an object {"surface": …}')
            if sent is not None:
                texts.append(sent)
        if cause is None or effect is None:
            return None
        r = len(self.src)
        for name, out in ((cause, self.src), (effect, self.dst)):
            i = self.index.get(name)
            if i is None:
                i = self.index[name] = len(self.index)
            out.append(i)
        self.n_sources.append(len(types))
        for t in types:
            code = self.types.setdefault(t, len(self.types))
            self.type_line.append(r)
            self.type_code.append(code)
        if support is not None:
            self.has_support = True
        self.support.append(float(support or 0))
        if self.keep:
            self.sentence_line.extend([r] * len(texts))
            self.sentences.extend(texts)
        return None

    def run(self) -> None:
        if self.capture is not None:
            stream = _recording(self.path, self.capture)
        else:
            stream, _ = _open_binary(self.path)
        with stream:
            for line, raw in enumerate(_lines(stream, self.file), start=1):
                self.lines = line
                if not raw.strip():
                    continue
                try:
                    obj = json.loads(raw)
                except UnicodeDecodeError as exc:
                    self.problem(line, "(line)", raw[:60], f"UTF-8 text ({exc.reason})")
                    continue
                except json.JSONDecodeError as exc:
                    self.problem(line, "(line)", raw.rstrip(b"\r\n")[:60].decode("utf-8", "replace"),
                                 f"one JSON object (column {exc.colno}: {exc.msg})")
                    continue
                self.record(obj, line)


def _lines(stream, file: str) -> Iterator[bytes]:
    """Lines of a (possibly compressed) binary stream, split at ``\\n`` only."""
    try:
        yield from stream
    except (OSError, EOFError) as exc:  # a truncated or corrupt gzip/bz2 stream
        raise SchemaError(f"{file}: cannot be read to the end ({exc})") from None


def _recording(p: Path, capture: dict):
    """The file's decompressed bytes read through the seek index's recorder (made by ``capture["recorder_for"]``,
    given by :func:`~causalgraph.datasets.causenet_sources.load_causenet_indexed`: the index module builds on
    this one, which does not import it)."""
    rec = capture["recorder"] = capture["recorder_for"](p)
    return io.BufferedReader(rec, buffer_size=CHUNK)


def _load_python(p: Path, keep_sentences: bool, strict: bool, min_sources: int,
                 capture: Optional[dict] = None) -> MergedGraph:
    r = _Reader(p, keep_sentences, strict, capture)
    r.run()
    if capture is not None:
        capture["relations"] = (r.src, r.dst, list(r.index))
    g = merge_ids(np.array(r.src, dtype=np.int64), np.array(r.dst, dtype=np.int64), list(r.index),
                  n_sources=np.array(r.n_sources, dtype=np.int64), source_types=list(r.types),
                  type_line=r.type_line, type_code=r.type_code,
                  support=np.array(r.support) if r.has_support else None,
                  sentence_line=r.sentence_line if keep_sentences else None,
                  sentences=r.sentences if keep_sentences else None,
                  min_sources=min_sources, name="causenet", source=str(p))
    g.problems = r.problems
    g.report = {"lines": r.lines, "relations": len(r.src), "skipped": len(r.problems), "engine": "python",
                **g.report}
    return g


# -- the pyarrow reader -----------------------------------------------------------------------------

class _ArrowUnfit(Exception):
    """The block reader met something it cannot judge; the Python reader reads the file instead."""


def _arrow_schema(pa, keep_sentences: bool):
    concept = pa.struct([("concept", pa.string())])
    payload = [("payload", pa.struct([("sentence", pa.struct([("surface", pa.string())]))]))] if keep_sentences else []
    return pa.schema([
        ("causal_relation", pa.struct([("cause", concept), ("effect", concept)])),
        ("support", pa.float64()),
        ("sources", pa.list_(pa.struct([("type", pa.string()), *payload]))),
    ])


def _load_arrow(p: Path, keep_sentences: bool, min_sources: int, capture: Optional[dict] = None,
                threads: int = 1) -> MergedGraph:
    """Read with pyarrow; a line longer than a block is read again with blocks as large as ``_MAX_BLOCK``."""
    block = _BLOCK
    while True:
        try:
            return _load_arrow_blocks(p, keep_sentences, min_sources, block, capture, threads)
        except _ArrowUnfit as exc:
            if "straddl" not in str(exc) or block >= _MAX_BLOCK:
                raise
            block *= 4


def _load_arrow_blocks(p: Path, keep_sentences: bool, min_sources: int, block: int,
                       capture: Optional[dict] = None, threads: int = 1) -> MergedGraph:
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.json as pj

    if capture is not None:
        # the index's recorder decompresses (stream by stream, noting where lines start) and Arrow parses
        raw = pa.PythonFile(_recording(p, capture), mode="r")
        source = raw
    else:
        stream, codec = _open_binary(p)
        stream.close()
        parallel = _parallel_bz2(p, threads) if codec == "bz2" else None
        if parallel is not None:
            # bz2 blocks decompressed on `threads` threads, while Arrow parses the JSON blocks on its own pool
            raw = source = pa.PythonFile(parallel, mode="r")
        else:
            raw = pa.OSFile(str(p), "rb")
            source = pa.CompressedInputStream(raw, codec) if codec else raw
    opts = pj.ParseOptions(explicit_schema=_arrow_schema(pa, keep_sentences), unexpected_field_behavior="ignore")
    # Any Arrow error (invalid JSON, an unsupported or mistyped field, …) means the block parser cannot
    # read this file; the Python reader then reads it or names the line that is wrong.
    try:
        reader = pj.open_json(source, read_options=pj.ReadOptions(block_size=block, use_threads=True),
                              parse_options=opts)
    except (pa.ArrowException, OSError, EOFError, RuntimeError) as exc:
        raw.close()
        raise _ArrowUnfit(str(exc)) from None
    concepts, n_sources, supports = [], [], []
    type_chunks, type_parent = [], []
    sent_chunks, sent_parent = [], []
    has_support = False
    offset = 0
    try:
        for batch in reader:
            m = batch.num_rows
            if m == 0:
                continue
            cr = batch.column(0)
            cause = pc.struct_field(cr, [0, 0])
            effect = pc.struct_field(cr, [1, 0])
            if cause.null_count or effect.null_count:
                raise _ArrowUnfit("a concept is missing")  # blank concepts are looked for once, among the distinct ones
            # interleave cause and effect so that ids follow first appearance, cause before effect
            both = pa.concat_arrays([cause, effect])
            inter = np.empty(2 * m, dtype=np.int64)
            inter[0::2] = np.arange(m)
            inter[1::2] = np.arange(m) + m
            concepts.append(both.take(pa.array(inter)))
            sup = batch.column(1)
            if sup.null_count < m:
                has_support = True
            supports.append(pc.fill_null(sup, 0.0).to_numpy(zero_copy_only=False))
            srcs = batch.column(2)
            n_sources.append(pc.fill_null(pc.list_value_length(srcs), 0).to_numpy(zero_copy_only=False))
            flat = pc.list_flatten(srcs)
            parent = pc.list_parent_indices(srcs).to_numpy(zero_copy_only=False).astype(np.int64) + offset
            if len(flat):
                types = pc.struct_field(flat, [0])
                if types.null_count or pc.any(pc.equal(pc.utf8_length(types), 0)).as_py():
                    raise _ArrowUnfit("a source type is missing or empty")
                type_chunks.append(types)
                type_parent.append(parent)
                if keep_sentences:
                    text = pc.struct_field(flat, [1, 0, 0])
                    valid = pc.is_valid(text)
                    sent_chunks.append(pc.filter(text, valid))
                    sent_parent.append(parent[valid.to_numpy(zero_copy_only=False)])
            offset += m
    except (pa.ArrowException, OSError, EOFError, RuntimeError) as exc:
        # (indexed_bzip2 raises RuntimeError on a damaged block: the Python reader then names the stream)
        raise _ArrowUnfit(str(exc)) from None
    finally:
        raw.close()
    if concepts:
        names, codes = _intern(pa, pc, pa.chunked_array(concepts).cast(pa.large_string()))
    else:
        names, codes = pa.array([], pa.large_string()), np.zeros(0, dtype=np.int64)
    del concepts
    if len(names) and pc.any(pc.equal(pc.utf8_length(pc.utf8_trim_whitespace(names)), 0)).as_py():
        raise _ArrowUnfit("a concept is empty")
    spaced = len(names) and pc.any(pc.match_substring(names, " ")).as_py()
    names = pc.replace_substring(names, "_", " ")
    if spaced and pc.count_distinct(names).as_py() != len(names):
        # "a_b" and "a b" both present: one concept once underscores are spaces (without a space in any
        # concept, as in the release, turning "_" into " " cannot make two concepts one)
        re_enc = pc.dictionary_encode(names)
        codes = re_enc.indices.to_numpy(zero_copy_only=False).astype(np.int64)[codes]
        names = re_enc.dictionary
    type_names: list[str] = []
    tl = tc = None
    if type_chunks:
        tdict, tc = _intern(pa, pc, pa.chunked_array(type_chunks))
        type_names = tdict.to_pylist()
        tl = np.concatenate(type_parent)
    sentences = None
    sl = None
    if keep_sentences:
        sentences = pa.concat_arrays([c.cast(pa.large_string()) for c in sent_chunks]) if sent_chunks \
            else pa.array([], pa.large_string())
        sl = np.concatenate(sent_parent) if sent_parent else np.zeros(0, dtype=np.int64)
    g = merge_ids(codes[0::2], codes[1::2], names,
                  n_sources=np.concatenate(n_sources) if n_sources else None,
                  source_types=type_names, type_line=tl, type_code=tc,
                  support=np.concatenate(supports) if has_support else None,
                  sentence_line=sl, sentences=sentences, min_sources=min_sources, name="causenet", source=str(p))
    g.report = {"relations": int(offset), "skipped": 0, "engine": "arrow", **g.report}
    if capture is not None:
        capture["relations"] = (codes[0::2], codes[1::2], names.to_pylist())
    return g


def _intern(pa, pc, values):
    """(distinct values in first-appearance order, each value's index among them) of a chunked string array."""
    enc = pc.dictionary_encode(values)
    if enc.num_chunks == 0:
        return pa.array([], values.type), np.zeros(0, dtype=np.int64)
    # Arrow's hash kernel gives every chunk the one dictionary it built over all of them; check that
    # they share its memory (cheap) and unify only if not (unifying re-hashes every value).
    first = enc.chunk(0).dictionary
    address = first.buffers()[-1].address if first.buffers()[-1] is not None else None
    if any(c.dictionary.buffers()[-1] is None or c.dictionary.buffers()[-1].address != address
           or len(c.dictionary) != len(first) for c in enc.chunks):
        enc = enc.unify_dictionaries()
        first = enc.chunk(0).dictionary
    codes = np.concatenate([c.indices.to_numpy(zero_copy_only=False) for c in enc.chunks]).astype(np.int64)
    return first, codes


def _arrow_available() -> bool:
    try:
        import pyarrow.json as pj
    except ImportError:
        return False
    return hasattr(pj, "open_json")


def load_causenet(path, *, keep_sentences: bool = False, min_sources: int = 0, strict: bool = True,
                  engine: str = "auto", threads: Optional[int] = None,
                  _capture: Optional[dict] = None) -> MergedGraph:
    """Read a CauseNet JSON Lines file (plain, gzip or bz2) into one merged graph.

    Parameters
    ----------
    path
        The file (``causenet:`` prefix accepted).
    keep_sentences
        Keep every provenance sentence per edge (:meth:`MergedGraph.edge_sentences`);
        without it only counts are kept.
    min_sources
        Keep only edges with at least this many sources over their merged
        relations (CauseNet's own precision filter is of this kind); concepts
        left without an edge go too.
    strict
        ``True``: the first malformed line raises :class:`SchemaError`;
        ``False``: bad lines are skipped and listed in ``graph.problems``.
    engine
        ``"auto"`` (pyarrow's block reader where it is installed and the file
        parses cleanly, else the Python reader), ``"arrow"`` or ``"python"``.
    threads
        Threads that decompress a bz2 file under the Arrow engine (default: every core,
        ``os.cpu_count()``), with ``indexed_bzip2`` where it is installed (``causalgraph[causenet]``)
        and the file ends where its last stream does (the release does); otherwise, or with 1, the
        file is decompressed on one thread, as before. The graph is the same either way.
    _capture
        Internal: :func:`~causalgraph.datasets.causenet_sources.load_causenet_indexed`
        reads the file through its recorder and gets each relation's
        concepts back here, to write the seek index from the same pass.

    Returns
    -------
    MergedGraph
        Edges deduplicated with counts; ``graph.report`` has the loader's counts.

    Examples
    --------
    >>> import tempfile, os
    >>> f = tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False)
    >>> rel = '{"causal_relation": {"cause": {"concept": "%s"}, "effect": {"concept": "%s"}}, ' \\
    ...       '"sources": [{"type": "wikipedia_list", "payload": {}}]}\\n'
    >>> _ = f.write(rel % ("smoking", "lung_cancer") + rel % ("smoking", "lung_cancer")); f.close()
    >>> g = load_causenet(f.name)
    >>> g.names_list(), g.relations.tolist(), g.sources.tolist()
    (['smoking', 'lung cancer'], [2], [2])
    >>> os.unlink(f.name)
    """
    if engine not in ENGINES:
        raise ConfigError(f"unknown CauseNet engine {engine!r}; expected one of {', '.join(ENGINES)}")
    p = causenet_file(path)
    if isinstance(min_sources, bool) or not isinstance(min_sources, int) or min_sources < 0:
        raise ConfigError(f"min_sources must be a non-negative integer, got {min_sources!r}")
    use_arrow = strict and engine != "python" and _arrow_available()
    if engine == "arrow" and not _arrow_available():
        raise ConfigError("engine 'arrow' needs pyarrow >= 14 with pyarrow.json.open_json "
                          "(pip install 'causalgraph[causenet]')")
    if threads is None:
        threads = os.cpu_count() or 1
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ConfigError(f"threads must be a positive integer, got {threads!r}")
    capture = _capture
    g = None
    if use_arrow:
        try:
            g = _load_arrow(p, keep_sentences, min_sources, capture, threads)
        except _ArrowUnfit:
            pass  # the Python reader finds the line and says what is wrong with it
    if g is None:
        g = _load_python(p, keep_sentences, strict, min_sources, capture)
    if g.report.get("relations", 0) == 0:
        bad = f"; {len(g.problems)} malformed line(s), the first: {g.problems[0].message}" if g.problems else ""
        raise SchemaError(f"{p}: no CauseNet relation in the file{bad}")
    return g


def find_concept(graph: MergedGraph, concept: str) -> int:
    """The node id of ``concept`` (``_`` or spaces alike), or a :class:`SchemaError` naming it.

    Examples
    --------
    >>> from causalgraph.graph.merged import merge_pairs
    >>> find_concept(merge_pairs([("lung cancer", "death")]), "lung_cancer")
    0
    """
    want = concept_name(concept.strip())
    names = graph.names
    if isinstance(names, list):
        try:
            return names.index(want)
        except ValueError:
            pass
    else:
        import pyarrow.compute as pc

        i = pc.index(names, want).as_py()
        if i is not None and i >= 0:
            return int(i)
    raise SchemaError(f"{graph.source or graph.name}: no concept {concept!r} among its {graph.n_nodes:,} concepts")
