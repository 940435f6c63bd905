"""Backend registry, request keys, mocks, pricing."""

from __future__ import annotations

import asyncio
import json

import pytest

from causalgraph.bench import Item
from causalgraph.errors import BackendError, ConfigError, TransientBackendError
from causalgraph.llm import Request, get_backend, list_providers, parse_model_options, register_provider
from causalgraph.llm.base import request_key
from causalgraph.llm.mock import make_mock
from causalgraph.llm.pricing import DEFAULT_PRICES, cost_usd, load_prices, price_for


def _req(text="Hi", **kw):
    return Request(messages=({"role": "user", "content": text},), **kw)


def test_get_backend_rejects_a_spec_without_provider():
    with pytest.raises(ConfigError, match="not of the form provider/model"):
        get_backend("gpt-5.1")


def test_get_backend_rejects_an_unknown_provider():
    with pytest.raises(ConfigError, match="unknown provider 'anthropic'"):
        get_backend("anthropic/claude")


def test_get_backend_turns_a_missing_sdk_into_an_install_hint():
    def factory(model, **options):
        raise ImportError("No module named 'vllm'", name="vllm")

    register_provider(factory, name="needs-vllm")
    with pytest.raises(BackendError, match=r"pip install 'causalgraph\[needs-vllm\]'"):
        get_backend("needs-vllm/x")
    assert "needs-vllm" in list_providers() and "openai" in list_providers()


def test_parse_model_options_types_values_and_rejects_pairs_without_equals():
    assert parse_model_options(["latency=0.05", "n_ctx=2048", "flag=true", "text=a=b"]) == \
        {"latency": 0.05, "n_ctx": 2048, "flag": True, "text": "a=b"}
    with pytest.raises(ConfigError, match="expected KEY=VALUE"):
        parse_model_options(["latency"])


def test_request_key_changes_with_model_base_url_parameters_and_messages_only():
    ident = {"provider": "openai", "model": "gpt-5.1", "base_url": "https://api.openai.com/v1"}
    base = request_key(ident, _req(temperature=0.0))
    assert base == request_key(dict(reversed(list(ident.items()))), _req(temperature=0.0))  # key order is irrelevant
    assert base == request_key(ident, Request(messages=({"role": "user", "content": "Hi"},), temperature=0.0,
                                              meta={"item_id": "x", "gold": "yes"}))  # meta is not sent
    others = [
        request_key({**ident, "model": "gpt-5"}, _req(temperature=0.0)),
        request_key({**ident, "base_url": "http://127.0.0.1:8000/v1"}, _req(temperature=0.0)),
        request_key(ident, _req(temperature=0.5)),
        request_key(ident, _req(temperature=0.0, max_tokens=10)),
        request_key(ident, _req(temperature=0.0, seed=1)),
        request_key(ident, _req("Hi!", temperature=0.0)),
        request_key(ident, _req()),  # temperature left to the provider is not temperature 0
    ]
    assert len({base, *others}) == len(others) + 1


class _SameOpposite:
    """A task whose variant asks for same/opposite (what the oracle reads words from)."""

    @staticmethod
    def words(variant):
        return {"positive": "same", "negative": "opposite"}


def _prepared(backend, gold="positive", item="corri/0_1/cc-1/r000"):
    from causalgraph.bench import Item

    backend.prepare([Item(item, "corri", "0_1", "Hi", gold)], _SameOpposite())
    return backend


def test_mock_oracle_answers_the_gold_word_in_each_style():
    req = _req(meta={"item_id": "corri/0_1/cc-1/r000"})
    assert asyncio.run(_prepared(make_mock("oracle")).complete(req)).text == "<Answer>same</Answer>"
    assert asyncio.run(_prepared(make_mock("oracle", style="plain")).complete(req)).text == "same"
    assert asyncio.run(_prepared(make_mock("oracle", style="sentence")).complete(req)).text == "The answer is: same."
    # The gold comes from the oracle's own lookup: a request never carries it, and an unknown item gets nothing.
    assert asyncio.run(_prepared(make_mock("oracle")).complete(_req(meta={"item_id": "other"}))).text == ""
    assert asyncio.run(make_mock("oracle").complete(_req(meta={"gold": "positive"}))).text == ""
    with pytest.raises(ConfigError, match="style='xml'"):
        make_mock("oracle", style="xml")


def test_mock_flaky_follows_its_pattern_per_item():
    b = make_mock("flaky", pattern="xs.", retry_after=0.5)
    b.prepare([Item("i", "t", "v", "Hi", "yes")], type("T", (), {"words": staticmethod(lambda v: {"yes": "Yes"})})())

    async def attempts(text):
        out = []
        for _ in range(4):
            try:
                out.append((await b.complete(_req(text, meta={"item_id": "i"}))).text)
            except TransientBackendError as exc:
                out.append((exc.status, exc.retry_after))
        return out

    assert asyncio.run(attempts("a")) == [(429, 0.5), (500, None), "<Answer>Yes</Answer>", "<Answer>Yes</Answer>"]
    assert asyncio.run(attempts("b"))[0] == (429, 0.5)  # a new item starts its pattern again
    with pytest.raises(ConfigError, match="unknown characters"):
        make_mock("flaky", pattern="xz")


def test_mock_identity_separates_options_that_change_answers():
    assert get_backend("mock/constant", text="a").identity() != get_backend("mock/constant", text="b").identity()
    assert get_backend("mock/constant", text="a", latency=0.1).identity() == \
        get_backend("mock/constant", text="a").identity()


def test_cost_usd_uses_the_longest_prefix_and_the_batch_discount():
    assert price_for("gpt-5.1-2025-11-13", DEFAULT_PRICES) == DEFAULT_PRICES["gpt-5.1"]
    assert price_for("gpt-5-mini-2025-08-07", DEFAULT_PRICES) == DEFAULT_PRICES["gpt-5-mini"]
    assert cost_usd("gpt-5.1-2025-11-13", 2_000_000, 500_000, DEFAULT_PRICES) == pytest.approx(2 * 1.25 + 0.5 * 10)
    assert cost_usd("gpt-5.1", 2_000_000, 500_000, DEFAULT_PRICES, batch=True) == pytest.approx(3.75)
    assert cost_usd("llama-3", 10**6, 10**6, DEFAULT_PRICES) == 0.0


def test_load_prices_overrides_and_reports_bad_entries(tmp_path):
    p = tmp_path / "prices.json"
    p.write_text(json.dumps({"gpt-5.1": {"input": 1.0, "output": 8.0}, "my-model": {"input": 0.1, "output": 0.2}}))
    table = load_prices(p)
    assert table["gpt-5.1"] == {"input": 1.0, "output": 8.0} and table["gpt-4o"] == DEFAULT_PRICES["gpt-4o"]
    p.write_text(json.dumps({"gpt-5.1": {"input": 1.0}}))
    with pytest.raises(ConfigError, match=r"entry 'gpt-5.1' is \{'input': 1.0\}"):
        load_prices(p)


def test_parse_model_options_reads_json_values_and_reports_broken_json():
    from causalgraph.llm.registry import parse_model_options

    assert parse_model_options(['response_format={"type": "json_object"}', "stop=[\"\\n\"]", "top_k=3"]) == \
        {"response_format": {"type": "json_object"}, "stop": ["\n"], "top_k": 3}
    with pytest.raises(ConfigError, match="response_format=.*not"):
        parse_model_options(['response_format={"type": json_object}'])


def test_mock_backends_refuse_a_misspelt_option():
    with pytest.raises(ConfigError, match="mock/oracle cannot honour option latncy"):
        get_backend("mock/oracle", latncy=0.05)
    assert get_backend("mock/flaky", pattern="x.", latency=0.0, text="yes").text == "yes"


def test_mock_backends_refuse_request_parameters():
    req = Request(messages=({"role": "user", "content": "Is it?"},), params={"top_p": 0.5})
    for name in ("oracle", "constant", "flaky"):
        b = get_backend(f"mock/{name}")
        with pytest.raises(ConfigError, match=f"mock/{name} cannot honour request parameter top_p"):
            asyncio.run(b.complete(req))
        assert b.calls == 0
