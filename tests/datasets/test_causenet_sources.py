"""The CauseNet-Full stand-in and the seek index: every edge's sources equal a full sequential read."""

from __future__ import annotations

import bz2
import gzip
import json
import os
import zlib
from collections import defaultdict

import pytest
from causenet_files import relation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from causalgraph.cli import main
from causalgraph.datasets.causenet import load_causenet
from causalgraph.datasets.causenet_sources import (StaleIndex, build_index, edge_sources, open_index,
                                                   stream_offsets)
from causalgraph.datasets.causenet_standin import PUBLISHED, TYPE_COMBINATIONS, standin_lines, write_standin
from causalgraph.errors import SchemaError

# The payload fields the CauseNet README lists for each source type.
README_FIELDS = {
    "clueweb12_sentence": {"clueweb12_page_id", "clueweb12_page_reference", "clueweb12_page_timestamp", "sentence",
                           "path_pattern"},
    "wikipedia_sentence": {"wikipedia_page_id", "wikipedia_page_title", "wikipedia_revision_id",
                           "wikipedia_revision_timestamp", "sentence_section_heading", "sentence_section_level",
                           "sentence", "path_pattern"},
    "wikipedia_list": {"wikipedia_page_id", "wikipedia_page_title", "wikipedia_revision_id",
                       "wikipedia_revision_timestamp", "list_toc_parent_title", "list_toc_section_heading",
                       "list_toc_section_level"},
    "wikipedia_infobox": {"wikipedia_page_id", "wikipedia_page_title", "wikipedia_revision_id",
                          "wikipedia_revision_timestamp", "infobox_template", "infobox_title", "infobox_argument"},
}


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CAUSALGRAPH_CACHE", str(tmp_path / "cache"))


def brute_force(lines: list[str]) -> dict:
    """(cause, effect) → [(line, type, sentence, reference)] from a plain sequential read of the lines."""
    out = defaultdict(list)
    for i, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        o = json.loads(raw)
        cr = o["causal_relation"]
        key = (cr["cause"]["concept"].replace("_", " "), cr["effect"]["concept"].replace("_", " "))
        out[key]  # an edge whose lines carry no source still exists
        for s in o.get("sources") or []:
            p = s.get("payload") or {}
            sent = p.get("sentence")
            sent = sent.get("surface") if isinstance(sent, dict) else sent
            ref = p.get("clueweb12_page_reference") or p.get("wikipedia_page_title")
            out[key].append((i, s["type"], sent, ref))
    return dict(out)


def via_index(path) -> dict:
    idx, _ = open_index(path)
    got = {}
    for key in brute_force_keys(path):
        got[key] = [(s.line, s.type, s.sentence, s.reference) for s in idx.sources(*key)]
    return got


def brute_force_keys(path):
    opener = bz2.open if str(path).endswith(".bz2") else gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return list(brute_force(f.read().split("\n")))


def write_streams(path, text: bytes, cut: int, kind: str) -> list[int]:
    """Write ``text`` as independent streams of ``cut`` uncompressed bytes; their compressed offsets."""
    offsets, pos = [], 0
    with open(path, "wb") as f:
        for a in range(0, len(text), cut):
            piece = text[a:a + cut]
            z = bz2.compress(piece) if kind == "bz2" else gzip.compress(piece, mtime=0) if kind == "gzip" else piece
            offsets.append(pos)
            f.write(z)
            pos += len(z)
    return offsets


# -- the stand-in ------------------------------------------------------------------------------------

def test_the_standin_is_the_same_bytes_for_a_seed_and_other_bytes_for_another(tmp_path):
    a = write_standin(tmp_path / "a.jsonl.bz2", 60, seed=3, stream_bytes=5000)
    b = write_standin(tmp_path / "b.jsonl.bz2", 60, seed=3, stream_bytes=5000)
    c = write_standin(tmp_path / "c.jsonl.bz2", 60, seed=4, stream_bytes=5000)
    assert a.path.read_bytes() == b.path.read_bytes()
    assert a.path.read_bytes() != c.path.read_bytes()


def test_the_standin_is_multi_stream_bz2_cut_inside_lines_and_reads_back_whole(tmp_path):
    info = write_standin(tmp_path / "s.jsonl.bz2", 80, seed=1, stream_bytes=3000)
    text = "".join(standin_lines(80, seed=1)).encode()
    # independently: the file is the bz2 streams of consecutive 3000-byte slices of the text
    expected = b"".join(bz2.compress(text[a:a + 3000], 9) for a in range(0, len(text), 3000))
    assert info.path.read_bytes() == expected
    assert info.streams == -(-len(text) // 3000) == len(stream_offsets(info.path)) > 2
    assert info.uncompressed_bytes == len(text) and bz2.decompress(info.path.read_bytes()) == text
    assert sum(1 for a in range(3000, len(text), 3000) if text[a - 1:a] != b"\n") > 0  # some lines straddle


def test_every_standin_line_follows_the_release_schema(tmp_path):
    for raw in standin_lines(300, seed=5):
        o = json.loads(raw)
        assert set(o) == {"causal_relation", "sources"}
        cr = o["causal_relation"]
        assert set(cr) == {"cause", "effect"} and all(set(cr[k]) == {"concept"} for k in cr)
        assert all(" " not in cr[k]["concept"] and cr[k]["concept"] for k in cr)
        assert cr["cause"] != cr["effect"]
        assert o["sources"]
        for s in o["sources"]:
            assert set(s) == {"type", "payload"} and set(s["payload"]) == README_FIELDS[s["type"]]
            if "sentence" in s["payload"]:
                sent = s["payload"]["sentence"]
                assert set(sent) == {"surface", "tokens", "dependencies"}
                assert sent["dependencies"].startswith("digraph  {\n")
                assert s["payload"]["path_pattern"].startswith("[[cause]]/N\t")


def test_the_type_combinations_add_up_to_the_published_counts():
    per = defaultdict(int)
    for types, n in TYPE_COMBINATIONS:
        for t in types:
            per[t] += n
    assert dict(per) == PUBLISHED["relations_per_type"]
    total = sum(n for _, n in TYPE_COMBINATIONS)
    # relations with three or more source types are not published: the sum misses them (246 of 11.6M)
    assert 0 <= PUBLISHED["relations"] - total < 1e-4 * PUBLISHED["relations"]


def test_the_standin_draws_source_types_in_the_published_proportions():
    n = 4000
    has = defaultdict(int)
    for raw in standin_lines(n, seed=11):
        for t in {s["type"] for s in json.loads(raw)["sources"]}:
            has[t] += 1
    for t, count in PUBLISHED["relations_per_type"].items():
        p = count / sum(c for _, c in TYPE_COMBINATIONS)
        sd = (n * p * (1 - p)) ** 0.5
        assert abs(has[t] - n * p) <= 4 * sd + 1, (t, has[t], n * p)


def test_the_loader_reads_the_standin_as_the_brute_force_count_of_edges(tmp_path):
    info = write_standin(tmp_path / "s.jsonl.bz2", 200, seed=2, stream_bytes=4000)
    text = bz2.decompress(info.path.read_bytes()).decode()
    bf = brute_force(text.split("\n"))
    g = load_causenet(info.path, engine="python")
    assert g.report["relations"] == 200 and g.n_edges == len(bf)
    assert int(g.sources.sum()) == sum(len(v) for v in bf.values())


# -- the seek index ----------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["bz2", "gzip", "plain"])
def test_stream_offsets_equal_those_written(tmp_path, kind):
    text = "".join(standin_lines(30, seed=7, dependencies=False)).encode()
    path = tmp_path / f"s.{kind}"
    offsets = write_streams(path, text, 1500, kind)
    if kind == "plain":
        offsets = list(range(0, len(text), 1 << 20))  # a plain file is cut into 1 MiB pieces
    assert stream_offsets(path) == offsets


def test_the_index_of_the_standin_returns_every_source_of_every_edge_as_a_full_read(tmp_path):
    info = write_standin(tmp_path / "s.jsonl.bz2", 150, seed=9, stream_bytes=2500)
    bf = brute_force(bz2.decompress(info.path.read_bytes()).decode().split("\n"))
    idx, how = open_index(info.path)
    assert how == "built" and idx.n_streams == info.streams and idx.n_lines == 150 and idx.n_edges == len(bf)
    for key, expected in bf.items():
        got = [(s.line, s.type, s.sentence, s.reference) for s in idx.sources(*key)]
        assert got == expected, key
    assert open_index(info.path)[1] == "cached"


relations = st.lists(
    st.tuples(st.sampled_from(["rain", "flood", "heat_wave", "drought", "crop_loss", "é_café"]),
              st.sampled_from(["rain", "flood", "heat_wave", "drought", "crop_loss", "é_café"]),
              st.lists(st.tuples(st.sampled_from(["wikipedia_sentence", "clueweb12_sentence", "wikipedia_list"]),
                                 st.one_of(st.none(), st.text(min_size=1, max_size=30))), max_size=3)),
    min_size=1, max_size=25)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rels=relations, cut=st.integers(min_value=7, max_value=400), kind=st.sampled_from(["bz2", "gzip", "plain"]),
       blank=st.booleans())
def test_provenance_of_every_edge_equals_a_brute_force_scan(tmp_path_factory, rels, cut, kind, blank):
    lines = [json.dumps(relation(c, e, srcs)) for c, e, srcs in rels]
    if blank:
        lines.insert(len(lines) // 2, "")
    text = ("\n".join(lines) + "\n").encode()
    folder = tmp_path_factory.mktemp("prov")
    os.environ["CAUSALGRAPH_CACHE"] = str(folder / "cache")
    path = folder / f"c.{kind}"
    write_streams(path, text, cut, kind)
    expected = brute_force(text.decode().split("\n"))
    idx = build_index(path)
    assert idx.n_edges == len(expected)
    for key, exp in expected.items():
        assert [(s.line, s.type, s.sentence, s.reference) for s in idx.sources(*key)] == exp
    # all edges at once, in another order and with one asked twice: the same sources, keyed as asked
    keys = sorted(expected, reverse=True) + list(expected)[:1]
    many = idx.sources_many(keys)
    assert list(many) == list(dict.fromkeys(keys))
    assert {k: [(s.line, s.type, s.sentence, s.reference) for s in v] for k, v in many.items()} == expected
    assert len(idx._recent) <= 16


def test_an_edge_in_more_streams_than_one_batch_decompresses_keeps_its_sources_in_file_order(tmp_path):
    # 30 lines of rain -> flood, each in a stream of its own between lines of other edges: the query reads
    # 30 streams in four batches of at most 8, decompressed on every core, and keeps 16 streams after
    lines = []
    for i in range(30):
        lines.append(json.dumps(relation("rain", "flood", [("wikipedia_sentence", f"Rain {i} floods.")])))
        lines.append(json.dumps(relation(f"c{i}", "loss", [("clueweb12_sentence", f"C{i} brings loss.")])))
    text = ("\n".join(lines) + "\n").encode()
    path = tmp_path / "c.jsonl.bz2"
    offsets = write_streams(path, text, len(lines[0]) + 1, "bz2")
    idx = build_index(path)
    assert idx.n_streams == len(offsets) >= 30
    got = idx.sources("rain", "flood")
    assert [(s.line, s.sentence) for s in got] == [(2 * i + 1, f"Rain {i} floods.") for i in range(30)]
    assert len({s.stream for s in got}) == 30 and len(idx._recent) == 16
    idx._recent.clear()
    many = idx.sources_many([(f"c{i}", "loss") for i in (29, 3, 17)] + [("rain", "flood")])
    assert [s.line for s in many[("c3", "loss")]] == [8] and [s.line for s in many[("c29", "loss")]] == [60]
    assert [(s.line, s.sentence) for s in many[("rain", "flood")]] == [(s.line, s.sentence) for s in got]


def test_many_edges_refuse_a_missing_edge_or_a_malformed_pair_before_reading(two_streams):
    idx, _ = open_index(two_streams)
    with pytest.raises(SchemaError, match="no relation 'flood' → 'rain'"):
        idx.sources_many([("rain", "flood"), ("flood", "rain")])
    with pytest.raises(SchemaError, match=r"a \(cause, effect\) pair of strings, got \['rain', 'flood'\]"):
        idx.sources_many([["rain", "flood"]])
    assert list(idx._recent) == []  # nothing was decompressed


def test_a_single_stream_gzip_file_has_one_seek_point_and_still_answers(tmp_path):
    lines = [json.dumps(relation("rain", "flood", [("wikipedia_sentence", f"Rain {i} floods.")])) for i in range(50)]
    path = tmp_path / "c.jsonl.gz"
    path.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode(), mtime=0))
    got = edge_sources(path, "rain", "flood")
    assert [s.sentence for s in got] == [f"Rain {i} floods." for i in range(50)]
    assert {s.stream for s in got} == {0} and open_index(path)[0].n_streams == 1


# -- errors ------------------------------------------------------------------------------------------

@pytest.fixture
def two_streams(tmp_path):
    a = json.dumps(relation("rain", "flood", [("wikipedia_sentence", "Rain floods.")])) + "\n"
    b = json.dumps(relation("flood", "crop_loss", [("clueweb12_sentence", "Floods ruin crops.")])) + "\n"
    path = tmp_path / "c.jsonl.bz2"
    path.write_bytes(bz2.compress(a.encode()) + bz2.compress(b.encode()))
    return path


def test_an_unknown_concept_or_edge_is_named(two_streams):
    with pytest.raises(SchemaError, match="no concept 'hail' among its 3 concepts"):
        edge_sources(two_streams, "hail", "flood")
    with pytest.raises(SchemaError, match=r"no relation 'flood' → 'rain' among its 2 edges \(both concepts exist\)"):
        edge_sources(two_streams, "flood", "rain")


def test_a_file_changed_since_indexed_is_indexed_again_or_refused(two_streams):
    assert open_index(two_streams)[1] == "built"
    extra = json.dumps(relation("rain", "flood", [("wikipedia_list", None)])) + "\n"
    with open(two_streams, "ab") as f:
        f.write(bz2.compress(extra.encode()))
    os.utime(two_streams, ns=(1, 1))
    with pytest.raises(StaleIndex, match="changed since it was indexed"):
        open_index(two_streams, reindex=False)
    idx, how = open_index(two_streams)
    assert how == "rebuilt" and [s.type for s in idx.sources("rain", "flood")] == ["wikipedia_sentence",
                                                                                   "wikipedia_list"]


def test_a_change_in_place_under_the_same_size_and_time_is_caught_by_the_stream_checksum(two_streams):
    open_index(two_streams)
    st_ = two_streams.stat()
    data = bytearray(two_streams.read_bytes())
    data[20] ^= 0xFF
    two_streams.write_bytes(bytes(data))
    os.utime(two_streams, ns=(st_.st_atime_ns, st_.st_mtime_ns))
    idx, how = open_index(two_streams)
    assert how == "cached"
    assert zlib.crc32(bytes(data[:idx.stream_offsets[1]])) != int(idx.stream_crc[0])
    with pytest.raises(SchemaError, match="stream 0 at byte 0 is not what was indexed; the file changed"):
        idx.sources("rain", "flood")
    assert [s.sentence for s in idx.sources("flood", "crop loss")] == ["Floods ruin crops."]  # stream 1 intact


def test_a_truncated_file_is_named_damaged(tmp_path, two_streams):
    data = two_streams.read_bytes()
    bad = tmp_path / "t.jsonl.bz2"
    bad.write_bytes(data[:-10])
    with pytest.raises(SchemaError, match="stream 1 at byte .* ends before its end marker .* truncated or damaged"):
        build_index(bad)


def test_cli_sources_prints_the_sources_and_errors_are_one_line_exit_2(two_streams, capsys):
    assert main(["causenet", "sources", "rain", "flood", "--data", f"causenet:{two_streams}", "--format",
                 "json"]) == 0
    out, err = capsys.readouterr()
    rows = json.loads(out)
    assert [(r["line"], r["stream"], r["stream_offset"], r["type"], r["sentence"]) for r in rows] == \
        [(1, 0, 0, "wikipedia_sentence", "Rain floods.")]
    assert "indexed" in err
    for argv, msg in ((["causenet", "sources", "flood", "rain"], "no relation 'flood' → 'rain'"),
                      (["causenet", "sources", "hail", "rain"], "no concept 'hail'")):
        assert main(argv + ["--data", f"causenet:{two_streams}"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and msg in err and "Traceback" not in err
    two_streams.write_bytes(two_streams.read_bytes()[:-10])
    assert main(["causenet", "sources", "rain", "flood", "--data", f"causenet:{two_streams}"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "truncated or damaged" in err


def test_cli_index_prints_the_counts(two_streams, capsys):
    assert main(["causenet", "index", "--data", f"causenet:{two_streams}", "--format", "csv"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "file,kind,streams,lines,relations,concepts,edges,index"
    assert out[1].split(",")[1:7] == ["bz2", "2", "2", "2", "3", "2"]


def test_the_benchmarks_release_like_option_measures_the_standin_reuses_it_and_times_the_naive_reader(tmp_path, capsys,
                                                                                                   monkeypatch):
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    import bench_causenet

    argv = ["--release-like", "--relations", "40", "--json", "--dir", str(tmp_path / "b"), "--provenance-samples", "5"]
    assert bench_causenet.main(argv) == 0
    out, err = capsys.readouterr()
    r = json.loads(out.strip().splitlines()[-1])
    assert "wrote" in err and r["relations"] == 40 and r["provenance_samples"] == 5 and r["provenance_sources"] >= 5
    for key in ("wall_s", "decompress_s", "peak_gb", "provenance_p95_ms", "index_s", "subgraph_provenance_p95_ms",
                "stratify_s"):
        assert r[key] > 0
    # the pipeline's peak is read before the index and the queries: never above the worker's at its end
    assert r["peak_gb"] <= r["peak_all_gb"]
    # --strata-samples (1,000 by default) is capped at the concepts with an edge: a 40-relation stand-in still runs
    assert 0 < r["stratified"] <= r["concepts"]
    first = Path(r["file"]).read_bytes()
    monkeypatch.setenv("PYTHONHASHSEED", "4242")  # the measuring processes of the second run hash differently
    assert bench_causenet.main(argv + ["--naive"]) == 0
    out, err = capsys.readouterr()
    assert "reusing" in err and Path(r["file"]).read_bytes() == first
    again = json.loads(out.strip().splitlines()[-1])
    # the same stratified sample from the reused file, and the naive reader (bz2 + json.loads) reads every line
    # and merges the same number of (cause, effect) pairs as the loader
    assert again["stratified_digest"] == r["stratified_digest"] and "naive_s" not in r
    # the distinct (cause, effect) pairs of the stand-in's 40 lines, counted here from its lines
    pairs = {(o["causal_relation"]["cause"]["concept"], o["causal_relation"]["effect"]["concept"])
             for o in map(json.loads, standin_lines(40, seed=28))}
    assert again["naive_lines"] == 40 and again["naive_edges"] == len(pairs) == again["edges"]
    assert again["naive_edges_equal"]
    assert again["naive_s"] > 0 and again["naive_over_wall"] == again["naive_s"] / again["wall_s"]


def test_cli_sources_of_a_file_without_provenance_prints_no_row_and_says_why(tmp_path, capsys):
    path = tmp_path / "sample.json"
    path.write_text("".join(json.dumps(relation("rain", "flood")) + "\n" for _ in range(2)))
    assert main(["causenet", "sources", "rain", "flood", "--data", str(path), "--format", "csv"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == ["cause,effect,line,stream,stream_offset,type,sentence,reference,page_id,timestamp,"
                                "path_pattern"]
    assert "the 2 lines of 'rain' → 'flood' carry no sources" in err


def test_worker_processes_write_the_same_bytes_and_blocks_restart_the_stream_cuts(tmp_path):
    one = write_standin(tmp_path / "one.jsonl.bz2", 70, seed=8, stream_bytes=4000, block=25)
    two = write_standin(tmp_path / "two.jsonl.bz2", 70, seed=8, stream_bytes=4000, block=25, workers=2)
    assert one.path.read_bytes() == two.path.read_bytes() and one.streams == two.streams
    lines = list(standin_lines(70, seed=8, block=25))
    blocks = ["".join(lines[a:a + 25]).encode() for a in range(0, 70, 25)]
    expected = b"".join(bz2.compress(t[a:a + 4000], 9) for t in blocks for a in range(0, len(t), 4000))
    assert one.path.read_bytes() == expected
    # fresh concepts of different blocks never collide: decode each name back to its id (bijective base-64
    # over the vocabulary) and check that every non-popular id lies in its own block's range
    from causalgraph.datasets.causenet_standin import _WORDS, _hubs

    def concept_id(name):
        n = 0
        for w in name.split("_"):
            n = n * len(_WORDS) + _WORDS.index(w) + 1
        return n - 1

    hubs = _hubs(70)
    for i, x in enumerate(lines):
        cr = json.loads(x)["causal_relation"]
        for k in ("cause", "effect"):
            c = concept_id(cr[k]["concept"])
            assert c < hubs or hubs + 75 * (i // 25) <= c < hubs + 75 * (i // 25 + 1), (i, k, c)


@pytest.mark.parametrize("kind", ["bz2", "gzip"])
def test_bytes_after_the_last_stream_are_ignored_as_the_loader_ignores_them(tmp_path, kind):
    line = (json.dumps(relation("rain", "flood", [("wikipedia_sentence", "Rain floods.")])) + "\n").encode()
    z = bz2.compress(line) if kind == "bz2" else gzip.compress(line, mtime=0)
    path = tmp_path / f"c.{kind}"
    path.write_bytes(z + z + b"\x00" * 64)
    assert load_causenet(path).relations.tolist() == [2]
    assert stream_offsets(path) == [0, len(z)]
    assert [s.line for s in edge_sources(path, "rain", "flood")] == [1, 2]


_WHOLE = bz2.compress(b"x" * 500)
# padding, bytes that start "BZh" (junk, or a stream cut before its end marker)
_TAILS = st.one_of(st.binary(max_size=40), st.binary(max_size=40).map(lambda b: b"BZh" + b),
                   st.integers(3, len(_WHOLE) - 1).map(lambda n: _WHOLE[:n]))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tail=_TAILS)
def test_the_loader_and_the_index_agree_on_bytes_after_the_last_bz2_stream(tmp_path_factory, tail):
    # Bytes that start "BZh" and form no stream: both refuse them naming the file, the stream and its byte
    # offset (len(z) * 2, computed here), where bz2.open dropped them; any other tail (padding) both ignore.
    import re

    line = (json.dumps(relation("rain", "flood", [("wikipedia_sentence", "Rain floods.")])) + "\n").encode()
    z = bz2.compress(line)
    path = tmp_path_factory.mktemp("tail") / "c.jsonl.bz2"
    path.write_bytes(z + z + tail)
    got = []
    for read in (lambda: load_causenet(path, engine="python").relations.tolist(),
                 lambda: [s.line for s in edge_sources(path, "rain", "flood")]):
        try:
            got.append(read())
        except SchemaError as exc:
            where = re.search(r"stream (\d+) at byte ([\d,]+)", str(exc))
            assert str(path) in str(exc) and where, exc
            got.append((where[1], where[2]))
    if tail[:3] == b"BZh":
        assert got == [("2", f"{2 * len(z):,}")] * 2
    else:
        assert got == [[2], [1, 2]]


def test_streams_kept_between_queries_are_dropped_when_the_file_changes(two_streams):
    idx, _ = open_index(two_streams)
    assert [s.sentence for s in idx.sources("rain", "flood")] == ["Rain floods."]
    assert list(idx._recent) == [0]
    data = bytearray(two_streams.read_bytes())
    data[20] ^= 0xFF
    two_streams.write_bytes(bytes(data))
    os.utime(two_streams, ns=(5, 5))  # another time: what was kept is read again, and its CRC checked
    with pytest.raises(SchemaError, match="stream 0 at byte 0 is not what was indexed"):
        idx.sources("rain", "flood")


def test_a_concept_argument_that_is_not_utf8_is_an_unknown_concept_in_one_line(two_streams, capsys):
    # bytes that are not UTF-8 on the command line reach Python as lone surrogates (surrogateescape)
    assert main(["causenet", "sources", "\udcff", "flood", "--data", f"causenet:{two_streams}"]) == 2
    err = capsys.readouterr().err.splitlines()  # the index is built first: a note, then the error
    assert "Traceback" not in "".join(err) and err[-1].startswith("causalgraph causenet: error: ")
    assert "no concept '\\udcff' among its 3 concepts" in err[-1]
    with pytest.raises(SchemaError, match="no concept"):
        edge_sources(two_streams, "rain", "fl\udcffood")


def test_a_line_cut_inside_its_sources_is_named_not_json_not_a_changed_file(tmp_path, capsys):
    # the index reads a line's relation from its first bytes; the rest is parsed only when queried
    good = json.dumps(relation("rain", "flood", [("wikipedia_sentence", "Rain floods.")]))
    path = tmp_path / "c.jsonl"
    path.write_text(good + "\n" + good[:-20] + "\n")
    assert main(["causenet", "sources", "rain", "flood", "--data", f"causenet:{path}"]) == 2
    err = capsys.readouterr().err.splitlines()  # the index is built first: a note, then the error
    assert "Traceback" not in "".join(err) and err[-1].startswith("causalgraph causenet: error: ")
    assert "line 2: not valid JSON" in err[-1] and "changed since" not in err[-1]


def test_a_concept_with_edge_spaces_or_underscores_is_found_as_the_loader_names_it(tmp_path):
    # the loader keeps a concept as written ('crop_loss_' is 'crop loss '); sample-subgraphs --sources asks the
    # index for the loader's names, so the index must find them too (a name typed with stray spaces still finds the
    # concept without them)
    path = tmp_path / "c.jsonl"
    path.write_text("".join(json.dumps(relation(c, e, [("wikipedia_sentence", f"{c}|{e}")])) + "\n"
                            for c, e in ((" rain", "flood"), ("flood", "crop_loss_"), ("crop_loss_", "famine"))))
    g = load_causenet(path)
    names = [g.name_of(i) for i in range(g.n_nodes)]
    assert " rain" in names and "crop loss " in names
    assert [s.sentence for s in edge_sources(path, " rain", "flood")] == [" rain|flood"]
    assert [s.sentence for s in edge_sources(path, "crop loss ", "famine")] == ["crop_loss_|famine"]
    assert [s.sentence for s in edge_sources(path, " flood  ", "crop_loss_")] == ["flood|crop_loss_"]  # stray spaces


@pytest.mark.parametrize("damage", ["locator-list", "locator-no-checksum", "locator-checksum-number", "array-garbage",
                                    "array-missing", "meta-without-kind"])
def test_a_damaged_index_cache_is_indexed_again_not_a_traceback(two_streams, damage, capsys):
    idx, _ = open_index(two_streams)
    locators = list((idx.folder.parent / "paths").glob("*.json"))
    assert len(locators) == 1
    seen = json.loads(locators[0].read_text())
    if damage == "locator-list":
        locators[0].write_text("[1]")
    elif damage.startswith("locator"):
        if damage == "locator-no-checksum":
            del seen["sha256"]
        else:
            seen["sha256"] = 5
        locators[0].write_text(json.dumps(seen))
    elif damage == "array-garbage":
        (idx.folder / "edge_key.npy").write_text("garbage")
    elif damage == "array-missing":
        (idx.folder / "edge_key.npy").unlink()
    else:
        meta = json.loads((idx.folder / "meta.json").read_text())
        del meta["kind"]
        (idx.folder / "meta.json").write_text(json.dumps(meta))
    assert [s.sentence for s in edge_sources(two_streams, "rain", "flood")] == ["Rain floods."]
    assert main(["causenet", "sources", "flood", "crop_loss", "--data", f"causenet:{two_streams}", "--format",
                 "csv"]) == 0
    assert "Floods ruin crops." in capsys.readouterr().out


@pytest.mark.parametrize("blank", ["", "   ", "\u00a0\u3000"])
def test_a_blank_concept_is_refused_by_the_index_as_by_the_loader(tmp_path, blank):
    path = tmp_path / "c.jsonl"
    lines = [json.dumps(relation("rain", "flood")), json.dumps(relation(blank, "flood"), ensure_ascii=False)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(SchemaError, match="line 2"):
        load_causenet(path)
    with pytest.raises(SchemaError, match="line 2: field causal_relation: found a concept that is not a non-empty"):
        build_index(path)
