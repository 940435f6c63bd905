"""The cached re-run's hot path: keys, cache look-ups and the scored run are what the slow path gave."""

from __future__ import annotations

import dataclasses

import pytest

import json

from hypothesis import given
from hypothesis import strategies as st

from causalgraph.runlog.record import RunRecord
from causalgraph.bench.runner import run_benchmark
from causalgraph.bench.writer import _now
from causalgraph.bench.scoring import compute_metrics
from causalgraph.runlog.store import RunStore, load_run
from causalgraph.llm.base import Completion, Request, canonical_json, request_key
from causalgraph.llm.cache import ResponseCache

from bench_helpers import YN_TASK, yn_items

text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30)
scalars = st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False, allow_infinity=False) | text
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text, inner, max_size=3),
                      max_leaves=8)


@given(messages=st.lists(st.dictionaries(st.sampled_from(["role", "content", "name"]), text, min_size=1), min_size=1,
                         max_size=3),
       identity=st.dictionaries(text, values, max_size=4), extra=st.none() | st.dictionaries(text, values, max_size=3),
       temperature=st.none() | st.floats(0, 2), seed=st.none() | st.integers(0, 99),
       params=st.dictionaries(st.sampled_from(["top_p", "n", "logprobs"]), values, max_size=2))
def test_a_key_built_around_the_encoded_messages_is_the_canonical_key(messages, identity, extra, temperature, seed,
                                                                    params):
    req = Request(messages=tuple(messages), temperature=temperature, seed=seed, params=params)
    assert request_key(identity, req, extra, messages_json=canonical_json(req.messages)) == \
        request_key(identity, req, extra)


def test_get_many_answers_as_get_does_for_every_key(tmp_path):
    cache = ResponseCache(tmp_path / "r.sqlite")
    keys = [f"{i:064d}" for i in range(2500)]
    for i, k in enumerate(keys):
        if i % 3:
            cache.put(k, Completion(text=f"answer {i}", prompt_tokens=i, completion_tokens=1, latency_s=0.5))
    asked = keys + keys[:10] + ["f" * 64]  # duplicates and an unknown key, more than one query's worth
    many = cache.get_many(asked)
    assert set(many) == {k for k in asked if cache.get(k) is not None}
    assert len(many) == sum(1 for i in range(2500) if i % 3)
    for k, c in many.items():
        assert c == cache.get(k)
    assert cache.get_many([]) == {}


record_dicts = st.fixed_dictionaries(
    {"task": st.just("t"), "variant": text, "item_id": text},
    optional={"epoch": st.none() | st.integers(1, 5), "gold": values, "meta": st.none() | st.dictionaries(text, values),
              "label": values, "usage": st.none() | st.dictionaries(text, values), "response": st.none() | text,
              "error": st.none() | text, "batch_id": st.none() | text, "attempts": st.integers(0, 5)})


@given(st.lists(record_dicts, max_size=6), st.booleans())
def test_lines_taken_as_written_read_as_the_record_schema_reads_them(tmp_path_factory, recs, normalise_first):
    # Lines straight from RunRecord.to_dict (taken as they are) and lines of any shape (through from_dict)
    # must come back exactly as RunRecord.from_dict(raw).to_dict() gives them.
    if normalise_first:
        recs = [RunRecord.from_dict(r).to_dict() for r in recs]
    store = RunStore(tmp_path_factory.mktemp("run"))
    store.append(recs)
    manifest = {"task": "t", "epochs": 5}
    expected = [RunRecord.from_dict(json.loads(json.dumps(r))).to_dict() for r in recs]
    got = store.checked_lines(manifest)
    assert all(isinstance(g, RunRecord) for g in got)
    assert [g.to_dict() for g in got] == expected
    assert [list(g.to_dict()) for g in got] == [list(e) for e in expected]  # key order too


def _metrics_bytes(m):
    return json.dumps(m, indent=2, ensure_ascii=False)


def test_a_run_scored_from_memory_is_the_run_read_from_its_folder(isolated_cache, tmp_path):
    items = yn_items(40)

    def run_and_check(out):
        res = run_benchmark(YN_TASK, ["v_1", "v_2"], "mock/oracle", items=items, out=out)
        run = load_run(res.path)  # a fresh reader: the file, not the memory
        fresh = dataclasses.replace(compute_metrics(run), **{k: getattr(run.metrics, k) for k in (
            "requests_sent", "cache_hits", "skipped")})
        assert _metrics_bytes(fresh.to_dict()) == _metrics_bytes(run.metrics.to_dict()) == \
            _metrics_bytes(res.metrics.to_dict())
        return res

    first = run_and_check(tmp_path / "first")
    cached = run_and_check(tmp_path / "cached")
    resumed = run_and_check(tmp_path / "cached")
    assert first.requests_sent > 0 and cached.requests_sent == 0 and cached.cache_hits == 80
    assert resumed.skipped == 80 and resumed.written == 0
    # the cached run's lines carry the first run's answers, keys and prompt hashes
    a, b = load_run(first.path).responses, load_run(cached.path).responses
    strip = ("source", "attempts", "time", "latency_s", "cost_usd")
    assert [{k: v for k, v in r.to_dict().items() if k not in strip} for r in a] == \
        [{k: v for k, v in r.to_dict().items() if k not in strip} for r in b]


def test_a_line_another_writer_appended_makes_the_store_read_the_file_again(tmp_path):
    manifest = {"task": "t"}
    store = RunStore(tmp_path)
    store.write_manifest(manifest)
    store.append([{"task": "t", "variant": "v", "item_id": "a", "label": "yes"}])
    store.keep_lines(store.checked_lines(manifest))
    store.append([RunRecord(task="t", variant="v", item_id="b").to_dict()])
    RunStore(tmp_path).append([RunRecord(task="t", variant="v", item_id="c").to_dict()])  # not through `store`
    assert [r.item_id for r in store.load().attempts] == ["a", "b", "c"]
    store.keep_lines(store.checked_lines(manifest))
    store.append([RunRecord(task="t", variant="v", item_id="d", meta=None).to_dict()])
    run = store.load()
    assert [r.item_id for r in run.attempts] == ["a", "b", "c", "d"]
    assert run.attempts == RunStore(tmp_path).load().attempts  # meta None read back as {} either way


def test_now_is_the_utc_second_in_iso_format():
    import datetime as dt

    before = dt.datetime.now(dt.timezone.utc).replace(microsecond=0)
    got = dt.datetime.fromisoformat(_now())
    after = dt.datetime.now(dt.timezone.utc)
    assert before <= got <= after and _now().endswith("+00:00") and len(_now()) == 25


def _bootstrap_as_before(records, metric, *, kind, labels, positive=None, n_boot=1000, seed=0, level=0.95):
    """bootstrap_interval as it was written before the confusions were counted in one call (commit 459c51c)."""
    import math

    import numpy as np

    from causalgraph.bench.scoring import _groups, _multi_from_confusion
    from causalgraph.scoring.scores import prf_counts

    if not records:
        return (math.nan, math.nan)
    groups = _groups(records)
    k = len(labels)
    idx = {lab: i for i, lab in enumerate(labels)}
    per = np.zeros((len(groups), k, k + 1), dtype=np.int64)
    for s, members in enumerate(groups):
        for i in members:
            r = records[i]
            per[s, idx[r.gold], idx.get(r.label, k)] += 1
    rng = np.random.default_rng(seed)
    weights = rng.multinomial(len(groups), np.full(len(groups), 1.0 / len(groups)), size=n_boot)
    mats = np.einsum("bs,sij->bij", weights, per)
    values = np.empty(n_boot)
    for b in range(n_boot):
        m = mats[b]
        if kind == "binary":
            pi = idx[positive]
            tp = m[pi, pi]
            fp = m[:, pi].sum() - tp
            fn = m[pi, :].sum() - tp
            values[b] = dict(zip(("precision", "recall", "f1"), prf_counts(tp, fp, fn)))[metric]
            # issue 35: a resample with no positive in gold or answers has its scores undefined
            values[b] = math.nan if tp + fp + fn == 0 else values[b]
        else:
            values[b] = _multi_from_confusion(m, labels)[metric]
    # issues 35 and 37: undefined resamples left out (none above half); the interval widened around the
    # estimate by sqrt(G/(G-1)) t_{G-1}/z for few statements, clipped to [0, 1]
    from scipy.stats import norm, t as student

    full = per.sum(axis=0)
    if kind == "binary":
        pi = idx[positive]
        tp, fp, fn = full[pi, pi], full[:, pi].sum() - full[pi, pi], full[pi, :].sum() - full[pi, pi]
        point = math.nan if tp + fp + fn == 0 else dict(zip(("precision", "recall", "f1"), prf_counts(tp, fp, fn)))[metric]
    else:
        point = _multi_from_confusion(full, labels)[metric]
    if np.isnan(values).mean() > 0.5 or len(groups) < 2 or point != point:
        return (math.nan, math.nan)
    values = values[~np.isnan(values)]
    lo, hi = np.quantile(values, [(1 - level) / 2, 1 - (1 - level) / 2])
    G = len(groups)
    c = math.sqrt(G / (G - 1)) * student.ppf(1 - (1 - level) / 2, G - 1) / norm.ppf(1 - (1 - level) / 2)
    return (float(max(0.0, point - c * (point - lo))), float(min(1.0, point + c * (hi - point))))


answers = st.lists(st.tuples(st.integers(0, 12), st.sampled_from(["yes", "no"]),
                             st.sampled_from(["yes", "no", None])), min_size=1, max_size=60)


@given(answers, st.integers(0, 3))
def test_bootstrap_intervals_are_those_of_the_loop_they_replace(rows, seed):
    from causalgraph.bench.scoring import bootstrap_interval, score_records
    from causalgraph.tasks import get_task

    recs = [RunRecord(YN_TASK, "v_1", f"i{n}", gold=g, label=lab, meta={"statement_id": f"s{sid}"}, rule="r")
            for n, (sid, g, lab) in enumerate(rows)]
    def same(a, b):  # equal to the last bits (the widening is computed in another order), NaN as NaN
        return a is b or (a is not None and b is not None and len(a) == len(b) and all(
            (x != x and y != y) or x == pytest.approx(y, rel=1e-12, abs=1e-15) for x, y in zip(a, b)))

    for m in ("precision", "recall", "f1"):
        got = bootstrap_interval(recs, m, kind="binary", labels=["yes", "no"], positive="yes", n_boot=200, seed=seed)
        assert same(got, _bootstrap_as_before(recs, m, kind="binary", labels=["yes", "no"], positive="yes",
                                              n_boot=200, seed=seed))
    from causalgraph.bench import scoring

    old = scoring.MIN_STATEMENTS_INTERVAL
    try:  # the loop before had no minimum of statements: compare the mechanics on these 13 statements at most
        scoring.MIN_STATEMENTS_INTERVAL = 2
        scores = score_records(recs, get_task(YN_TASK), n_boot=200, seed=seed)
    finally:
        scoring.MIN_STATEMENTS_INTERVAL = old
    for m in ("precision", "recall", "f1"):
        ref = _bootstrap_as_before(recs, m, kind="binary", labels=["yes", "no"], positive="yes", n_boot=200, seed=seed)
        assert same(scores[f"{m}_ci95"], None if any(x != x for x in ref) else list(ref))
    multi = ["yes", "no", "maybe"]
    got = bootstrap_interval(recs, "macro_f1", kind="multiclass", labels=multi, n_boot=100, seed=seed)
    assert same(got, _bootstrap_as_before(recs, "macro_f1", kind="multiclass", labels=multi, n_boot=100, seed=seed))


def test_each_distinct_answer_is_parsed_once_and_a_refusal_is_kept_as_one(isolated_cache, tmp_path):
    from causalgraph.bench.runner import _ParseOnce
    from causalgraph.errors import ParseError

    calls = []

    class Spec:
        def parse_answer(self, text, variant):
            calls.append((text, variant))
            if text == "bad":
                raise ParseError("no label in it")
            return (text.lower(), "rule")

    p = _ParseOnce(Spec())
    assert [p.parse_answer(t, v) for t, v in [("Yes", "a"), ("Yes", "a"), ("Yes", "b")]] == [("yes", "rule")] * 3
    for _ in range(2):
        try:
            p.parse_answer("bad", "a")
            raise AssertionError("the refusal was not raised")
        except ParseError as exc:
            assert str(exc) == "no label in it"
    assert calls == [("Yes", "a"), ("Yes", "b"), ("bad", "a")]


@given(st.lists(st.tuples(st.integers(0, 30), st.sampled_from(["yes", "no"]), st.integers(1, 3)), min_size=1,
                max_size=12),
       st.sampled_from([None, 0.0, 0.7, 1]), st.none() | st.integers(0, 5))
def test_the_runs_key_maker_gives_every_item_the_key_cache_key_for_gives_it(rows, temperature, seed):
    from causalgraph.bench import Item
    from causalgraph.bench.runner import _KeyMaker, build_request, cache_key_for
    from causalgraph.bench.config import RunConfig
    from causalgraph.llm.registry import get_backend
    from causalgraph.tasks import get_task

    spec = get_task(YN_TASK)
    config = RunConfig(task=YN_TASK, variants=["v_1"], model="mock/oracle", temperature=temperature, seed=seed)
    items = [Item(id=f"{YN_TASK}/v_1/q{n}", task=YN_TASK, variant="v_1", prompt=f"Is {n} even?", gold=g,
                  meta={"statement_id": f"s{n}"}) for n, g, _ in rows]
    backend = get_backend("mock/oracle")
    backend.prepare(items, spec)
    keys = _KeyMaker(backend)
    for it, (_, _, epoch) in zip(items, rows):
        req = build_request(it, spec, config, epoch)
        assert keys.key(req, it, epoch, canonical_json(req.messages)) == cache_key_for(backend, req, it, epoch)


def test_the_key_maker_keeps_one_and_one_point_zero_apart():
    from causalgraph.bench.runner import _KeyMaker

    assert _KeyMaker._frozen({"t": 1}) != _KeyMaker._frozen({"t": 1.0}) != _KeyMaker._frozen({"t": True})


@given(st.lists(st.fixed_dictionaries({"task": st.just("t"), "variant": st.just("v"), "item_id": text},
                                      optional={"gold": values | st.tuples(text, text), "meta": st.dictionaries(
                                          text, values | st.tuples(st.integers()))}), max_size=5))
def test_records_kept_in_memory_are_the_records_read_from_the_file(tmp_path_factory, recs):
    # tuples (lists once written) and every plain value: what the kept copy gives is what a reader of the file gets
    path = tmp_path_factory.mktemp("run")
    manifest = {"task": "t"}
    store = RunStore(path)
    store.write_manifest(manifest)
    store.keep_lines([])
    store.append(recs)
    assert store.load().attempts == RunStore(path).load().attempts
