"""Parse model output: extraction tuples and detection verdicts.

Extraction answers come in many shapes.  The paper's own is
``Tuple 1: {Cause: …, Effect: …, Causality_Type: …, Sententiality: …}``;
models also write JSON (lists of objects or of ``[cause, effect, …]`` rows,
objects, fenced blocks), markdown bullets (``- **Cause:** …``), markdown
tables with Cause and Effect columns, positional tuples ``(cause, effect, Explicit, Intra)``,
arrows (``cause → effect``) and "No relations extracted".  Every parse says
which rule produced it, so a run can report how its answers were read.

A response with no parseable tuple is a *null* prediction: it predicts no
pair, so its row's gold pairs all count as missed.  A response that states
that there is no relation predicts no pair too, but is not null.

Reasoning strategies (CoT, ReAct, least-to-most) write candidate pairs in
their reasoning before the final list; when the answer holds a ``Final
Output:``, ``Final Answer:``, ``Final Extraction:`` or ``Final tuples:``
section that parses, only that section (after the last one) is read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Optional

from ..datasets.labels import parse_explicitness, parse_sententiality
from .._core.jsontext import json_values
from ..model import Explicitness, Sententiality, is_blank

__all__ = [
    "ExtractedPair",
    "ParsedTuples",
    "DetectionAnswer",
    "parse_tuples",
    "parse_detection",
    "pair_from_dict",
]


@dataclass(frozen=True)
class ExtractedPair:
    """One cause → effect pair with its (optional) labels.

    ``causality`` is the paper's causality type (explicit/implicit).
    """

    cause: str
    effect: str
    causality: Optional[Explicitness] = None
    sententiality: Optional[Sententiality] = None

    def to_dict(self) -> dict:
        return {"cause": self.cause, "effect": self.effect,
                "causality": self.causality.value if self.causality else None,
                "sententiality": self.sententiality.value if self.sententiality else None}


@dataclass(frozen=True)
class ParsedTuples:
    """What :func:`parse_tuples` read from one response.

    Attributes
    ----------
    pairs
        The pairs, in the order written, exact repeats removed.
    rule
        How they were read: ``braces``, ``key-value``, ``json``, ``table``,
        ``positional``, ``arrow`` (each prefixed ``final/`` when read from a
        final-answer section), ``none-stated`` or ``unparsed``.
    null
        True when no tuple could be read and the response did not state
        that there is no relation.
    issues
        Everything skipped on the way (incomplete tuples, repeats,
        unknown labels), one readable line each.
    """

    pairs: tuple[ExtractedPair, ...]
    rule: str
    null: bool
    issues: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict:
        return {"pairs": [p.to_dict() for p in self.pairs], "rule": self.rule, "null": self.null,
                "issues": list(self.issues)}


@dataclass(frozen=True)
class DetectionAnswer:
    """A detection verdict: ``label`` is ``"1"``, ``"0"`` or ``None`` (unparsed)."""

    label: Optional[str]
    rule: str


_THINK = re.compile(r"<think>.*?</think>", re.S | re.I)
_FINAL = re.compile(r"final\s*(?:output|answer|extraction|tuples?|list)\s*[:：]", re.I)
_KEY = re.compile(
    r"(?<![A-Za-z_])[\"'*]*\s*(cause|effect|causality[ _-]?type|sententiality)\s*[\"'*]*\s*[:=]\s*[*]*",
    re.I)
_NONE = re.compile(r"\bno\s+(?:valid\s+)?(?:causal\s+)?(?:relations?|relationships?|tuples?|pairs?)\b"
                   r"(?:\s+(?:were|was|are|is|can\s+be))?(?:\s+(?:extracted|found|identified|present|detected))?"
                   r"|^\s*\W*none\W*\s*$", re.I | re.M)
_TRIM = " \t\r\n,;\"'*`“”‘’[](){}<>"
_ARROW = re.compile(r"^\s*(?:[-*•]|\d+[.)])?\s*(?:tuple\s*\d+\s*:)?\s*(.+?)\s*(?:→|->|=>|⟶)\s*(.+?)\s*$", re.I)
_POSITIONAL = re.compile(r"[(\[]([^()\[\]{}\n]+)[)\]]")

_CAUSE_KEYS = ("cause", "causes", "cause_span", "cause span", "agent")
_EFFECT_KEYS = ("effect", "effects", "effect_span", "effect span", "outcome")
_TYPE_KEYS = ("causality_type", "causality type", "causality", "causal_type", "type", "causalitytype")
_SENT_KEYS = ("sententiality", "sentence_scope", "scope")


def _clean(value: str) -> str:
    v = value.strip()
    # A value ends at the tuple's closing brace or at the end of its line.
    for stop in ("}", "\n"):
        i = v.find(stop)
        if i >= 0:
            v = v[:i]
    v = v.strip()
    for arrow in ("→", "->", "=>"):
        if v.endswith(arrow):
            v = v[: -len(arrow)]
    return v.strip(_TRIM).strip()


def _label(kind: str, raw: Optional[str], issues: list[str], n: int):
    if raw is None or not str(raw).strip():
        return None
    s = _clean(str(raw)).strip(".").strip()
    val = parse_explicitness(s) if kind == "causality" else parse_sententiality(s)
    if val is None:
        # "Intra-sentential (B=0)" or "Explicit (M=1)": the first word decides.
        first = re.split(r"[\s(]", s, maxsplit=1)[0] if s else s
        val = parse_explicitness(first) if kind == "causality" else parse_sententiality(first)
    if val is None:
        issues.append(f"tuple {n}: unknown {kind} label {s!r}; kept as None")
    return val


def _make(cause, effect, causality, sententiality, issues: list[str], n: int,
          clean: bool = True) -> Optional[ExtractedPair]:
    tidy = _clean if clean else str.strip
    c = tidy(str(cause)) if cause is not None else ""
    e = tidy(str(effect)) if effect is not None else ""
    # A span of invisible characters (a zero-width space) is as empty as no span: it would be a blank node.
    c, e = ("" if is_blank(c) else c), ("" if is_blank(e) else e)
    if not c or not e:
        missing = " and ".join(w for w, v in (("cause", c), ("effect", e)) if not v)
        issues.append(f"tuple {n}: no {missing}; skipped")
        return None
    return ExtractedPair(c, e, _label("causality", causality, issues, n),
                         _label("sententiality", sententiality, issues, n))


def pair_from_dict(d: dict, issues: Optional[list[str]] = None, n: int = 1, *,
                   clean: bool = True) -> Optional[ExtractedPair]:
    """A pair from a dict with any casing of cause/effect/type/sententiality keys.

    Returns ``None`` (and notes why in ``issues``) when cause or effect is
    missing.  ``clean=False`` keeps the spans as written (only trimmed), for
    pairs that are data rather than model output.

    Examples
    --------
    >>> pair_from_dict({"Cause": "smoking", "Effect": "cancer", "Causality_Type": "Explicit"}).causality
    <Explicitness.EXPLICIT: 'explicit'>
    """
    issues = [] if issues is None else issues
    low = {re.sub(r"\s+", " ", str(k).strip().lower()): v for k, v in d.items()}

    def get(keys):
        for k in keys:
            if k in low and low[k] is not None:
                return low[k]
        return None

    return _make(get(_CAUSE_KEYS), get(_EFFECT_KEYS), get(_TYPE_KEYS), get(_SENT_KEYS), issues, n, clean)


def _json_objects(text: str) -> list[dict]:
    """Every JSON object holding a cause or effect, found anywhere in the text."""
    found: list[dict] = []
    for v in json_values(text):
        _collect(v.value, found)
    return found


def _json_rows(text: str) -> list[list[str]]:
    """Rows of a JSON list of lists such as ``[["smoking", "cancer", "Explicit", "Intra"], …]``.

    Only a list whose every element is a list of 2 to 4 strings counts, so a
    JSON list elsewhere in the answer is not read as pairs.
    """
    rows: list[list[str]] = []
    for v in json_values(text, "["):
        obj = v.value
        if (obj and all(isinstance(r, list) and 2 <= len(r) <= 4 and all(isinstance(x, str) for x in r)
                        for r in obj)):
            rows.extend(obj)
    return rows


def _table_cells(line: str) -> list[str]:
    return [c.strip().strip("*`").strip() for c in line.strip().strip("|").split("|")]


def _markdown_table(text: str, issues: list[str]) -> list[ExtractedPair]:
    """Rows of a markdown table whose header names a cause and an effect column."""
    out: list[ExtractedPair] = []
    lines = text.splitlines()
    k = 0
    while k < len(lines):
        line = lines[k].strip()
        k += 1
        if not line.startswith("|"):
            continue
        head = [re.sub(r"\s+", " ", c.lower()) for c in _table_cells(line)]
        col = {}
        for name, keys in (("cause", _CAUSE_KEYS), ("effect", _EFFECT_KEYS), ("type", _TYPE_KEYS),
                           ("sententiality", _SENT_KEYS)):
            hit = next((j for j, c in enumerate(head) if c in keys), None)
            if hit is not None:
                col[name] = hit
        if "cause" not in col or "effect" not in col:
            continue
        while k < len(lines) and lines[k].strip().startswith("|"):
            cells = _table_cells(lines[k])
            k += 1
            if all(re.fullmatch(r":?-{2,}:?", c) for c in cells if c):
                continue  # the header's separator row
            if len(cells) != len(head):
                issues.append(f"table row {cells!r}: {len(cells)} cells under a header of {len(head)}; skipped")
                continue
            get = {name: cells[j] for name, j in col.items()}
            p = _make(get["cause"], get["effect"], get.get("type"), get.get("sententiality"), issues, len(out) + 1)
            if p is not None:
                out.append(p)
    return out


def _collect(obj: Any, out: list[dict]) -> None:
    if isinstance(obj, dict):
        keys = {str(k).strip().lower() for k in obj}
        if keys & set(_CAUSE_KEYS) or keys & set(_EFFECT_KEYS):
            out.append(obj)
            return
        for v in obj.values():
            _collect(v, out)
    elif isinstance(obj, list):
        for v in obj:
            _collect(v, out)


def _by_keys(text: str, issues: list[str]) -> list[ExtractedPair]:
    marks = list(_KEY.finditer(text))
    tuples: list[dict] = []
    cur: dict = {}
    for k, m in enumerate(marks):
        end = marks[k + 1].start() if k + 1 < len(marks) else len(text)
        key = m.group(1).lower()
        key = "type" if key.startswith("causality") else key
        value = text[m.end():end]
        # A new tuple starts at a cause (or an effect) already filled in this one.
        if key in cur and key in ("cause", "effect") or (key == "cause" and "effect" in cur):
            tuples.append(cur)
            cur = {}
        if key in ("type", "sententiality") and not cur:
            continue  # a label with no pair to attach to (reasoning text)
        cur[key] = value
    if cur:
        tuples.append(cur)
    out = []
    for n, t in enumerate(tuples, start=1):
        p = _make(t.get("cause"), t.get("effect"), t.get("type"), t.get("sententiality"), issues, n)
        if p is not None:
            out.append(p)
    return out


def _positional(text: str, issues: list[str]) -> list[ExtractedPair]:
    out = []
    for m in _POSITIONAL.finditer(text):
        parts = [p.strip().strip(_TRIM) for p in m.group(1).split(",")]
        # Only a 4-field group whose last two fields are labels is a tuple;
        # any other parenthesis is prose.
        if len(parts) == 4 and parse_explicitness(parts[2]) and _label("sententiality", parts[3], [], 0):
            p = _make(parts[0], parts[1], parts[2], parts[3], issues, len(out) + 1)
            if p is not None:
                out.append(p)
    return out


def _arrows(text: str, issues: list[str]) -> list[ExtractedPair]:
    out = []
    for line in text.splitlines():
        m = _ARROW.match(line)
        if m:
            p = _make(m.group(1), m.group(2), None, None, issues, len(out) + 1)
            if p is not None:
                out.append(p)
    return out


def _parse_region(text: str, issues: list[str]) -> tuple[list[ExtractedPair], str]:
    objs = _json_objects(text)
    if objs:
        pairs = [p for n, o in enumerate(objs, start=1) if (p := pair_from_dict(o, issues, n)) is not None]
        if pairs:
            return pairs, "json"
    rows = _json_rows(text)
    if rows:
        pairs = [p for n, r in enumerate(rows, start=1)
                 if (p := _make(*(r + [None] * (4 - len(r))), issues, n)) is not None]
        if pairs:
            return pairs, "json"
    if _KEY.search(text):
        pairs = _by_keys(text, issues)
        if pairs:
            first = _KEY.search(text).start()
            return pairs, "braces" if "{" in text[max(0, first - 40):first] else "key-value"
    pairs = _markdown_table(text, issues)
    if pairs:
        return pairs, "table"
    pairs = _positional(text, issues)
    if pairs:
        return pairs, "positional"
    pairs = _arrows(text, issues)
    if pairs:
        return pairs, "arrow"
    return [], ""


def _keep_repeats(pairs: list[ExtractedPair], issues: list[str]) -> tuple[ExtractedPair, ...]:
    """Every listed pair, repeats included, each repeat noted once.

    The gold keeps a pair its annotators listed twice (PubMedCausal row s/n
    21640 lists two pairs twice each), and the authors' predictions keep
    theirs; Table 5 counts both.  Dropping repeats on the parsed side only
    would score an answer that copies the gold below 1, so both sides count
    every listed pair (docs/pubmedcausal.md, "Repeated pairs").
    """
    counts: dict = {}
    for p in pairs:
        counts[p] = counts.get(p, 0) + 1
    for p, n in counts.items():
        if n > 1:
            issues.append(f"pair {p.cause!r} → {p.effect!r} listed {n} times; each counted, as in the gold")
    return tuple(pairs)


def parse_tuples(response: Optional[str]) -> ParsedTuples:
    """Read extraction tuples from a model response.

    Examples
    --------
    >>> r = parse_tuples("Tuple 1: {Cause: Hypertension, Effect: heart failure, "
    ...                  "Causality_Type: Explicit, Sententiality: Intra-sentential}")
    >>> r.rule, r.pairs[0].cause, r.pairs[0].sententiality.value
    ('braces', 'Hypertension', 'intra')
    >>> parse_tuples("No relations extracted.").null
    False
    >>> parse_tuples("I cannot tell.").null
    True
    """
    issues: list[str] = []
    text = _THINK.sub(" ", response or "")
    finals = list(_FINAL.finditer(text))
    if finals:
        tail = text[finals[-1].end():]
        local: list[str] = []
        pairs, rule = _parse_region(tail, local)
        if pairs:
            issues.extend(local)
            return ParsedTuples(_keep_repeats(pairs, issues), "final/" + rule, False, tuple(issues))
        if _NONE.search(tail):
            return ParsedTuples((), "none-stated", False, tuple(issues))
    pairs, rule = _parse_region(text, issues)
    if pairs:
        return ParsedTuples(_keep_repeats(pairs, issues), rule, False, tuple(issues))
    if _NONE.search(text):
        return ParsedTuples((), "none-stated", False, tuple(issues))
    return ParsedTuples((), "unparsed", True, tuple(issues))


_VERDICT_MARK = re.compile(r"(?:final\s*(?:output|answer|verdict)|output|answer|verdict|label|classification)"
                           r"\s*[:：=]\s*[\"'*`\[(]*\s*([01])(?![\d.])", re.I)
_QUOTED = re.compile(r"[\"'“`]([01])[\"'”`]")
_DIGIT = re.compile(r"(?<![\w.])([01])(?!\w|\.\d)")
_COUNTER = re.compile(r"(?:step|thought|action|observation|sentence|example|tuple|axis|pair)\s*$", re.I)


def parse_detection(response: Optional[str]) -> DetectionAnswer:
    """Read a detection verdict (1 = causal, 0 = not) and say which rule read it.

    Rules, first that applies: ``exact`` (the answer is just 0 or 1, maybe
    quoted), ``final-marker`` (the last ``Final Output:``/``Answer:``-style
    marker followed by 0 or 1), ``quoted`` (the last quoted "0"/"1"),
    ``last-digit`` (the last standalone 0/1 that does not number a step),
    ``keyword`` (non-causal / causal), else ``unparsed`` with label None.

    Examples
    --------
    >>> parse_detection('"1"')
    DetectionAnswer(label='1', rule='exact')
    >>> parse_detection("Step 1: entities ... Final Output: 0")
    DetectionAnswer(label='0', rule='final-marker')
    """
    text = _THINK.sub(" ", response or "").strip()
    bare = text.strip(" \t\r\n\"'`*.“”[]()")
    if bare in ("0", "1"):
        return DetectionAnswer(bare, "exact")
    marks = list(_VERDICT_MARK.finditer(text))
    if marks:
        return DetectionAnswer(marks[-1].group(1), "final-marker")
    quoted = list(_QUOTED.finditer(text))
    if quoted:
        return DetectionAnswer(quoted[-1].group(1), "quoted")
    for m in reversed(list(_DIGIT.finditer(text))):
        if not _COUNTER.search(text[max(0, m.start() - 20):m.start()]):
            return DetectionAnswer(m.group(1), "last-digit")
    low = text.lower()
    if re.search(r"\b(?:non-?causal|not\s+causal|no\s+causal)\b", low):
        return DetectionAnswer("0", "keyword")
    if re.search(r"\bcausal\b", low):
        return DetectionAnswer("1", "keyword")
    return DetectionAnswer(None, "unparsed")
