"""The seek index recorded while loading CauseNet equals the one a second pass (``build_index``) writes."""

from __future__ import annotations

import bz2
import gzip
import itertools
import json

import numpy as np
from hypothesis import HealthCheck, given, settings, strategies as st

from causalgraph.datasets import causenet_sources as cs

from causenet_files import relation

ARRAYS = ("stream_offsets", "stream_crc", "name_offsets", "edge_key", "edge_ptr", "entry_stream", "entry_pos",
          "entry_line")
_CASES = itertools.count()
CONCEPTS = ["rain", "flood", "heavy_rain", "heavy rain", "drought", "fire", "smoke", "lung_cancer", "café"]


def _snapshot(idx) -> dict:
    out = {name: np.load(idx.folder / f"{name}.npy").tolist() for name in ARRAYS}
    out["names"] = (idx.folder / "names.bin").read_bytes()
    meta = json.loads((idx.folder / "meta.json").read_text())
    out["meta"] = meta
    return out


def _write(path, lines: list[str], compression, per_stream: int):
    """``lines`` in streams of ``per_stream`` lines each (bz2 streams, gzip members, or plain)."""
    chunks = ["".join(lines[i:i + per_stream]) for i in range(0, len(lines), per_stream)] or [""]
    if compression == "bz2":
        data = b"".join(bz2.compress(c.encode()) for c in chunks)
    elif compression == "gzip":
        data = b"".join(gzip.compress(c.encode(), mtime=0) for c in chunks)
    else:
        data = "".join(chunks).encode()
    path.write_bytes(data)
    return path


@st.composite
def files(draw):
    pairs = draw(st.lists(st.tuples(st.sampled_from(CONCEPTS), st.sampled_from(CONCEPTS)), min_size=1, max_size=30))
    lines = []
    for k, (c, e) in enumerate(pairs):
        obj = relation(c, e, [("wikipedia_sentence", f"sentence {k}")] * draw(st.integers(0, 2)))
        lines.append(json.dumps(obj, ensure_ascii=False) + "\n")
        if draw(st.integers(0, 9)) == 0:
            lines.append("\n")  # a blank line: counted as a line, holds no relation
    if draw(st.booleans()):
        lines[-1] = lines[-1].rstrip("\n")  # no newline after the last line
    # cut some streams inside a line: the index then reads the line across two streams
    text = "".join(lines)
    cuts = sorted(set(draw(st.lists(st.integers(1, max(1, len(text) - 1)), max_size=4))))
    pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)])]
    return pieces, draw(st.sampled_from(["bz2", "gzip", None])), draw(st.sampled_from(["auto", "python"]))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(f=files())
def test_index_written_while_loading_equals_build_index(f, tmp_path, monkeypatch):
    pieces, compression, engine = f
    case = tmp_path / f"c{next(_CASES)}"
    case.mkdir()
    path = _write(case / "rel.jsonl", pieces, compression, per_stream=1)
    monkeypatch.setenv("CAUSALGRAPH_CACHE", str(case / "cache-load"))
    g = cs.load_causenet_indexed(path, engine=engine)
    assert g.report["index"] == "written"
    idx, how = cs.open_index(path)
    assert how == "cached"
    from_load = _snapshot(idx)
    monkeypatch.setenv("CAUSALGRAPH_CACHE", str(case / "cache-build"))
    built = _snapshot(cs.build_index(path))
    from_load["meta"].pop("file"), built["meta"].pop("file")
    assert from_load == built
    # and every edge's sources come back as a full sequential read finds them
    seen: dict = {}
    for n, raw in enumerate("".join(pieces).split("\n"), start=1):
        if raw.strip():
            obj = json.loads(raw)["causal_relation"]
            key = (obj["cause"]["concept"].replace("_", " "), obj["effect"]["concept"].replace("_", " "))
            seen.setdefault(key, []).append(n)
    for (c, e), lines in seen.items():
        assert [p[0] for p in idx.places(c, e)] == lines


def test_multi_stream_bz2_lines_across_streams(tmp_path, monkeypatch):
    monkeypatch.setenv("CAUSALGRAPH_CACHE", str(tmp_path / "cache"))
    text = "".join(json.dumps(relation(f"c{k % 7}", f"e{k % 5}", [("clueweb12_sentence", f"s {k}")])) + "\n"
                   for k in range(300))
    cuts = list(range(0, len(text), 997)) + [len(text)]
    path = tmp_path / "multi.jsonl.bz2"
    path.write_bytes(b"".join(bz2.compress(text[a:b].encode()) for a, b in zip(cuts[:-1], cuts[1:])))
    cs.load_causenet_indexed(path)
    idx, how = cs.open_index(path)
    assert how == "cached" and idx.n_streams == len(cuts) - 1 and idx.n_lines == 300
    got = sorted((s.line, s.sentence) for s in idx.sources("c3", "e1"))
    assert got == [(k + 1, f"s {k}") for k in range(300) if k % 7 == 3 and k % 5 == 1]


def test_skipped_line_writes_no_index(tmp_path, monkeypatch):
    monkeypatch.setenv("CAUSALGRAPH_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(relation("a", "b")) + "\n{not json\n" + json.dumps(relation("b", "c")) + "\n")
    g = cs.load_causenet_indexed(path, strict=False)
    assert g.report["index"] == "not written"
    assert not (tmp_path / "cache" / "causenet-index").exists() or \
        not any((tmp_path / "cache" / "causenet-index").glob("*-*"))

