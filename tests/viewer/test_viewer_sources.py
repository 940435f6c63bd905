"""The run viewer's item detail shows the CauseNet sources an item carries (``sample-subgraphs --sources``)."""

from __future__ import annotations

import json
import time
from collections import defaultdict

import pytest

from causenet_files import relation, write

from causalgraph.bench.runner import run_benchmark
from causalgraph.cli import main
from causalgraph.runlog.store import load_run
from causalgraph.viewer import build_run_view, write_run_page
from causalgraph.viewer.payload import build_payload, unpack

# a sentence with markup in it: the page must show it as text
LINES = [relation("smoking", "lung_cancer", [("wikipedia_sentence", "Smoking <b>causes</b> lung cancer & more."),
                                             ("clueweb12_sentence", "Cigarettes cause cancer of the lung.")]),
         relation("lung_cancer", "death", [("wikipedia_sentence", "Lung cancer often leads to death.")]),
         relation("smoking", "death", [("wikipedia_infobox", None)])]


@pytest.fixture
def sampled_run(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CAUSALGRAPH_CACHE", str(tmp_path / "cache"))
    f = write(tmp_path / "c.jsonl.bz2", LINES, "bz2")
    statements = tmp_path / "s.jsonl"
    assert main(["sample-subgraphs", "--data", f"causenet:{f}", "--around", "smoking", "--hops", "2",
                 "--sources", "-o", str(statements)]) == 0
    capsys.readouterr()
    res = run_benchmark("parents", ["A_1"], "mock/oracle", data=str(statements), out=tmp_path / "run")
    return res, statements


def _expected() -> dict:
    out = defaultdict(list)
    for n, obj in enumerate(LINES, start=1):
        cr = obj["causal_relation"]
        key = (cr["cause"]["concept"].replace("_", " "), cr["effect"]["concept"].replace("_", " "))
        for s in obj["sources"]:
            sent = s["payload"].get("sentence")
            out[key].append((n, s["type"], sent["surface"] if sent else None))
    return out


def test_the_payload_carries_each_items_sources_edge_by_edge(sampled_run):
    res, statements = sampled_run
    view = build_run_view(load_run(res.path), data=str(statements))
    details = [d for c in build_payload([view])["details"] for d in unpack(c)]
    assert details
    exp = _expected()
    for d in details:
        got = {(e["cause"], e["effect"]): (e["sources_total"], [(s["line"], s["type"], s["sentence"])
                                                              for s in e["sources_shown"]]) for e in d["edge_sources"]}
        assert got == {k: (len(v), v) for k, v in exp.items()}


@pytest.mark.browser
def test_the_item_detail_shows_a_sources_section_as_text(chromium, sampled_run, tmp_path):
    res, statements = sampled_run
    page = write_run_page([res.path], tmp_path / "p.html", data=str(statements))
    load = chromium.open(page, ready="data-ready")
    assert load.errors == [] and load.external == []
    chromium.js("window.cgRunView.show(0)")
    deadline = time.monotonic() + 20
    while not chromium.js("return document.body.getAttribute('data-detail')"):
        assert time.monotonic() < deadline
        time.sleep(0.1)
    heads = chromium.js("return Array.prototype.map.call(document.querySelectorAll('#d-sources h3, #d-sources p'),"
                        " function (e) { return e.textContent; })")
    assert heads[0] == "Sources"
    assert sorted(heads[1:]) == ["lung cancer \u2192 death (1 of 1 sources)", "smoking \u2192 death (1 of 1 sources)",
                                 "smoking \u2192 lung cancer (2 of 2 sources)"]
    sentences = chromium.js("return Array.prototype.map.call(document.querySelectorAll('#d-sources .source-sentence'),"
                            " function (e) { return e.textContent; })")
    assert sorted(sentences) == sorted(["Smoking <b>causes</b> lung cancer & more.",
                                        "Cigarettes cause cancer of the lung.", "Lung cancer often leads to death.",
                                        "(no sentence)"])
    assert chromium.js("return document.querySelectorAll('#d-sources b').length") == 0  # markup shown, not run
