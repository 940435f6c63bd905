"""``causalgraph chains``, ``encode`` and ``items``: output shape, errors, determinism."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

from causalgraph.cli import main


def test_chains_csv_columns_and_rows(capsys):
    assert main(["chains", "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert list(rows[0]) == ["statement_id", "event", "membership", "position", "depth", "breadth", "n_nodes",
                             "n_chains"]
    assert len(rows) == 512
    assert sum(r["membership"] == "yes" for r in rows) == 115


def test_chains_shortest_distance_json(capsys):
    assert main(["chains", "--rule", "shortest-distance", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 512
    # shortcuts turn 8 starts and 11 ends into none (docs/reproduction.md)
    counts = {p: sum(r["position"] == p for r in rows) for p in ("start", "middle", "end", "none")}
    assert counts == {"start": 24, "middle": 48, "end": 24, "none": 416}
    assert sum(r["membership"] == "yes" for r in rows) == 96


def test_chains_on_sample_corpus_table(capsys):
    assert main(["chains", "--data", "sample"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ["statement_id", "event", "membership", "position", "depth", "breadth",
                                           "n_nodes", "n_chains"]


def test_encode_graphml_statement(capsys):
    assert main(["encode", "--statement", "cc-007", "--encoding", "graphml"]) == 0
    root = ET.fromstring(capsys.readouterr().out)
    ns = "{http://graphml.graphdrawing.org/xmlns}"
    assert [n.get("id") for n in root.iter(f"{ns}node")] == [
        "weather extreme events", "acute food insecurity", "climate extreme events", "water security"]


def test_encode_lists_edges_in_the_authors_order_unless_data_order_is_asked(capsys):
    # cc-007's rows give weather -> food, climate -> food, weather -> water, climate -> water
    assert main(["encode", "--statement", "cc-007"]) == 0
    assert capsys.readouterr().out == (
        "(weather extreme events, acute food insecurity) (weather extreme events, water security) "
        "(climate extreme events, acute food insecurity) (climate extreme events, water security)\n")
    assert main(["encode", "--statement", "cc-007", "--order", "data"]) == 0
    assert capsys.readouterr().out == (
        "(weather extreme events, acute food insecurity) (climate extreme events, acute food insecurity) "
        "(weather extreme events, water security) (climate extreme events, water security)\n")


def test_encode_graphml_prints_the_document_once_with_its_newline(capsys):
    assert main(["encode", "--statement", "cc-026", "--encoding", "graphml"]) == 0
    out = capsys.readouterr().out
    assert out.endswith("</graphml>\n") and not out.endswith("\n\n")


def test_encode_unknown_statement_exit_2(capsys):
    assert main(["encode", "--statement", "cc-999"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--statement 'cc-999': no such statement in corpus 'climatecause' (75 statements, ids cc-001 … cc-075)" in err


def test_items_jsonl(capsys):
    assert main(["items", "--task", "ccr-position", "--variant", "SN_4", "--limit", "3"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [x["id"] for x in lines] == ["ccr-position/SN_4/cc-001/e000", "ccr-position/SN_4/cc-001/e001",
                                       "ccr-position/SN_4/cc-001/e002"]
    assert set(lines[0]) == {"id", "task", "variant", "prompt", "gold", "meta", "system"}


def test_items_ccr_member_a5_sends_the_authors_edge_order(capsys):
    assert main(["items", "--task", "ccr-member", "--variant", "A_5", "--format", "jsonl"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(lines) == 512
    cc026 = next(x for x in lines if x["meta"]["statement_id"] == "cc-026")
    assert cc026["prompt"] == (
        "The causal relationships in a causal graph are- "
        "(implementation of packages of multiple city-scale mitigation strategies, effects across sectors) "
        "(implementation of packages of multiple city-scale mitigation strategies, greenhouse gases emissions) "
        "(effects across sectors, greenhouse gases emissions). Based on this graph, determine whether "
        "implementation of packages of multiple city-scale mitigation strategies belongs to a causal chain. "
        "A causal chain is a directed path of at least three nodes in a causal graph. Answer with {Yes, No} only.")
    assert main(["items", "--task", "ccr-member", "--variant", "A_5", "--order", "data"]) == 0
    data = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    changed = sum(a["prompt"] != b["prompt"] for a, b in zip(lines, data))
    assert changed == 203 and [x["id"] for x in data] == [x["id"] for x in lines]


def test_items_openai_batch_file(tmp_path, capsys):
    out = tmp_path / "batch.jsonl"
    assert main(["items", "--task", "corri", "--variant", "0_3", "--openai-batch", str(out),
                 "--model", "gpt-5.1"]) == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 874
    first = json.loads(lines[0])
    assert first["custom_id"] == "corri/0_3/cc-001/r000" and first["body"]["model"] == "gpt-5.1"
    assert (first["method"], first["url"]) == ("POST", "/v1/chat/completions")
    assert first["body"]["messages"] == [{"role": "user", "content": (
        "[MASK] in {increase, decrease}. If climate change (the cause) were to increase, substantial damages "
        "in terrestrial ecosystems (the effect) would [MASK].")}]
    assert len({json.loads(x)["custom_id"] for x in lines}) == 874
    assert "wrote 874 requests" in capsys.readouterr().err


def test_items_openai_batch_without_model_exit_2(tmp_path, capsys):
    assert main(["items", "--task", "corri", "--variant", "0_3", "--openai-batch", str(tmp_path / "b")]) == 2
    assert "needs --model" in capsys.readouterr().err


def test_items_unknown_variant_exit_2(capsys):
    assert main(["items", "--task", "ccr-member", "--variant", "CoT_4"]) == 2
    assert "unknown variant 'CoT_4' for task ccr-member" in capsys.readouterr().err


def test_chains_and_items_do_not_depend_on_hash_seed():
    outs = []
    for seed in ("0", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        code = ("from causalgraph.cli import main; main(['chains','--format','csv']); "
                "main(['items','--task','corri-multihop','--variant','0_1'])")
        outs.append(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                                   check=True).stdout)
    assert outs[0] == outs[1] and len(outs[0]) > 1000
