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
    recs = {r["item_id"]: r for r in run.responses}
    r0, r1, r2, r3 = (recs[it.id] for it in items)
    assert all(r["method"] == "choice-logprobs" for r in recs.values())
    # Item 0: every choice but middle returned; middle bounded by the 3rd value (-2.0).
    z0 = math.exp(-2.0) + math.exp(-2.0) + math.exp(-0.4) + math.exp(-1.1)
    assert (r0["scoring"], r0["label"], r0["rule"]) == ("logprobs", "end", "choice-logprobs")
    assert r0["logprobs"] == {"start": -2.0, "middle": -2.0, "end": -0.4, "none": -1.1}
    assert r0["probs"]["end"] == pytest.approx(math.exp(-0.4) / z0)
    assert r0["choice_read"] == {"position": 1, "choices_seen": 3, "bounded": ["middle"], "top_k": 3}
    assert r0["response"] == "<Answer>end</Answer>" and r0["usage"]["completion_tokens"] is not None
    # Item 1: two choices outside the top-k.
    assert r1["logprobs"] == {"start": -1.9, "middle": -2.6, "end": -2.6, "none": -0.3}
    assert (r1["label"], r1["choice_read"]["choices_seen"], r1["choice_read"]["bounded"]) == ("none", 2, ["middle", "end"])
    # Item 2: departed from '<Answer>' at its first byte: parsed, as --method generate parses it.
    assert (r2["scoring"], r2["choice_read"]["reason"], r2["label"], r2["rule"]) == ("parsed", "departed", "middle", "tag")
    assert r2.get("probs") is None and r2.get("logprobs") is None
    # Item 3: no logprobs mid-run is this item's backend error, not a silent parse.
    assert r3["error"] and "logprobs" in r3["error"] and r3["label"] is None and r3.get("scoring") is None
    m = run.metrics["variants"]["0_4"]
    ch = m["choice_logprobs"]
    assert (ch["read"], ch["parsed"], ch["parsed_reasons"], ch["bounded_items"]) == (2, 1, {"departed": 1}, 2)
    assert ch["reached"] == pytest.approx(2 / 3)
    assert ch["acc_norm"] is None and "undefined" in ch["acc_norm_note"]
    gold = {it.id: it.gold for it in items}
    right = sum(recs[i]["label"] == gold[i] for i in gold)
    assert ch["acc"] == pytest.approx(right / 4)
    # Calibration over the two items read, by hand: confidence = probability of the predicted label.
    conf = [r0["probs"]["end"], r1["probs"]["none"]]
    ok = [gold[items[0].id] == "end", gold[items[1].id] == "none"]
    cal = m["calibration"]
    assert cal["n"] == 2
    brier = sum(sum((p - (lab == gold[r["item_id"]])) ** 2 for lab, p in r["probs"].items()) for r in (r0, r1)) / 2
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
    reparsed = {r["item_id"]: r for r in load_run(res.path).responses}
    assert (reparsed[items[0].id]["rule"], reparsed[items[0].id]["label"]) == ("choice-logprobs", "end")
    assert (reparsed[items[2].id]["rule"], reparsed[items[2].id]["label"]) == ("tag", "middle")
    # Again into a new folder: every read item from the cache (the failed one asked again, and failing again).
    standin.chat_bodies.clear()
    again = run_benchmark("ccr-eci-position", ["0_4"], "openai/standin", method="choice-logprobs", limit=4,
                          data=str(climatecause_path), out=tmp_path / "again", concurrency=1,
                          model_options={"base_url": standin.url, "top_logprobs": 3})
    assert again.cache_hits == 3 and len(standin.chat_bodies) == 2  # the probe and item 3
    assert {r["item_id"]: r.get("probs") for r in load_run(again.path).responses} == \
        {r["item_id"]: r.get("probs") for r in run.responses}


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
    from causalgraph.report import write_report

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
                          "greedy path")):
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
