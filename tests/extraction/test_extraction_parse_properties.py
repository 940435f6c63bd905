"""Properties of the extraction answer parsers: any text is read without raising, with its rule."""

from __future__ import annotations

from collections import Counter
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from causalgraph.extraction.tuples import parse_detection, parse_tuples
from causalgraph.model import Explicitness, Sententiality, is_blank

PIECES = ["Tuple 1:", "Tuple 2:", "{", "}", "[", "]", "(", ")", "Cause:", "Effect:", "Causality_Type:",
          "Sententiality:", "Explicit", "Implicit", "Intra-sentential", "inter", '"cause":', '"effect":', '"',
          ",", ":", "->", "→", "=>", "- **Cause:**", "| Cause | Effect |", "|---|---|", "|", "\n", "```json", "```",
          "Final Output:", "Final Answer:", "<think>", "</think>", "No relations extracted.", "None", "none",
          "0", "1", "'1'", "Step 1:", "Answer:", "causal", "non-causal", "not causal", " ", "\u200b", "a", "b c"]

# Spans of any text (blank and invisible ones included) and labels of any spelling.
span = st.one_of(st.text(max_size=8), st.sampled_from(["a", "heart failure", " ", "\u200b", "", "None", "b, c",
                                                      "x -> y", "{", "}"]))
label = st.one_of(st.sampled_from(["Explicit", "implicit", "E", "Intra-sentential", "inter", "Inter-sentential"]),
                  st.text(max_size=5))


@st.composite
def tuple_answers(draw):
    """Answers in the shapes models write, with arbitrary spans and labels, noise around them, and
    sometimes a final-answer section."""
    n = draw(st.integers(1, 3))
    rows = [(draw(span), draw(span), draw(label), draw(label)) for _ in range(n)]
    shape = draw(st.sampled_from(["braces", "json", "rows", "bullets", "table", "positional", "arrow"]))
    if shape == "braces":
        body = "\n".join(f"Tuple {i}: {{Cause: {c}, Effect: {e}, Causality_Type: {t}, Sententiality: {s}}}"
                         for i, (c, e, t, s) in enumerate(rows, start=1))
    elif shape == "json":
        body = json.dumps([{"Cause": c, "Effect": e, "Causality_Type": t, "Sententiality": s} for c, e, t, s in rows])
    elif shape == "rows":
        body = json.dumps([list(r)[:draw(st.integers(1, 4))] for r in rows])
    elif shape == "bullets":
        body = "\n".join(f"- **Cause:** {c}\n- **Effect:** {e}" for c, e, _, _ in rows)
    elif shape == "table":
        body = "| Cause | Effect |\n|---|---|\n" + "\n".join(f"| {c} | {e} |" for c, e, _, _ in rows)
    elif shape == "positional":
        body = " ".join(f"({c}, {e}, {t}, {s})" for c, e, t, s in rows)
    else:
        body = "\n".join(f"{c} -> {e}" for c, e, _, _ in rows)
    if draw(st.booleans()):
        body = draw(st.sampled_from(["Final Output:", "Final Answer: ", "Step 1: reasoning.\nFinal tuples:"])) + body
    cut = draw(st.integers(0, len(body))) if draw(st.integers(0, 4)) == 0 else len(body)  # cut off mid-answer
    return draw(st.text(max_size=6)) + body[:cut] + draw(st.sampled_from(["", "\n", " That is all."]))


# Detection verdicts as models write them, with noise around.
verdicts = st.tuples(st.text(max_size=8), st.sampled_from(['{}', '"{}"', "Final Output: {}", "Answer: **{}**",
                                                          "Step {} done", "Label = [{}]", "{}.5", "It is {}"]),
                     st.sampled_from(["0", "1", "2", "causal", "non-causal"]), st.text(max_size=4)).map(
    lambda t: t[0] + t[1].format(t[2]) + t[3])

answers = st.one_of(
    st.none(),
    st.text(),
    st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=4)), max_size=16).map(" ".join),
    st.lists(st.sampled_from(PIECES), max_size=12).map("".join),
    tuple_answers(),
    tuple_answers(),
    verdicts,
)

TUPLE_RULES = {"braces", "key-value", "json", "table", "positional", "arrow"}


@settings(max_examples=300)
@given(answers)
def test_parse_tuples_never_raises_and_names_the_rule_behind_its_pairs(text):
    r = parse_tuples(text)
    base = r.rule.removeprefix("final/")
    assert base in TUPLE_RULES or r.rule in ("none-stated", "unparsed")
    if r.rule.startswith("final/"):
        assert base in TUPLE_RULES
    # pairs exactly when a tuple rule read them; null exactly when nothing was read or stated
    assert bool(r.pairs) == (base in TUPLE_RULES)
    assert r.null == (r.rule == "unparsed")
    # A pair listed twice is kept twice (the gold keeps its repeats; docs/pubmedcausal.md), and said once.
    for p, n in Counter(r.pairs).items():
        if n > 1:
            assert f"pair {p.cause!r} → {p.effect!r} listed {n} times; each counted, as in the gold" in r.issues
    for p in r.pairs:
        assert isinstance(p.cause, str) and isinstance(p.effect, str)
        assert not is_blank(p.cause) and not is_blank(p.effect)
        assert p.causality is None or isinstance(p.causality, Explicitness)
        assert p.sententiality is None or isinstance(p.sententiality, Sententiality)
    assert all(isinstance(i, str) and i for i in r.issues)


@settings(max_examples=300)
@given(answers)
def test_parse_detection_never_raises_and_names_the_rule_behind_its_verdict(text):
    d = parse_detection(text)
    assert d.rule in ("exact", "final-marker", "quoted", "last-digit", "keyword", "unparsed")
    assert d.label in ("0", "1", None)
    assert (d.label is None) == (d.rule == "unparsed")
    if d.rule in ("exact", "final-marker", "quoted", "last-digit"):
        assert d.label in text
    if d.rule == "keyword":
        assert "causal" in text.lower()
