"""The reference answer of a custom task: what ``mock/oracle`` answers when the gold is not a label.

For PubMedCausal extraction the reference answer writes the gold pairs as the few-shot examples write
tuples; parsed back by the task's own parser it must give the gold pairs, wherever the parser's
tidying (trailing punctuation, wrapping brackets and quotes, duplicate pairs) does not apply.
"""

from __future__ import annotations

import re

import pytest

from causalgraph.bench.runner import run_benchmark
from causalgraph.runlog.store import load_run
from causalgraph.tasks import get_task
from causalgraph.tasks.pubmedcausal import reference_extraction

TASK = get_task("pubmedcausal-extract")
# What the parser tidies at a span's ends, and the brace that ends a tuple.
_TIDIED = re.compile(r"""^[\s,;"'*`“”‘’\[\](){}<>]|[\s,;"'*`“”‘’\[\](){}<>]$|[{}]""")


def test_every_reference_answer_parses_back_to_its_gold_pairs_where_no_tidying_applies(pubmed_test):
    items = TASK.items(pubmed_test, "zero-shot")
    checked = 0
    for it in items:
        gold = [(p["cause"], p["effect"], p["causality"], p["sententiality"]) for p in it.meta["pairs"]]
        if any(_TIDIED.search(span) for g in gold for span in g[:2]) or len(set(gold)) != len(gold):
            continue
        label, rule = TASK.parse_answer(reference_extraction(it), "zero-shot")
        got = [(p["cause"], p["effect"], p["causality"], p["sententiality"]) for p in label or []]
        assert got == gold, (it.id, rule)
        checked += 1
    # All but the rows with a tidied span or a duplicated pair (26 of the 1,973 test rows).
    assert checked >= 1900 and checked == len(items) - 26


def test_a_row_without_pairs_is_answered_as_no_relations_which_the_parser_reads_as_no_pairs():
    from causalgraph.taskkit.item import Item

    empty = Item("pubmedcausal-extract/zero-shot/x", "pubmedcausal-extract", "zero-shot", "…", None,
                 meta={"pairs": []})
    assert reference_extraction(empty) == "Output: No relations extracted."
    assert TASK.parse_answer(reference_extraction(empty), "zero-shot") == ([], "none-stated")


def test_the_oracle_answers_extraction_items_with_the_reference_and_scores_full_marks(pubmed_test, pubmed_test_path,
                                                                                     isolated_cache, tmp_path):
    res = run_benchmark("pubmedcausal-extract", "few-shot", "mock/oracle", data=str(pubmed_test_path), limit=60,
                        out=tmp_path / "o")
    run = load_run(res.path)
    items = {it.id: it for it in TASK.items(pubmed_test, "few-shot")[:60]}
    assert all(r.response == reference_extraction(items[r.item_id]) for r in run.responses)
    s = res.metrics.variants["few-shot"]
    assert s["parse_failures"] == 0 and s["f1"] == pytest.approx(1.0)


def test_noisy_mock_answers_a_flipped_extraction_item_with_no_relation_or_an_unrelated_one(pubmed_test,
                                                                                           isolated_cache, tmp_path):
    """mock/noisy with flip=1: a row with gold pairs is answered 'no relation', a row without one an unrelated pair."""
    from causalgraph.taskkit.item import Item

    real = TASK.items(pubmed_test, "zero-shot")[:3]
    empty = Item("pubmedcausal-extract/zero-shot/no-pairs", "pubmedcausal-extract", "zero-shot", "A sentence.", None,
                 meta={"pairs": [], "s/n": "no-pairs"})
    res = run_benchmark("pubmedcausal-extract", "zero-shot", "mock/noisy", items=[*real, empty], out=tmp_path / "n",
                        temperature=1.0, model_options={"flip": 1})
    got = {r.item_id: r for r in load_run(res.path).responses}
    for it in real:
        assert it.meta["pairs"]
        assert (got[it.id].response, got[it.id].label, got[it.id].rule) == (
            "Output: No relations extracted.", [], "none-stated")
    r = got[empty.id]
    assert [(p["cause"], p["effect"]) for p in r.label] == [("an unrelated event", "another unrelated event")]
    assert res.metrics.variants["zero-shot"]["parse_failures"] == 0


def test_noisy_mock_answers_a_flipped_annotation_with_a_wrong_annotation_in_the_answer_format(climatecause,
                                                                                            isolated_cache, tmp_path):
    """Texts that are corpus statements: one without causality gets one unrelated relation, the others none."""
    from causalgraph.apps.annotator import statements_from_run
    from causalgraph.tasks.annotation import text_items

    statements = [st for st in climatecause if not st.relations][:1] + [st for st in climatecause if st.relations][:3]
    assert [bool(st.relations) for st in statements] == [False, True, True, True]
    items = text_items([st.text for st in statements], "zero-shot")
    res = run_benchmark("annotate", "zero-shot", "mock/noisy", items=items, out=tmp_path / "n", temperature=1.0,
                        model_options={"flip": 1})
    assert res.metrics.variants["zero-shot"]["parse_failures"] == 0
    got = statements_from_run(tmp_path / "n")
    assert [[(r.cause, r.effect) for r in st.relations] for st in got] == [
        [("an unrelated event", "another unrelated event")], [], [], []]
