"""The App. E prompt catalog and the items built from it."""

import json
import re
from pathlib import Path

import pytest

from causalgraph.errors import ConfigError
from causalgraph.extraction.catalog import (DETECT_TASK, EXTRACT_TASK, detection_items, extraction_items,
                                            get_strategy, render_prompt, strategies)
from causalgraph.model import Relation, Statement

PAPER = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "000_9b97f5f31c2d3889.txt"
# The paper's text renders a few symbols as LaTeX; the catalog writes them as Unicode.
LATEX = [("$M{=}1$", "M=1"), ("$M{=}0$", "M=0"), ("$B{=}0$", "B=0"), ("$B{=}1$", "B=1"),
         ("$(A{\\to}B)$", "(A→B)"), ("$(A{\\to}C)$", "(A→C)"), ("$(B{\\to}C)$", "(B→C)"),
         ("$\\Rightarrow$", "⇒"), ("$\\to$", "→")]


def _flat(text):
    return " ".join(text.split())


def test_strategies_are_the_six_of_the_paper_in_order():
    for task in (EXTRACT_TASK, DETECT_TASK):
        assert [s.paper for s in strategies(task)] == ["ZS", "FS", "CoT", "CoT-FS", "L2M", "ReAct"]


def test_get_strategy_accepts_ids_abbreviations_and_aliases():
    assert get_strategy("extract", "CoT-FS").id == "cot-few-shot"
    assert get_strategy(EXTRACT_TASK, "l2m").id == "least-to-most"
    assert get_strategy(DETECT_TASK, "Few-Shot").id == "few-shot"
    with pytest.raises(ConfigError, match="unknown prompting strategy 'tree-of-thought'"):
        get_strategy(EXTRACT_TASK, "tree-of-thought")
    with pytest.raises(ConfigError, match="unknown PubMedCausal task"):
        strategies("summarise")


@pytest.mark.skipif(not PAPER.is_file(), reason="the PubMedCausal paper text is not beside the checkout")
def test_every_prompt_is_a_verbatim_passage_of_appendix_e():
    paper = PAPER.read_text(encoding="utf-8")
    for a, b in LATEX:
        paper = paper.replace(a, b)
    flat = _flat(paper)
    for task in (EXTRACT_TASK, DETECT_TASK):
        s0 = strategies(task)[0]
        assert _flat(s0.system) in flat, task
        for s in strategies(task):
            assert _flat(s.template) in flat, (task, s.id)
    # The zero-shot extraction prompt as the paper prints it is system + user text.
    zs = get_strategy(EXTRACT_TASK, "zero-shot")
    assert "System Role: " + _flat(zs.system) + " " + _flat(zs.template) in flat


def test_render_prompt_puts_the_text_where_the_marker_was():
    system, user = render_prompt(EXTRACT_TASK, "react", "  Smoking causes cancer.  ")
    assert "[Insert Text Here]" not in user
    assert user.endswith("Input Text: Smoking causes cancer.")
    assert system.startswith("You are an expert causal relation extraction system.")


def test_few_shot_examples_are_the_papers_and_appear_in_no_corpus_row(pubmed_test_path, pubmed_train_path):
    fs = get_strategy(EXTRACT_TASK, "few-shot").template
    examples = re.findall(r"Input: “(.+?)”", fs)
    assert examples[0] == "Hypertension leads to heart failure and kidney damage."
    assert len(examples) == 4
    for path in (pubmed_test_path, pubmed_train_path):
        sentences = [r["sentence"] for r in json.loads(path.read_text())]
        for ex in examples:
            assert not any(ex in s for s in sentences), ex


def test_extraction_items_carry_gold_pairs_in_meta():
    row = Statement("pmc-5", "Heat causes stroke.", True,
                    (Relation("Heat", "stroke"),), meta={"s/n": 5})
    (item,) = extraction_items([row], "cot")
    assert item.id == "pubmedcausal-extract/cot/pmc-5" and item.variant == "cot" and item.gold is None
    assert item.meta["pairs"] == [{"cause": "Heat", "effect": "stroke", "causality": None, "sententiality": None}]
    assert item.messages()[0]["role"] == "system" and "Heat causes stroke." in item.messages()[1]["content"]


def test_detection_items_gold_follows_the_causal_flag():
    rows = [Statement("pmc-1", "a.", True, (Relation("a", "b"),), meta={"s/n": 1}),
            Statement("pmc-2", "b.", False, meta={"s/n": 2})]
    assert [i.gold for i in detection_items(rows, "zs")] == ["1", "0"]


def test_extraction_items_over_the_real_test_split(pubmed_test):
    items = extraction_items(pubmed_test, "few-shot", limit=10)
    assert len(items) == 10 and len({i.id for i in items}) == 10
    assert items[0].meta["s/n"] == "8084"
    with pytest.raises(ConfigError, match="--limit"):
        extraction_items(pubmed_test, limit=-1)
