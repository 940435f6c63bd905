"""``chains --data causenet:PATH``, ``sample-subgraphs`` and ``extraction-chains --merged`` on the command line."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys

import pytest
from causenet_files import relation, write

from causalgraph.cli import main

LINES = [
    relation("smoking", "lung_cancer", [("wikipedia_sentence", "Smoking causes lung cancer.")]),
    relation("lung_cancer", "death", [("wikipedia_list", None), ("clueweb12_sentence", "Cancer kills.")]),
    relation("asbestos", "lung_cancer", [("wikipedia_sentence", "Asbestos causes lung cancer.")]),
    relation("poverty", "stress", []),
    relation("stress", "poverty", []),
    relation("stress", "illness", []),
]


@pytest.fixture
def causenet(tmp_path):
    return write(tmp_path / "causenet.jsonl.bz2", LINES, "bz2")


def test_chains_prints_every_concept_with_its_components_statistics(causenet, capsys):
    assert main(["chains", "--data", f"causenet:{causenet}", "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert list(rows[0]) == ["component", "event", "membership", "position", "depth", "breadth", "n_nodes",
                             "n_chains"]
    got = {r["event"]: (r["component"], r["position"], r["depth"], r["n_chains"]) for r in rows}
    # component 0: smoking/asbestos -> lung cancer -> death: depth 2, two chains
    assert got["smoking"] == ("0", "start", "2", "2") and got["death"] == ("0", "end", "2", "2")
    # component 1: poverty <-> stress -> illness; condensed {poverty, stress} -> illness: depth 1, no chain
    assert got["poverty"] == ("1", "none", "1", "0") and got["stress"] == ("1", "middle", "1", "0")


def test_chains_components_and_the_file_found_by_content_without_the_prefix(causenet, capsys):
    assert main(["chains", "--data", str(causenet), "--components", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["component"], r["n_nodes"], r["n_edges"], r["depth"], r["n_chains"], r["acyclic"],
             r["cyclic_nodes"], r["start"], r["middle"], r["end"]) for r in rows] == [
        (0, 4, 3, 2, 2, "yes", 0, 2, 1, 1), (1, 3, 3, 1, 0, "no", 2, 0, 1, 1)]


def test_chains_table_format_lines_up(causenet, capsys):
    assert main(["chains", "--data", f"causenet:{causenet}", "--components"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["component", "n_nodes", "n_edges", "depth", "breadth", "n_chains", "acyclic",
                              "cyclic_nodes", "start", "middle", "end"]
    assert len({len(line) for line in out[:2]}) == 1


def test_a_malformed_line_is_one_error_line_and_lenient_lists_each_skip(tmp_path, capsys):
    p = write(tmp_path / "c.jsonl", LINES[:2] + ['{"causal_relation": null}'] + LINES[2:])
    assert main(["chains", "--data", f"causenet:{p}"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == (f"causalgraph chains: error: {p}, line 3: field causal_relation: found None; expected "
                           'an object {"cause": …, "effect": …}')
    assert main(["chains", "--data", f"causenet:{p}", "--lenient", "--format", "csv"]) == 0
    cap = capsys.readouterr()
    assert cap.err.count("skipped:") == 1 and "line 3" in cap.err
    assert len(cap.out.splitlines()) == 1 + 7


def test_causenet_options_on_other_data_are_refused(capsys):
    assert main(["chains", "--data", "sample", "--components"]) == 2
    assert "--components applies to CauseNet data" in capsys.readouterr().err


def test_min_sources_filters_before_labelling(causenet, capsys):
    assert main(["chains", "--data", f"causenet:{causenet}", "--min-sources", "2", "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [(r["event"], r["position"]) for r in rows] == [("lung cancer", "none"), ("death", "none")]


def test_sample_subgraphs_writes_statements_with_provenance(causenet, tmp_path, capsys):
    out = tmp_path / "sub.csv"
    assert main(["sample-subgraphs", "--data", f"causenet:{causenet}", "--around", "lung_cancer", "stress",
                 "--hops", "1", "--max-nodes", "10", "--keep-sentences", "-o", str(out)]) == 0
    assert "wrote 2 statements, 6 relations" in capsys.readouterr().err
    with open(out, newline="") as f:
        rows = list(csv.DictReader(f))
    assert [(r["statement_id"], r["cause"], r["effect"]) for r in rows] == [
        ("causenet-0001", "smoking", "lung cancer"), ("causenet-0001", "lung cancer", "death"),
        ("causenet-0001", "asbestos", "lung cancer"), ("causenet-0002", "poverty", "stress"),
        ("causenet-0002", "stress", "poverty"), ("causenet-0002", "stress", "illness")]
    assert rows[0]["text"] == "Smoking causes lung cancer. Cancer kills. Asbestos causes lung cancer."
    prov = json.loads(rows[1]["context"])["edges"][1]
    assert prov == {"cause": "lung cancer", "effect": "death", "relations": 1, "sources": 2,
                    "source_types": {"wikipedia_list": 1, "clueweb12_sentence": 1}}


@pytest.mark.parametrize("argv,message", [
    (["--around", "asbestosis"], "no concept 'asbestosis'"),
    (["--random", "99"], "asked for 99 random centres"),
    (["--random", "2", "--max-nodes", "1"], "--max-nodes must be an integer from 2"),
    (["--random", "2", "--around", "x"], "not allowed with argument"),
])
def test_sample_subgraphs_errors_are_one_line_with_exit_2(causenet, tmp_path, capsys, argv, message):
    try:  # option errors exit from the parser, library errors return 2
        code = main(["sample-subgraphs", "--data", f"causenet:{causenet}", *argv, "-o", str(tmp_path / "s.csv")])
    except SystemExit as exc:
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "s.csv").exists()


def test_sample_subgraphs_refuses_data_that_is_not_causenet(tmp_path, capsys):
    assert main(["sample-subgraphs", "--data", "sample", "--random", "1", "-o", str(tmp_path / "s.csv")]) == 2
    assert "reads a CauseNet JSON Lines file" in capsys.readouterr().err


def test_outputs_do_not_depend_on_the_hash_seed(causenet, tmp_path):
    outs = []
    for seed in ("0", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        code = (f"from causalgraph.cli import main; main(['chains', '--data', 'causenet:{causenet}', '--format', "
                f"'csv']); main(['sample-subgraphs', '--data', 'causenet:{causenet}', '--random', '3', '--seed', '7', "
                f"'-o', '{tmp_path / ('s' + seed + '.csv')}'])")
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
        outs.append(out + (tmp_path / f"s{seed}.csv").read_text())
    assert outs[0] == outs[1] and "causenet-0001" in outs[0]


def test_extraction_chains_merged_counts_the_corpus_level_graph(capsys):
    assert main(["extraction-chains", "pubmedcausal:test", "--merge", "exact", "--merged", "--format", "json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    from causalgraph.extraction.producer import corpus_from_extraction
    from causalgraph.graph import compile_graph

    import networkx as nx

    g = nx.DiGraph()
    for st in corpus_from_extraction("pubmedcausal:test", merge="exact"):
        if st.relations:
            g.add_edges_from(compile_graph(st).pairs)
    assert (row["nodes"], row["edges"]) == (g.number_of_nodes(), g.number_of_edges())
    assert row["components"] == nx.number_weakly_connected_components(g)
    g.remove_edges_from(list(nx.selfloop_edges(g)))
    assert row["depth"] == nx.dag_longest_path_length(nx.condensation(g))


def test_sample_subgraphs_checks_its_options_before_reading_the_graph(tmp_path, capsys):
    never_read = write(tmp_path / "c.jsonl", ["{broken"])  # reading it would be a different error
    assert main(["sample-subgraphs", "--data", f"causenet:{never_read}", "--random", "2", "--hops", "0",
                 "-o", str(tmp_path / "s.csv")]) == 2
    assert "--hops must be an integer >= 1, got 0" in capsys.readouterr().err
