"""Span normalisation and token F1 (PubMedCausal §3.3), against values worked out by hand."""

import pytest

from causalgraph.extraction.spans import exact_key, normalize_span, pair_score, span_tokens, token_f1


def test_normalize_span_lowercases_trims_and_drops_one_leading_article():
    assert normalize_span("  The Tumour growth.") == "tumour growth"
    assert normalize_span("An apple") == "apple"
    assert normalize_span("the the end") == "the end"


def test_normalize_span_strips_edge_punctuation_but_not_inner():
    assert normalize_span('"(cancer)"') == "cancer"
    assert normalize_span("[x-ray]!") == "x-ray"


def test_normalize_span_keeps_article_that_is_the_whole_span_or_inside_a_word():
    assert normalize_span("The") == "the"
    assert normalize_span("Theophylline use") == "theophylline use"


def test_span_tokens_splits_on_any_whitespace():
    assert span_tokens("risk of\tstroke \n now") == ["risk", "of", "stroke", "now"]


def test_token_f1_counts_shared_tokens_over_both_lengths():
    # 2 shared tokens out of 3 + 3: 4 / 6.
    assert token_f1("x y z", "y z w") == pytest.approx(4 / 6)
    # A leading "a" is an article: "a b c" is [b, c], so against [b, c, d] it is 4 / 5.
    assert token_f1("a b c", "b c d") == pytest.approx(4 / 5)


def test_token_f1_uses_multiset_overlap():
    # [risk, risk, of] vs [risk, of, of]: min counts 1 + 1 = 2 shared.
    assert token_f1("risk risk of", "risk of of") == pytest.approx(4 / 6)


def test_token_f1_of_empty_spans():
    assert token_f1("", "...") == 1.0
    assert token_f1("", "fever") == 0.0


def test_pair_score_is_the_mean_of_cause_and_effect_f1():
    # cause identical (1), effect "cancer" vs "lung cancer": 2*1/3.
    assert pair_score(("smoking", "cancer"), ("Smoking", "lung cancer")) == pytest.approx((1 + 2 / 3) / 2)


def test_exact_key_equal_after_normalisation():
    assert exact_key("The virus.", "Fever") == ("virus", "fever")
