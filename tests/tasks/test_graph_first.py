"""Graph, then answer (issue 40, item 3): the graph-first variants, the mocks' graphs, and the answer-vs-graph scores.

The expected figures are worked out by hand from the three statements of ``_CORPUS``:

* s1: a → b, b → c (2 edges); s2: d → e (1 edge, negative); s3: f → g, f → h (2 edges).
* ``mock/noisy`` with ``graph_flip=1`` writes the perturbed graph: the gold graph less its first edge
  (s1: {b → c}, F1 = 2·1/(1+2) = 2/3; s3: {f → h}, F1 = 2/3) or, with one edge, reversed
  (s2: {e → d}, F1 = 0).  Mean edge F1 = (2/3 + 0 + 2/3)/3 = 4/9; mean precision (1+0+1)/3 = 2/3;
  mean recall (1/2 + 0 + 1/2)/3 = 1/3.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

from causalgraph.errors import ConfigError
from causalgraph.model import Correlation, Relation, Statement
from causalgraph.runlog import RunRecord
from causalgraph.stats.answer_graph import RIGHT_GRAPH, answer_graph_scores, answer_graph_summary
from causalgraph.tasks import get_task
from causalgraph.tasks.graph_first import (OWN_GRAPH, gold_graph_answer, graph_prompt, item_graph_scores, parse_graph,
                                           perturbed_graph_answer, split_answer)

from tests.bench_helpers import ROOT

P, N = Correlation.POSITIVE, Correlation.NEGATIVE
_CORPUS = [
    Statement("s1", "A raises B, which raises C.", True, (Relation("a", "b", correlation=P),
                                                          Relation("b", "c", correlation=P))),
    Statement("s2", "D lowers E.", True, (Relation("d", "e", correlation=N),)),
    Statement("s3", "F raises G and H.", True, (Relation("f", "g", correlation=P), Relation("f", "h", correlation=P))),
]


def _write_corpus(path):
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["statement_id", "text", "cause", "effect", "correlation"])
        for s in _CORPUS:
            for r in s.relations:
                w.writerow([s.id, s.text, r.cause, r.effect, r.correlation.value])
    return path


def _cli(*argv, cwd):
    env = {"PYTHONPATH": str(ROOT), "CAUSALGRAPH_OFFLINE": "1", "CAUSALGRAPH_NO_CACHE": "1",
           "PATH": "/usr/bin:/bin", "HOME": str(cwd)}
    return subprocess.run([sys.executable, "-m", "causalgraph", *argv], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)


# -- prompts and items ----------------------------------------------------------------------------------

def test_the_base_variants_are_unchanged_and_the_graph_first_prompt_ends_with_their_question():
    t = get_task("sinks")
    base = t.items(_CORPUS, "A_1")
    gf = t.items(_CORPUS, t.variant_id("GF_A_1"))
    assert [it.id for it in gf] == [it.id.replace("/A_1/", "/GF_A_1/") for it in base]
    assert all("graph_first" not in it.meta and "gold_graph" not in it.meta for it in base)
    first = gf[0]
    # the question of A_1 word for word, the gold graph replaced by the model's own
    template = "The causal relationships in a causal graph are- ${graph} Based on this graph only"
    assert first.prompt.endswith("Question:\n" + base[0].prompt.replace(
        base[0].prompt[len("The causal relationships in a causal graph are- "):base[0].prompt.index(" Based on")],
        OWN_GRAPH + "."))
    assert template.replace("${graph}", OWN_GRAPH + ".") in first.prompt
    assert "Statement: A raises B, which raises C." in first.prompt
    assert "Name the events exactly as in this list: [a, b, c]." in first.prompt
    assert "a -> b" not in first.prompt and first.gold == ["c"]
    assert first.meta["gold_graph"] == [["a", "b", "positive"], ["b", "c", "positive"]]


def test_an_eci_question_is_sent_as_it_is_after_the_graph_part():
    t = get_task("ccr-eci-member")
    base = t.items(_CORPUS, "0_4")[0]
    gf = t.items(_CORPUS, t.variant_id("GF_0_4"))[0]
    assert gf.prompt == graph_prompt(base.prompt, _CORPUS[0].text)
    assert gf.prompt.endswith("\nQuestion:\n" + base.prompt) and gf.gold == base.gold


def test_the_authors_graph_question_reads_the_models_own_graph():
    t = get_task("ccr-member")
    base = t.items(_CORPUS, "A_4")[0]
    gf = t.items(_CORPUS, t.variant_id("GF_A_4"))[0]
    # authors' template: "are- ${graph}. Now answer" — the full stop is the template's
    assert "are- " + OWN_GRAPH + ". Now answer using this causal graph only" in gf.prompt
    assert base.prompt.split(". Now answer")[1] == gf.prompt.split(". Now answer")[1]
    assert t.strategy_of("GF_A_4") == "graph-first " + t.strategy_of("A_4")


@pytest.mark.parametrize("task,variant,option,message", [
    ("parents", "GF_MX_1", {}, "a graph-first variant asks a stored question (GF_A_1, GF_A_2)"),
    ("parents", "GF_A_1", {"event_names": "integer"}, "a graph-first variant takes no event-names"),
    ("ccr-member", "GF_A_4.reverse", {}, "a graph-first variant takes no suffix '.reverse'"),
    ("ccr-member", "GF_GF_A_4", {}, "a graph-first variant is GF_<variant> of a variant that is not graph-first"),
])
def test_graph_first_options_that_make_no_sense_are_refused(task, variant, option, message):
    t = get_task(task)
    with pytest.raises(ConfigError, match="^task .*" + message.replace("(", r"\(").replace(")", r"\)")):
        t.items(_CORPUS, variant, **option)


def test_a_statement_without_text_is_refused():
    bare = [Statement("g1", "", True, (Relation("a", "b"), Relation("b", "c")))]
    with pytest.raises(ConfigError, match="statement g1 has no text"):
        get_task("ccr-member").items(bare, "GF_A_4")
    assert len(get_task("ccr-member").items(bare, "A_4")) == 3


def test_loglik_cannot_score_a_graph_first_variant():
    with pytest.raises(ConfigError, match="asks for the graph before the answer"):
        get_task("reachability").choices("GF_A_1")
    assert get_task("reachability").choices("A_1") == {"yes": "Yes", "no": "No"}


# -- parsing --------------------------------------------------------------------------------------------

def test_the_answer_is_read_after_the_graph_so_the_graphs_words_are_not_an_answer():
    t = get_task("reachability")
    text = ('<Graph>{"relations": [{"cause_no_quantifier": "yes", "effect_no_quantifier": "no", '
            '"correlation": "positive"}]}</Graph>\nNo')
    assert t.parse_answer(text, "GF_A_1")[0] == "no"
    assert t.parse_answer("<Graph>{...", "GF_A_1")[0] is None  # cut off inside the graph: no answer
    g = parse_graph(text, "GF_A_1")
    assert g["rule"] == "tagged:json" and g["annotation"]["relations"][0]["cause_no_quantifier"] == "yes"
    assert parse_graph("No", "GF_A_1") == {"rule": "untagged:unparsed", "annotation": None}
    assert split_answer("x") == (None, "x")
    # SmolLM2-135M echoes the question's "between <Graph> and </Graph>." (docs/annotate.md): no graph, no answer
    echo = "The causal relationships in a causal graph are- " + OWN_GRAPH + "."
    assert parse_graph(echo, "GF_A_1") == {"rule": "tagged:unparsed", "annotation": None}
    assert t.parse_answer(echo, "GF_A_1")[0] is None


def test_an_unreadable_graph_has_no_score_and_says_why_never_zero():
    rec = RunRecord("sinks", "GF_A_1", "sinks/GF_A_1/s2/x",
                    meta={"statement_id": "s2", "gold_graph": [["d", "e", "negative"]]},
                    graph={"rule": "untagged:unparsed", "annotation": None})
    s = item_graph_scores(rec)
    assert s["edge_f1"] is None and "no graph could be read" in s["note"]
    assert item_graph_scores(dataclasses.replace(rec, error="HTTP 500"))["note"] == "the request failed"
    # an empty graph is read: recall and F1 are 0 (defined), precision undefined
    empty = dataclasses.replace(rec, graph={"rule": "tagged:json", "annotation": {"causal": False, "relations": []}})
    s = item_graph_scores(empty)
    assert (s["edge_f1"], s["edge_recall"], s["edge_precision"]) == (0.0, 0.0, None)


def test_the_alignment_rule_decides_whether_paraphrased_events_count():
    rec = RunRecord("sinks", "GF_A_1", "sinks/GF_A_1/s/x",
                    meta={"statement_id": "s", "gold_graph": [["warming", "sea level rise", "positive"]]},
                    graph={"rule": "tagged:json", "annotation": {"causal": True, "relations": [
                        {"cause_no_quantifier": "global warming", "effect_no_quantifier": "rise in sea level"}]}})
    assert item_graph_scores(rec, rule="exact")["edge_f1"] == 0.0
    assert item_graph_scores(rec, rule="token")["edge_f1"] == 1.0


# -- the summary: hand-computed -------------------------------------------------------------------------

def test_the_summary_of_hand_made_items():
    rows = [("s1", True, 1.0), ("s1", False, 1.0), ("s1", True, 0.5), ("s2", True, 0.0), ("s2", False, None)]
    s = answer_graph_summary(rows, n_boot=500)
    assert (s["items"], s["scored"], s["undefined"], s["statements"]) == (5, 4, 1, 2)
    assert s["accuracy"] == 3 / 4 and s["edge_f1"] == 2.5 / 4 and s["gap"] == pytest.approx(0.5 / 4)
    assert (s["right_answer_right_graph"], s["right_answer_wrong_graph"], s["wrong_answer_right_graph"],
            s["wrong_answer_wrong_graph"]) == (1, 2, 1, 0)
    assert (s["right_answer_no_graph"], s["wrong_answer_no_graph"]) == (0, 1)
    assert s["right_graph"] == RIGHT_GRAPH == "edge F1 = 1 on the aligned graph"
    lo, hi = s["gap_ci95"]
    assert -1 <= lo <= s["gap"] <= hi <= 1
    one = answer_graph_summary([("s1", True, 0.0), ("s1", False, 0.0)])
    assert one["gap"] == 0.5 and one["gap_ci95"] is None  # one statement: no interval
    none = answer_graph_summary([("s1", True, None)])
    assert none["accuracy"] is None and none["edge_f1"] is None and none["gap"] is None


def test_the_summary_refuses_values_of_the_wrong_type():
    with pytest.raises(ConfigError, match="edge F1 1.5"):
        answer_graph_summary([("s1", True, 1.5)])
    with pytest.raises(ConfigError, match="correct 1, expected True or False"):
        answer_graph_summary([("s1", 1, 1.0)])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["s1", "s2", "s3", "s4"]), st.booleans(),
                          st.one_of(st.none(), st.sampled_from([0.0, 0.25, 0.5, 2 / 3, 1.0]))), min_size=1, max_size=30))
def test_summary_identities(rows):
    s = answer_graph_summary(rows, n_boot=200)
    scored = [(r, f) for _, r, f in rows if f is not None]
    assert s["scored"] == len(scored) and s["undefined"] == len(rows) - len(scored)
    cells = (s["right_answer_right_graph"] + s["right_answer_wrong_graph"] + s["wrong_answer_right_graph"]
             + s["wrong_answer_wrong_graph"])
    assert cells == len(scored)
    assert s["right_answer_no_graph"] + s["wrong_answer_no_graph"] == s["undefined"]
    assert s["right_answer_wrong_graph"] == sum(1 for r, f in scored if r and f < 1)
    assert s["wrong_answer_right_graph"] == sum(1 for r, f in scored if not r and f == 1)
    if scored:
        assert s["gap"] == pytest.approx(s["accuracy"] - s["edge_f1"])
        for name in ("accuracy", "edge_f1", "gap"):
            ci = s[f"{name}_ci95"]
            if ci is not None:
                assert ci[0] - 1e-9 <= s[name] <= ci[1] + 1e-9


_WORDS = ["warming", "ice", "drought", "floods", "crops", "migration", "fires", "storms", "rain", "heat"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_WORDS), st.sampled_from(_WORDS), st.sampled_from(["positive", "negative"])),
                min_size=1, max_size=8))
def test_the_oracles_graph_scores_one_and_the_perturbed_graph_what_its_definition_says(edges):
    gold = {}
    for c, e, s in edges:
        if c != e:
            gold.setdefault((c, e), s)
    rows = [[c, e, s] for (c, e), s in gold.items()]
    if not rows:
        return
    meta = {"statement_id": "s", "gold_graph": rows}
    right = item_graph_scores(RunRecord("sinks", "GF_A_1", "sinks/GF_A_1/s/x", meta=meta,
                                        graph=parse_graph(gold_graph_answer(meta) + "Yes", "GF_A_1")))
    assert right["edge_f1"] == 1.0
    wrong = item_graph_scores(RunRecord("sinks", "GF_A_1", "sinks/GF_A_1/s/x", meta=meta,
                                        graph=parse_graph(perturbed_graph_answer(meta) + "Yes", "GF_A_1")))
    n = len(rows)
    reversed_in_gold = (rows[0][1], rows[0][0]) in gold
    if n >= 2:
        assert wrong["edge_f1"] == pytest.approx(2 * (n - 1) / (2 * n - 1))
    else:
        assert wrong["edge_f1"] == (1.0 if reversed_in_gold else 0.0)


# -- end to end: the mocks, bench report, stats compare -------------------------------------------------

@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    d = tmp_path_factory.mktemp("gf")
    data = _write_corpus(d / "rel.csv")
    out = {}
    for name, model, opts in [("oracle", "mock/oracle", []),
                              ("wrong_graph", "mock/noisy", ["--model-option", "flip=0",
                                                             "--model-option", "graph_flip=1"]),
                              ("wrong_answer", "mock/noisy", ["--model-option", "flip=1",
                                                              "--model-option", "graph_flip=0"])]:
        r = _cli("bench", "run", "--task", "sinks", "--variant", "GF_A_1,A_1", "--model", model, *opts,
                 "--data", str(data), "--out", str(d / name), cwd=d)
        assert r.returncode == 0, r.stderr
        out[name] = d / name
    out["dir"], out["data"] = d, data
    return out


def _report(run, cwd):
    r = _cli("bench", "report", str(run), "--format", "json", cwd=cwd)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)[0]["metrics"]["variants"]


def test_records_keep_the_graph_and_the_answer(runs):
    lines = [json.loads(x) for x in (runs["wrong_graph"] / "responses.jsonl").read_text().splitlines()]
    gf = [r for r in lines if r["variant"] == "GF_A_1"]
    assert [r["label"] for r in gf] == [["c"], ["e"], ["g", "h"]]
    s2 = next(r for r in gf if r["meta"]["statement_id"] == "s2")
    assert s2["graph"]["annotation"]["relations"][0]["cause_no_quantifier"] == "e"  # reversed
    assert all("graph" not in r for r in lines if r["variant"] == "A_1")
    assert json.loads((runs["wrong_graph"] / "manifest.json").read_text())["record_schema"] == 5


def test_report_figures_of_the_mocks_computed_by_hand(runs):
    v = _report(runs["wrong_graph"], runs["dir"])
    ag = v["GF_A_1"]["answer_graph"]
    assert "answer_graph" not in v["A_1"]
    assert (ag["items"], ag["scored"], ag["accuracy"]) == (3, 3, 1.0)
    assert ag["edge_f1"] == pytest.approx(4 / 9) and ag["gap"] == pytest.approx(5 / 9)
    assert ag["edge_precision"] == pytest.approx(2 / 3) and ag["edge_recall"] == pytest.approx(1 / 3)
    assert (ag["right_answer_wrong_graph"], ag["wrong_answer_right_graph"]) == (3, 0)
    assert ag["gap_ci95"][0] <= 5 / 9 <= ag["gap_ci95"][1]
    w = _report(runs["wrong_answer"], runs["dir"])["GF_A_1"]["answer_graph"]
    assert (w["accuracy"], w["edge_f1"], w["gap"]) == (0.0, 1.0, -1.0)
    assert (w["right_answer_wrong_graph"], w["wrong_answer_right_graph"]) == (0, 3)
    o = _report(runs["oracle"], runs["dir"])["GF_A_1"]["answer_graph"]
    assert (o["accuracy"], o["edge_f1"], o["gap"], o["gap_ci95"]) == (1.0, 1.0, 0.0, [0.0, 0.0])


def test_report_table_shows_accuracy_beside_edge_f1(runs):
    r = _cli("bench", "report", str(runs["wrong_graph"]), cwd=runs["dir"])
    assert r.returncode == 0, r.stderr
    head, _, row = r.stdout.splitlines()[:3]
    for col in ("answer_accuracy", "edge_f1", "gap", "gap_ci95", "right_answer_wrong_graph",
                "wrong_answer_right_graph"):
        assert col in head
    assert "GF_A_1" in row and "0.4444" in row and "0.5556" in row


def test_an_answer_without_a_graph_is_left_out_with_a_note(runs):
    d = runs["dir"]
    r = _cli("bench", "run", "--task", "sinks", "--variant", "GF_A_1", "--model", "mock/constant",
             "--model-option", "text=<Answer>none</Answer>", "--data", str(runs["data"]), "--out", str(d / "nograph"),
             cwd=d)
    assert r.returncode == 0, r.stderr
    rep = _cli("bench", "report", str(d / "nograph"), "--format", "json", cwd=d)
    ag = json.loads(rep.stdout)[0]["metrics"]["variants"]["GF_A_1"]["answer_graph"]
    assert (ag["scored"], ag["undefined"], ag["edge_f1"], ag["accuracy"]) == (0, 3, None, None)
    # "none" is a wrong set for every statement here (sinks are never empty)
    assert (ag["right_answer_no_graph"], ag["wrong_answer_no_graph"]) == (0, 3)
    assert "edge F1 undefined for 3 items (no graph could be read" in rep.stderr


def test_stats_compare_pairs_graph_first_with_its_base_and_shows_both(runs):
    r = _cli("stats", "compare", str(runs["wrong_graph"]), "--by", "variant", "--format", "json", cwd=runs["dir"])
    assert r.returncode == 0, r.stderr
    (row,) = json.loads(r.stdout)
    gf = "a" if row["arm_a"] == "GF_A_1" else "b"
    assert row["n"] == 3 and row[f"accuracy_{gf}"] == 1.0
    assert row[f"edge_f1_{gf}"] == pytest.approx(4 / 9) and row[f"gap_{gf}"] == pytest.approx(5 / 9)
    assert row[f"right_answer_wrong_graph_{gf}"] == 3 and row[f"wrong_answer_right_graph_{gf}"] == 0
    assert row[f"gap_ci_low_{gf}"] <= 5 / 9 <= row[f"gap_ci_high_{gf}"]


@pytest.mark.parametrize("argv,message", [
    (["bench", "run", "--task", "parents", "--variant", "GF_MX_1", "--model", "mock/oracle"],
     "a graph-first variant asks a stored question"),
    (["bench", "run", "--task", "parents", "--variant", "GF_A_1", "--event-names", "integer", "--model",
      "mock/oracle"], "variant GF_A_1: a graph-first variant takes no event-names"),
    # the graph-first refusal comes before the encoding rewrite, which found "no graph" in GF_A_4
    (["bench", "run", "--task", "ccr-member", "--variant", "GF_A_4", "--encoding", "matrix", "--model",
      "mock/oracle"], "variant GF_A_4: a graph-first variant takes no encoding"),
    (["bench", "run", "--task", "parents", "--variant", "A_1,GF_A_1", "--encoding", "dot", "--model",
      "mock/oracle"], "variant GF_A_1: a graph-first variant takes no encoding"),
    (["bench", "run", "--task", "reachability", "--variant", "GF_A_1", "--method", "loglik", "--model",
      "mock/oracle"], "asks for the graph before the answer"),
])
def test_cli_errors_are_one_line_exit_2(runs, argv, message):
    r = _cli(*argv, "--data", str(runs["data"]), "--out", str(runs["dir"] / "bad"), cwd=runs["dir"])
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert message in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_bench_parse_reads_the_graph_again(runs, tmp_path):
    import shutil

    run = tmp_path / "copy"
    shutil.copytree(runs["wrong_graph"], run)
    path = run / "responses.jsonl"
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    for r in lines:
        r.pop("graph", None)
    path.write_text("".join(json.dumps(r) + "\n" for r in lines))
    r = _cli("bench", "parse", str(run), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    again = [json.loads(x) for x in path.read_text().splitlines()]
    assert [bool(x.get("graph")) for x in again] == [x["variant"] == "GF_A_1" for x in again]
    assert _report(run, tmp_path)["GF_A_1"]["answer_graph"]["edge_f1"] == pytest.approx(4 / 9)


def _cells(head, dashes, row):
    """A table row's cells by column, cut where the dash line's groups lie (cells may hold spaces or be blank)."""
    import re

    spans = [m.span() for m in re.finditer(r"-+", dashes)]
    return {head[a:b].strip(): row[a:b].strip() for a, b in spans}


def test_undefined_answer_graph_figures_show_as_undefined_in_the_tables_never_blank(runs):
    # No graph written: accuracy, edge F1 and gap over no item are undefined; the tables show "—" (with the
    # note on stderr), as they show a variant nothing was answered for, and CSV keeps an empty cell.
    d = runs["dir"]
    r = _cli("bench", "run", "--task", "sinks", "--variant", "GF_A_1,A_1", "--model", "mock/constant",
             "--model-option", "text=<Answer>none</Answer>", "--data", str(runs["data"]), "--out", str(d / "nograph2"),
             cwd=d)
    assert r.returncode == 0, r.stderr
    rep = _cli("bench", "report", str(d / "nograph2"), cwd=d)
    assert rep.returncode == 0, rep.stderr
    head, dashes, gf, base = rep.stdout.splitlines()[:4]
    cells = _cells(head, dashes, gf)
    assert cells["variant"] == "GF_A_1" and cells["graph_items"] == "0"
    for col in ("answer_accuracy", "edge_f1", "gap", "gap_ci95"):
        assert cells[col] == "—", (col, gf)
    assert (cells["right_answer_wrong_graph"], cells["wrong_answer_right_graph"]) == ("0", "0")
    base = _cells(head, dashes, base)
    assert base["variant"] == "A_1" and base["edge_f1"] == ""  # A_1 writes no graph: no figures, not undefined ones
    assert "edge F1 undefined for 3 items" in rep.stderr
    cmp_ = _cli("stats", "compare", str(d / "nograph2"), "--by", "variant", cwd=d)
    assert cmp_.returncode == 0, cmp_.stderr
    head, dashes, row = cmp_.stdout.splitlines()[:3]
    cells = _cells(head, dashes, row)
    x = "a" if cells["arm_a"] == "GF_A_1" else "b"
    y = "b" if x == "a" else "a"
    for col in ("accuracy", "edge_f1", "gap", "gap_ci_low", "gap_ci_high"):
        assert cells[f"{col}_{x}"] == "—", (col, row)
    assert cells[f"right_answer_wrong_graph_{x}"] == "0"
    assert cells[f"accuracy_{y}"] == ""  # the base arm writes no graph
    assert "edge F1 undefined for 3 items" in cmp_.stderr


def test_stats_compare_notes_each_graph_first_arm_and_an_interval_it_cannot_give(runs):
    # Both arms graph-first: each arm's left-out items are noted (the second arm's note was dropped); with one
    # statement the gap interval is not estimable, and the note says so as bench report's does.
    d = runs["dir"]
    one = d / "one.csv"
    one.write_text("statement_id,text,cause,effect,correlation\ns1,\"A raises B, which raises C.\",a,b,positive\n"
                   "s1,\"A raises B, which raises C.\",b,c,positive\n", encoding="utf-8")
    for name, model in (("none_x", ["mock/constant"]), ("none_y", ["mock/flaky", "--model-option", "pattern=."])):
        r = _cli("bench", "run", "--task", "sinks", "--variant", "GF_A_1", "--model", *model, "--model-option",
                 "text=<Answer>c</Answer>", "--data", str(runs["data"]), "--out", str(d / name), cwd=d)
        assert r.returncode == 0, r.stderr
    r = _cli("stats", "compare", str(d / "none_x"), str(d / "none_y"), "--by", "model", "--format", "json", cwd=d)
    assert r.returncode == 0, r.stderr
    (row,) = json.loads(r.stdout)
    assert "arm " + row["arm_a"] + ": edge F1 undefined for 3 items" in row["graph_note"]
    assert "arm " + row["arm_b"] + ": edge F1 undefined for 3 items" in row["graph_note"]
    for name, model in (("one_o", "mock/oracle"), ("one_n", "mock/noisy")):
        r = _cli("bench", "run", "--task", "ccr-member", "--variant", "GF_A_4", "--model", model, "--data", str(one),
                 "--out", str(d / name), cwd=d)
        assert r.returncode == 0, r.stderr
    r = _cli("stats", "compare", str(d / "one_o"), str(d / "one_n"), "--by", "model", cwd=d)
    assert r.returncode == 0, r.stderr
    assert "gap interval not estimable: the graphs come from one statement" in r.stderr


def test_a_failed_request_is_not_counted_as_a_wrong_answer(runs):
    # mock/flaky pattern f: every request fails for good; no item was answered, so none is a wrong answer
    # without a graph: they are counted as failed, and still left out of every figure.
    d = runs["dir"]
    r = _cli("bench", "run", "--task", "sinks", "--variant", "GF_A_1", "--model", "mock/flaky", "--model-option",
             "pattern=f", "--data", str(runs["data"]), "--out", str(d / "failed"), cwd=d)
    assert "3 errors" in r.stderr, r.stderr  # (a run with failed requests exits non-zero)
    ag = _report(d / "failed", d)["GF_A_1"]["answer_graph"]
    assert (ag["items"], ag["scored"], ag["undefined"], ag["failed"]) == (3, 0, 3, 3)
    assert (ag["right_answer_no_graph"], ag["wrong_answer_no_graph"]) == (0, 0)
    assert ag["accuracy"] is None and ag["edge_f1"] is None


def test_embedding_alignment_loads_the_encoder_once_per_report_not_once_per_graph(monkeypatch):
    # --align embedding over many items: the encoder (MiniLM, seconds to load) was loaded again for every
    # statement whose graph had an event left after the token rule.
    import numpy as np

    import causalgraph.alignment.events as events_mod
    import causalgraph.stats.answer_graph as ag_mod

    loads = []

    class Fake:
        def cosine(self, a, b):
            return np.zeros((len(a), len(b)))

    def fake_load(*args, **kwargs):
        loads.append(1)
        return Fake()

    monkeypatch.setattr(events_mod, "load_embedder", fake_load)
    monkeypatch.setattr(ag_mod, "load_embedder", fake_load, raising=False)
    if hasattr(ag_mod, "_shared_embedder"):
        ag_mod._shared_embedder.cache_clear()
    task = get_task("sinks")
    recs = []
    for k in range(4):
        recs.append(RunRecord.from_dict({
            "task": "sinks", "variant": "GF_A_1", "item_id": f"sinks/GF_A_1/s{k}/x", "gold": ["b"],
            "label": ["b"], "meta": {"statement_id": f"s{k}", "gold_graph": [["a", "b", "positive"]]},
            "graph": {"rule": "tagged:json", "annotation": {"causal": True, "relations": [
                {"cause_no_quantifier": "a", "effect_no_quantifier": f"unrelated {k}"}]}}}))
    s = answer_graph_scores(recs, task, rule="embedding", n_boot=0)
    assert s["scored"] == 4 and s["edge_f1"] == 0.0  # zero cosine: nothing aligned past the token rule
    assert len(loads) == 1
    if hasattr(ag_mod, "_shared_embedder"):
        ag_mod._shared_embedder.cache_clear()


@pytest.mark.parametrize("rows", [[["a", "b"]], [["a", "b", "positive", "x"]], [["a", 3, "positive"]], ["a -> b"],
                                  [["a", "b", "sideways"]], "a -> b"])
def test_a_damaged_gold_graph_is_refused_in_one_line_naming_the_item(rows, runs, tmp_path):
    from causalgraph.errors import SchemaError

    rec = RunRecord("sinks", "GF_A_1", "sinks/GF_A_1/s1/c", meta={"statement_id": "s1", "gold_graph": rows},
                    graph={"rule": "tagged:json", "annotation": {"causal": False, "relations": []}})
    with pytest.raises(SchemaError, match=r"sinks/GF_A_1/s1/c: meta gold_graph .*expected"):
        item_graph_scores(rec)
    if rows != [["a", "b"]]:
        return
    import shutil

    run = tmp_path / "damaged"
    shutil.copytree(runs["oracle"], run)
    path = run / "responses.jsonl"
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    next(r for r in lines if r["variant"] == "GF_A_1")["meta"]["gold_graph"] = rows
    path.write_text("".join(json.dumps(r) + "\n" for r in lines))
    r = _cli("bench", "report", str(run), cwd=tmp_path)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr, r.stderr
    assert "meta gold_graph" in r.stderr


@pytest.mark.parametrize("relations", ["a -> b", {"cause": "a"}, None, 3])
def test_a_damaged_graph_is_refused_naming_file_line_and_value_never_scored_as_empty(relations, runs, tmp_path):
    from causalgraph.errors import SchemaError

    # Built field by field: RunRecord.from_dict would refuse the damaged graph itself (as the store does, below).
    rec = RunRecord("sinks", "GF_A_1", "sinks/GF_A_1/s1/c",
                    meta={"statement_id": "s1", "gold_graph": [["a", "b", "positive"]]},
                    graph={"rule": "tagged:json", "annotation": {"causal": True, "relations": relations}})
    with pytest.raises(SchemaError, match=r"^sinks/GF_A_1/s1/c: graph annotation relations .*expected a list"):
        item_graph_scores(rec)
    import shutil

    run = tmp_path / "damaged"
    shutil.copytree(runs["oracle"], run)
    path = run / "responses.jsonl"
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    n = next(i for i, r in enumerate(lines) if r["variant"] == "GF_A_1" and r.get("graph"))
    lines[n]["graph"]["annotation"]["relations"] = relations
    path.write_text("".join(json.dumps(r) + "\n" for r in lines))
    r = _cli("bench", "report", str(run), cwd=tmp_path)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr, r.stderr
    assert f"{path}, line {n + 1}: graph annotation relations {relations!r}, expected a list" in r.stderr, r.stderr


def test_a_gap_interval_not_asked_for_stays_blank_like_f1_ci95(runs):
    # --bootstrap 0: no interval was asked for; the gap itself is defined (5/9), so nothing is shown as undefined.
    rep = _cli("bench", "report", str(runs["wrong_graph"]), "--bootstrap", "0", cwd=runs["dir"])
    assert rep.returncode == 0, rep.stderr
    head, dashes, gf = rep.stdout.splitlines()[:3]
    cells = _cells(head, dashes, gf)
    assert cells["variant"] == "GF_A_1" and cells["gap"] == "0.5556"
    assert cells["gap_ci95"] == ""


def test_mean_edge_precision_says_it_leaves_out_graphs_without_edges():
    # s1's graph is read but empty (precision undefined, recall and F1 0); s2's is the gold graph (all 1).
    task = get_task("sinks")
    gold = {"s1": [["a", "b", "positive"]], "s2": [["d", "e", "negative"]]}
    graphs = {"s1": [], "s2": [{"cause_no_quantifier": "d", "effect_no_quantifier": "e", "correlation": "negative"}]}
    recs = [RunRecord.from_dict({
                "task": "sinks", "variant": "GF_A_1", "item_id": f"sinks/GF_A_1/{s}/x", "gold": ["b"], "label": ["b"],
                "meta": {"statement_id": s, "gold_graph": gold[s]},
                "graph": {"rule": "tagged:json", "annotation": {"causal": bool(graphs[s]), "relations": graphs[s]}}})
            for s in ("s1", "s2")]
    s = answer_graph_scores(recs, task, n_boot=0)
    assert (s["scored"], s["edge_f1"], s["edge_recall"], s["edge_precision"]) == (2, 0.5, 0.5, 1.0)
    assert any("edge precision is the mean over 1 of 2 scored items" in n for n in s["notes"]), s.get("notes")


def test_braces_in_event_names_or_the_text_are_kept_as_written():
    # The graph part's {events} and {statement} are filled in one pass: an event named "{statement}" (a corpus
    # file can hold any name) stays that name, and a statement's "{events}" stays in its text.
    odd = [Statement("b1", "X {events} raises Y.", True, (Relation("{statement}", "y", correlation=P),))]
    it = get_task("sinks").items(odd, "GF_A_1")[0]
    assert "Name the events exactly as in this list: [{statement}, y]." in it.prompt
    assert "Statement: X {events} raises Y." in it.prompt
    assert it.prompt.count("X {events} raises Y.") == 1
