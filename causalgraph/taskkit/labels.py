"""Answer parsing: model text → canonical label and the rule that found it.

Rules, tried in this order (the first that commits to exactly one label wins):

``tag``
    the last ``<Answer>…</Answer>`` (or an unclosed ``<Answer>`` at the end);
``answer_colon``
    the last ``Answer: X`` / ``Final answer: X`` / ``**Answer:** X``;
``mask``
    ``[MASK] = X`` or ``[MASK]: X`` or ``[MASK] is X``;
``exact``
    the whole answer is one label word (after removing case, quotes,
    markdown and punctuation);
``last_label``
    the last label word in the text that is not negated (``not yes``,
    ``isn't a start``, ``neither start nor end`` do not commit) and not part
    of a bracketed list of several labels (an echo of the answer set).

Inside ``tag``, ``answer_colon`` and ``mask`` a span that names several
labels (an echo of ``{start, middle, end, none}``) or only negated ones does
not commit, and the next rule is tried.  Words map to canonical labels
through the variant's answer words, so ``same``/``increase`` give
``positive`` and ``opposite``/``decrease`` give ``negative``; the canonical
names themselves are accepted too.  An answer no rule can read gives
``(None, "unparsed")``: it counts as wrong and is reported as a parse
failure, never silently dropped.
"""

from __future__ import annotations

import re
from typing import Mapping, Optional

__all__ = ["parse_labels", "RULES"]

RULES = ("tag", "answer_colon", "mask", "exact", "last_label", "unparsed", "empty")

_TAG = re.compile(r"<\s*answer\s*>(.*?)(?:<\s*/\s*answer\s*>|$)", re.IGNORECASE | re.DOTALL)
_COLON = re.compile(r"(?:final\s+answer|answer)\s*(?:is)?\s*[*_]*\s*[:=\-]\s*[*_]*\s*(.{0,80})",
                    re.IGNORECASE)
_MASK = re.compile(r"\[\s*mask\s*\]\s*(?:=|:|is|->|→)\s*(.{0,80})", re.IGNORECASE)
_SET = re.compile(r"[{\[(][^{}\[\]()]*[}\])]")
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
# Words that, shortly before a label, take the commitment back.
_NEGATORS = {"not", "no", "never", "neither", "nor", "isn't", "isnt", "aren't", "arent", "wasn't", "cannot",
             "can't", "doesn't", "don't", "without", "than"}
_NEG_WINDOW = 3
# Words after which an earlier negation no longer applies.
_BOUNDARIES = {"but", "however", "so", "therefore", "thus", "hence", "instead", "rather"}


def _vocab(words: Mapping[str, str]) -> dict[str, str]:
    """Lower-case word → canonical label; canonical names map to themselves unless a word claims them."""
    vocab: dict[str, str] = {}
    for canon, word in words.items():
        vocab[str(word).strip().lower()] = canon
    for canon in words:
        vocab.setdefault(str(canon).lower(), canon)
    return vocab


def _mentions(text: str, vocab: dict[str, str]) -> list[tuple[str, bool]]:
    """Label mentions in order: (canonical label, negated?)."""
    tokens = _WORD.findall(text.lower())
    out = []
    for i, tok in enumerate(tokens):
        if tok in vocab:
            negated = False
            # Look back a few words, but not past a contrast ("not X but Y": Y stands) or
            # another label ("not start, end": end stands).
            for b in reversed(tokens[max(0, i - _NEG_WINDOW):i]):
                if b in _BOUNDARIES or (b in vocab and b != "no"):
                    break
                # "no" is itself a label of yes/no tasks: there it is an answer, not a negation.
                if b in _NEGATORS and not (b == "no" and "no" in vocab):
                    negated = True
                    break
            out.append((vocab[tok], negated))
    return out


def _commit(span: str, vocab: dict[str, str]) -> Optional[str]:
    """The one label a span commits to, or None when it names none or several."""
    labels = {lab for lab, neg in _mentions(span, vocab) if not neg}
    if len(labels) == 1:
        return next(iter(labels))
    return None


def parse_labels(text: Optional[str], words: Mapping[str, str]) -> tuple[Optional[str], str]:
    """Parse ``text`` against the answer words of one variant.

    Parameters
    ----------
    text
        The model's answer.
    words
        Canonical label → the word the prompt asks for, e.g.
        ``{"positive": "same", "negative": "opposite"}``.

    Returns
    -------
    (label, rule)
        The canonical label (``None`` when unparseable) and the rule that
        matched (one of :data:`RULES`).

    Examples
    --------
    >>> parse_labels("Reasoning... <Answer>Opposite</Answer>", {"positive": "same", "negative": "opposite"})
    ('negative', 'tag')
    >>> parse_labels("It is not yes.", {"yes": "yes", "no": "no"})
    (None, 'unparsed')
    """
    if text is None or not str(text).strip():
        return None, "empty"
    text = str(text)
    vocab = _vocab(words)

    tags = _TAG.findall(text)
    for span in reversed(tags):
        lab = _commit(span, vocab)
        if lab is not None:
            return lab, "tag"
    for m in reversed(list(_COLON.finditer(text))):
        span = m.group(1).split("\n")[0]
        lab = _commit(span, vocab)
        if lab is not None:
            return lab, "answer_colon"
    for m in reversed(list(_MASK.finditer(text))):
        lab = _commit(m.group(1).split("\n")[0], vocab)
        if lab is not None:
            return lab, "mask"
    bare = re.sub(r"[\s\"'`*_.,;:!?()\[\]{}<>]+", " ", text).strip().lower()
    if bare in vocab:
        return vocab[bare], "exact"
    # An echo of the answer set ("{start, middle, end, none}") names labels without choosing one.
    def _blank_sets(m: re.Match) -> str:
        return " " if len({lab for lab, _ in _mentions(m.group(0), vocab)}) > 1 else m.group(0)

    mentions = _mentions(_SET.sub(_blank_sets, text), vocab)
    for lab, neg in reversed(mentions):
        if not neg:
            return lab, "last_label"
    return None, "unparsed"
