"""Stratified subgraph sampling and statements carrying their sources (``sample-subgraphs --stratify --sources``)."""

from __future__ import annotations

import bz2
import json
import os
import subprocess
import sys
from collections import Counter, defaultdict

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from causalgraph.cli import main
from causalgraph.datasets.causenet import load_causenet
from causalgraph.datasets.causenet_standin import write_standin
from causalgraph.errors import ConfigError
from causalgraph.graph.merged import merge_pairs
from causalgraph.graph.subgraphs import sample_subgraphs, stratify_subgraphs, subgraph_strata


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CAUSALGRAPH_CACHE", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def standin(tmp_path_factory):
    return write_standin(tmp_path_factory.mktemp("standin") / "s.jsonl.bz2", 600, seed=5, stream_bytes=100_000).path


def nx_depth(pairs) -> int:
    g = nx.DiGraph()
    g.add_edges_from(pairs)
    g.remove_edges_from(list(nx.selfloop_edges(g)))
    return nx.dag_longest_path_length(nx.condensation(g)) if g.number_of_nodes() else 0


def bucket_depth(d: int) -> str:
    return str(d) if d < 3 else "3+"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)), min_size=1, max_size=20))
def test_the_depth_stratum_is_the_longest_path_of_the_condensation_as_networkx_finds_it(pairs):
    g = merge_pairs([(f"n{a}", f"n{b}") for a, b in pairs])
    subs, _ = sample_subgraphs(g, around=[0], hops=8, max_nodes=20)
    sg = subs[0]
    members = {g.name_of(int(i)) for i in sg.nodes}
    induced = [(a, b) for a, b in g.pairs() if a in members and b in members]
    assert subgraph_strata(g, sg)["depth"] == bucket_depth(nx_depth(induced) if induced else 0)


def test_support_source_type_and_size_strata_are_computed_from_the_edges(standin):
    g = load_causenet(standin)
    subs, _ = sample_subgraphs(g, n_random=40, hops=2, max_nodes=9, seed=3)
    types = list(g.source_types)
    for sg in subs:
        s = subgraph_strata(g, sg)
        low = min(int(g.sources[e]) for e in sg.edges)
        assert s["support"] == ("1" if low == 1 else "2-4" if low <= 4 else "5+")
        per = Counter()
        for e in sg.edges:
            for t, c in zip(types, g.type_counts[e]):
                per[t] += int(c)
        best = max(per.values())
        assert s["source-type"] == next(t for t in types if per[t] == best)
        n = len(sg.nodes)
        assert s["size"] == ("2-4" if n <= 4 else "5-8" if n <= 8 else "9+")


def test_stratified_sampling_spreads_evenly_over_the_strata_and_is_seeded(standin):
    g = load_causenet(standin)
    subs, strata, counts = stratify_subgraphs(g, 30, ["depth", "size"], hops=2, max_nodes=9, seed=4)
    assert len(subs) == 30 and counts["written"] == 30 and sum(counts["per_stratum"].values()) == 30
    # the pool, independently: each stratum's size in it; none taken above another by more than one unless exhausted
    pool, _ = sample_subgraphs(g, n_random=counts["pool"], hops=2, max_nodes=9, seed=4)
    avail = Counter(f"depth={subgraph_strata(g, s)['depth']}|size={subgraph_strata(g, s)['size']}" for s in pool)
    taken = counts["per_stratum"]
    assert set(taken) == set(avail)
    top = max(taken.values())
    for k, v in taken.items():
        assert v == avail[k] or v >= top - 1, (k, v, avail[k], top)
    assert Counter(f"depth={s['depth']}|size={s['size']}" for s in strata) == Counter(
        {k: v for k, v in taken.items() if v})
    again = stratify_subgraphs(g, 30, ["depth", "size"], hops=2, max_nodes=9, seed=4)
    assert [s.nodes.tolist() for s in again[0]] == [s.nodes.tolist() for s in subs]
    other = stratify_subgraphs(g, 30, ["depth", "size"], hops=2, max_nodes=9, seed=5)
    assert [s.nodes.tolist() for s in other[0]] != [s.nodes.tolist() for s in subs]
    with pytest.raises(ConfigError, match="stratify by one or more of support, source-type, size, depth; got 'x'"):
        stratify_subgraphs(g, 3, ["x"])


def brute_sources(path):
    out = defaultdict(list)
    for i, raw in enumerate(bz2.open(path, "rb"), start=1):
        o = json.loads(raw)
        cr = o["causal_relation"]
        key = (cr["cause"]["concept"].replace("_", " "), cr["effect"]["concept"].replace("_", " "))
        for s in o["sources"]:
            p = s["payload"]
            out[key].append((i, s["type"], p.get("sentence", {}).get("surface"),
                             p.get("clueweb12_page_reference") or p.get("wikipedia_page_title")))
    return out


def test_statements_carry_the_sources_of_their_edges_as_a_full_scan_finds_them(standin, tmp_path, capsys):
    out = tmp_path / "s.jsonl"
    assert main(["sample-subgraphs", "--data", f"causenet:{standin}", "--random", "12", "--stratify",
                 "support,source-type", "--seed", "2", "--sources", "--max-sources", "2", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "strata (from a pool of 48)" in err and "wrote 12 statements" in err
    # the seek index was recorded while loading: no second pass to index the file for its sources
    assert "note: indexed" not in err
    bf = brute_sources(standin)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    seen = set()
    for r in rows:
        ctx = json.loads(r["context"])
        assert set(ctx["strata"]) == {"support", "source-type", "size", "depth"}
        texts = []
        for e in ctx["edges"]:
            exp = bf[(e["cause"], e["effect"])]
            assert e["sources_total"] == len(exp) == e["sources"]
            assert [(s["line"], s["type"], s["sentence"], s["reference"]) for s in e["sources_shown"]] == exp[:2]
            first = next((x[2] for x in exp if x[2]), f"{e['cause']} causes {e['effect']}.")
            if first not in texts:
                texts.append(first)
        assert r["text"] == " ".join(texts)
        seen.add(r["statement_id"])
    assert len(seen) == 12


def test_stratified_statements_do_not_depend_on_the_hash_seed(standin, tmp_path):
    outs = []
    for seed in ("0", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        target = tmp_path / f"s{seed}.csv"
        code = (f"from causalgraph.cli import main; main(['sample-subgraphs', '--data', 'causenet:{standin}', "
                f"'--random', '8', '--stratify', 'depth,size,support,source-type', '--seed', '7', '--sources', "
                f"'-o', '{target}'])")
        subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        outs.append(target.read_text())
    assert outs[0] == outs[1] and "causenet-0008" in outs[0]


@pytest.mark.parametrize("argv, message", [
    (["--random", "5", "--stratify", "depth,bogus"], "--stratify 'bogus': expected one or more of support, "
                                                     "source-type, size, depth"),
    (["--around", "acid", "--stratify", "depth"], "--stratify needs --random N"),
    (["--random", "5", "--pool", "10"], "--pool applies to --stratify"),
    (["--random", "5", "--stratify", "size", "--pool", "3"], "--pool must be at least --random (5), got 3"),
    (["--random", "5", "--max-sources", "-1"], "--max-sources must be 0 or more, got -1"),
])
def test_stratify_errors_are_one_line_exit_2(standin, tmp_path, capsys, argv, message):
    assert main(["sample-subgraphs", "--data", f"causenet:{standin}", *argv, "-o", str(tmp_path / "s.csv")]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_stratified_sampling_refuses_more_subgraphs_than_centres_as_unstratified_sampling_does():
    # 4 concepts with an edge: 5 random subgraphs cannot be drawn, stratified or not (not 4 written silently)
    g = merge_pairs([("a", "b"), ("b", "c"), ("c", "d"), ("x", "x")])
    message = "asked for 5 random centres, but only 4 concepts of the graph have an edge to another concept"
    with pytest.raises(ConfigError, match=message):
        sample_subgraphs(g, n_random=5, hops=1, max_nodes=4)
    with pytest.raises(ConfigError, match=message):
        stratify_subgraphs(g, 5, ["size"], hops=1, max_nodes=4)
    assert len(stratify_subgraphs(g, 4, ["size"], hops=1, max_nodes=4)[0]) == 4
