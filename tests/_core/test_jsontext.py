"""Finding JSON in free text: values that parse, and balanced spans for repairs."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from causalgraph._core.jsontext import JsonValue, balanced_spans, json_values

# JSON documents of any shape; NaN is left out because it is not equal to itself.
scalars = st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False) | st.text(max_size=6)
documents = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                         | st.dictionaries(st.text(max_size=5), inner, max_size=4), max_leaves=12)
containers = documents.filter(lambda d: isinstance(d, (dict, list)))


@settings(max_examples=300)
@given(value=containers, prefix=st.text(max_size=30).filter(lambda t: "{" not in t and "[" not in t),
       suffix=st.text(max_size=30), ascii_only=st.booleans())
def test_json_values_finds_a_value_whatever_text_surrounds_it(value, prefix, suffix, ascii_only):
    # The prose before may hold quotes, colons, "]" or "}": none of that starts a value, so the first value
    # found is the one written, parsed back equal, at the place it was written (the suffix never matters:
    # an object or array ends at its own closing bracket).
    written = json.dumps(value, ensure_ascii=ascii_only)
    text = prefix + written + suffix
    first = json_values(text)[0]
    assert first == JsonValue(value, len(prefix), len(prefix) + len(written))
    assert text[first.start:first.end] == written


@settings(max_examples=200)
@given(value=st.dictionaries(st.text(max_size=5), documents, max_size=4),
       prefix=st.text(max_size=20).filter(lambda t: not set(t) & set('{}"')),
       suffix=st.text(max_size=20).filter(lambda t: not set(t) & set('{}"')))
def test_balanced_spans_cuts_out_a_written_object_exactly(value, prefix, suffix):
    # Braces inside the object's strings are skipped, so the span is the object as written.
    written = json.dumps(value, ensure_ascii=False)
    assert balanced_spans(prefix + written + suffix) == [written]


def test_json_values_finds_a_value_nested_in_broken_json():
    text = 'Here: {"outer": oops, "inner": {"causal": true}} done'
    assert [v.value for v in json_values(text)] == [{"causal": True}]


def test_json_values_takes_a_parsed_value_whole_and_filters_by_kind():
    text = '{"a": [1, {"b": 2}]} then [3, 4]'
    assert [v.value for v in json_values(text)] == [{"a": [1, {"b": 2}]}, [3, 4]]
    assert [v.value for v in json_values(text, "{")] == [{"a": [1, {"b": 2}]}]
    # Looking for arrays only, the object is not a value: the array inside it is found on its own.
    assert [(v.value, v.start) for v in json_values(text, "[")] == [([1, {"b": 2}], 6), ([3, 4], 26)]


def test_json_values_passes_a_number_too_long_to_convert():
    # Python refuses to convert integers of more than 4300 digits; that value is skipped, not raised.
    text = '{"n": ' + "9" * 5000 + '} {"n": 1}'
    assert [v.value for v in json_values(text)] == [{"n": 1}]


def test_json_values_is_empty_for_text_without_json():
    assert json_values("") == [] and json_values("no {json} here [at all") == []


def test_balanced_spans_returns_unparsable_spans_and_drops_an_open_one():
    text = "a {'k': True,} b {\"s\": \"}\"} c [1, [2]] {open"
    assert balanced_spans(text) == ["{'k': True,}", '{"s": "}"}']
    assert balanced_spans(text, "[") == ["[1, [2]]"]
