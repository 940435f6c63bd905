"""Sign chains on the run page: a noisy model's CorrI and multi-hop answers, marked where they do not compose."""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from causalgraph.cli import main
from causalgraph.stats import sign_consistency
from causalgraph.viewer import build_payload, load_views, unpack, write_run_page
from causalgraph.viewer.consistency import sign_chains

JS = Path(__file__).resolve().parents[2] / "causalgraph" / "viewer" / "assets" / "viewer.js"
SIGN = {"positive": 1, "negative": -1}


@pytest.fixture(scope="module")
def sign_runs(tmp_path_factory):
    """A mock/noisy model (40 % of answers flipped) on CorrI 0_1 and corri-multihop 0_1 of the sample corpus."""
    out = tmp_path_factory.mktemp("sign-runs")
    for task in ("corri", "corri-multihop"):
        assert main(["bench", "run", "--data", "sample", "--task", task, "--variant", "0_1", "--model", "mock/noisy",
                     "--model-option", "flip=0.4", "--temperature", "1", "--limit", "20",
                     "--out", str(out / task)]) == 0
    return out / "corri", out / "corri-multihop"


def _responses(run: Path) -> list[dict]:
    return [json.loads(x) for x in (run / "responses.jsonl").read_text(encoding="utf-8").splitlines()]


def _recount(edges: Path, chains: Path) -> tuple[set, set]:
    """Endpoint item ids of the answered chains and of the inconsistent ones, composed from the files directly."""
    edge: dict = {}
    for r in _responses(edges):
        edge.setdefault((r["meta"]["statement_id"], r["meta"]["cause"], r["meta"]["effect"]), set()).add(
            SIGN.get(r["label"]))
    answered, bad = set(), set()
    for r in _responses(chains):
        ev = r["meta"]["events"]
        got = [edge.get((r["meta"]["statement_id"], a, b)) for a, b in zip(ev, ev[1:])]
        if any(g is None or len(g) != 1 or None in g for g in got) or SIGN.get(r["label"]) is None:
            continue
        composed = 1
        for g in got:
            composed *= next(iter(g))
        answered.add(r["item_id"])
        if composed != SIGN[r["label"]]:
            bad.add(r["item_id"])
    return answered, bad


def test_the_page_marks_the_chains_sign_consistency_finds_inconsistent(sign_runs):
    edges, chains = sign_runs
    views, comparison = load_views([edges, chains])
    payload = build_payload(views, comparison)
    cs = payload["consistency"]
    rep = sign_consistency([edges, chains])
    lib_bad = {r["endpoint_item"] for r in rep.chains.to_dict("records") if r["consistent"] is False}
    answered, bad = _recount(edges, chains)
    assert answered and bad, "the noisy model should leave some chains inconsistent (seeded)"
    assert lib_bad == bad
    # Each marked chain's row is its endpoint item on the page, the second run's.
    details = [x for chunk in payload["details"] for x in unpack(chunk)]
    marked = {details[c["row"]]["id"] for c in cs["chains"] if c["consistent"] is False}
    assert marked == bad
    assert {details[c["row"]]["id"] for c in cs["chains"] if c["consistent"] is not None} == answered
    assert all(payload["cols"]["run"][c["row"]] == 1 for c in cs["chains"])
    for c in cs["chains"]:
        # The edge rows are the CorrI items of each hop, and their answers are the chain's edge answers.
        for (a, b), rows, ans in zip(zip(c["path"], c["path"][1:]), c["edge_rows"], c["edges"]):
            assert rows and all((details[j]["meta"]["cause"], details[j]["meta"]["effect"]) == (a, b) for j in rows)
            assert {SIGN.get(details[j]["label"], "other") for j in rows} == {ans}
        if c["consistent"] is not None:
            composed = 1
            for s in c["edges"]:
                composed *= s
            assert c["composed"] == composed and c["consistent"] == (composed == c["endpoint"])
    row = cs["table"][0]
    assert (row["answered"], row["consistent"]) == (len(answered), len(answered) - len(bad))


def test_pages_without_sign_chains_are_unchanged(sign_runs):
    edges, chains = sign_runs
    alone = build_payload(*load_views([edges]))
    assert "consistency" not in alone  # CorrI alone covers no chain
    views, comparison = load_views([edges, chains])
    with_chains = build_payload(views, comparison)
    # Without the loaded runs there is nothing to count: the payload is the same but for the one field.
    bare = build_payload([dataclasses.replace(v, run=None) for v in views], comparison)
    assert "consistency" not in bare
    with_chains.pop("consistency")
    assert json.dumps(with_chains, sort_keys=True) == json.dumps(bare, sort_keys=True)
    assert sign_chains([], []) is None


def test_viewer_js_parses():
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    out = subprocess.run([node, "--check", str(JS)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr


@pytest.mark.browser
def test_the_page_lists_and_marks_the_chains_in_chromium(chromium, sign_runs, tmp_path):
    edges, chains = sign_runs
    _, bad = _recount(edges, chains)
    page = write_run_page([edges, chains], tmp_path / "chains.html")
    load = chromium.open(page, ready="data-ready")
    assert load.errors == [] and load.external == []
    assert chromium.js("return document.querySelectorAll('#chains tbody tr').length") == \
        len(sign_consistency([edges, chains]).chains)
    assert chromium.js("return document.querySelectorAll('#chains tr.inconsistent').length") == len(bad)
    assert chromium.js("return !!document.getElementById('nav-consistency')")
    chromium.js("document.querySelector('#chains tr.inconsistent').click()")
    for _ in range(200):
        if chromium.js("return document.body.getAttribute('data-detail')"):
            break
        time.sleep(0.05)
    shown = chromium.js("return document.getElementById('d-title').textContent")
    assert any(item in shown for item in bad)
    assert "inconsistent" in chromium.js("return document.getElementById('d-chains').textContent")


def _expected_rows(edges: Path, chains: Path) -> list[tuple]:
    """Every chain row the page should show, its cells written from the response files alone."""
    symbol = {1: "+", -1: "\u2212"}
    edge: dict = {}
    for r in _responses(edges):
        edge.setdefault((r["meta"]["statement_id"], r["meta"]["cause"], r["meta"]["effect"]), set()).add(
            SIGN.get(r["label"], "other") if r.get("label") is not None else None)
    out = []
    for r in _responses(chains):
        sid, ev = r["meta"]["statement_id"], r["meta"]["events"]
        got = [edge.get((sid, a, b)) for a, b in zip(ev, ev[1:])]
        if any(g is None for g in got):
            continue  # an edge not asked: the chain is not covered, not on the page
        answers = [next(iter(g)) if len(g) == 1 else None for g in got]
        cells = [symbol.get(a, "undefined" if a is None else str(a)) for a in answers]
        composed = None
        if all(a in (1, -1) for a in answers):
            composed = 1
            for a in answers:
                composed *= a
        end = SIGN.get(r["label"], "other") if r.get("label") is not None else None
        verdict = ("not answered" if composed is None or end is None
                   else "consistent" if composed == end else "\u2717 inconsistent")
        out.append(("mock/noisy", "corri/0_1", "corri-multihop/0_1", sid, " \u2192 ".join(ev), " \u00b7 ".join(cells),
                    symbol.get(composed, "undefined"), symbol.get(end, "undefined" if end is None else str(end)),
                    verdict))
    return out


@pytest.mark.browser
def test_every_cell_of_the_chains_table_is_the_response_files(chromium, sign_runs, tmp_path):
    """Read what the page shows, cell by cell: each chain row, and the rates row, against a recount of the files."""
    edges, chains = sign_runs
    page = write_run_page([edges, chains], tmp_path / "cells.html")
    load = chromium.open(page, ready="data-ready")
    assert load.errors == []
    shown = chromium.js("return Array.from(document.querySelectorAll('#chains tbody tr')).map(function (tr) {"
                        " return Array.from(tr.cells).map(function (td) { return td.textContent; }); })")
    want = _expected_rows(edges, chains)
    assert sorted(map(tuple, shown)) == sorted(want)
    # Inconsistent chains first, then those not answered, then the consistent ones.
    rank = {"\u2717 inconsistent": 0, "not answered": 1, "consistent": 2}
    assert [rank[r[-1]] for r in shown] == sorted(rank[r[-1]] for r in shown)
    rates = chromium.js("return Array.from(document.querySelectorAll('#consistency-rates tbody tr')).map("
                        "function (tr) { return Array.from(tr.cells).map(function (td) { return td.textContent; }); })")
    answered = [r for r in want if r[-1] != "not answered"]
    good = [r for r in answered if r[-1] == "consistent"]
    right = sum(1 for r in _responses(chains) if r["label"] == r["gold"]
                and any(w[3] == r["meta"]["statement_id"] and w[4] == " \u2192 ".join(r["meta"]["events"])
                        and w[-1] != "not answered" for w in want))
    assert len(rates) == 1
    row = rates[0]
    assert row[:7] == ["mock/noisy", "real", "corri/0_1", "corri-multihop/0_1", str(len(want)), str(len(answered)),
                       str(len(good))]
    assert row[7] == f"{len(good) / len(answered):.4f}"
    assert row[9] == str(len({r[3] for r in answered})) and row[10] == str(right)


@pytest.mark.browser
def test_an_items_chains_name_their_edge_source(chromium, sign_runs, tmp_path):
    """A multi-hop item whose chain is composed from CorrI edges and from net-effect edges shows two rows told apart."""
    edges, chains = sign_runs
    ne = tmp_path / "net-effect"
    assert main(["bench", "run", "--data", "sample", "--task", "net-effect", "--variant", "A_1",
                 "--model", "mock/noisy", "--model-option", "flip=0.4", "--temperature", "1", "--out", str(ne)]) == 0
    page = write_run_page([edges, chains, ne], tmp_path / "sources.html")
    load = chromium.open(page, ready="data-ready")
    assert load.errors == []
    chosen = chromium.js("var cs = window.cgRunView.data.consistency.chains;"
                         "for (var k = 0; k < cs.length; k++) { var c = cs[k];"
                         " if (c.edge_source === 'net-effect/A_1' && c.endpoint_source === 'corri-multihop/0_1')"
                         " { return k; } } return null;")
    assert chosen is not None
    chromium.js(f"document.querySelector('#chains tr[data-chain=\"{chosen}\"]').click()")
    for _ in range(200):
        if chromium.js("return !!document.getElementById('d-chains')"):
            break
        time.sleep(0.05)
    head = chromium.js("return Array.from(document.querySelectorAll('#d-chains th')).map(function (t) {"
                       " return t.textContent; })")
    cells = chromium.js("return Array.from(document.querySelectorAll('#d-chains tbody tr')).map(function (tr) {"
                        " return Array.from(tr.cells).map(function (td) { return td.textContent; }); })")
    assert "edge source" in head
    sources = [r[head.index("edge source")] for r in cells]
    assert len(sources) == len(set(sources)) == 2 and set(sources) == {"corri/0_1", "net-effect/A_1"}, cells


@pytest.mark.browser
def test_an_interval_over_one_statement_shows_undefined_with_its_note(chromium, tmp_path):
    # The first three CorrI items and multi-hop chains of the sample are all of sample-001.
    for task in ("corri", "corri-multihop"):
        assert main(["bench", "run", "--data", "sample", "--task", task, "--variant", "0_1", "--model", "mock/oracle",
                     "--limit", "3", "--out", str(tmp_path / task)]) == 0
    page = write_run_page([tmp_path / "corri", tmp_path / "corri-multihop"], tmp_path / "one.html")
    assert chromium.open(page, ready="data-ready").errors == []
    row = chromium.js("return Array.from(document.querySelectorAll('#consistency-rates tbody td')).map(function (td) {"
                      " return td.textContent; })")
    assert row[7] == "1" and row[9] == "1"
    assert row[8] == "undefined" and "one statement" in row[11]
