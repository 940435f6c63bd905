"""The run page in headless Chromium: offline, no console error, filters, inert data, comparison, graphs.

Screenshots are kept under ``test-artifacts/viewer/`` (git-ignored); each test prints where.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest


from causalgraph.runlog.store import RunStore
from causalgraph.viewer import write_run_page

from test_page import HOSTILE
from toy_runs import RUN_A, RUN_B, write_toy_run

pytestmark = pytest.mark.browser
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "viewer"


def _wait(chromium, attr: str, timeout: float = 20.0):
    deadline = time.monotonic() + timeout
    while True:
        v = chromium.js(f"return document.body.getAttribute('{attr}')")
        if v:
            return v
        assert time.monotonic() < deadline, f"<body {attr}> not set within {timeout} s"
        time.sleep(0.05)


def _shot(chromium, name: str, height: int = 2000) -> None:
    chromium.driver.set_window_size(1280, height)
    path = chromium.screenshot(ARTIFACTS / name)
    chromium.driver.set_window_size(1280, 1000)
    print(f"screenshot: {path}")


def _count(chromium) -> int:
    return chromium.js("return window.cgRunView.visibleCount()")


def _states(chromium, **checked) -> int:
    for state, on in checked.items():
        chromium.js(f"var b = document.querySelector('#f-states input[data-state={state}]');"
                    f"if (b.checked !== {str(on).lower()}) {{ b.click(); }}")
    return _count(chromium)


def test_filters_change_the_visible_row_count_to_the_expected_number(chromium, tmp_path):
    page = write_run_page([write_toy_run(tmp_path / "run-a", RUN_A)], tmp_path / "a.html")
    load = chromium.open(page, ready="data-ready")
    assert load.errors == [] and load.external == [] and load.failed == []
    assert load.requests == [page.resolve().as_uri()]
    outcomes = [(v, s, o) for v, per in RUN_A.items() for s, o in per.items()]
    assert _count(chromium) == len(outcomes) == 8
    assert chromium.js("return window.cgRunView.renderedRows()") == 8
    assert chromium.js("return document.getElementById('count').textContent") == "8 of 8 items"
    # Outcome check boxes: hide the correct ones, then the wrong ones too.
    assert _states(chromium, correct=False) == sum(o != "correct" for _, _, o in outcomes) == 4
    assert _states(chromium, wrong=False) == sum(o not in ("correct", "wrong") for _, _, o in outcomes) == 2
    assert chromium.js("return window.cgRunView.renderedRows()") == 2
    assert _states(chromium, correct=True, wrong=True) == 8
    cv = chromium.js
    assert cv("return window.cgRunView.setFilter('variant', 'b')") == 4
    assert cv("return window.cgRunView.setFilter('statement', 'sample-002')") == 1
    assert cv("return window.cgRunView.setFilter('variant', null)") == 2
    assert cv("return window.cgRunView.setFilter('statement', null)") == 8
    # Gold "no": only sample-004 (the one statement without causality), in both variants.
    assert cv("return window.cgRunView.setFilter('gold', 'no')") == 2
    assert cv("return window.cgRunView.setFilter('gold', null)") == 8
    # C(s) > 1: sample-002 (C(s) = 3.0); 0.25–0.5: sample-001 (0.5).
    assert cv("return window.cgRunView.setFilter('bucket', '> 1')") == 2
    assert cv("return window.cgRunView.setFilter('bucket', '0.25–0.5')") == 2
    assert cv("return window.cgRunView.setFilter('bucket', null)") == 8
    # Free text: a statement's words, then a word of a response (searching responses inflates them first).
    chromium.js("var s = document.getElementById('search'); s.value = 'dikes'; s.dispatchEvent(new Event('input'));")
    deadline = time.monotonic() + 10
    while _count(chromium) != 2:
        assert time.monotonic() < deadline, f"search left {_count(chromium)} rows"
        time.sleep(0.05)
    chromium.js("var s = document.getElementById('search'); s.value = 'cannot tell'; s.dispatchEvent(new Event('input'));")
    deadline = time.monotonic() + 10
    while chromium.js("return document.body.getAttribute('data-searching')") or _count(chromium) != 1:
        assert time.monotonic() < deadline, f"search left {_count(chromium)} rows"
        time.sleep(0.05)
    assert chromium.js("return window.cgRunView.visibleRows()") == [2]  # variant a, sample-003: unparsed
    chromium.js("var s = document.getElementById('search'); s.value = ''; s.dispatchEvent(new Event('input'));")
    deadline = time.monotonic() + 10
    while _count(chromium) != 8:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    # Sorting by outcome puts the states in their order: correct first, error last.
    chromium.js("window.cgRunView.sortBy('state', false)")
    got = chromium.js("return Array.prototype.map.call(document.querySelectorAll('#items-table tbody tr.item td span.state'),"
                      " function (s) { return s.textContent; })")
    order = ["correct", "wrong", "unparsed", "error", "ungraded"]
    assert got == sorted((o for _, _, o in outcomes), key=order.index)
    _shot(chromium, "filters.png")
    assert chromium.collect(load.url).errors == []


def test_hostile_response_renders_as_text_and_runs_nothing(chromium, tmp_path):
    path = write_toy_run(tmp_path / "r", {"a": {"sample-001": "wrong", "sample-002": "correct"}},
                         responses={("a", "viewer-toy/a/sample-001"): HOSTILE})
    page = write_run_page([path], tmp_path / "hostile.html")
    load = chromium.open(page, ready="data-ready")
    chromium.js("document.querySelector('#items-table tbody tr.item[data-i=\"0\"]').click()")
    assert _wait(chromium, "data-detail") == "0"
    assert chromium.js("return document.querySelector('#detail pre.response').textContent") == HOSTILE
    assert chromium.js("return typeof window.__pwned") == "undefined"
    assert chromium.js("return document.querySelectorAll('#detail img, #detail textarea, #detail script').length") == 0
    assert chromium.js("return document.querySelectorAll('img, textarea').length") == 0
    _shot(chromium, "hostile.png")
    after = chromium.collect(load.url)
    assert load.errors + after.errors == []
    assert load.requests + after.requests == [page.resolve().as_uri()]


def test_two_run_comparison_lists_exactly_the_flipped_items(chromium, toy_runs, tmp_path):
    page = write_run_page(list(toy_runs), tmp_path / "cmp.html")
    load = chromium.open(page, ready="data-ready")
    assert load.errors == [] and load.external == []
    got = chromium.js("return Array.prototype.map.call(document.querySelectorAll('#flipped tbody tr'),"
                      " function (tr) { return [tr.getAttribute('data-variant'), tr.getAttribute('data-key')]; })")
    expected = sorted([v, s] for v in RUN_A for s in RUN_A[v]
                      if (RUN_A[v][s] == "correct") != (RUN_B[v][s] == "correct"))
    assert sorted(got) == expected == [["a", "sample-002"], ["a", "sample-003"], ["a", "sample-004"]]
    cells = chromium.js("return Array.prototype.map.call(document.querySelectorAll('#mcnemar-1 tbody tr'),"
                        " function (tr) { return [tr.cells[0].textContent, tr.cells[4].textContent, tr.cells[5].textContent]; })")
    assert cells == [["a", "1", "2"], ["b", "0", "0"]]
    assert _count(chromium) == 16
    assert chromium.js("return window.cgRunView.setFilter('run', 'run-b')") == 8
    chromium.js("window.cgRunView.setFilter('run', null)")
    # Opening a flipped item shows the same item's answer in the other run.
    chromium.js("document.querySelector('#flipped tbody tr[data-key=\"sample-003\"]').click()")
    _wait(chromium, "data-detail")
    others = chromium.js("return Array.prototype.map.call(document.querySelectorAll('#d-others > div'),"
                         " function (d) { return d.querySelector('h3').textContent; })")
    assert others == ["run-b (a): correct"]
    _shot(chromium, "compare.png", 2600)
    assert chromium.collect(load.url).errors == []


def test_each_run_column_of_the_flipped_table_shows_that_runs_own_outcome(chromium, tmp_path):
    # Run B's records are written in the reverse order of run A's, so an index local to run B points at a
    # different item (and run) if the page reads it as a row of the whole table.
    b_order = {v: dict(reversed(list(per.items()))) for v, per in reversed(list(RUN_B.items()))}
    runs = [write_toy_run(tmp_path / "run-a", RUN_A), write_toy_run(tmp_path / "run-b", b_order, model="hand/other")]
    page = write_run_page(runs, tmp_path / "cmp.html")
    load = chromium.open(page, ready="data-ready")
    assert load.errors == []
    rows = chromium.js("return Array.prototype.map.call(document.querySelectorAll('#flipped tbody tr'),"
                       " function (tr) { return [tr.getAttribute('data-variant'), tr.getAttribute('data-key'),"
                       " tr.cells[3].textContent, tr.cells[4].textContent]; })")
    # Each run's outcome as its own records say it (responses.jsonl read back, not the page's data).
    from causalgraph.runlog.store import load_run
    from causalgraph.stats import pair_key

    def outcome(rec):
        if rec.error:
            return "error"
        return "unparsed" if rec.label is None else ("correct" if rec.label == rec.gold else "wrong")

    own = [{(r.variant, pair_key(r)): outcome(r) for r in load_run(p).responses} for p in runs]
    assert len(rows) == 3
    for variant, key, cell_a, cell_b in rows:
        assert (cell_a, cell_b) == (own[0][(variant, key)], own[1][(variant, key)])
    assert sorted((r[2], r[3]) for r in rows) == [("correct", "wrong"), ("unparsed", "correct"), ("wrong", "correct")]
    # Clicking a row opens the baseline's record of that item.
    chromium.js("document.querySelector('#flipped tbody tr[data-key=\"sample-004\"]').click()")
    _wait(chromium, "data-detail")
    assert chromium.js("return document.getElementById('d-title').textContent").endswith("correct")
    assert chromium.collect(load.url).errors == []


def test_item_graph_highlights_the_asked_event(chromium, tmp_path):
    page = write_run_page([write_toy_run(tmp_path / "r", RUN_A)], tmp_path / "g.html")
    chromium.open(page, ready="data-ready")
    chromium.js("window.cgRunView.show(0)")  # variant a, sample-001: asks about its first cause
    _wait(chromium, "data-detail")
    _wait(chromium, "data-graph")
    from causalgraph.datasets import load_corpus
    from causalgraph.graph import compile_graph

    st = load_corpus("sample")["sample-001"]
    g = compile_graph(st)
    nodes = chromium.js("return window.cgRunView.graph.nodes.map(function (n) { return [n.event, !!n.asked]; })")
    assert [n for n, _ in nodes][:len(g.nodes)] == list(g.nodes)
    assert [n for n, asked in nodes if asked] == [st.relations[0].cause]
    prompt = chromium.js("return document.querySelector('#detail pre.prompt').textContent")
    assert prompt == f"[a] Is this statement causal? {st.text}"
    _shot(chromium, "graph.png", 2400)


def test_extraction_run_shows_pairs_side_by_side_and_an_overlay(chromium, tmp_path):
    store = RunStore(tmp_path / "ext")
    store.write_manifest({"task": "pubmedcausal-extract", "variants": ["zero-shot"], "model": "hand",
                          "dataset": {"name": "nowhere"}})
    gold = [("heat", "drought"), ("drought", "crop loss")]
    pred = [("drought", "heat"), ("Drought", "crop loss."), ("x", "y")]
    store.append([{"task": "pubmedcausal-extract", "variant": "zero-shot", "item_id": "pubmedcausal-extract/zero-shot/r1",
                   "gold": None, "meta": {"statement_id": "r1", "s/n": 1, "sentence": "Heat causes drought and crop loss.",
                                          "pairs": [{"cause": c, "effect": e} for c, e in gold]},
                   "response": "[...]", "label": [{"cause": c, "effect": e} for c, e in pred], "rule": "json",
                   "error": None}])
    page = write_run_page([tmp_path / "ext"], tmp_path / "ext.html")
    load = chromium.open(page, ready="data-ready")
    chromium.js("window.cgRunView.show(0)")
    _wait(chromium, "data-detail")
    _wait(chromium, "data-graph")
    buckets = chromium.js("return Array.prototype.map.call(document.querySelectorAll('#d-pred-pairs tbody tr'),"
                          " function (tr) { return tr.cells[3].textContent; })")
    assert buckets == ["switched", "exact", "spurious"]
    kinds = chromium.js("return window.cgRunView.overlay.edges.map(function (e) { return e.kind; })")
    # drought → crop loss is matched exactly; heat → drought is gold only; drought → heat and x → y predicted only.
    assert sorted(kinds) == ["gold", "matched", "predicted", "predicted"]
    chromium.js("var s = document.getElementById('d-mode'); s.value = 'hungarian'; s.dispatchEvent(new Event('change'));")
    partners = chromium.js("return Array.prototype.map.call(document.querySelectorAll('#d-gold-pairs tbody tr'),"
                           " function (tr) { return tr.cells[4].textContent; })")
    assert partners == ["p1", "p2"]
    _shot(chromium, "extraction.png", 2400)
    assert chromium.collect(load.url).errors == [] and load.errors == []


def test_an_item_of_a_run_with_epochs_lists_every_epoch_answer(chromium, tmp_path):
    from toy_runs import write_toy_epoch_run

    path = write_toy_epoch_run(tmp_path / "e", {"sample-001": ["wrong", "correct", "correct"],
                                                "sample-003": ["unparsed", "wrong", "wrong"]})
    page = write_run_page([path], tmp_path / "epochs.html")
    load = chromium.open(page, ready="data-ready")
    assert load.errors == [] and _count(chromium) == 2
    chromium.js("window.cgRunView.show(0)")
    _wait(chromium, "data-detail")
    rows = chromium.js("return Array.prototype.map.call(document.querySelectorAll('#d-epochs tbody tr'),"
                       " function (tr) { return [tr.cells[0].textContent, tr.cells[2].textContent]; })")
    assert rows == [["1", "epoch 1: ?"], ["2", "epoch 2: yes"], ["3", "epoch 3: yes"]]
    assert "epoch 2" in chromium.js("return document.querySelector('#detail').textContent")
    _shot(chromium, "epochs.png", 2000)
    assert chromium.collect(load.url).errors == []


def test_overlay_draws_predicted_events_on_their_aligned_gold_events(chromium, tmp_path):
    from test_overlay import EDGES, GOLD, NODES, PRED, ROWS, SCRIPT, _extraction_run

    page = write_run_page([_extraction_run(tmp_path / "ext", GOLD, PRED)], tmp_path / "overlay.html")
    load = chromium.open(page, ready="data-ready")
    chromium.js("window.cgRunView.show(0)")
    _wait(chromium, "data-detail")
    _wait(chromium, "data-graph")
    nodes = chromium.js("return window.cgRunView.overlay.nodes.map(function (n) { return [n.id, n.kind, n.label, n.title]; })")
    assert [(n[0], n[1]) for n in nodes] == [(w[0], w[3]) for w in NODES]
    # The predicted event is drawn on its gold event, with the rule and score on the label and on hover.
    assert nodes[1][2] == "sea ice loss\n\u2248 loss of sea ice\n(token, score 0.857)"
    assert nodes[1][3] == "gold: sea ice loss\npredicted: loss of sea ice\naligned by token, score 0.857"
    assert nodes[0][2] == "warming\n\u2248 The warming.\n(normalized, score 1)"
    assert nodes[5][3].startswith("predicted: ice\nunaligned; merge (merge:token, score 0.500): close to gold sea ice loss")
    assert nodes[6][2] == SCRIPT and nodes[3][3].endswith("missed: no predicted event aligned to it")
    edges = chromium.js("return window.cgRunView.overlay.edges.map(function (e) { return [e.from, e.to, e.kind]; })")
    assert [tuple(e) for e in edges] == EDGES
    cells = chromium.js("return Array.prototype.map.call(document.querySelectorAll('#d-alignment tbody tr'),"
                        " function (tr) { return Array.prototype.map.call(tr.cells, function (c) { return c.textContent; }); })")
    assert cells == [[p or "\u2014", g or "\u2014", r, "\u2014" if s is None else ("1" if s == 1 else f"{s:.4f}")]
                     for p, g, r, s in ROWS]
    assert chromium.js("return document.getElementById('d-align-counts').textContent").startswith(
        "events aligned by token: exact 0, normalized 1, token 2 \u00b7 1 merge(s), 1 split(s), 2 unaligned predicted, "
        "2 missed gold")
    # The event named <script> is text: nothing ran, no element was made from it.
    assert chromium.js("return typeof window.__pwned") == "undefined"
    assert chromium.js("return document.querySelectorAll('#detail script, #detail img').length") == 0
    _shot(chromium, "overlay.png", 2600)
    after = chromium.collect(load.url)
    assert load.errors + after.errors == []
    assert load.requests + after.requests == [page.resolve().as_uri()]


def test_comparison_of_three_models_shows_their_tie_groups_and_rank_intervals(chromium, tmp_path, capsys):
    import json

    from causalgraph.cli import main
    from causalgraph.cli._common import format_float
    from test_ranking_view import ALL_RIGHT, ALL_WRONG, HALF

    runs = [str(write_toy_run(tmp_path / m, o, model=f"hand/{m}"))
            for m, o in (("right", ALL_RIGHT), ("half", HALF), ("wrong", ALL_WRONG))]
    capsys.readouterr()
    assert main(["stats", "compare", *runs, "--by", "model", "--rank", "--format", "json"]) == 0
    ref = json.loads(capsys.readouterr().out)
    page = write_run_page(runs, tmp_path / "rank.html")
    load = chromium.open(page, ready="data-ready")
    cells = chromium.js("return Array.prototype.map.call(document.querySelectorAll('#ranking-table tbody tr'),"
                        " function (tr) { return Array.prototype.map.call(tr.cells, function (c) { return c.textContent; }); })")

    def shown(v):
        return "\u2014" if v is None else format_float(v)

    assert cells == [[r["task"], r["metric"], r["arm"], *(shown(r[k]) for k in ("score", "ci_low", "ci_high")), r["group"],
                      *(shown(r[k]) for k in ("rank", "rank_low", "rank_high")), str(r["n"]), str(r["statements"])]
                     for r in ref]
    assert [c[6] for c in cells] == ["a", "ab", "b"]
    _shot(chromium, "ranking.png", 1600)
    assert load.errors == [] and load.external == []
