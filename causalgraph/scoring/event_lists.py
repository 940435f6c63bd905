"""Answers that are sets of events: reading the list a model wrote, matching it to the graph's events, scoring sets.

Reading (:func:`parse_event_list`, the task parser, which sees only the answer text) takes the
answer region — the last non-empty ``<Answer>…</Answer>``, else what follows the last opening
``<Answer>`` (an answer cut off by the token limit), else what follows the last ``Answer:``, else
the whole text — and splits it into fragments: the strings of a JSON list, else one fragment
per line (bullets and numbering removed).  ``none``, ``nothing``, ``no events`` … give the empty set.
The rule says which of these happened (``tag+lines``, ``answer+json``, ``text+none`` …).

Matching (:func:`match_events`, at scoring time, when the graph's events are known from the item)
normalises both sides (Unicode NFKC, case folded, white space collapsed, surrounding quotes,
brackets and final punctuation removed) and reads each fragment as a sequence of events separated
by commas, semicolons or `` and ``, choosing by dynamic programming the reading with the fewest
pieces that are not events (an event may hold those separators itself: ``land, ocean and air
temperature`` stays one event when the graph has it).  A piece that is no event is an *unknown*
answer: a false positive.

Scoring (:func:`set_scores`): micro precision/recall/F1 over all items (summed true positives,
false positives, false negatives), macro P/R/F1 (mean of the items' own, an empty answer to an
empty gold set scoring 1), and exact-set accuracy.  An unparsed answer or a failed request is an
empty prediction that is never exact.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Optional, Sequence

import numpy as np

from .scores import prf_counts, small_sample_factor

__all__ = ["parse_event_list", "normalize_event", "match_events", "EventMatch", "SetOutcome", "set_outcome",
           "record_outcome", "set_scores", "format_event_list", "unreadable_event", "NONE_WORDS"]

#: Answers that mean "no event".
NONE_WORDS = ("none", "nothing", "no event", "no events", "no such event", "no such events", "n/a", "na",
              "empty", "no one", "there are none", "there is none", "[]", "{}", "-")

_TAG = re.compile(r"<\s*answer\s*>(.*?)<\s*/\s*answer\s*>", re.IGNORECASE | re.DOTALL)
_OPEN_TAG = re.compile(r"<\s*answer\s*>", re.IGNORECASE)
_ANSWER_LINE = re.compile(r"(?:^|\n)\s*(?:\*\*)?(?:final\s+)?answer(?:\*\*)?\s*[:：]", re.IGNORECASE)
_FENCE = re.compile(r"^```[a-zA-Z]*\s*|\s*```$")
_MARKER = re.compile(r"^\s*(?:[-*•·]|\d{1,3}[.)]|\(\d{1,3}\)|[a-zA-Z][.)](?=\s))\s+")
_EDGE_PUNCT = "\"'`“”‘’«»()[]{}<>*_"
_SEPARATOR = re.compile(r"\s*[,;]\s*|\s+and\s+|\s*&\s*", re.IGNORECASE)


def normalize_event(text: str) -> str:
    """The form events and answers are compared in.

    Examples
    --------
    >>> normalize_event('  "Sea-Level  RISE". ')
    'sea-level rise'
    >>> normalize_event("- **ocean warming**")
    'ocean warming'
    """
    s = unicodedata.normalize("NFKC", str(text)).casefold()
    s = " ".join(s.split())
    prev = None
    while prev != s:
        prev = s
        s = _MARKER.sub("", s)
        s = s.strip().rstrip(".,;:!?").strip().strip(_EDGE_PUNCT).strip()
    return s


def _region(text: str) -> tuple[str, str]:
    tags = [m.group(1) for m in _TAG.finditer(text) if m.group(1).strip()]
    if tags:
        return tags[-1], "tag"
    # An answer cut off by the token limit opens its tag and never closes it: what follows the last
    # opening tag is the answer.
    opened = list(_OPEN_TAG.finditer(text))
    if opened and text[opened[-1].end():].strip():
        return text[opened[-1].end():], "open-tag"
    marks = list(_ANSWER_LINE.finditer(text))
    if marks:
        return text[marks[-1].end():], "answer"
    return text, "text"


def parse_event_list(text: Optional[str]) -> tuple[Optional[list[str]], str]:
    """The fragments of a list answer and the rule that read them (``None`` when nothing was answered).

    Examples
    --------
    >>> parse_event_list("<Answer>warming\\nsea level rise</Answer>")
    (['warming', 'sea level rise'], 'tag+lines')
    >>> parse_event_list('Answer: ["a", "b, c"]')
    (['a', 'b, c'], 'answer+json')
    >>> parse_event_list("<Answer>none</Answer>")
    ([], 'tag+none')
    >>> parse_event_list("   ")
    (None, 'empty')
    """
    if text is None or not str(text).strip():
        return None, "empty"
    region, where = _region(str(text))
    region = _FENCE.sub("", region.strip()).strip()
    if normalize_event(region) in NONE_WORDS:
        return [], f"{where}+none"
    if region.startswith("["):
        try:
            value = json.loads(region)
        except ValueError:
            value = None
        if isinstance(value, list) and all(isinstance(x, (str, int, float)) for x in value):
            items = [str(x) for x in value if normalize_event(str(x)) not in NONE_WORDS]
            return items, f"{where}+json"
    lines = [ln for ln in (ln.strip() for ln in region.split("\n")) if normalize_event(ln)]
    items = [ln for ln in lines if normalize_event(ln) not in NONE_WORDS]
    if not items:
        return ([], f"{where}+none") if lines else (None, f"{where}+empty")
    return items, f"{where}+{'lines' if len(lines) > 1 else 'line'}"


@dataclass(frozen=True)
class EventMatch:
    """Events read in an answer: the graph's events named (in answer order, once each) and the unknown pieces."""

    events: tuple[str, ...]
    unknown: tuple[str, ...]
    #: How many events matched exactly as written, and how many only once normalised.
    exact: int = 0
    normalised: int = 0


def match_events(fragments: Optional[Sequence[str]], events: Iterable[str]) -> EventMatch:
    """Map answer fragments to the given events (see the module docstring).

    Examples
    --------
    >>> m = match_events(["Warming, sea level rise", "dragons"], ["warming", "sea level rise", "ice"])
    >>> m.events, m.unknown
    (('warming', 'sea level rise'), ('dragons',))
    >>> match_events(["land, ocean and air"], ["land, ocean and air", "land"]).events
    ('land, ocean and air',)
    """
    known: dict[str, str] = {}
    # Two events equal once normalised: the first in graph order is the one meant.
    for e in events:
        known.setdefault(normalize_event(e), e)
    found: dict[str, None] = {}
    unknown: dict[str, None] = {}
    exact = normalised = 0
    for frag in fragments or ():
        frag = str(frag)
        for piece in _segment(frag, known):
            key = normalize_event(piece)
            if not key or key in NONE_WORDS:
                continue
            if key in known:
                ev = known[key]
                if ev not in found:
                    found[ev] = None
                    if piece.strip() == ev:
                        exact += 1
                    else:
                        normalised += 1
            else:
                unknown.setdefault(key, None)
    return EventMatch(tuple(found), tuple(unknown), exact, normalised)


def _segment(fragment: str, known: Mapping[str, str]) -> list[str]:
    """The reading of ``fragment`` as separator-joined pieces with the fewest unknown pieces, then the
    fewest pieces; a piece between two neighbouring separators is the smallest unknown unit."""
    if normalize_event(fragment) in known:
        return [fragment]
    cuts = [(m.start(), m.end()) for m in _SEPARATOR.finditer(fragment) if m.start() > 0 and m.end() < len(fragment)]
    if not cuts:
        return [fragment]
    # boundaries: starts of pieces and ends of pieces
    starts = [0] + [e for _, e in cuts]
    ends = [s for s, _ in cuts] + [len(fragment)]
    k = len(starts)
    # best[i] = (unknown pieces, pieces, reading) for fragment[starts[i]:]
    best: list[Optional[tuple[int, int, list[str]]]] = [None] * (k + 1)
    best[k] = (0, 0, [])
    for i in range(k - 1, -1, -1):
        cand = None
        for j in range(i, k):
            piece = fragment[starts[i]:ends[j]]
            key = normalize_event(piece)
            is_known = key in known
            if not is_known and j > i:
                continue  # an unknown piece is never longer than one unit
            rest = best[j + 1]
            cost = (rest[0] + (0 if is_known or not key else 1), rest[1] + 1)
            if cand is None or cost < cand[:2]:
                cand = (cost[0], cost[1], [piece] + rest[2])
        best[i] = cand
    return best[0][2]


@dataclass(frozen=True)
class SetOutcome:
    """One item's predicted set against its gold set."""

    tp: int
    fp: int
    fn: int
    exact: bool
    predicted: tuple[str, ...] = ()
    unknown: tuple[str, ...] = ()
    answered: bool = True

    @property
    def scores(self) -> tuple[float, float, float]:
        """The item's own precision, recall, F1; an empty answer to an empty gold set scores 1."""
        if self.answered and self.tp == self.fp == self.fn == 0:
            return 1.0, 1.0, 1.0
        return prf_counts(self.tp, self.fp, self.fn)


def set_outcome(fragments: Optional[Sequence[str]], gold: Sequence[str], events: Iterable[str]) -> SetOutcome:
    """Match an answer's fragments to ``events`` and compare with ``gold``; ``None`` is an unanswered item.

    Examples
    --------
    >>> o = set_outcome(["a", "x"], ["a", "b"], ["a", "b", "c"])
    >>> o.tp, o.fp, o.fn, o.exact
    (1, 1, 1, False)
    """
    gold_set = set(gold)
    if fragments is None:
        return SetOutcome(0, 0, len(gold_set), False, answered=False)
    m = match_events(fragments, events)
    pred = set(m.events)
    tp = len(pred & gold_set)
    fp = len(pred - gold_set) + len(m.unknown)
    fn = len(gold_set - pred)
    return SetOutcome(tp, fp, fn, fp == 0 and fn == 0, m.events, m.unknown)


def record_outcome(rec: Any) -> SetOutcome:
    """The outcome of one run record (``label``: fragments; ``gold``; ``meta["events"]``)."""
    gold = list(rec.gold or [])
    meta = rec.meta or {}
    label = None if rec.error else rec.label
    return set_outcome(label, gold, meta.get("events") or gold)


def _groups(records: Sequence[Any]) -> list[list[int]]:
    order: dict[Any, list[int]] = {}
    for i, r in enumerate(records):
        sid = r.meta.get("statement_id")
        order.setdefault(sid if sid is not None else ("item", r.item_id), []).append(i)
    return list(order.values())


def set_scores(records: Sequence[Any], *, n_boot: int = 1000, seed: int = 0) -> dict[str, Any]:
    """Micro and macro P/R/F1, exact-set accuracy and a 95 % bootstrap interval of micro F1 (statements resampled).

    The interval is the binary tasks' (bench.scoring): resamples where micro F1 is undefined left out,
    widened for few statements by :func:`causalgraph.scoring.scores.small_sample_factor`; ``None`` with fewer
    than 2 statements (a run's report further withholds it below 30 statements, as for every F1).

    Examples
    --------
    >>> from causalgraph.runlog import RunRecord
    >>> recs = [RunRecord("t", "v", f"i{n}", gold=g, label=a, meta={"events": ["a", "b"], "statement_id": f"s{n}"})
    ...         for n, (g, a) in enumerate([(["a"], ["a"]), (["b"], ["a", "zz"]), ([], [])], start=1)]
    >>> s = set_scores(recs)
    >>> s["tp"], s["fp"], s["fn"], round(s["f1"], 4), round(s["exact_match"], 4), s["macro"]["f1"]
    (1, 2, 1, 0.4, 0.6667, 0.6666666666666666)
    """
    outs = [record_outcome(r) for r in records]
    tp = sum(o.tp for o in outs)
    fp = sum(o.fp for o in outs)
    fn = sum(o.fn for o in outs)
    p, r, f = prf_counts(tp, fp, fn)
    per = [o.scores for o in outs]
    n = len(outs)
    macro = {k: (sum(x[i] for x in per) / n if n else 0.0) for i, k in enumerate(("precision", "recall", "f1"))}
    out: dict[str, Any] = {
        "precision": p, "recall": r, "f1": f, "tp": tp, "fp": fp, "fn": fn,
        "macro": macro,
        "exact_match": sum(o.exact for o in outs) / n if n else 0.0,
        "unknown_answers": sum(len(o.unknown) for o in outs),
        "empty_gold": sum(1 for rec in records if not rec.gold),
    }
    out["f1_ci95"] = _micro_f1_interval(records, outs, n_boot=n_boot, seed=seed,
                                        point=f if tp + fp + fn > 0 else None)
    return out


def _micro_f1_interval(records, outs, *, n_boot: int, seed: int, point: Optional[float]) -> Optional[list[float]]:
    # The statement bootstrap of the binary tasks' F1 (bench.scoring): a resample whose micro F1 is undefined
    # (no tp, fp or fn in it) is left out rather than scored 0, and the percentile interval is widened around
    # the point by scores.small_sample_factor (clipped to [0, 1]): the plain percentile interval undercovers
    # with few statements (docs/statistics.md). Fewer than 2 statements, or an undefined point: no interval.
    groups = _groups(records)
    if not outs or len(groups) < 2 or point is None or not math.isfinite(point) or n_boot <= 0:
        return None
    per = np.array([[sum(outs[i].tp for i in g), sum(outs[i].fp for i in g), sum(outs[i].fn for i in g)]
                    for g in groups], dtype=np.int64)
    rng = np.random.default_rng(seed)
    w = rng.multinomial(len(groups), np.full(len(groups), 1.0 / len(groups)), size=n_boot)
    tp, fp, fn = (w @ per).T.astype(float)
    den = 2 * tp + fp + fn
    f1 = 2 * tp[den > 0] / den[den > 0]
    if f1.size == 0:
        return None
    lo, hi = np.quantile(f1, [0.025, 0.975])
    c = small_sample_factor(len(groups), 0.95)
    return [float(max(0.0, point - c * (point - lo))), float(min(1.0, point + c * (hi - point)))]


_LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"  # what str.splitlines breaks at


def unreadable_event(name: str) -> Optional[str]:
    """Why an answer listing ``name`` (one event per line, between answer tags) cannot name it exactly, or ``None``.

    A set-valued answer is read line by line, ``none`` … is the empty set and the answer tags bound
    the region, so an event that holds a line break, is one of :data:`NONE_WORDS`, holds an answer
    tag or normalises to nothing would be split, dropped or read as another answer.  The last check
    reads the event back through :func:`parse_event_list` and :func:`match_events` themselves, so a
    shape no rule above names (a code fence, a JSON list) is caught too.

    Examples
    --------
    >>> unreadable_event("sea level rise") is None
    True
    >>> unreadable_event("None")
    "is one of the words that mean 'no event' (none, nothing, n/a …), so an answer naming it reads as the empty set"
    """
    text = str(name)
    brk = next((c for c in text if c in _LINE_BREAKS), None)
    if brk is not None:
        return (f"holds a line break ({brk!r}), so an answer listing events one per line splits it in two")
    key = normalize_event(text)
    if key in NONE_WORDS:
        return ("is one of the words that mean 'no event' (none, nothing, n/a …), so an answer naming it reads "
                "as the empty set")
    if _OPEN_TAG.search(text) or re.search(r"<\s*/\s*answer\s*>", text, re.IGNORECASE):
        return "holds an <Answer> tag, so an answer naming it ends (or starts) inside the event"
    if not key:
        return "holds nothing an answer can name once quotes, bullets and punctuation are removed"
    fragments, _ = parse_event_list(f"<Answer>{format_event_list([text])}</Answer>")
    if match_events(fragments, [text]).events != (text,):
        return f"is read back from an answer naming it as {fragments!r}, not as the event"
    return None


def format_event_list(events: Sequence[str]) -> str:
    """How an answer lists events: one per line, ``none`` for the empty set (what the oracle answers).

    Examples
    --------
    >>> format_event_list(["a", "b"]), format_event_list([])
    ('a\\nb', 'none')
    """
    return "\n".join(events) if events else "none"
