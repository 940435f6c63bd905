"""The annotation prompt: guideline text, worked examples, exclusion of the annotated statement, schema."""

from __future__ import annotations

import json

import pytest

from causalgraph.annotation.prompt import exemplars, is_same_statement, render_messages, select_exemplars
from causalgraph.annotation.schema import ANNOTATION_SCHEMA, RELATION_FIELDS, SCHEMA_NAME
from causalgraph.errors import ConfigError
from causalgraph.extraction.spans import exact_key

# Which corpus statement each worked example of the appendix comes from (found by reading the paper and the data).
SOURCE = {"B.5.2-table7": "cc-057", "B.5.3-table10": "cc-012", "B.5.3-table11": "cc-014", "B.5.4-shellfish": "cc-005"}


def _check(value, schema, where):
    """A small validator for the subset of JSON Schema the annotation schema uses."""
    types = schema.get("type")
    types = types if isinstance(types, list) else [types]
    pytypes = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}
    assert any(isinstance(value, pytypes[t]) for t in types), f"{where}: {value!r} is not {types}"
    if "enum" in schema:
        assert value in schema["enum"], f"{where}: {value!r} not in {schema['enum']}"
    if isinstance(value, dict):
        assert set(value) == set(schema["required"]) == set(schema["properties"]), where
        for k, v in value.items():
            _check(v, schema["properties"][k], f"{where}.{k}")
    if isinstance(value, list):
        for i, v in enumerate(value):
            _check(v, schema["items"], f"{where}[{i}]")


def test_exemplars_follow_the_answer_schema():
    assert [e.id for e in exemplars()] == list(SOURCE)
    for e in exemplars():
        _check(e.answer, ANNOTATION_SCHEMA, e.id)
        assert tuple(e.answer["relations"][0]) == RELATION_FIELDS


def test_exemplar_pairs_are_gold_pairs_of_their_corpus_statement(climatecause):
    for e in exemplars():
        gold = climatecause[SOURCE[e.id]]
        assert is_same_statement(e.statement, gold.text)
        gold_pairs = {exact_key(r.cause, r.effect) for r in gold.relations}
        for r in e.answer["relations"]:
            key = exact_key(r["cause_no_quantifier"], r["effect_no_quantifier"])
            if e.id == "B.5.4-shellfish" and key[1] == "food production from fisheries":
                # The paper's wording; the released file says "shellfish fisheries" (documented in exemplars.json).
                key = (key[0], "food production from shellfish fisheries")
            assert key in gold_pairs, (e.id, key)


def test_select_exemplars_never_shows_the_statement_being_annotated(climatecause):
    for s in climatecause:
        shown = {e.id for e in select_exemplars(s.text)}
        expected = {eid for eid, sid in SOURCE.items() if sid != s.id}
        assert shown == expected, s.id


def test_select_exemplars_keeps_all_for_unrelated_text_and_none_for_zero_shot():
    text = "Rising interest rates reduce household borrowing."
    assert len(select_exemplars(text)) == 4
    assert len(select_exemplars(text, shots=2)) == 2
    assert select_exemplars(text, "zero-shot") == []
    with pytest.raises(ConfigError, match="variant 'two-shot'"):
        select_exemplars(text, "two-shot")


def test_is_same_statement_recognises_a_partial_quote_of_the_paper():
    quoted = "At 2°C or above, […] more frequent and/or severe agricultural and ecological droughts are projected."
    full = ("At 2°C or above, these conditions expand, and more frequent and/or severe agricultural and ecological "
            "droughts are projected in Europe, Africa, Australasia and North, Central and South America.")
    assert is_same_statement(quoted, full)
    assert not is_same_statement(quoted, "Warming melts glaciers in the Alps.")


def test_render_messages_puts_guidelines_examples_and_statement_in_one_user_turn(climatecause):
    text = climatecause["cc-014"].text
    system, user = render_messages(text)
    assert system["role"] == "system" and user["role"] == "user"
    assert user["content"].count("\nAnswer: {") == 3
    # cc-014 is the worked example of Table 11: its answer is not in the prompt.
    assert "loss of nearly 50% of coastal wetlands" not in user["content"]
    assert user["content"].endswith(f"Statement: {text}\nAnswer:")
    zs = render_messages(text, "zero-shot")[1]["content"]
    assert "Worked examples" not in zs and zs.count("Answer:") == 1


def test_render_messages_refuses_empty_text():
    with pytest.raises(ConfigError, match="empty"):
        render_messages("  \n")


def test_instructions_show_every_relation_field_in_schema_order():
    content = render_messages("x causes y", "zero-shot")[1]["content"]
    line = [ln for ln in content.splitlines() if ln.startswith('{"causal": true')][0]
    shown = json.loads(line)
    assert tuple(shown["relations"][0]) == RELATION_FIELDS
    _check(shown, ANNOTATION_SCHEMA, "instructions")


def _structured_params(provider_class):
    import importlib

    module, _, name = provider_class.partition(":")
    cls = getattr(importlib.import_module(module), name)
    backend = cls.__new__(cls)  # the parameters need no model: skip loading one
    backend.provider, backend.model = cls.provider, "m"
    return cls.structured_output, (backend.structured_params(ANNOTATION_SCHEMA, SCHEMA_NAME)
                                   if cls.structured_output else None)


def test_structured_output_is_declared_by_the_backends_that_pass_it_on():
    ok, params = _structured_params("causalgraph.llm.openai:OpenAIBackend")
    p = params["response_format"]
    assert ok and p["type"] == "json_schema" and p["json_schema"]["strict"] is True
    assert p["json_schema"]["name"] == "climatecause_annotation"
    assert p["json_schema"]["schema"] == ANNOTATION_SCHEMA and p["json_schema"]["schema"] is not ANNOTATION_SCHEMA
    # llama.cpp compiles the same schema into a decoding grammar.
    assert _structured_params("causalgraph.llm.llamacpp:LlamaCppBackend") == (True, params)
    for cls in ("causalgraph.llm.hf:HFBackend", "causalgraph.llm.mock:ConstantBackend"):
        assert _structured_params(cls) == (False, None)


def test_the_annotation_schema_compiles_to_a_llama_cpp_grammar():
    pytest.importorskip("llama_cpp")
    from causalgraph.llm.llamacpp import llama_response_format

    rf = llama_response_format(_structured_params("causalgraph.llm.llamacpp:LlamaCppBackend")[1]["response_format"])
    assert rf["type"] == "json_object" and rf["schema"] == ANNOTATION_SCHEMA
