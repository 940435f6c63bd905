"""stats compare: arms paired item by item, F1 differences, bootstrap intervals, McNemar with Holm — by hand."""

from __future__ import annotations

import json

import pytest
from scipy import stats as ss

from causalgraph.bench.runner import run_benchmark
from causalgraph.cli import main
from causalgraph.errors import ConfigError
from causalgraph.model import Relation, Statement
from causalgraph.stats.compare import arm_of, compare_runs
from causalgraph.stats.corrections import holm
from causalgraph.tasks import get_task

TOY = [Statement("s1", "t", True, (Relation("a", "b"), Relation("b", "c"))),
       Statement("s2", "t", True, (Relation("x", "y"), Relation("z", "y"))),
       Statement("s3", "t", True, (Relation("p", "q"),))]


def _run(tmp_path, name, task, variants, model, **opts):
    its = [it for v in variants for it in get_task(task).items(TOY, v)]
    return run_benchmark(task, variants, model, items=its, out=str(tmp_path / name), **opts).path


@pytest.fixture(autouse=True)
def _cache(isolated_cache):
    return isolated_cache


def test_same_answers_in_two_encodings_differ_by_nothing(tmp_path):
    run = _run(tmp_path, "o", "parents", ["A_1", "MX_1", "DOT_1"], "mock/oracle")
    t = compare_runs([run], by="encoding")
    assert list(zip(t["arm_a"], t["arm_b"])) == [("adjacency", "matrix"), ("adjacency", "dot"), ("matrix", "dot")]
    assert (t["n"] == 8).all() and (t["statements"] == 3).all()
    assert (t["diff"] == 0).all() and (t["b"] == 0).all() and (t["p"] == 1).all() and not t["significant"].any()


def test_oracle_against_empty_answers_by_model_by_hand(tmp_path):
    a = _run(tmp_path, "o", "parents", ["A_1"], "mock/oracle")
    b = _run(tmp_path, "c", "parents", ["A_1"], "mock/constant", model_options={"text": "<Answer>none</Answer>"})
    row = compare_runs([a, b], by="model").iloc[0]
    # parents: s1 a:[] b:[a] c:[b]; s2 x:[] y:[x,z] z:[]; s3 p:[] q:[p] -> 4 non-empty, 4 empty golds
    assert (row["arm_a"], row["arm_b"], row["n"]) == ("mock/oracle", "mock/constant", 8)
    assert (row["f1_a"], row["f1_b"], row["diff"]) == (1.0, 0.0, -1.0)
    assert (row["ci_low"], row["ci_high"]) == (-1.0, -1.0)
    # the constant "none" is right on the 4 empty golds: b = 4 (oracle right, constant wrong), c = 0
    assert (row["b"], row["c"]) == (4, 0)
    assert row["p"] == pytest.approx(2 * ss.binom.cdf(0, 4, 0.5))


def test_binary_task_f1_and_holm_over_the_tasks_comparisons(tmp_path):
    a = _run(tmp_path, "o", "reachability", ["A_1"], "mock/oracle")
    b = _run(tmp_path, "y", "reachability", ["A_1"], "mock/constant", model_options={"text": "Yes"})
    c = _run(tmp_path, "n", "reachability", ["A_1"], "mock/flaky", model_options={"text": "No", "pattern": "."})
    t = compare_runs([a, b, c], by="model")
    gold = [it.gold for it in get_task("reachability").items(TOY, "A_1")]
    yes = gold.count("yes")
    f1_yes = 2 * (yes / len(gold)) / (yes / len(gold) + 1)
    row = t[(t["arm_a"] == "mock/oracle") & (t["arm_b"] == "mock/constant")]
    assert len(t) == 3 and row.iloc[0]["f1_b"] == pytest.approx(f1_yes)
    assert list(t["p_holm"]) == pytest.approx(list(holm(list(t["p"])).p_adjusted))


def test_pairs_need_the_same_template_and_names_along_the_encoding_axis():
    assert arm_of("encoding", "m", "A_5") == ("adjacency", ("m", "5", "real"))
    assert arm_of("encoding", "m", "MX_5.letters")[1] != arm_of("encoding", "m", "A_5")[1]
    assert arm_of("event-names", "m", "MX_5.letters") == ("letters", ("m", "MX_5"))
    with pytest.raises(ConfigError, match="names no graph encoding"):
        arm_of("encoding", "m", "CoT_4")
    with pytest.raises(ConfigError, match="unknown axis"):
        arm_of("colour", "m", "A_5")


def test_no_shared_items_is_an_error_naming_the_arms(tmp_path):
    run = _run(tmp_path, "o", "sinks", ["A_1", "MX_1.nonsense"], "mock/oracle")
    with pytest.raises(ConfigError, match="no two arms by encoding share an item.*adjacency, matrix"):
        compare_runs([run], by="encoding")


def test_event_names_axis_and_the_cli_json(tmp_path, capsys):
    run = _run(tmp_path, "o", "children", ["A_2", "A_2.letters", "A_2.nonsense"], "mock/oracle")
    assert main(["stats", "compare", str(run), "--by", "event-names", "--format", "json", "--n-boot", "50"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["arm_a"], r["arm_b"]) for r in rows] == [("real", "letters"), ("real", "nonsense"),
                                                        ("letters", "nonsense")]
    assert all(r["n"] == 8 and r["diff"] == 0 for r in rows)


def test_cli_refuses_a_task_scored_by_its_own_scorer(tmp_path, capsys):
    from causalgraph.tasks.annotation import annotation_items

    its = annotation_items(TOY, "zero-shot")
    run = run_benchmark("annotate", ["zero-shot"], "mock/oracle", items=its, out=str(tmp_path / "a")).path
    assert main(["stats", "compare", str(run), "--by", "model"]) == 2
    assert "stats compare handles binary" in capsys.readouterr().err


def _catalog_run(tmp_path, name, prompts, text):
    its = get_task("ccr-member").items(TOY, "A_4", prompts=prompts)
    return run_benchmark("ccr-member", ["A_4"], "mock/constant", items=its, out=str(tmp_path / name),
                         model_options={"text": text}).path


def test_prompts_axis_pairs_the_same_items_under_the_two_catalogs_by_hand(tmp_path, capsys):
    a = _catalog_run(tmp_path, "a", "authors", "<Answer>Yes</Answer>")
    t = _catalog_run(tmp_path, "t", "tables", "<Answer>No</Answer>")
    row = compare_runs([a, t], by="prompts").iloc[0]
    # TOY: s1 a->b->c is a chain (3 events yes); s2 and s3 hold none (5 events no).
    assert (row["task"], row["arm_a"], row["arm_b"], row["n"], row["statements"]) == (
        "ccr-member", "authors", "tables", 8, 3)
    assert row["f1_a"] == pytest.approx(2 * (3 / 8) / (3 / 8 + 1)) and row["f1_b"] == 0.0
    # authors ("Yes") right on the 3 yes golds, tables ("No") right on the 5 no golds
    assert (row["b"], row["c"]) == (3, 5)
    assert row["p"] == pytest.approx(ss.binomtest(3, 8, 0.5).pvalue)
    assert main(["stats", "compare", str(a), str(t), "--by", "prompts", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [(r["arm_a"], r["arm_b"], r["b"], r["c"]) for r in out] == [("authors", "tables", 3, 5)]


def test_prompts_axis_reads_a_run_without_a_catalog_as_tables_and_refuses_tasks_without_one(tmp_path):
    a = _catalog_run(tmp_path, "a", "authors", "<Answer>Yes</Answer>")
    t = _catalog_run(tmp_path, "t", "tables", "<Answer>Yes</Answer>")
    manifest = json.loads((t / "manifest.json").read_text(encoding="utf-8"))
    del manifest["prompts"]
    (t / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    row = compare_runs([a, t], by="prompts").iloc[0]
    assert (row["arm_a"], row["arm_b"], row["diff"], row["n"]) == ("authors", "tables", 0.0, 8)
    s = _run(tmp_path, "s", "parents", ["A_1"], "mock/oracle")
    with pytest.raises(ConfigError, match="comes from no prompt catalog"):
        compare_runs([s], by="prompts")


def test_graph_edits_pair_each_item_with_its_real_version(tmp_path):
    spec = get_task("ccr-position")
    its = [it for e in ("real", "reverse", "shuffle") for it in spec.items(TOY, "A_5", graph_edit=e)]
    variants = ["A_5", "A_5.reverse", "A_5.shuffle"]
    # The oracle answers every edited gold right; a constant "none" gets the real and edited items right
    # exactly where their golds are "none".
    run = run_benchmark("ccr-position", variants, "mock/oracle", items=its, out=str(tmp_path / "o")).path
    t = compare_runs([run], by="graph-edit")
    assert list(zip(t["arm_a"], t["arm_b"])) == [("real", "reverse"), ("real", "shuffle"), ("reverse", "shuffle")]
    assert (t["n"] == 8).all() and (t["diff"] == 0).all()
    const = run_benchmark("ccr-position", variants, "mock/constant", items=its, out=str(tmp_path / "c"),
                          model_options={"text": "<Answer>none</Answer>"}).path
    row = compare_runs([const], by="graph-edit").iloc[0]
    gold = {e: [i.gold for i in its if i.variant == v] for e, v in zip(("real", "reverse"), variants)}
    right_real = [g == "none" for g in gold["real"]]
    right_rev = [g == "none" for g in gold["reverse"]]
    assert (row["b"], row["c"]) == (sum(a and not b for a, b in zip(right_real, right_rev)),
                                    sum(b and not a for a, b in zip(right_real, right_rev)))
    assert arm_of("graph-edit", "m", "A_5.letters.shuffle") == ("shuffle", ("m", "A_5.letters"))
    assert arm_of("event-names", "m", "A_5.letters.shuffle") == ("letters", ("m", "A_5.shuffle"))


def test_an_undefined_f1_is_noted_and_shown_as_undefined(tmp_path, capsys):
    # Only items whose gold is "no": the oracle answers "no" everywhere, so its F1(yes) has no positive
    # in gold or answers — undefined, not 0 — while McNemar on correctness still compares the arms.
    its = [it for it in get_task("reachability").items(TOY, "A_1") if it.gold == "no"]
    a = run_benchmark("reachability", ["A_1"], "mock/oracle", items=its, out=str(tmp_path / "o")).path
    b = run_benchmark("reachability", ["A_1"], "mock/constant", items=its, out=str(tmp_path / "y"),
                      model_options={"text": "Yes"}).path
    row = compare_runs([a, b], by="model").iloc[0]
    assert row["f1_a"] != row["f1_a"] and row["f1_b"] == 0.0 and row["b"] == len(its)
    assert "f1 undefined in arm mock/oracle" in row["note"]
    assert main(["stats", "compare", str(a), str(b), "--by", "model"]) == 0
    cap = capsys.readouterr()
    line = next(x for x in cap.out.splitlines() if x.startswith("reachability"))
    assert line.split()[6] == "—" and "nan" not in line and "f1 undefined" in cap.err


def test_the_bootstrap_interval_says_in_one_line_that_it_misses_the_level_and_cr2_says_nothing(tmp_path, capsys):
    its = get_task("reachability").items(TOY, "A_1")
    a = run_benchmark("reachability", ["A_1"], "mock/oracle", items=its, out=str(tmp_path / "o")).path
    b = run_benchmark("reachability", ["A_1"], "mock/constant", items=its, out=str(tmp_path / "y"),
                      model_options={"text": "Yes"}).path
    assert main(["stats", "compare", str(a), str(b), "--by", "model", "--interval", "bootstrap", "--n-boot", "50"]) == 0
    err = [x for x in capsys.readouterr().err.splitlines() if "--interval bootstrap" in x]
    assert err == ["causalgraph stats: note: --interval bootstrap does not hold its level on designs like "
                   "ClimateCause's (F1 difference under no effect rejected 1.4-4 % at 8-15 statements, 6.1-8.1 % at "
                   "30-63; docs/statistics.md); the default, cr2, does"]
    assert main(["stats", "compare", str(a), str(b), "--by", "model", "--n-boot", "50"]) == 0
    assert "--interval bootstrap" not in capsys.readouterr().err
