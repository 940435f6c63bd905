"""``--method choice-logprobs``: the reading rules, and whole runs against a stand-in speaking OpenAI's chat logprobs.

The stand-in (tests/llm_standin.py) answers in OpenAI's exact ``choices[0].logprobs.content`` format with
top_logprobs written here by hand; every expected probability below is computed from those numbers with the
two-line softmax of the test, not with the code under test.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from causalgraph.cli import main
from causalgraph.errors import BackendError, ConfigError
from causalgraph.llm.choice_logprobs import (GeneratedToken, answer_max_tokens, generated_tokens, missing_logprobs,
                                             read_choices)

POSITION = ["start", "middle", "end", "none"]
POSITION_TEXT = [f"<Answer>{x}</Answer>" for x in POSITION]


def tok(text: str, lp: float, top=()) -> GeneratedToken:
    return GeneratedToken(text.encode(), lp, tuple((a.encode(), v) for a, v in top))


def softmax(xs):
    m = max(xs)
    e = [math.exp(x - m) for x in xs]
    return [v / sum(e) for v in e]


# -- the reading rules ---------------------------------------------------------------------------------------------

def test_the_answer_position_after_the_common_prefix_is_read_and_normalised():
    toks = [tok("<", -0.01, [("<", -0.01)]), tok("Answer", -0.02, [("Answer", -0.02)]), tok(">", -0.0, [(">", 0.0)]),
            tok("end", -0.4, [("end", -0.4), ("start", -1.5), ("none", -2.0), ("middle", -2.7)]),
            tok("</Answer>", -0.01, [("</Answer>", -0.01)])]
    r = read_choices(toks, POSITION, POSITION_TEXT)
    assert (r.mode, r.label, r.position, r.seen, r.bounded) == ("logprobs", "end", 3, 4, [])
    assert r.logprobs == [-1.5, -2.7, -0.4, -2.0]
    z = math.exp(-1.5) + math.exp(-2.7) + math.exp(-0.4) + math.exp(-2.0)
    assert r.probs == pytest.approx([math.exp(-1.5) / z, math.exp(-2.7) / z, math.exp(-0.4) / z, math.exp(-2.0) / z])


def test_a_choice_outside_the_top_k_gets_the_kth_value_as_a_bound():
    toks = [tok("<Answer>", -0.05, [("<Answer>", -0.05)]),
            tok("none", -0.3, [("none", -0.3), ("start", -1.9), ("n", -2.6)])]
    r = read_choices(toks, POSITION, POSITION_TEXT)
    # 'n' reads only 'none' (max rule keeps -0.3); middle and end are bounded by the smallest value, -2.6.
    assert r.logprobs == [-1.9, -2.6, -2.6, -0.3]
    assert (r.seen, r.bounded, r.top_k, r.label) == (2, ["middle", "end"], 3, "none")


def test_a_departed_prefix_and_a_reply_that_ends_first_are_left_to_the_parser():
    departed = read_choices([tok("The", -0.7, [("The", -0.7), ("<Answer>", -0.9)])], POSITION, POSITION_TEXT)
    assert (departed.mode, departed.reason, departed.label, departed.logprobs) == ("parsed", "departed", None, None)
    assert "byte 0" in departed.note
    # Half the prefix, then something else: departs at byte 3 ('<An' then 'y').
    mid = read_choices([tok("<An", -0.1, [("<An", -0.1)]), tok("y", -0.1, [("y", -0.1)])], POSITION, POSITION_TEXT)
    assert (mid.reason, "byte 3" in mid.note) == ("departed", True)
    ended = read_choices([tok("<Answer>", -0.1, [("<Answer>", -0.1)])], POSITION, POSITION_TEXT)
    assert (ended.mode, ended.reason) == ("parsed", "ended")


def test_choices_sharing_the_generated_first_token_are_told_apart_at_the_next_position():
    labels, texts = ["middle", "more", "end"], ["<A>middle", "<A>more", "<A>end"]
    toks = [tok("<A>", -0.01, [("<A>", -0.01)]),
            tok("m", -0.2, [("m", -0.2), ("e", -1.0), ("mo", -3.0)]),
            tok("iddle", -0.1, [("iddle", -0.1), ("ore", -2.3)])]
    r = read_choices(toks, labels, texts)
    # middle and more: the generated 'm' (-0.2) plus their token at the next position; end: read at the first.
    assert r.logprobs == pytest.approx([-0.3, -2.5, -1.0])
    assert (r.mode, r.label, r.position, r.seen) == ("logprobs", "middle", 1, 3)
    unresolved = read_choices(toks[:2], labels, texts)
    assert (unresolved.mode, unresolved.reason) == ("parsed", "unresolved")


def test_no_choice_among_the_alternatives_is_left_to_the_parser_not_read_as_a_tie():
    r = read_choices([tok("[", -0.2, [("[", -0.2), ("The", -1.0)])], ["positive", "negative"], ["positive", "negative"])
    assert (r.mode, r.reason, r.seen, r.bounded) == ("parsed", "unseen", 0, ["positive", "negative"])


def test_an_end_of_turn_token_with_no_text_at_the_answer_position_is_still_read_there():
    # llama.cpp writes the end-of-turn token as '' in top_logprobs; generated first, it is the answer position.
    r = read_choices([tok("", -0.9, [("", -0.9), ("Yes", -1.1), ("No", -2.0)])], ["yes", "no"], ["Yes", "No"])
    assert (r.mode, r.position, r.logprobs) == ("logprobs", 0, [-1.1, -2.0])


def test_an_empty_common_prefix_reads_the_first_generated_token_whatever_it_is():
    # The model writes "The answer is no": the first position still holds P(Yes) and P(No), as true loglik reads them.
    r = read_choices([tok("The", -0.5, [("The", -0.5), ("No", -1.2), ("Yes", -2.2)]), tok(" answer", -0.1, [])],
                     ["yes", "no"], ["Yes", "No"])
    assert (r.mode, r.label, r.logprobs) == ("logprobs", "no", [-2.2, -1.2])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(min_value=-20, max_value=0, allow_nan=False), min_size=2, max_size=6, unique=True),
       st.integers(min_value=0, max_value=5), st.data())
def test_single_token_choices_in_the_top_k_give_their_softmax_and_a_missing_one_the_floor(values, drop, data):
    words = ["alpha", "beta", "gamma", "delta", "eps", "zeta"][:len(values)]
    prefix = data.draw(st.sampled_from(["", "<Answer>", '"']))
    top = [(w, v) for w, v in zip(words, values)]
    gen = max(top, key=lambda x: x[1])
    toks = ([tok(prefix, -0.01, [(prefix, -0.01)])] if prefix else []) + [tok(gen[0], gen[1], top)]
    r = read_choices(toks, words, [prefix + w for w in words])
    assert r.logprobs == values and r.probs == pytest.approx(softmax(values))
    assert r.label == words[values.index(max(values))] and r.seen == len(words)
    # Leave one choice out of the returned alternatives (not the generated one): it gets the smallest left.
    drop %= len(words)
    if words[drop] == gen[0]:
        return
    kept = [x for x in top if x[0] != words[drop]]
    toks[-1] = tok(gen[0], gen[1], kept)
    r2 = read_choices(toks, words, [prefix + w for w in words])
    floor = min(v for _, v in kept)
    assert r2.logprobs == [floor if i == drop else v for i, v in enumerate(values)]
    assert (r2.seen, r2.bounded) == (len(words) - 1, [words[drop]])


def test_the_reply_format_is_read_and_what_is_missing_is_named():
    body = {"choices": [{"logprobs": {"content": [
        {"token": "Y", "logprob": -0.1, "bytes": [89, 101, 115], "top_logprobs": [
            {"token": "Y", "logprob": -0.1, "bytes": [89, 101, 115]}, {"token": "No", "logprob": -2.5, "bytes": None}]}]}}]}
    toks = generated_tokens(body)
    assert toks[0].text == b"Yes"  # the bytes field wins over the token's text
    assert toks[0].top == ((b"Yes", -0.1), (b"No", -2.5))
    assert missing_logprobs({"choices": [{"logprobs": None}]}) == "choices[0].logprobs (null)"
    assert missing_logprobs({"choices": [{"logprobs": {"content": None}}]}) == "choices[0].logprobs.content"
    with pytest.raises(BackendError, match="no choices\\[0\\].logprobs"):
        generated_tokens({"choices": [{"logprobs": None}]})
    with pytest.raises(BackendError, match="expected a number <= 0"):
        generated_tokens({"choices": [{"logprobs": {"content": [{"token": "a", "logprob": 0.5,
                                                                  "top_logprobs": [{"token": "a", "logprob": 0.5}]}]}}]})


def test_alternatives_that_are_not_objects_are_refused_not_skipped():
    # Skipped, they would leave no alternative at the answer position: every choice but the generated one
    # bounded by the generated token's own value, a tie read as a probability.
    for top in ([1, 2], ["Yes", "No"], [None]):
        with pytest.raises(BackendError, match="top_logprobs"):
            generated_tokens({"choices": [{"logprobs": {"content": [{"token": "Yes", "logprob": -0.1,
                                                                      "top_logprobs": top}]}}]})


def test_max_tokens_is_the_longest_choice_in_bytes():
    assert answer_max_tokens(["Yes", "No"]) == 3
    assert answer_max_tokens(POSITION_TEXT) == len("<Answer>middle</Answer>") == 23
    assert answer_max_tokens(["é", "a"]) == 2  # bytes, not characters


def test_two_choices_with_one_text_are_refused():
    with pytest.raises(ConfigError, match="same continuation"):
        read_choices([tok("a", -0.1, [("a", -0.1)])], ["x", "y"], ["a", "a"])


# -- whole runs against the stand-in -------------------------------------------------------------------------------

def _eci_items(climatecause_path, n):
    from causalgraph.datasets import load_corpus
    from causalgraph.tasks import get_task

    items = get_task("ccr-eci-position").items(load_corpus(str(climatecause_path)), "0_4")[:n]
    prompts = [it.messages()[-1]["content"] for it in items]
    assert len(set(prompts)) == n  # each item is told apart by its prompt
    return items, prompts


def _scripted(prompts):
    """The stand-in's tokens for items 0-3: read, a choice outside the top-k, departed, no logprobs."""
    script = {
        prompts[0]: [("<Answer>", -0.05, [("<Answer>", -0.05), ("The", -3.2)]),
                     ("end", -0.4, [("end", -0.4), ("none", -1.1), ("start", -2.0)]),
                     ("</Answer>", -0.01, [("</Answer>", -0.01)])],
        prompts[1]: [("<Answer>", -0.05, [("<Answer>", -0.05)]),
                     ("none", -0.3, [("none", -0.3), ("start", -1.9), ("n", -2.6)]),
                     ("</Answer>", -0.01, [("</Answer>", -0.01)])],
        prompts[2]: [("The", -0.7, [("The", -0.7), ("<Answer>", -0.9)]),
                     (" answer is <Answer>middle</Answer>", -0.2, [(" answer is <Answer>middle</Answer>", -0.2)])],
    }

    def logprobs(body):
        user = body["messages"][-1]["content"]
        if user.startswith("Answer with one word"):
            return [("Yes", -0.1, [("Yes", -0.1), ("No", -2.4)])]  # the probe
        return script.get(user)  # prompts[3]: None, a reply without logprobs

    return logprobs


def test_a_run_reads_hand_computed_top_logprobs_in_openais_format(standin, isolated_cache, climatecause_path, tmp_path):
    from causalgraph.bench.runner import run_benchmark
    from causalgraph.runlog.store import load_run

    items, prompts = _eci_items(climatecause_path, 4)
    standin.logprobs = _scripted(prompts)
    res = run_benchmark("ccr-eci-position", ["0_4"], "openai/standin", method="choice-logprobs", limit=4,
                        data=str(climatecause_path), out=tmp_path / "run", concurrency=1,
                        model_options={"base_url": standin.url, "top_logprobs": 3})
    # What went out: the probe first, then one request per item, greedy, logprobs with top_logprobs 3,
    # max_tokens the longest choice's bytes; the prompt as the task wrote it.
    first, rest = standin.chat_bodies[0], standin.chat_bodies[1:]
    assert first["max_tokens"] == 1 and first["logprobs"] is True and first["top_logprobs"] == 3
    assert len(rest) == 4
    for body in rest:
        assert (body["logprobs"], body["top_logprobs"], body["max_tokens"], body["temperature"]) == (True, 3, 23, 0.0)
    assert sorted(b["messages"][-1]["content"] for b in rest) == sorted(prompts)
    run = load_run(res.path)
    recs = {r.item_id: r for r in run.responses}
    r0, r1, r2, r3 = (recs[it.id] for it in items)
    assert all(r.method == "choice-logprobs" for r in recs.values())
    # Item 0: every choice but middle returned; middle bounded by the 3rd value (-2.0).
    z0 = math.exp(-2.0) + math.exp(-2.0) + math.exp(-0.4) + math.exp(-1.1)
    assert (r0.scoring, r0.label, r0.rule) == ("logprobs", "end", "choice-logprobs")
    assert r0.logprobs == {"start": -2.0, "middle": -2.0, "end": -0.4, "none": -1.1}
    assert r0.probs["end"] == pytest.approx(math.exp(-0.4) / z0)
    assert r0.choice_read == {"position": 1, "choices_seen": 3, "bounded": ["middle"], "top_k": 3}
    assert r0.response == "<Answer>end</Answer>" and r0.usage["completion_tokens"] is not None
    # Item 1: two choices outside the top-k.
    assert r1.logprobs == {"start": -1.9, "middle": -2.6, "end": -2.6, "none": -0.3}
    assert (r1.label, r1.choice_read["choices_seen"], r1.choice_read["bounded"]) == ("none", 2, ["middle", "end"])
    # Item 2: departed from '<Answer>' at its first byte: parsed, as --method generate parses it.
    assert (r2.scoring, r2.choice_read["reason"], r2.label, r2.rule) == ("parsed", "departed", "middle", "tag")
    assert r2.probs is None and r2.logprobs is None
    # Item 3: no logprobs mid-run is this item's backend error, not a silent parse.
    assert r3.error and "logprobs" in r3.error and r3.label is None and r3.scoring is None
    m = run.metrics.variants["0_4"]
    ch = m["choice_logprobs"]
    assert (ch["read"], ch["parsed"], ch["parsed_reasons"], ch["bounded_items"]) == (2, 1, {"departed": 1}, 2)
    assert ch["reached"] == pytest.approx(2 / 3)
    assert ch["acc_norm"] is None and "undefined" in ch["acc_norm_note"]
    gold = {it.id: it.gold for it in items}
    right = sum(recs[i].label == gold[i] for i in gold)
    assert ch["acc"] == pytest.approx(right / 4)
    # Calibration over the two items read, by hand: confidence = probability of the predicted label.
    conf = [r0.probs["end"], r1.probs["none"]]
    ok = [gold[items[0].id] == "end", gold[items[1].id] == "none"]
    cal = m["calibration"]
    assert cal["n"] == 2
    brier = sum(sum((p - (lab == gold[r.item_id])) ** 2 for lab, p in r.probs.items()) for r in (r0, r1)) / 2
    assert cal["brier"] == pytest.approx(brier)
    bins = {}
    for c, k in zip(conf, ok):
        bins.setdefault(max(math.ceil(c * 15) - 1, 0), []).append((c, k))
    ece = sum(len(b) / 2 * abs(sum(k for _, k in b) / len(b) - sum(c for c, _ in b) / len(b)) for b in bins.values())
    assert cal["ece"] == pytest.approx(ece)
    # The manifest: the method, what each request carried, the record schema that reads the lines.
    params = json.loads((res.path / "manifest.json").read_text())["parameters"]
    assert params["method"] == "choice-logprobs"
    assert params["choice_logprobs"] == {"top_logprobs": 3, "max_tokens": {"0_4": 23}}
    assert json.loads((res.path / "manifest.json").read_text())["record_schema"] == 4
    # bench parse re-parses the parsed line only; a line read from top_logprobs keeps its label and rule.
    assert main(["bench", "parse", str(res.path)]) == 0
    reparsed = {r.item_id: r for r in load_run(res.path).responses}
    assert (reparsed[items[0].id].rule, reparsed[items[0].id].label) == ("choice-logprobs", "end")
    assert (reparsed[items[2].id].rule, reparsed[items[2].id].label) == ("tag", "middle")
    # Again into a new folder: every read item from the cache (the failed one asked again, and failing again).
    standin.chat_bodies.clear()
    again = run_benchmark("ccr-eci-position", ["0_4"], "openai/standin", method="choice-logprobs", limit=4,
                          data=str(climatecause_path), out=tmp_path / "again", concurrency=1,
                          model_options={"base_url": standin.url, "top_logprobs": 3})
    assert again.cache_hits == 3 and len(standin.chat_bodies) == 2  # the probe and item 3
    assert {r.item_id: r.probs for r in load_run(again.path).responses} == \
        {r.item_id: r.probs for r in run.responses}


def test_report_view_and_mcnemar_take_a_choice_logprobs_run(standin, isolated_cache, climatecause_path, tmp_path,
                                                           capsys, climatecause):
    from causalgraph.bench.runner import run_benchmark
    from causalgraph.stats import mcnemar_runs

    items, prompts = _eci_items(climatecause_path, 3)
    standin.logprobs = _scripted(prompts + ["unused"])
    opts = dict(limit=3, data=str(climatecause_path), concurrency=1, model_options={"base_url": standin.url})
    ch = run_benchmark("ccr-eci-position", ["0_4"], "openai/standin", method="choice-logprobs", out=tmp_path / "ch",
                       **opts)
    standin.logprobs = None
    gen = run_benchmark("ccr-eci-position", ["0_4"], "openai/standin", out=tmp_path / "gen", **opts)
    table = mcnemar_runs(gen.path, ch.path)
    assert list(table["paired_on"]) == ["correct"] and int(table["n"].iloc[0]) == 3
    assert main(["bench", "report", str(ch.path), "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    row = next(r for r in rows if r["variant"] == "0_4")
    # Items 0 and 1 read, item 2 departed: reached 2/3; acc_norm has no value (not 0).
    assert float(row["reached"]) == pytest.approx(2 / 3) and row["acc_norm"] == ""
    assert float(row["ece"]) >= 0 and float(row["brier"]) >= 0
    assert main(["bench", "report", str(ch.path), "--format", "json"]) == 0
    metrics = json.loads(capsys.readouterr().out)[0]["metrics"]
    assert metrics["method"] == "choice-logprobs" and metrics["variants"]["0_4"]["calibration"]["n"] == 2
    assert main(["bench", "report", str(ch.path), "--plot", str(tmp_path / "plots")]) == 0
    assert (tmp_path / "plots").is_dir() and any((tmp_path / "plots").glob("*.png"))
    page = tmp_path / "view.html"
    assert main(["bench", "view", str(ch.path), "-o", str(page)]) == 0
    html = page.read_text(encoding="utf-8")
    assert "choice-logprobs" in html and "departed" in html
    # The corpus report's runs section: the calibration table names the method and the share read.
    from causalgraph.viewer.report import write_report

    rep = write_report(climatecause, tmp_path / "rep", max_graphs=0, runs=[ch.path])
    table = re.search(r'<table class="" id="run-calibration">(.*?)</table>', rep.index.read_text(encoding="utf-8"))
    row = re.findall(r"<td[^>]*>(.*?)</td>", table.group(1))
    assert row[0] == "ch" and row[2] == "2" and row[4] == "undefined" and row[8:] == ["choice-logprobs", "0.6667"]


def test_a_server_without_logprobs_is_refused_before_the_first_item(standin, isolated_cache, climatecause_path,
                                                                    tmp_path, capsys):
    out = tmp_path / "run"
    rc = main(["bench", "run", "--task", "ccr-member", "--variant", "A_5", "--model", "openai/plain-chat",
               "--base-url", standin.url, "--method", "choice-logprobs", "--limit", "3",
               "--data", str(climatecause_path), "--out", str(out)])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2
    assert len(err) == 1 and "openai/plain-chat" in err[0] and "choices[0].logprobs (null)" in err[0], err
    # Only the probe reached the server; no item was asked or written.
    assert len(standin.chat_bodies) == 1 and standin.chat_bodies[0]["max_tokens"] == 1
    assert not (out / "responses.jsonl").exists() or (out / "responses.jsonl").read_text() == ""


def test_a_backend_without_generated_logprobs_and_sampling_are_refused_in_one_line(capsys, climatecause_path,
                                                                                   tmp_path):
    for extra, words in ((["--model", "mock/oracle"], "returns no log-probabilities of generated tokens"),
                         (["--model", "openai/x", "--base-url", "http://127.0.0.1:9/v1", "--temperature", "0.7"],
                          "greedy path"),
                         # the backend's own option would override the request's temperature 0: refused alike
                         (["--model", "openai/x", "--base-url", "http://127.0.0.1:9/v1", "--model-option",
                           "temperature=0.7"], "greedy path"),
                         (["--model", "openai/x", "--base-url", "http://127.0.0.1:9/v1", "--model-option",
                           "temperature=abc"], "greedy path")):
        rc = main(["bench", "run", "--task", "ccr-member", "--variant", "A_5", "--method", "choice-logprobs",
                   "--limit", "2", "--data", str(climatecause_path), "--out", str(tmp_path / "r"), *extra])
        err = capsys.readouterr().err.strip().splitlines()
        assert rc == 2 and len(err) == 1 and words in err[0], err


def test_bench_plan_counts_max_tokens_per_item_for_choice_logprobs(climatecause_path):
    from causalgraph.bench.plan import plan_run

    ch = plan_run(["ccr-member"], "openai/gpt-5.1-2025-11-13", variants=["A_5"], method="choice-logprobs",
                  data=str(climatecause_path))[0]
    gen = plan_run(["ccr-member"], "openai/gpt-5.1-2025-11-13", variants=["A_5"], data=str(climatecause_path))[0]
    # One request per item with the same prompt as generation; at most 3 output tokens each (len("Yes")).
    assert ch["requests"] == gen["requests"] and ch["input_tokens_est"] == gen["input_tokens_est"]
    assert ch["output_tokens_est"] == 3 * ch["requests"]
    with pytest.raises(ConfigError, match="no log-probabilities of generated tokens"):
        plan_run(["ccr-member"], "mock/oracle", variants=["A_5"], method="choice-logprobs")


@pytest.mark.parametrize("max_tokens", [None, 1, 16])
def test_bench_plan_counts_the_max_tokens_the_runner_sends(climatecause_path, capsys, max_tokens):
    from causalgraph.bench.config import RunConfig
    from causalgraph.bench.plan import plan_run
    from causalgraph.bench.prepare import loglik_choices
    from causalgraph.bench.runner import choice_request
    from causalgraph.llm import get_backend
    from causalgraph.llm.base import Request
    from causalgraph.tasks import get_task

    config = RunConfig(task="ccr-member", variants=["A_5"], model="openai/x", max_tokens=max_tokens,
                       method="choice-logprobs")
    backend = get_backend("openai/x", base_url="http://127.0.0.1:9/v1")
    sent = choice_request(Request(messages=({"role": "user", "content": "q"},)),
                          loglik_choices(get_task("ccr-member"), ["A_5"])["A_5"], backend, config).max_tokens
    assert sent == (3 if max_tokens is None else max_tokens)  # len("Yes") bytes, else --max-tokens
    row = plan_run(["ccr-member"], "openai/gpt-5.1-2025-11-13", variants=["A_5"], method="choice-logprobs",
                   data=str(climatecause_path), max_tokens=max_tokens)[0]
    assert row["output_tokens_est"] == sent * row["requests"]
    argv = ["bench", "plan", "--task", "ccr-member", "--variant", "A_5", "--method", "choice-logprobs",
            "--data", str(climatecause_path), "--format", "json"]
    assert main(argv + ([] if max_tokens is None else ["--max-tokens", str(max_tokens)])) == 0
    assert json.loads(capsys.readouterr().out)[0]["output_tokens_est"] == sent * row["requests"]


def test_bench_plan_caps_generated_output_at_max_tokens_and_refuses_it_under_loglik(climatecause_path, capsys):
    from causalgraph.bench.plan import plan_run

    kw = dict(variants=["A_5"], data=str(climatecause_path))
    gen = plan_run(["ccr-member"], "openai/gpt-5.1-2025-11-13", output_tokens=288, max_tokens=100, **kw)[0]
    assert gen["output_tokens_est"] == 100 * gen["requests"]  # no request writes more than 100
    gen = plan_run(["ccr-member"], "openai/gpt-5.1-2025-11-13", output_tokens=50, max_tokens=100, **kw)[0]
    assert gen["output_tokens_est"] == 50 * gen["requests"]
    for bad, words in ((0, "expected an integer >= 1"), (True, "expected an integer >= 1")):
        with pytest.raises(ConfigError, match=words):
            plan_run(["ccr-member"], "openai/gpt-5.1-2025-11-13", max_tokens=bad, **kw)
    rc = main(["bench", "plan", "--task", "ccr-member", "--variant", "A_5", "--method", "loglik", "--model",
               "hf/smollm2", "--max-tokens", "5", "--data", str(climatecause_path)])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and "has no meaning under --method loglik" in err[0], err


def test_a_reply_with_nan_or_infinite_logprobs_is_a_counted_failed_request(standin, isolated_cache, climatecause_path,
                                                                          tmp_path):
    # A malformed reply is refused where the reply arrives, like one without logprobs: the item's error is
    # counted in the run's errors (the summary line and the exit status read them) and nothing is cached.
    from causalgraph.bench.runner import run_benchmark
    from causalgraph.runlog.store import load_run

    items, prompts = _eci_items(climatecause_path, 3)
    bad = {prompts[0]: [("<Answer>", -0.01, [("<Answer>", -0.01)]),
                        ("none", float("nan"), [("none", float("nan")), ("end", -1.0)])],
           prompts[1]: [("<Answer>", -0.01, [("<Answer>", -0.01)]),
                        ("none", -0.2, [("none", -0.2), ("start", float("inf"))])],
           prompts[2]: [("<Answer>", -0.01, [("<Answer>", -0.01)]),
                        ("none", -0.2, [("none", -0.2), ("end", -1.0)])]}

    def logprobs(body):
        user = body["messages"][-1]["content"]
        return [("Yes", -0.1, [("Yes", -0.1)])] if user.startswith("Answer with one word") else bad[user]

    standin.logprobs = logprobs
    opts = dict(limit=3, data=str(climatecause_path), concurrency=1, model_options={"base_url": standin.url})
    res = run_benchmark("ccr-eci-position", ["0_4"], "openai/standin", method="choice-logprobs", out=tmp_path / "a",
                        **opts)
    recs = {r.item_id: r for r in load_run(res.path).responses}
    assert res.errors == 2
    assert "nan" in recs[items[0].id].error and "inf" in recs[items[1].id].error
    assert recs[items[2].id].scoring == "logprobs" and not recs[items[2].id].error
    standin.chat_bodies.clear()
    again = run_benchmark("ccr-eci-position", ["0_4"], "openai/standin", method="choice-logprobs", out=tmp_path / "b",
                          **opts)
    assert again.cache_hits == 1 and again.errors == 2


def test_a_variant_whose_every_request_failed_keeps_its_choice_logprobs_columns_undefined(
        standin, isolated_cache, climatecause_path, tmp_path, capsys):
    # As a loglik variant does: the method and its figures are there, every one None (shown "—"), not left
    # out (the run page's calibration table and bench report's columns would drop the run without a word).
    from causalgraph.bench.runner import run_benchmark

    def logprobs(body):
        if body["messages"][-1]["content"].startswith("Answer with one word"):
            return [("Yes", -0.1, [("Yes", -0.1)])]
        return [("<Answer>", -0.01, [("<Answer>", -0.01)]), ("none", float("nan"), [("none", float("nan"))])]

    standin.logprobs = logprobs
    res = run_benchmark("ccr-eci-position", ["0_4"], "openai/standin", method="choice-logprobs", limit=2,
                        data=str(climatecause_path), concurrency=1, model_options={"base_url": standin.url},
                        out=tmp_path / "r")
    v = res.metrics.variants["0_4"]
    assert (v["n_scored"], v["method"], v["calibration"]) == (0, "choice-logprobs", None)
    ch = v["choice_logprobs"]
    assert (ch["acc"], ch["acc_norm"], ch["reached"], ch["read"], ch["parsed"]) == (None, None, None, 0, 0)
    assert main(["bench", "report", str(res.path), "--format", "csv"]) == 0
    row = next(r for r in csv.DictReader(io.StringIO(capsys.readouterr().out)) if r["variant"] == "0_4")
    assert (row["acc"], row["acc_norm"], row["reached"], row["ece"], row["brier"]) == ("", "", "", "", "")


def _departing_run(standin, climatecause_path, tmp_path, name="dep"):
    """A choice-logprobs run of 3 items, every answer departed from '<Answer>' (parsed): none read."""
    from causalgraph.bench.runner import run_benchmark

    def logprobs(body):
        if body["messages"][-1]["content"].startswith("Answer with one word"):
            return [("Yes", -0.1, [("Yes", -0.1)])]
        return [("The", -0.2, [("The", -0.2), ("<Answer>", -1.9)]),
                (" answer is <Answer>none</Answer>", -0.1, [(" answer is <Answer>none</Answer>", -0.1)])]

    standin.logprobs = logprobs
    return run_benchmark("ccr-eci-position", ["0_4"], "openai/standin", method="choice-logprobs", limit=3,
                         data=str(climatecause_path), concurrency=1, model_options={"base_url": standin.url},
                         out=tmp_path / name)


def test_no_item_read_shows_calibration_undefined_with_its_note(standin, isolated_cache, climatecause_path,
                                                                 climatecause, tmp_path, capsys):
    from causalgraph.viewer.report import write_report
    from causalgraph.runlog.store import load_run
    from causalgraph.viewer import build_run_view

    res = _departing_run(standin, climatecause_path, tmp_path)
    v = res.metrics.variants["0_4"]
    assert (v["choice_logprobs"]["read"], v["choice_logprobs"]["reached"], v["calibration"]["n"]) == (0, 0.0, 0)
    assert v["calibration"]["ece"] is None and v["calibration"]["brier"] is None
    # bench report: the blank ECE and Brier cells are said why, on stderr.
    capsys.readouterr()
    assert main(["bench", "report", str(res.path)]) == 0
    err = capsys.readouterr().err
    assert "0_4: ECE, adaptive ECE and Brier undefined: no item reached the answer position" in err, err
    # The run page: the note among the page's notes.
    view = build_run_view(load_run(res.path), data=str(climatecause_path))
    assert any("no item reached the answer position" in n for n in view.notes), view.notes
    # The corpus report: the run has its row, with the figures undefined (not left out, not 0) and no diagram.
    rep = write_report(climatecause, tmp_path / "rep", max_graphs=0, runs=[res.path])
    page = rep.index.read_text(encoding="utf-8")
    table = re.search(r'<table class="" id="run-calibration">(.*?)</table>', page)
    assert table is not None
    row = re.findall(r"<td[^>]*>(.*?)</td>", table.group(1))
    assert row == ["dep", "0_4", "0", "1", "undefined", "undefined", "undefined", "undefined", "choice-logprobs",
                   "0"], row
    assert 'id="reliability-0"' not in page


@pytest.mark.browser
def test_the_run_page_shows_undefined_calibration_when_no_item_was_read(standin, isolated_cache, climatecause_path,
                                                                        tmp_path, chromium):
    from causalgraph.viewer import write_run_page

    res = _departing_run(standin, climatecause_path, tmp_path)
    page = write_run_page([res.path], tmp_path / "dep.html", data=str(climatecause_path))
    load = chromium.open(page, ready="data-ready")
    assert load.errors == []
    cells = chromium.js("return Array.prototype.map.call(document.querySelectorAll('#calibration-0 tbody td'),"
                        " function (td) { return td.textContent; })")
    # variant, acc (all three parsed 'none', gold 'none'), acc_norm, reached, ECE, adaptive ECE, Brier, items scored
    assert cells == ["0_4", "1", "undefined", "0", "undefined", "undefined", "undefined", "0"], cells
    text = chromium.js("return document.body.textContent")
    assert "ECE, adaptive ECE and Brier undefined: no item reached the answer position" in text


@pytest.mark.browser
def test_an_items_choices_say_which_value_is_a_bound_and_how_the_item_was_scored(standin, isolated_cache,
                                                                                climatecause_path, tmp_path,
                                                                                chromium):
    import time

    from causalgraph.bench.runner import run_benchmark
    from causalgraph.runlog.store import load_run
    from causalgraph.viewer import write_run_page

    items, prompts = _eci_items(climatecause_path, 5)
    scripted = _scripted(prompts)
    hostile = [("<script>window.pwned=1</script>", -0.1, [("<script>window.pwned=1</script>", -0.1)])]
    standin.logprobs = lambda body: hostile if body["messages"][-1]["content"] == prompts[4] else scripted(body)
    res = run_benchmark("ccr-eci-position", ["0_4"], "openai/standin", method="choice-logprobs", limit=5,
                        data=str(climatecause_path), concurrency=1, out=tmp_path / "r",
                        model_options={"base_url": standin.url, "top_logprobs": 3})
    order = [r.item_id for r in load_run(res.path).responses]
    page = write_run_page([res.path], tmp_path / "r.html", data=str(climatecause_path))
    load = chromium.open(page, ready="data-ready")
    assert load.errors == []

    def detail(item):
        chromium.js("document.body.removeAttribute('data-detail'); window.cgRunView.show(arguments[0])",
                    order.index(item.id))
        deadline = time.monotonic() + 20
        while not chromium.js("return document.body.getAttribute('data-detail')"):
            assert time.monotonic() < deadline
            time.sleep(0.05)
        heads = chromium.js("return Array.prototype.map.call(document.querySelectorAll('h3'),"
                            " function (h) { return h.textContent; })")
        rows = chromium.js("return Array.prototype.map.call(document.querySelectorAll('#d-choices tbody tr'),"
                           " function (tr) { return Array.prototype.map.call(tr.cells, function (c) {"
                           " return c.textContent; }); })")
        return [h for h in heads if h.startswith("Choices")], {r[0]: r for r in rows}

    # Item 0: middle is outside the 3 returned alternatives; its -2 is the 3rd value, a bound, and says so.
    heads, rows = detail(items[0])
    assert heads == ["Choices (read from top_logprobs: logprobs; gold: none)"]
    assert rows["middle"][2] == "-2" and "bound" in rows["middle"][4]
    assert rows["start"][2] == "-2" and "bound" not in rows["start"][4]
    # Item 3: the request failed; it was not scored by log-likelihood.
    heads, rows = detail(items[3])
    assert heads == ["Choices (read from top_logprobs: not read, the request failed; gold: none)"], heads
    # Item 4: a reply that is markup is shown as text, never run.
    heads, rows = detail(items[4])
    assert chromium.js("return window.pwned === undefined")
    assert "<script>window.pwned=1</script>" in chromium.js(
        "return document.querySelector('pre.response').textContent")


def test_the_probe_is_counted_among_the_requests_sent_and_named_in_the_summary(standin, isolated_cache,
                                                                                climatecause_path, tmp_path, capsys):
    standin.logprobs = lambda body: [("No", -0.3, [("No", -0.3), ("Yes", -1.4)])]
    out = tmp_path / "run"
    rc = main(["bench", "run", "--task", "ccr-member", "--variant", "A_5", "--model", "openai/standin",
               "--base-url", standin.url, "--method", "choice-logprobs", "--limit", "3", "--concurrency", "1",
               "--data", str(climatecause_path), "--out", str(out)])
    err = capsys.readouterr().err
    assert rc == 0, err
    # Everything that reached the server is a request sent: the probe and one per item.
    sent = len(standin.chat_bodies)
    assert sent == 4 and standin.chat_bodies[0]["max_tokens"] == 1
    assert f"{sent} requests sent (1 probe), 0 cache hits; 0 errors" in err, err
    assert json.loads((out / "manifest.json").read_text())["invocations"][-1]["requests_sent"] == sent
    # A second run into a new folder reads every item from the cache and sends nothing, the probe included.
    standin.chat_bodies.clear()
    rc = main(["bench", "run", "--task", "ccr-member", "--variant", "A_5", "--model", "openai/standin",
               "--base-url", standin.url, "--method", "choice-logprobs", "--limit", "3",
               "--data", str(climatecause_path), "--out", str(tmp_path / "again")])
    err = capsys.readouterr().err
    assert rc == 0 and not standin.chat_bodies and "0 requests sent, 3 cache hits" in err, err


def test_the_probes_tokens_and_price_are_in_the_run_totals_and_in_no_variant(standin, isolated_cache,
                                                                             climatecause_path, tmp_path, capsys):
    from causalgraph.runlog.store import load_run

    standin.logprobs = lambda body: [("No", -0.3, [("No", -0.3), ("Yes", -1.4)])]
    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps({"standin": {"input": 2.0, "output": 8.0}}))
    out = tmp_path / "run"
    rc = main(["bench", "run", "--task", "ccr-member", "--variant", "A_5", "--model", "openai/standin",
               "--base-url", standin.url, "--method", "choice-logprobs", "--limit", "3", "--concurrency", "1",
               "--prices", str(prices), "--data", str(climatecause_path), "--out", str(out)])
    assert rc == 0, capsys.readouterr().err
    # The stand-in counts words: the probe's one-line prompt has 7, its answer "No" 1.
    probe_in, probe_out = len("Answer with one word: is water wet?".split()), 1
    probe_usd = (probe_in * 2.0 + probe_out * 8.0) / 1e6
    inv = json.loads((out / "manifest.json").read_text())["invocations"][-1]
    assert inv["probe_usage"] == {"prompt_tokens": probe_in, "completion_tokens": probe_out,
                                  "cost_usd": pytest.approx(probe_usd, abs=1e-12)}
    records = load_run(out).responses
    items_in = sum(r.usage["prompt_tokens"] for r in records)
    items_out = sum(r.usage["completion_tokens"] for r in records)
    items_usd = sum(r.cost_usd for r in records)
    assert items_in > 0 and items_usd > 0
    metrics = json.loads((out / "metrics.json").read_text())
    assert (metrics["tokens_in"], metrics["tokens_out"]) == (items_in + probe_in, items_out + probe_out)
    assert metrics["cost_usd"] == pytest.approx(round(items_usd + probe_usd, 6), abs=1e-9)
    # The run page's totals row says the same; its variant row holds the items' requests only.
    from causalgraph.viewer.runs import build_run_view

    view = build_run_view(load_run(out), data=str(climatecause_path))
    assert (view.totals["tokens_in"], view.totals["tokens_out"]) == (metrics["tokens_in"], metrics["tokens_out"])
    assert view.totals["cost_usd"] == pytest.approx(metrics["cost_usd"], abs=1e-9)
    assert [(r["tokens_in"], r["tokens_out"]) for r in view.summary] == [(items_in, items_out)]
    # A cached re-run of the same folder sends no probe and adds nothing.
    rc = main(["bench", "run", "--task", "ccr-member", "--variant", "A_5", "--model", "openai/standin",
               "--base-url", standin.url, "--method", "choice-logprobs", "--limit", "3",
               "--prices", str(prices), "--data", str(climatecause_path), "--out", str(out)])
    assert rc == 0, capsys.readouterr().err
    again = json.loads((out / "metrics.json").read_text())
    assert (again["tokens_in"], again["tokens_out"], again["cost_usd"]) == (
        metrics["tokens_in"], metrics["tokens_out"], metrics["cost_usd"])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=12), min_size=2, max_size=5, unique=True),
       st.one_of(st.none(), st.integers(1, 4096)))
def test_max_tokens_of_the_requests_and_of_the_manifest_come_from_one_rule(texts, max_tokens):
    from causalgraph.bench.config import RunConfig
    from causalgraph.bench.prepare import _choice_parameters
    from causalgraph.bench.runner import choice_request
    from causalgraph.llm import get_backend
    from causalgraph.llm.base import Request
    from causalgraph.llm.choice_logprobs import choice_max_tokens

    choices = {f"l{n}": t for n, t in enumerate(texts)}
    # Computed here: --max-tokens when set, else the UTF-8 bytes of the longest continuation.
    want = max_tokens if max_tokens is not None else max(len(t.encode("utf-8")) for t in texts)
    assert choice_max_tokens(texts, max_tokens) == want
    config = RunConfig(task="ccr-member", variants=["A_5"], model="openai/x", max_tokens=max_tokens,
                       method="choice-logprobs")
    backend = get_backend("openai/x", base_url="http://127.0.0.1:9/v1")
    req = choice_request(Request(messages=({"role": "user", "content": "q"},)), choices, backend, config)
    recorded = _choice_parameters(config, backend, {"V": choices})
    assert req.max_tokens == recorded["max_tokens"]["V"] == want


def test_the_refusal_of_a_backend_without_generated_logprobs_names_every_backend_that_has_them(capsys):
    # llamacpp/ and vllm/ read choice log-probabilities in process (both set Backend.choice_logprobs); the
    # refusal listed only openai/ and servers, sending a user away from the local backends that work.
    from causalgraph.llm import get_backend

    assert main(["bench", "run", "--task", "ccr-member", "--variant", "A_5", "--method", "choice-logprobs",
                 "--model", "mock/oracle", "--data", "sample", "--limit", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "llamacpp/" in err[0] and "vllm/" in err[0], err
    with pytest.raises(ConfigError, match=r"llamacpp/ and vllm/ in process"):
        get_backend("mock/oracle").top_logprobs()
