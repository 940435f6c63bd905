"""Properties of the benchmark answer parser: any text, any registered task and variant.

The parser never raises, always names the rule that produced its label (one of ``RULES``), gives a
label exactly when a rule committed to one, and only a label the text mentions.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from causalgraph.taskkit.labels import RULES, parse_labels
from causalgraph.bench.reparse import parse
from causalgraph.tasks import get_task, list_tasks

# Every ClimateCause task and variant: each has its own answer words.
CLIMATECAUSE = [(t, v) for t in list_tasks() if get_task(t).kind in ("binary", "multiclass")
                and t.startswith(("cc", "corri")) for v in get_task(t).list_variants()]
WORDS = sorted({w for t, v in CLIMATECAUSE for w in get_task(t).words(v).values()} | {"yes", "no", "maybe"})
MARKERS = ["<Answer>", "</Answer>", "< answer >", "Answer:", "Final answer:", "**Answer:**", "answer is -",
           "[MASK] =", "[mask] is", "not", "neither", "nor", "isn't", "but", "no", "{", "}", "[", "]", "(", ")",
           ",", ".", "\n", "'", '"', "*", "start, middle, end, none", "0", "1"]

# The forms models answer in, each filled with a word (an answer word, a negated one, an echo of the
# answer set or anything else).
FORMS = ["<Answer>{}</Answer>", "<answer> {} ", "Answer: {}", "Final answer: **{}**", "**Answer:** {}", "[MASK] = {}",
         "[MASK] is {}", "{}", "I think it is {}.", "It is not {}", "neither {} nor start", "not {} but {}"]
filled = st.tuples(st.sampled_from(FORMS), st.lists(st.sampled_from(WORDS) | st.text(max_size=6), min_size=2,
                                                    max_size=2)).map(lambda fw: fw[0].format(*fw[1]))

answers = st.one_of(
    st.none(),
    st.text(),
    st.lists(st.one_of(st.sampled_from(WORDS + MARKERS), st.text(max_size=5)), max_size=12).map(" ".join),
    st.lists(st.sampled_from(WORDS + MARKERS), max_size=8).map("".join),
    st.lists(filled | st.text(max_size=8) | st.sampled_from(MARKERS), min_size=1, max_size=4).map("\n".join),
)


def _mentions_word(text: str, words) -> bool:
    low = text.lower()
    return any(re.search(rf"(?<![a-z]){re.escape(w.lower())}(?![a-z])", low) for w in words)


@settings(max_examples=300)
@given(answers, st.sampled_from(CLIMATECAUSE))
def test_parse_never_raises_and_names_the_rule_behind_its_label(text, task_variant):
    task, variant = task_variant
    spec = get_task(task)
    label, rule = parse(text, task, variant)
    assert rule in RULES
    assert (rule == "empty") == (text is None or not text.strip())
    assert (label is None) == (rule in ("unparsed", "empty"))
    if label is not None:
        assert label in spec.labels
        # the label comes from the text: its answer word or its own name is written there
        assert _mentions_word(text, {spec.words(variant)[label], label})
    if rule == "tag":
        assert re.search(r"<\s*answer\s*>", text, re.I)
    if rule == "answer_colon":
        assert "answer" in text.lower()
    if rule == "mask":
        assert re.search(r"\[\s*mask\s*\]", text, re.I)


@settings(max_examples=200)
@given(answers, st.dictionaries(st.sampled_from(["positive", "negative", "start", "none", "yes"]),
                                st.text(min_size=1, max_size=8), min_size=1, max_size=4))
def test_parse_labels_with_any_answer_words_never_raises_and_names_a_rule(text, words):
    label, rule = parse_labels(text, words)
    assert rule in RULES
    assert (label is None) == (rule in ("unparsed", "empty"))
    assert label is None or label in words


# Tasks with their own parsers: the PubMedCausal ones and the annotator, through the same call.
OTHER = [(t, v) for t in list_tasks() if (t, get_task(t).list_variants()[0]) not in CLIMATECAUSE
         for v in get_task(t).list_variants()]


@settings(max_examples=200)
@given(answers, st.sampled_from(OTHER))
def test_parse_of_the_other_tasks_never_raises_and_names_a_rule(text, task_variant):
    task, variant = task_variant
    label, rule = parse(text, task, variant)
    assert isinstance(rule, str) and rule
    if rule in ("unparsed", "empty"):
        assert label is None
