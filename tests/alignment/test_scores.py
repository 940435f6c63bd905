"""Graph scores of aligned graphs: edge P/R/F1 by hand, exact = the graph scores, renaming invariance,
pooled values and the coverage of their bootstrap intervals, and the three commands."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from causalgraph.alignment.scores import (EDGE_COLUMNS, align_statement, compare_aligned, edge_scores,
                                          pooled_scores)
from causalgraph.cli import main
from causalgraph.metrics.graph_scores import SCORE_COLUMNS, compare_corpora
from causalgraph.model import Corpus, Correlation as C, Relation, Statement

pytest.importorskip("gadjid")


def st_(sid, *pairs, signs=None):
    rels = tuple(Relation(c, e, correlation=(signs[i] if signs else None)) for i, (c, e) in enumerate(pairs))
    return Statement(sid, "t", True, rels)


def test_edge_scores_by_hand_with_and_without_signs():
    g = st_("s", ("a", "b"), ("b", "c"), ("c", "d"), signs=[C.POSITIVE, C.NEGATIVE, C.POSITIVE])
    p = st_("s", ("a", "b"), ("b", "c"), ("d", "c"), ("a", "a"), signs=[C.POSITIVE, C.POSITIVE, C.POSITIVE,
                                                                         C.POSITIVE])
    s = edge_scores(g, p)
    # predicted edges without the self-loop: a→b (right, same sign), b→c (right, wrong sign), d→c (reversed)
    assert (s["pred_edges"], s["gold_edges"], s["edge_tp"], s["signed_tp"]) == (3, 3, 2, 1)
    assert (s["edge_precision"], s["edge_recall"], s["edge_f1"]) == (2 / 3, 2 / 3, 2 / 3)
    assert (s["signed_precision"], s["signed_recall"], s["signed_f1"]) == (1 / 3, 1 / 3, 1 / 3)


def test_undefined_edge_scores_are_none_not_zero():
    g = st_("s", ("a", "b"))                        # no correlation annotated: signed scores undefined
    s = edge_scores(g, [])
    assert s["edge_precision"] is None and s["edge_recall"] == 0.0 and s["edge_f1"] == 0.0
    assert s["signed_tp"] is None and s["signed_f1"] is None
    assert edge_scores([], [])["edge_f1"] is None


names = st.sampled_from(["warming", "ice loss", "sea level", "drought", "crop failure", "rain"])
graphs = st.lists(st.tuples(names, names).filter(lambda t: t[0] != t[1]), min_size=1, max_size=6, unique=True)


@settings(max_examples=60)
@given(graphs, graphs)
def test_exact_alignment_gives_the_graph_scores_unchanged(g, p):
    gold, pred = Corpus("g", [st_("s1", *g)]), Corpus("p", [st_("s1", *p)])
    rows, _ = compare_corpora(gold, pred)
    got = compare_aligned(gold, pred, rule="exact").rows
    cols = ["statement_id", "pred_id", *SCORE_COLUMNS]
    assert [[r[c] for c in cols] for r in got] == [[r[c] for c in cols] for r in rows]


def _variant(name):
    # a form that only normalisation sees as the same event
    return "The " + name.upper() + "."


@settings(max_examples=60)
@given(graphs)
def test_a_graph_written_with_other_forms_of_its_events_scores_perfectly_once_aligned(g):
    gold = Corpus("g", [st_("s1", *g)])
    pred = Corpus("p", [st_("s1", *[(_variant(c), _variant(e)) for c, e in g])])
    exact = compare_aligned(gold, pred, rule="exact").rows[0]
    norm = compare_aligned(gold, pred, rule="normalized").rows[0]
    assert exact["edge_tp"] == 0
    assert (norm["shd"], norm["edge_f1"], norm["merged_events"]) == (0, 1.0, 0)
    assert norm["aligned_events"] == exact["n_events"] // 2
    if not np.isnan(norm["sid"]):
        assert norm["sid"] == 0


def test_align_statement_renames_only_aligned_events_and_keeps_labels():
    g = st_("s", ("warming", "ice loss"), signs=[C.NEGATIVE])
    p = st_("s", ("Warming.", "melting"), ("melting", "flooding"), signs=[C.NEGATIVE, C.POSITIVE])
    new, al = align_statement(g, p, rule="token")
    assert [(r.cause, r.effect, r.correlation) for r in new.relations] == [
        ("warming", "melting", C.NEGATIVE), ("melting", "flooding", C.POSITIVE)]
    assert new.id == p.id and al.missing_gold == ("ice loss",)


def test_pooled_values_by_hand_and_undefined_ones():
    rows = [{"edge_tp": 1, "pred_edges": 2, "gold_edges": 4, "signed_tp": None, "shd": 3, "sid": float("nan")},
            {"edge_tp": 2, "pred_edges": 2, "gold_edges": 2, "signed_tp": None, "shd": 1, "sid": 4},
            {"edge_tp": 0, "pred_edges": 0, "gold_edges": 3, "signed_tp": None, "shd": 3, "sid": 2}]
    r = {d["measure"]: d for d in pooled_scores(rows, n_boot=500)}
    assert r["edge_precision"]["value"] == 3 / 4 and r["edge_recall"]["value"] == 3 / 9
    assert r["edge_f1"]["value"] == 6 / 13
    assert r["signed_f1"]["value"] is None and r["signed_f1"]["n"] == 0
    assert r["shd"]["value"] == 7 / 3 and r["sid"]["value"] == 3.0 and r["sid"]["n"] == 2
    assert r["edge_precision"]["ci_low"] <= 3 / 4 <= r["edge_precision"]["ci_high"]
    # resamples that drew only the third statement have no predicted edge: dropped, counted
    assert 0 < r["edge_precision"]["dropped"] < 500 / 9 * 2
    assert pooled_scores(rows[:1], n_boot=10)[0]["ci_low"] is None      # one statement: no interval
    assert pooled_scores(rows, n_boot=300) == pooled_scores(rows, n_boot=300)   # seeded


def test_the_bootstrap_interval_of_pooled_edge_recall_covers_about_95_percent():
    """Coverage on a design like ours: 75 statements, 1–20 gold edges each, recall varying by statement."""
    rng = np.random.default_rng(7)
    n_stat, reps, covered = 75, 300, 0
    # the population: per-statement recall from Beta(2, 3), edge counts 1..20; true pooled recall = E[tp]/E[gold]
    true = (np.arange(1, 21).mean() * 2 / 5) / np.arange(1, 21).mean()
    for _ in range(reps):
        gold = rng.integers(1, 21, n_stat)
        tp = rng.binomial(gold, rng.beta(2, 3, n_stat))
        rows = [{"edge_tp": int(t), "pred_edges": int(g), "gold_edges": int(g), "signed_tp": None}
                for t, g in zip(tp, gold)]
        r = pooled_scores(rows, n_boot=400, seed=int(rng.integers(1 << 30)))[1]
        covered += r["ci_low"] <= true <= r["ci_high"]
    assert 0.90 <= covered / reps <= 0.98, covered / reps


def test_the_pooled_intervals_cover_about_95_percent_with_few_statements():
    """Coverage on a design with few statements (an annotate run with --limit, a labelled subset): 6 statements,
    1-20 gold edges each, recall varying by statement, extra predicted edges, SHD per statement. The plain
    percentile interval covered 0.863 (recall), 0.840 (precision), 0.847 (mean SHD) here; widened by
    scores.small_sample_factor 0.927, 0.937, 0.917."""
    rng = np.random.default_rng(11)
    n_stat, reps = 6, 300
    covered = {"edge_recall": 0, "edge_precision": 0, "shd": 0}
    # true pooled recall E[tp]/E[gold] = 2/5; precision E[tp]/E[tp + extra] = 4.2/(4.2 + 2); mean SHD 3
    true = {"edge_recall": 0.4, "edge_precision": 10.5 * 0.4 / (10.5 * 0.4 + 2), "shd": 3.0}
    for _ in range(reps):
        gold = rng.integers(1, 21, n_stat)
        tp = rng.binomial(gold, rng.beta(2, 3, n_stat))
        pred = tp + rng.poisson(2, n_stat)
        shd = rng.poisson(3, n_stat)
        rows = [{"edge_tp": int(t), "pred_edges": int(q), "gold_edges": int(g), "signed_tp": None, "shd": int(d)}
                for t, q, g, d in zip(tp, pred, gold, shd)]
        r = {d["measure"]: d for d in pooled_scores(rows, n_boot=400, seed=int(rng.integers(1 << 30)))}
        for m in covered:
            covered[m] += r[m]["ci_low"] <= true[m] <= r[m]["ci_high"]
    for m, c in covered.items():
        assert 0.90 <= c / reps <= 0.985, (m, c / reps)


def _write(path, rows):
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["text", "statement_id", "cause", "effect", "correlation"])
        w.writerows(rows)


def test_compare_graphs_aligns_writes_the_alignment_and_pools(tmp_path, capsys):
    _write(tmp_path / "g.csv", [["t", "s1", "global warming", "sea level rise", "positive"],
                                ["t", "s1", "sea level rise", "coastal flooding", "positive"],
                                ["t", "s2", "drought", "crop failure", "positive"]])
    _write(tmp_path / "p.csv", [["t", "s1", "warming", "rise of the sea level", "positive"],
                                ["t", "s1", "rise of the sea level", "flooding", "negative"],
                                ["t", "s2", "drought", "crop failure", "positive"]])
    g, p = str(tmp_path / "g.csv"), str(tmp_path / "p.csv")
    assert main(["compare-graphs", g, p, "--align", "exact", "--format", "json"]) == 0
    exact = json.loads(capsys.readouterr().out)
    assert list(exact[0]) == ["statement_id", "pred_id", *SCORE_COLUMNS]
    assert main(["compare-graphs", g, p, "--align", "token", "--edge-scores", "--format", "json",
                 "--alignment", str(tmp_path / "al.csv")]) == 0
    out = capsys.readouterr()
    rows = json.loads(out.out)
    assert list(rows[0]) == ["statement_id", "pred_id", *SCORE_COLUMNS, *EDGE_COLUMNS]
    # s1: warming→global warming (2/3), rise of the sea level→sea level rise (F1 2·3/8),
    # flooding→coastal flooding
    # (2/3): all three edges' events align; both edges right, one sign wrong
    assert (rows[0]["shd"], rows[0]["edge_tp"], rows[0]["signed_tp"], rows[0]["aligned_events"]) == (0, 2, 1, 3)
    # exact: six events, the two gold edges missing and the two predicted ones extra
    assert exact[0]["shd"] == 4 and rows[1]["shd"] == exact[1]["shd"] == 0
    assert "events aligned by --align token: exact 2, normalized 0, token 3" in out.err
    with open(tmp_path / "al.csv") as fh:
        al = list(csv.DictReader(fh))
    assert [(r["statement_id"], r["predicted"], r["gold"], r["rule"]) for r in al] == [
        ("s1", "warming", "global warming", "token"), ("s1", "rise of the sea level", "sea level rise", "token"),
        ("s1", "flooding", "coastal flooding", "token"), ("s2", "drought", "drought", "exact"),
        ("s2", "crop failure", "crop failure", "exact")]
    assert float(al[1]["score"]) == 0.75
    assert main(["compare-graphs", g, p, "--pooled", "--format", "json"]) == 0
    pooled = {d["measure"]: d for d in json.loads(capsys.readouterr().out)}
    assert pooled["edge_f1"]["value"] == 1.0 and pooled["signed_f1"]["value"] == 2 * 2 / 6
    assert pooled["shd"]["value"] == 0.0 and pooled["shd"]["n"] == 2


def test_the_alignment_options_refuse_bad_values_in_one_line(tmp_path, capsys):
    _write(tmp_path / "g.csv", [["t", "s1", "a", "b", "positive"]])
    g = str(tmp_path / "g.csv")
    assert main(["compare-graphs", g, g, "--token-threshold", "1.5"]) == 2
    assert capsys.readouterr().err.strip() == \
        "causalgraph compare-graphs: error: --token-threshold 1.5: expected a number in (0, 1]"
    assert main(["compare-graphs", g, g, "--alignment", str(tmp_path / "al.txt")]) == 2
    assert "expected a file name ending in .csv, .json, .jsonl" in capsys.readouterr().err
    # a folder, or a file in a folder that does not exist: refused before anything is read or scored
    (tmp_path / "d.csv").mkdir()
    for bad, why in ((tmp_path / "d.csv", "found a folder; expected a file to write"),
                     (tmp_path / "no" / "al.csv", f"the folder {str(tmp_path / 'no')!r} does not exist")):
        for argv in (["compare-graphs", "missing-gold.csv", "missing-pred.csv"],
                     ["evaluate-extraction", "missing.json", "--graphs"],
                     ["evaluate-annotation", str(tmp_path / "no-run"), "--graphs"]):
            assert main([*argv, "--alignment", str(bad)]) == 2
            err = capsys.readouterr().err
            assert err == f"causalgraph {argv[0]}: error: --alignment {bad}: {why}\n", err
    assert main(["evaluate-extraction", "x.json", "--edge-scores"]) == 2
    assert "--edge-scores needs --graphs" in capsys.readouterr().err


def test_evaluate_statements_aligns_graphs_only_when_asked():
    from causalgraph.annotation.evaluate import evaluate_statements

    gold = [st_("s1", ("global warming", "sea level rise"), ("sea level rise", "flooding"),
                signs=[C.POSITIVE, C.POSITIVE])]
    pred = [st_("s1", ("warming", "rise of the sea level"), ("rise of the sea level", "flooding"),
                signs=[C.POSITIVE, C.NEGATIVE])]
    plain = evaluate_statements(pred, gold, reference="paper", graphs=True)
    exact = evaluate_statements(pred, gold, reference="paper", graphs=True, align="exact")
    assert plain.summary() == exact.summary() and plain.per_statement == exact.per_statement
    assert "align" not in plain.graph and plain.alignment == []
    tok = evaluate_statements(pred, gold, reference="paper", graphs=True, align="token", edge_scores=True)
    assert tok.graph["align"] == "token"
    row = tok.per_statement[0]
    # all three events align (global warming 2/3, sea level rise 0.75, flooding exact): both edges right,
    # the second with the wrong sign
    assert (row["graph_shd"], plain.per_statement[0]["graph_shd"]) == (0, 4)   # exact: 2 missing, 2 extra
    assert (row["graph_edge_tp"], row["graph_signed_tp"], row["graph_aligned_events"]) == (2, 1, 3)
    pooled = {d["measure"]: d for d in tok.graph["pooled"]}
    assert pooled["edge_f1"]["value"] == 1.0 and pooled["signed_f1"]["value"] == 0.5
    assert pooled["edge_f1"]["ci_low"] is None          # one statement: no interval
    assert [(r["predicted"], r["gold"], r["rule"]) for r in tok.alignment] == [
        ("warming", "global warming", "token"), ("rise of the sea level", "sea level rise", "token"),
        ("flooding", "flooding", "exact")]
    measures = [r["measure"] for r in tok.rows()]
    assert "graph.pooled.edge_f1.value" in measures and "graph.align.mean" not in measures
    with pytest.raises(Exception, match="align 'fuzzy'"):
        evaluate_statements(pred, gold, reference="paper", graphs=True, align="fuzzy")


def test_evaluate_annotation_graphs_takes_the_alignment_options(tmp_path, capsys):
    run = tmp_path / "run"
    assert main(["annotate", "--data", "climatecause", "--model", "mock/oracle", "--limit", "3", "--no-progress",
                 "--out", str(run)]) == 0
    capsys.readouterr()
    assert main(["evaluate-annotation", str(run), "--graphs", "--align", "exact", "--format", "json"]) == 0
    exact = json.loads(capsys.readouterr().out)
    assert main(["evaluate-annotation", str(run), "--graphs", "--edge-scores", "--alignment",
                 str(tmp_path / "al.jsonl"), "--format", "json"]) == 0
    out = capsys.readouterr()
    aligned = json.loads(out.out)
    assert "align" not in exact["graph"] and aligned["graph"]["align"] == "token"
    # the oracle answers gold: every event aligns exactly, every edge is right
    rows = [json.loads(x) for x in (tmp_path / "al.jsonl").read_text().splitlines()]
    assert rows and {r["rule"] for r in rows} == {"exact"}
    pooled = {d["measure"]: d for d in aligned["graph"]["pooled"]}
    assert pooled["edge_f1"]["value"] == 1.0 and pooled["shd"]["value"] == 0.0
    assert (f"causalgraph evaluate-annotation: note: events aligned by --align token: exact {len(rows)}, normalized 0, "
            "token 0; 0 predicted events renamed to gold, 0 merges and 0 splits reported, 0 unaligned") in out.err
    # --align exact writes its alignment too (every event exact), and scores as without the file
    assert main(["evaluate-annotation", str(run), "--graphs", "--align", "exact", "--format", "json", "--alignment",
                 str(tmp_path / "exact.jsonl")]) == 0
    assert json.loads(capsys.readouterr().out) == exact
    assert [json.loads(x) for x in (tmp_path / "exact.jsonl").read_text().splitlines()] == rows
    assert main(["evaluate-annotation", str(run), "--edge-scores"]) == 2
    assert "--edge-scores needs --graphs" in capsys.readouterr().err


variants = st.sampled_from(["warming", "Warming.", "global warming", "ice loss", "the ice loss", "loss of ice",
                            "sea level", "sea level rise", "drought", "droughts", "crop failure", "rain"])
noisy_graphs = st.lists(st.tuples(variants, variants).filter(lambda t: t[0] != t[1]), min_size=1, max_size=6,
                        unique=True)


@settings(max_examples=60)
@given(graphs, noisy_graphs)
def test_each_rule_of_the_cascade_keeps_every_edge_the_one_before_found(g, p):
    # A rule keeps the pairs of the rules before it and only renames events the others left, so an edge
    # right by exact names stays right: edge hits never fall along exact -> normalized -> token.
    gold, pred = Corpus("g", [st_("s1", *g)]), Corpus("p", [st_("s1", *p)])
    tps = [compare_aligned(gold, pred, rule=r).rows[0]["edge_tp"] for r in ("exact", "normalized", "token")]
    assert tps == sorted(tps)
    row = compare_aligned(gold, pred, rule="token").rows[0]
    assert row["pred_edges"] == len({(c, e) for c, e in p})   # one-to-one: renaming never merges two edges


def test_isolated_events_of_graph_files_are_aligned_and_edgeless_golds_scored():
    # A graph file keeps its events without an edge (meta["isolated_events"]); alignment renames them too, so
    # the scores count 3 events on each side, as compare_corpora does when the names already agree.
    g = Statement("s", "", True, (Relation("warming", "ice loss"),), meta={"isolated_events": ["sea level rise"]})
    p = Statement("s", "", True, (Relation("global warming", "ice loss"),), meta={"isolated_events": ["rise of sea level"]})
    same = Statement("s", "", True, (Relation("warming", "ice loss"),), meta={"isolated_events": ["sea level rise"]})
    cmp = compare_aligned(Corpus("g", [g]), Corpus("p", [p]), rule="token")
    (row,) = cmp.rows
    (want,), _ = compare_corpora(Corpus("g", [g]), Corpus("p", [same]))
    assert {k: row[k] for k in SCORE_COLUMNS} == {k: want[k] for k in SCORE_COLUMNS}
    assert row["n_events"] == 3 and row["shd"] == 0 and row["edge_f1"] == 1.0
    # An edgeless gold statement is scored (one spurious predicted edge: SHD 1), unless edgeless=False.
    g0 = Statement("s", "", False, (), meta={"isolated_events": ["a", "b"]})
    p1 = st_("s", ("a", "b"))
    (row,) = compare_aligned(Corpus("g", [g0]), Corpus("p", [p1]), rule="token").rows
    assert (row["n_events"], row["shd"], row["gold_edges"]) == (2, 1, 0)
    assert compare_aligned(Corpus("g", [g0]), Corpus("p", [p1]), rule="token", edgeless=False).rows == []


def test_undefined_edge_scores_of_a_statement_print_empty_with_a_note(tmp_path, capsys):
    import networkx as nx

    # s2 has no prediction: its edge precision (0 predicted edges) is undefined, not 0; recall is 0 of 1.
    # Graph files carry no correlation sign: the signed scores are undefined for both.
    for d in ("g", "p"):
        (tmp_path / d).mkdir()
    nx.write_gml(nx.DiGraph([("a", "b")]), tmp_path / "g" / "s1.gml")
    nx.write_gml(nx.DiGraph([("c", "d")]), tmp_path / "g" / "s2.gml")
    nx.write_gml(nx.DiGraph([("a", "b")]), tmp_path / "p" / "s1.gml")
    assert main(["compare-graphs", str(tmp_path / "g"), str(tmp_path / "p"), "--edge-scores", "--format", "json"]) == 0
    out, err = capsys.readouterr()
    rows = {r["statement_id"]: r for r in json.loads(out)}
    assert (rows["s2"]["edge_precision"], rows["s2"]["edge_recall"], rows["s2"]["edge_f1"]) == (None, 0.0, 0.0)
    assert rows["s1"]["edge_precision"] == 1.0 and rows["s1"]["signed_f1"] is None
    assert ("causalgraph compare-graphs: note: s2 has no predicted edge: edge_precision and signed_precision are "
            "undefined (empty)\n") in err
    assert ("causalgraph compare-graphs: note: 2 statements (s1, s2) have a gold graph without a correlation sign: "
            "signed_tp and the signed scores are undefined (empty)\n") in err
    assert "no gold edge" not in err and "no edge on either side" not in err
