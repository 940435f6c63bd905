"""Span normalisation and token-level F1, the PubMedCausal span measures.

A span is normalised by lowercasing, trimming, removing one leading article
(``a``, ``an``, ``the``) and stripping leading and trailing characters from
``.,;:!?"'-()[]{}``; its tokens are the whitespace-separated words of the
result.  Token F1 of two spans is ``2·overlap / (|a| + |b|)`` with the
multiset overlap of their tokens (paper §3.3).
"""

from __future__ import annotations

import re
from collections import Counter

__all__ = ["STRIP_CHARS", "normalize_span", "span_tokens", "token_f1", "pair_score", "exact_key"]

STRIP_CHARS = ".,;:!?\"'-()[]{}"
_ARTICLE = re.compile(r"^(?:a|an|the)\s+")


def normalize_span(span: str) -> str:
    """The span as the measures compare it.

    Examples
    --------
    >>> normalize_span("  The Tumour growth.")
    'tumour growth'
    >>> normalize_span('"(an) effect"')
    'an) effect'
    """
    s = str(span).lower().strip()
    s = _ARTICLE.sub("", s, count=1)
    # Whitespace left behind by the stripped punctuation ("cancer .") is not
    # part of the span either.
    return s.strip(STRIP_CHARS).strip()


def span_tokens(span: str) -> list[str]:
    """Whitespace tokens of the normalised span.

    Examples
    --------
    >>> span_tokens("The risk of  stroke")
    ['risk', 'of', 'stroke']
    """
    return normalize_span(span).split()


def token_f1(a: str, b: str) -> float:
    """Token F1 of two spans with multiset overlap.

    Two spans that both normalise to nothing count as identical (1.0); one
    empty span against a non-empty one scores 0.

    Examples
    --------
    >>> token_f1("high insulin level", "higher insulin levels")
    0.3333333333333333
    >>> token_f1("the risk", "Risk.")
    1.0
    """
    ta, tb = span_tokens(a), span_tokens(b)
    if not ta and not tb:
        return 1.0
    if not ta or not tb:
        return 0.0
    overlap = sum((Counter(ta) & Counter(tb)).values())
    return 2.0 * overlap / (len(ta) + len(tb))


def pair_score(pred: tuple[str, str], gold: tuple[str, str]) -> float:
    """S(r1, r2): the mean of cause token F1 and effect token F1.

    Examples
    --------
    >>> pair_score(("smoking", "lung cancer"), ("smoking", "cancer"))
    0.8333333333333333
    """
    return 0.5 * token_f1(pred[0], gold[0]) + 0.5 * token_f1(pred[1], gold[1])


def exact_key(cause: str, effect: str) -> tuple[str, str]:
    """The (cause, effect) key of the exact-pair measure.

    Examples
    --------
    >>> exact_key("The virus.", "Fever") == exact_key("virus", "fever")
    True
    """
    return normalize_span(cause), normalize_span(effect)
