"""The ClimateCause `tables` prompt catalog: every variant of Tables 23-29, transcribed exactly."""

from __future__ import annotations

import re
import string

import pytest

from causalgraph.errors import ConfigError
from causalgraph.prompts import TASKS, exemplars, list_tasks
from causalgraph.prompts import get_variant as _get_variant, list_variants as _list_variants


# This file checks the catalog of the printed tables (`tables`); the authors' catalog is checked in
# test_authors_catalog.py against the prompts they sent.
def get_variant(task, variant_id):
    return _get_variant(task, variant_id, "tables")


def list_variants(task):
    return _list_variants(task, "tables")

PAPER_TASKS = TASKS[:6]
CORR = {"1": {"positive": "positive", "negative": "negative"}, "2": {"positive": "same", "negative": "opposite"},
        "3": {"positive": "increase", "negative": "decrease"}}


def _placeholders(template):
    return {m.group("braced") or m.group("named") for m in string.Template.pattern.finditer(template)
            if m.group("braced") or m.group("named")}


def test_list_tasks_names_the_paper_tasks_and_multihop():
    assert list_tasks() == ["corri", "corri-rc", "ccr-member", "ccr-position", "ccr-eci-member",
                            "ccr-eci-position", "corri-multihop"]


@pytest.mark.parametrize("task,ids", [
    ("corri", ["0_1", "0_2", "0_3", "F_1", "F_2", "F_3", "CoT_1", "CoT_2", "CoT_3"]),
    ("corri-rc", ["RC_0_1", "RC_0_2", "RC_0_3", "RC_F_1", "RC_F_2", "RC_F_3", "RC_CoT_1", "RC_CoT_2", "RC_CoT_3"]),
    ("ccr-member", ["A_4", "A_5", "A_6", "SN_4", "SN_5", "SN_6", "ML_4", "ML_5", "ML_6"]),
    ("ccr-position", ["A_4", "A_5", "A_6", "SN_4", "SN_5", "SN_6", "ML_4", "ML_5", "ML_6"]),
    ("ccr-eci-member", ["0_4", "0_5", "0_6", "F_4", "F_5", "F_6", "CoT_4", "CoT_5", "CoT_6"]),
    ("ccr-eci-position", ["0_4", "0_5", "0_6", "F_4", "F_5", "F_6", "CoT_4", "CoT_5", "CoT_6"]),
    ("corri-multihop", ["0_1", "0_2", "0_3", "CoT_1", "CoT_2", "CoT_3"]),
])
def test_list_variants_has_every_variant_in_paper_order(task, ids):
    assert [v.id for v in list_variants(task)] == ids


@pytest.mark.parametrize("task", TASKS)
def test_templates_are_ascii_quoted_and_use_declared_placeholders(task):
    for v in list_variants(task):
        assert not re.search("[\u2018\u2019\u201c\u201d]", v.template), v.id
        assert "  " not in v.template and not v.template.startswith(" ") and not v.template.endswith(" ")
        assert _placeholders(v.template) == set(v.placeholders), v.id


@pytest.mark.parametrize("task", ["corri", "corri-rc", "corri-multihop"])
def test_corri_answer_labels_follow_the_variant_number(task):
    for v in list_variants(task):
        assert v.answer_labels == CORR[v.id[-1]], v.id
        assert v.expected_output == "{" + ", ".join(CORR[v.id[-1]].values()) + "}"


def test_chain_answer_labels():
    for task in ("ccr-member", "ccr-eci-member"):
        for v in list_variants(task):
            assert v.answer_labels == {"yes": "Yes", "no": "No"}
    for task in ("ccr-position", "ccr-eci-position"):
        for v in list_variants(task):
            assert v.answer_labels == {"start": "start", "middle": "middle", "end": "end", "none": "none"}


def test_ccr_variants_name_their_encoding():
    enc = {"A": "adjacency", "SN": "single-node", "ML": "graphml"}
    for task in ("ccr-member", "ccr-position"):
        for v in list_variants(task):
            assert v.encoding == enc[v.id.split("_")[0]] == v.strategy


def test_paper_names_follow_the_result_tables():
    assert get_variant("corri", "F_2").paper_name == "CorrI_F_2"
    assert get_variant("corri-rc", "RC_CoT_1").paper_name == "CorrI_RC_CoT_1"
    assert get_variant("ccr-member", "SN_5").paper_name == "CCR_member_SN_5"
    assert get_variant("ccr-eci-position", "F_6").paper_name == "CCR_ECI_position_F_6"


# Wording typed by hand from the paper's tables (straight quotes), placeholders filled.

def test_corri_0_2_wording():
    assert get_variant("corri", "0_2").render(e_i="X", e_j="Y") == (
        "[MASK] in {same, opposite}. X impact(s) Y. When we would intervene in X, X and Y change in the "
        "[MASK] direction.")


def test_corri_cot_3_wording():
    assert get_variant("corri", "CoT_3").render(e_i="X", e_j="Y") == (
        "Let's think step by step. [MASK] in {increase, decrease}. If X (the cause) were to increase, "
        "Y (the effect) would [MASK].")


def test_corri_rc_cot_3_puts_statement_first():
    assert get_variant("corri-rc", "RC_CoT_3").render(s="S", e_i="X", e_j="Y") == (
        "Let's think step by step. Statement: S. [MASK] in {increase, decrease}. If X (the cause) were to "
        "increase, Y (the effect) would [MASK].")


def test_corri_f_1_wording():
    assert get_variant("corri", "F_1").render(e_i="X", e_j="Y") == (
        "There is a positive correlation between access to finance and climate resilient development. "
        "There is a negative correlation between persistent barriers and political feasibility of deploying "
        "AFOLU mitigation options. There is a [MASK] correlation between X and Y.")


def test_ccr_member_a_5_continues_with_period_after_adjacency():
    graph = "(a, b) (b, c)" + "."
    assert get_variant("ccr-member", "A_5").render(graph=graph, e_i="b") == (
        "The causal relationships in a causal graph are- (a, b) (b, c). Based on this graph, determine whether "
        "b belongs to a causal chain. A causal chain is a directed path of at least three nodes in a causal "
        "graph. Answer with {Yes, No} only.")


def test_ccr_position_sn_6_wording():
    assert get_variant("ccr-position", "SN_6").render(graph="a causes b.", e_i="a") == (
        "The given causal graph includes the following causal relations: a causes b. Study this graph "
        "carefully, and decide whether the graph contains a causal chain structure that includes a and which "
        "position a holds in that chain. Answer with {start, middle, end, none} only.")


def test_ccr_member_a_4_asks_for_answer_tag():
    text = get_variant("ccr-member", "A_4").template
    assert text.endswith("Think step by step. Give reasoning and then give an answer within "
                         "<Answer>{Yes, No} </Answer>.")


def test_ccr_eci_member_0_6_wording():
    assert get_variant("ccr-eci-member", "0_6").render(s="S.", event_list="[a, b]", e_i="a") == (
        'The following list of causal events [a, b] can be found in statement "S.". Does the statement report '
        "a causal chain structure that includes a? A causal chain is a directed path of at least three nodes "
        "in a causal graph. Answer with {Yes, No} only.")


def test_ccr_eci_position_cot_6_wording():
    assert get_variant("ccr-eci-position", "CoT_6").template.endswith(
        "A causal chain is a directed path of at least three nodes in a causal graph. Let's think step by step "
        "and answer with {start, middle, end, none}.")


def test_ccr_eci_position_f_5_ends_with_answer_set_then_answer():
    assert get_variant("ccr-eci-position", "F_5").template.endswith(
        "answer with the position the event holds in that chain. {start, middle, end, none} Answer:")


def test_few_shot_templates_embed_the_exemplars_with_their_gold():
    ex = {e.name: e for e in exemplars()}
    e1, e2, e3 = ex["Example 1"], ex["Example 2"], ex["Example 3"]
    for v in list_variants("corri") + list_variants("corri-rc"):
        if "F" not in v.id.split("_"):
            continue
        t = v.template
        assert e1.relation[0] in t.lower() and e1.relation[1] in t and e2.relation[1] in t, v.id
        words = v.answer_labels
        # the sentence that first names example 2's cause starts example 2's answer
        second = t.rfind(". ", 0, t.lower().index(e2.relation[0])) + 1
        first_part, second_part = t[:second], t[second:t.index("${e_i}")]
        assert words[e1.correlation] in first_part and words[e2.correlation] not in first_part, v.id
        assert words[e2.correlation] in second_part, v.id
        if v.task == "corri-rc":
            assert f'"{e1.statement}"' in t and f'"{e2.statement}"' in t
    for task, gold in (("ccr-eci-member", lambda e: {"yes": "Yes", "no": "No"}[e.membership]),
                       ("ccr-eci-position", lambda e: e.position)):
        for vid in ("F_4", "F_5", "F_6"):
            t = get_variant(task, vid).template
            for e in (e2, e3):
                assert f'"{e.statement}"' in t and "[" + ", ".join(e.events) + "]" in t
                after = t[t.index("[" + ", ".join(e.events) + "]"):]
                assert re.search(rf"\b{gold(e)}\.", after), (task, vid, e.name)


def test_get_variant_accepts_paper_names_and_unprefixed_rc_ids():
    assert get_variant("corri-rc", "F_2").id == "RC_F_2"
    assert get_variant("corri-rc", "CorrI_RC_F_2").id == "RC_F_2"
    assert get_variant("ccr-member", "CCR_member_ML_6").id == "ML_6"


def test_get_variant_unknown_raises_with_choices():
    with pytest.raises(ConfigError, match="unknown variant 'A_7' for task ccr-member; expected one of A_4"):
        get_variant("ccr-member", "A_7")
    with pytest.raises(ConfigError, match="unknown task 'ccr'"):
        list_variants("ccr")


def test_render_missing_or_extra_placeholder_raises():
    v = get_variant("corri", "0_1")
    with pytest.raises(ConfigError, match=r"missing \['e_j'\], unexpected \['s'\]"):
        v.render(e_i="x", s="y")


def test_label_for_maps_answer_words_back():
    v = get_variant("corri", "CoT_2")
    assert (v.label_for("Opposite"), v.label_for("same"), v.label_for("maybe")) == ("negative", "positive", None)
    assert get_variant("ccr-member", "A_4").label_for("yes") == "yes"


def test_multihop_fact_template_uses_variant_wording():
    v = get_variant("corri-multihop", "0_3")
    assert v.render_fact("a", "b", "negative") == "If a (the cause) were to increase, b (the effect) would decrease."
    with pytest.raises(ConfigError, match="has no fact template"):
        get_variant("corri", "0_3").render_fact("a", "b", "negative")
