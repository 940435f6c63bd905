"""Properties of the annotation answer parser: any text is read without raising, with its rule."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from causalgraph.annotation.answer import RULES, parse_annotation, to_relations
from causalgraph.annotation.schema import RELATION_FIELDS
from causalgraph.model import is_blank

PIECES = ["{", "}", "[", "]", '"causal":', '"relations":', "true", "false", "True", "None", "null", ",", ":",
          '"cause_np":', '"effect_np":', '"cause_no_quantifier":', '"correlation":', '"explicitness":',
          '"relation_type":', '"positive"', '"negative"', '"E"', '"I"', '"a"', '"b c"', "'a'", '" "', '"\u200b"',
          "```json", "```", "->", "→", "=>", "\n", "Sure!", " ", "a", "b"]

# Field values of any type; label values from the accepted spellings or anything else.
value = st.one_of(st.none(), st.booleans(), st.integers(-2, 2), st.floats(allow_nan=True), st.text(max_size=8),
                  st.sampled_from(["positive", "Negative", "E", "I", "yes", "No", "/", "none", " ", "\u200b"]),
                  st.lists(st.text(max_size=3), max_size=2))
keys = st.sampled_from(list(RELATION_FIELDS) + ["cause", "effect", "trigger", "type", "polarity", "Cause NP", "x"])
span = st.one_of(st.text(max_size=8), st.sampled_from(["warming", "sea level rise", " ", "\u200b", "", "/"]))
relation = st.one_of(
    st.dictionaries(keys, value, max_size=8),
    # mostly with a cause and an effect, so that relations are read and converted
    st.tuples(st.fixed_dictionaries({"cause_np": span, "effect_np": span}), st.dictionaries(keys, value, max_size=5))
    .map(lambda dd: {**dd[1], **dd[0]}),
)


@st.composite
def annotation_answers(draw):
    """Annotation answers as models write them: JSON of any values, Python literals, fences, prose
    around them, a list of relations alone, or cut off by the token limit."""
    obj = {"causal": draw(value), "relations": draw(st.lists(relation, max_size=3) | value)}
    if draw(st.booleans()):
        obj["abbreviations"] = draw(value)
    shape = draw(st.sampled_from(["json", "python", "fenced", "prose", "list", "trailing-comma"]))
    if shape == "python":
        body = repr(obj)
    elif shape == "list":
        body = json.dumps(obj["relations"])
    else:
        body = json.dumps(obj, ensure_ascii=draw(st.booleans()))
    if shape == "fenced":
        body = f"```json\n{body}\n```"
    elif shape == "prose":
        body = f"{draw(st.text(max_size=8))} {body} {draw(st.text(max_size=8))}"
    elif shape == "trailing-comma":
        body = body.replace("}", ",}").replace("]", ",]")
    if draw(st.integers(0, 3)) == 0:
        body = body[:draw(st.integers(0, len(body)))]  # cut off by the token limit
    return body


answers = st.one_of(
    st.none(),
    st.text(),
    st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=4)), max_size=20).map("".join),
    # JSON built from arbitrary values: keys, labels and spans of any type and text
    st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=6),
                 lambda inner: st.lists(inner, max_size=3)
                 | st.dictionaries(st.sampled_from(["causal", "relations", "cause_np", "effect_np", "correlation",
                                                    "explicitness", "nested", "abbreviations", "x"]),
                                   inner, max_size=4),
                 max_leaves=12).map(json.dumps),
    annotation_answers(),
    annotation_answers(),
)


@settings(max_examples=300)
@given(answers)
def test_parse_annotation_never_raises_and_names_the_rule_behind_its_result(text):
    p = parse_annotation(text)
    assert p.rule in RULES
    assert (p.rule == "empty") == (text is None or not text.strip())
    assert p.failed == (p.rule in ("unparsed", "empty"))
    if p.failed:
        assert p.causal is None and p.relations == () and p.issues
        return
    assert isinstance(p.causal, bool)
    assert p.causal or not p.relations
    for rel in p.relations:
        assert list(rel) == list(RELATION_FIELDS)
        # a relation is kept only with a cause and an effect that show something
        assert isinstance(rel["cause_no_quantifier"], str) and not is_blank(rel["cause_no_quantifier"])
        assert isinstance(rel["effect_no_quantifier"], str) and not is_blank(rel["effect_no_quantifier"])
    # what was read always converts into relations
    assert len(to_relations(p)) == len(p.relations)
