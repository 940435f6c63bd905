"""The aligned overlay of a pair item: every node, edge and alignment row against a hand-worked alignment."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from causalgraph.alignment.events import align_events
from causalgraph.alignment.scores import edge_scores
from causalgraph.errors import ConfigError
from causalgraph.model import Relation
from causalgraph.runlog.store import RunStore, load_run
from causalgraph.viewer.overlay import aligned_overlay, pair_events
from causalgraph.viewer.runs import build_run_view

SCRIPT = "<script>window.__pwned = 1</script>"
# A small graph pair worked by hand (token rule, threshold 0.5).  Gold events, in order: warming,
# sea ice loss, albedo drop, ocean heat uptake, surface albedo drop.  Predicted spans "The warming."
# and "Warming" normalise alike (one event, named by its first span), so predicted events are:
# The warming., loss of sea ice, albedo, ice, <script>….
GOLD = [("warming", "sea ice loss"), ("sea ice loss", "albedo drop"), ("ocean heat uptake", "warming"),
        ("sea ice loss", "surface albedo drop")]
PRED = [("The warming.", "loss of sea ice"), ("Warming", "loss of sea ice"), ("loss of sea ice", "albedo"),
        ("ice", "albedo"), (SCRIPT, "albedo")]
# Token F1 (multiset overlap of normalised tokens, 2·overlap / (|a| + |b|)):
#   loss of sea ice ~ sea ice loss: 2·3/(4+3) = 6/7;  albedo ~ albedo drop: 2·1/(1+2) = 2/3;
#   albedo ~ surface albedo drop: 2·1/(1+3) = 1/2;    ice ~ sea ice loss: 2·1/(1+3) = 1/2; all else 0.
# exact: none.  normalized: "The warming." → "warming" = gold "warming".
# token (Hungarian over the rest, pairs ≥ 0.5, max Σ): {loss→sea ice loss, albedo→albedo drop} = 6/7 + 2/3
#   beats {ice→sea ice loss, albedo→albedo drop} = 1/2 + 2/3 and {loss→sea ice loss, albedo→surface …} = 6/7 + 1/2.
# Left over: ice is as close (1/2) to the held "sea ice loss" → a merge; the script reaches nothing → unaligned;
# "surface albedo drop" is as close (1/2) to the held predicted "albedo" → a split; "ocean heat uptake" → missing.
ROWS = [("The warming.", "warming", "normalized", 1.0), ("loss of sea ice", "sea ice loss", "token", 6 / 7),
        ("albedo", "albedo drop", "token", 2 / 3), ("ice", "sea ice loss", "merge:token", 0.5),
        (SCRIPT, None, "unaligned", None), (None, "ocean heat uptake", "missing", None),
        ("albedo", "surface albedo drop", "split:token", 0.5)]
NODES = [  # id, side, event, kind, gold, predicted, rule, score
    (0, "gold", "warming", "aligned", "warming", "The warming.", "normalized", 1.0),
    (1, "gold", "sea ice loss", "aligned", "sea ice loss", "loss of sea ice", "token", 6 / 7),
    (2, "gold", "albedo drop", "aligned", "albedo drop", "albedo", "token", 2 / 3),
    (3, "gold", "ocean heat uptake", "missing", "ocean heat uptake", None, None, None),
    (4, "gold", "surface albedo drop", "split", "surface albedo drop", "albedo", "split:token", 0.5),
    (5, "predicted", "ice", "merge", "sea ice loss", "ice", "merge:token", 0.5),
    (6, "predicted", SCRIPT, "unaligned", None, SCRIPT, None, None)]
# Renamed predicted edges: warming→sea ice loss, sea ice loss→albedo drop, ice→albedo drop, script→albedo drop.
EDGES = [(0, 1, "matched"), (1, 2, "matched"), (3, 0, "gold"), (1, 4, "gold"),
         (5, 2, "predicted"), (6, 2, "predicted"), (5, 1, "merge"), (4, 2, "split")]


def _check(o):
    assert o["rule"] == "token" and o["thresholds"] == {"token": 0.5}
    assert o["events"] == {"gold": ["warming", "sea ice loss", "albedo drop", "ocean heat uptake", "surface albedo drop"],
                           "predicted": ["The warming.", "loss of sea ice", "albedo", "ice", SCRIPT]}
    assert len(o["alignment"]) == len(ROWS)
    for got, (p, g, rule, score) in zip(o["alignment"], ROWS):
        assert (got["predicted"], got["gold"], got["rule"]) == (p, g, rule)
        assert got["score"] == (None if score is None else pytest.approx(score, abs=1e-12))
    keys = ("id", "side", "event", "kind", "gold", "predicted", "rule")
    assert len(o["nodes"]) == len(NODES)
    for got, want in zip(o["nodes"], NODES):
        assert tuple(got[k] for k in keys) == want[:7]
        assert got["score"] == (None if want[7] is None else pytest.approx(want[7], abs=1e-12))
    assert [(e["from"], e["to"], e["kind"]) for e in o["edges"]] == EDGES
    assert o["counts"] == {"exact": 0, "normalized": 1, "token": 2, "merges": 1, "splits": 1, "unaligned": 2,
                           "missing": 2}


def test_overlay_of_a_hand_worked_graph_pair_cell_by_cell():
    _check(aligned_overlay(GOLD, PRED, rule="token"))


def test_exact_rule_aligns_only_equal_names():
    o = aligned_overlay(GOLD, PRED, rule="exact")
    assert [r["rule"] for r in o["alignment"]] == ["unaligned"] * 5 + ["missing"] * 5
    assert {e["kind"] for e in o["edges"]} == {"gold", "predicted"}
    with pytest.raises(ConfigError, match="alignment rule"):
        aligned_overlay(GOLD, PRED, rule="fuzzy")


def _extraction_run(path, gold, pred):
    store = RunStore(path)
    store.write_manifest({"task": "pubmedcausal-extract", "variants": ["zero-shot"], "model": "hand",
                          "dataset": {"name": "nowhere"}})
    store.append([{"task": "pubmedcausal-extract", "variant": "zero-shot", "item_id": "pubmedcausal-extract/zero-shot/r1",
                   "gold": None, "meta": {"statement_id": "r1", "s/n": 1, "sentence": "Warming melts sea ice.",
                                          "pairs": [{"cause": c, "effect": e} for c, e in gold]},
                   "response": "[...]", "label": [{"cause": c, "effect": e} for c, e in pred], "rule": "json",
                   "error": None}])
    return path


def test_run_view_of_an_extraction_run_carries_the_overlay(tmp_path):
    view = build_run_view(load_run(_extraction_run(tmp_path / "ext", GOLD, PRED)))
    _check(view.matches[0]["overlay"])
    other = build_run_view(load_run(tmp_path / "ext"), align="normalized")
    assert "token" not in other.matches[0]["overlay"]["counts"]
    assert [r["rule"] for r in other.matches[0]["overlay"]["alignment"]][:2] == ["normalized", "unaligned"]


WORDS = ["heat", "the", "drought", "crop", "loss", "sea", "ice", "Warming", "of", "rain."]
span = st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(" ".join)
pairs = st.lists(st.tuples(span, span), max_size=5)


@settings(max_examples=120, deadline=None)
@given(gold=pairs, pred=pairs, rule=st.sampled_from(["exact", "normalized", "token"]))
def test_matched_edges_are_the_aligned_graphs_true_positive_edges(gold, pred, rule):
    # The overlay's matched edges are the edges the graph scores count as true positives after renaming the
    # predicted events through the same alignment (alignment.scores.edge_scores; self-loops left out there).
    o = aligned_overlay(gold, pred, rule=rule)
    g_events, g_edges = pair_events(gold)
    p_events, p_edges = pair_events(pred)
    mapping = align_events(p_events, g_events, rule=rule).mapping
    renamed = [Relation(mapping.get(a, a), mapping.get(b, b)) for a, b in p_edges]
    ref = edge_scores([Relation(a, b) for a, b in g_edges], renamed)
    matched = [e for e in o["edges"] if e["kind"] == "matched" and e["cause"] != e["effect"]]
    assert len(matched) == ref["edge_tp"]
    # Every event is drawn once: gold events, then the predicted events not aligned.
    assert len(o["nodes"]) == len(g_events) + len(p_events) - len(mapping)
    assert sum(n["kind"] in ("aligned",) for n in o["nodes"]) == len(mapping)


def test_bench_view_align_sets_the_rule_of_the_pages_overlays(tmp_path, capsys):
    import json
    import re

    from causalgraph.cli import main
    from causalgraph.viewer import unpack

    run = _extraction_run(tmp_path / "ext", GOLD, PRED)
    for rule, aligned in (("exact", 0), ("normalized", 1), (None, 3)):
        page = tmp_path / f"{rule}.html"
        assert main(["bench", "view", str(run), "-o", str(page), *(["--align", rule] if rule else [])]) == 0
        data = json.loads(re.search(r'<script type="application/json" id="cg-run-data">(.*?)</script>',
                                    page.read_text(), re.S).group(1))
        o = unpack(data["details"][0])[0]["match"]["overlay"]
        assert o["rule"] == (rule or "token")
        assert sum(n["kind"] == "aligned" for n in o["nodes"]) == aligned
        assert SCRIPT not in page.read_text()
    # The event named <script> adds no script element: the page has as many as one with a harmless name.
    tame = _extraction_run(tmp_path / "tame", GOLD, [(c.replace(SCRIPT, "plain words"), e) for c, e in PRED])
    assert main(["bench", "view", str(tame), "-o", str(tmp_path / "tame.html")]) == 0
    assert (tmp_path / "None.html").read_text().count("<script") == (tmp_path / "tame.html").read_text().count("<script")
    capsys.readouterr()
    with pytest.raises(SystemExit) as exc:
        main(["bench", "view", str(run), "--align", "fuzzy"])
    assert exc.value.code == 2
    assert "--align" in capsys.readouterr().err
