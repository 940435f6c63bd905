"""Reading a model's annotation: tolerant JSON parsing with rule provenance, then a Statement.

Rules, tried in this order (the first that yields an annotation wins):

``json``
    the whole answer is a JSON object with ``relations`` (or ``causal``);
``fenced``
    a JSON object inside a Markdown code fence (```` ```json … ``` ````);
``embedded``
    the first JSON object in the text (as :func:`causalgraph._core.jsontext.json_values`
    finds them) that has ``relations`` or ``causal`` (prose before or after
    is ignored);
``repaired``
    the same, in the balanced ``{…}`` spans of the text, after repairs
    small models need: trailing commas removed, Python literals
    (``True``/``False``/``None``, single quotes) read with
    :func:`ast.literal_eval`, an answer cut off by the token limit closed
    after its last complete relation;
``list``
    a bare JSON list of relation objects (``causal`` is then true when it
    is not empty);
``arrows``
    lines ``cause -> effect`` (``→``, ``=>``, ``causes``/``leads to`` are
    not guessed): relations with cause and effect only.

An answer no rule reads gives rule ``unparsed`` (``empty`` for no text):
the statement is counted as a parse failure, never silently taken as "no
causality".  Every problem met while converting fields (a missing
no-quantifier form, an unknown label, a relation without cause) is listed
in ``issues``; a relation without cause or effect is left out *and*
reported.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

from ..errors import ParseError
from .._core.jsontext import balanced_spans, json_values
from ..model import Correlation, Explicitness, Polarity, Relation, Statement, is_blank
from .schema import RELATION_FIELDS

__all__ = ["RULES", "ParsedAnnotation", "parse_annotation", "parsed_from_dict", "to_relations", "to_statement", "relation_to_answer",
           "statement_to_answer"]

RULES = ("json", "fenced", "embedded", "repaired", "list", "arrows", "unparsed", "empty")

_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)
_ARROW = re.compile(r"^\s*(?:[-*\d.)\s]+)?(.+?)\s*(?:->|→|=>)\s*(.+?)\s*$")
_NULLS = {"", "/", "-", "–", "—", "none", "null", "n/a", "na"}

# Accepted spellings of the labels (lower case) → canonical label.
_SIGNS = {"positive": "positive", "pos": "positive", "+": "positive", "positive_correlation": "positive",
          "increase-increase": "positive", "same": "positive", "causes": "positive",
          "negative": "negative", "neg": "negative", "negative_correlation": "negative",
          "increase-decrease": "negative", "opposite": "negative", "prevents": "negative"}
_EXPLICIT = {"e": "explicit", "explicit": "explicit", "i": "implicit", "implicit": "implicit"}
_BOOLS = {"yes": True, "true": True, "y": True, "1": True, "no": False, "false": False, "n": False, "0": False}

# Keys a model may use instead of ours (lower case, spaces and dashes as underscores).
_ALIASES = {
    "trigger": "target", "cause_noun_phrase": "cause_np", "effect_noun_phrase": "effect_np",
    "cause": "cause_np", "effect": "effect_np", "cause_no_quantifiers": "cause_no_quantifier",
    "effect_no_quantifiers": "effect_no_quantifier", "cause_belongs": "cause_belongs_to",
    "effect_belongs": "effect_belongs_to", "relation": "relation_type", "type": "relation_type",
    "polarity": "relation_type", "nested_causality": "nested", "explicit": "explicitness",
}


@dataclass(frozen=True)
class ParsedAnnotation:
    """A model's answer read into the annotation format.

    Attributes
    ----------
    causal
        Whether the answer reports causality (``None`` when unparsed).
    relations
        Relation dicts in the answer format (see :mod:`.schema`), in answer order.
    abbreviations
        The answer's abbreviation list, or ``None``.
    rule
        The rule that read the answer (one of :data:`RULES`).
    issues
        Problems met while reading, in order (empty for a clean answer).
    """

    causal: Optional[bool]
    relations: tuple[dict, ...]
    abbreviations: Optional[str]
    rule: str
    issues: tuple[str, ...] = field(default=())

    @property
    def failed(self) -> bool:
        """True when no rule could read the answer."""
        return self.rule in ("unparsed", "empty")


def _norm_key(k: Any) -> str:
    key = re.sub(r"[\s\-–]+", "_", str(k).strip().lower())
    return _ALIASES.get(key, key)


def _looks_like_annotation(obj: Any) -> bool:
    return isinstance(obj, dict) and any(_norm_key(k) in ("relations", "causal", "causation") for k in obj)


def _loads(s: str) -> Any:
    try:
        return json.loads(s)
    except (json.JSONDecodeError, ValueError):
        return None


def _lenient(s: str) -> Any:
    """JSON, or failing that a Python literal (``True``, ``None``, single quotes)."""
    obj = _loads(s)
    if obj is not None:
        return obj
    pyish = re.sub(r"\btrue\b", "True", re.sub(r"\bfalse\b", "False", re.sub(r"\bnull\b", "None", s)))
    try:
        obj = ast.literal_eval(pyish)
    except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
        return None
    return obj if isinstance(obj, (dict, list)) else None


def _repair(s: str) -> Any:
    """Parse JSON-ish text: trailing commas, Python literals, a cut-off tail."""
    fixed = re.sub(r",\s*([}\]])", r"\1", s)
    obj = _lenient(fixed)
    if obj is not None:
        return obj
    return _close_truncated(fixed)


def _close_truncated(s: str) -> Any:
    """An answer cut off inside its relation list: keep the relations that are complete."""
    m = re.search(r'["\']relations["\']\s*:\s*\[', s)
    if not m:
        return None
    head, body = s[:m.end()], s[m.end():]
    complete = balanced_spans(body)
    if not complete:
        return None
    # Keep everything before the relations plus the complete relation objects.
    obj = _lenient(head + ", ".join(complete) + "]}")
    if isinstance(obj, dict):
        obj["_truncated"] = True
    return obj


def _pick(objs: list[Any]) -> Optional[dict]:
    for o in objs:
        if _looks_like_annotation(o):
            return o
    return None


def _find(text: str) -> tuple[Any, str]:
    stripped = text.strip()
    whole = _loads(stripped)
    if _looks_like_annotation(whole):
        return whole, "json"
    for block in _FENCE.findall(text):
        obj = _loads(block.strip())
        if _looks_like_annotation(obj):
            return obj, "fenced"
    obj = _pick([v.value for v in json_values(text, "{")])
    if obj is not None:
        return obj, "embedded"
    repaired = [_repair(b.strip()) for b in _FENCE.findall(text)] + [_repair(c) for c in balanced_spans(text)]
    # An unbalanced object (cut off by the token limit) starts at the first '{'.
    if "{" in text:
        repaired.append(_repair(text[text.index("{"):]))
    obj = _pick(repaired)
    if obj is not None:
        return obj, "repaired"
    for cand in [whole] + [v.value for v in json_values(text, "[")]:
        if isinstance(cand, list) and cand and all(isinstance(x, dict) for x in cand):
            return {"relations": cand}, "list"
    arrows = []
    for line in text.splitlines():
        m = _ARROW.match(line)
        if m and not line.lstrip().startswith(("{", "[", '"')):
            arrows.append({"cause_np": m.group(1).strip(" \"'`*"), "effect_np": m.group(2).strip(" \"'`*.,;")})
    if arrows:
        return {"relations": arrows}, "arrows"
    return None, "unparsed"


def _text(v: Any) -> Optional[str]:
    if v is None or isinstance(v, bool):
        return None
    if isinstance(v, (list, tuple)):
        v = "; ".join(str(x) for x in v if x is not None)
    s = " ".join(str(v).split())
    # Invisible characters only (a zero-width space) read as no value, like an empty string.
    return None if s.lower() in _NULLS or is_blank(s) else s


def _label(value: Any, table: dict[str, Any], field_name: str, n: int, issues: list[str]) -> Any:
    if value is None:
        return None
    if isinstance(value, bool) and table is _BOOLS:
        return value
    key = str(value).strip().lower()
    if key in _NULLS:
        return None
    if key in table:
        return table[key]
    expected = sorted({str(k) for k in table if k.isalpha()})
    issues.append(f"relation {n}: {field_name}={value!r} is not a label; expected one of {', '.join(expected)}; left empty")
    return None


def _relation(raw: Any, n: int, issues: list[str]) -> Optional[dict]:
    if not isinstance(raw, dict):
        issues.append(f"relation {n}: expected a JSON object, found {type(raw).__name__} {str(raw)[:60]!r}; left out")
        return None
    d = {_norm_key(k): v for k, v in raw.items()}
    out: dict[str, Any] = {}
    for side in ("cause", "effect"):
        np_ = _text(d.get(f"{side}_np"))
        nq = _text(d.get(f"{side}_no_quantifier"))
        if np_ is None and nq is not None:
            np_ = nq
            issues.append(f"relation {n}: {side}_np missing; used {side}_no_quantifier {nq!r}")
        if nq is None and np_ is not None:
            nq = np_
            if "cause_np" in d or "effect_np" in d:
                issues.append(f"relation {n}: {side}_no_quantifier missing; used {side}_np {np_!r}")
        out[f"{side}_np"], out[f"{side}_no_quantifier"] = np_, nq
        out[f"{side}_context"] = _text(d.get(f"{side}_context"))
        out[f"{side}_belongs_to"] = _text(d.get(f"{side}_belongs_to"))
    if out["cause_no_quantifier"] is None or out["effect_no_quantifier"] is None:
        missing = "cause" if out["cause_no_quantifier"] is None else "effect"
        issues.append(f"relation {n}: no {missing}; left out")
        return None
    out["target"] = _text(d.get("target"))
    out["explicitness"] = _label(d.get("explicitness"), _EXPLICIT, "explicitness", n, issues)
    out["combined"] = _label(d.get("combined"), _BOOLS, "combined", n, issues)
    out["nested"] = _label(d.get("nested"), _BOOLS, "nested", n, issues)
    out["relation_type"] = _label(d.get("relation_type"), _SIGNS, "relation_type", n, issues)
    out["correlation"] = _label(d.get("correlation"), _SIGNS, "correlation", n, issues)
    unknown = [k for k in d if k not in RELATION_FIELDS and k not in ("cause_np", "effect_np")]
    if unknown:
        issues.append(f"relation {n}: ignored unknown field(s) {', '.join(sorted(unknown))}")
    return {k: out.get(k) for k in RELATION_FIELDS}


def parse_annotation(response: Optional[str]) -> ParsedAnnotation:
    """Read a model's answer into relation dicts, saying which rule read it.

    Parameters
    ----------
    response
        The model's raw text.

    Returns
    -------
    ParsedAnnotation
        ``rule`` is ``unparsed`` (or ``empty``) when nothing could be read;
        ``issues`` lists every field that had to be fixed or left out.

    Examples
    --------
    >>> p = parse_annotation('Sure! {"causal": true, "relations": [{"cause_np": "warming", "effect_np": "sea level rise", '
    ...                      '"relation_type": "positive", "correlation": "positive", "explicitness": "I"},]}')
    >>> p.rule, p.relations[0]["cause_no_quantifier"], p.relations[0]["explicitness"]
    ('repaired', 'warming', 'implicit')
    """
    if response is None or not str(response).strip():
        return ParsedAnnotation(None, (), None, "empty", ("the model returned no text",))
    obj, rule = _find(str(response))
    if obj is None:
        snippet = " ".join(str(response).split())[:80]
        return ParsedAnnotation(None, (), None, "unparsed", (f"no annotation found in the answer {snippet!r}",))
    return parsed_from_dict(obj, rule)


def parsed_from_dict(obj: dict, rule: str = "json", issues: Sequence[str] = ()) -> ParsedAnnotation:
    """Normalise an answer already read as a dict (a stored run label, an exemplar) like a parsed answer.

    Examples
    --------
    >>> parsed_from_dict({"relations": [{"cause_np": "a", "effect_np": "b", "explicitness": "E"}]}, "stored").relations[0]["explicitness"]
    'explicit'
    """
    issues = list(issues)
    d = {_norm_key(k): v for k, v in obj.items()}
    if d.pop("_truncated", False):
        issues.append("the answer was cut off; kept the relations written completely before the cut")
    raw_rel = d.get("relations")
    if raw_rel is None:
        raw_rel = []
    if not isinstance(raw_rel, list):
        issues.append(f"relations: expected a list, found {type(raw_rel).__name__}; read as one relation")
        raw_rel = [raw_rel]
    relations = [rel for n, raw in enumerate(raw_rel, start=1) if (rel := _relation(raw, n, issues)) is not None]
    causal_raw = d.get("causal", d.get("causation"))
    causal = _label(causal_raw, _BOOLS, "causal", 0, issues) if causal_raw is not None else None
    if causal is None:
        causal = bool(relations)
    elif causal and not relations:
        issues.append("causal is true but no relation could be read")
    elif not causal and relations:
        issues.append(f"causal is false but {len(relations)} relation(s) were given; kept them and set causal true")
        causal = True
    return ParsedAnnotation(causal, tuple(relations), _text(d.get("abbreviations")), rule, tuple(issues))


def to_relations(parsed: ParsedAnnotation, *, confidence: Optional[str] = None) -> tuple[Relation, ...]:
    """Relations (model records) from a parsed answer, in answer order.

    The no-quantifier forms become ``cause``/``effect`` (the events graphs
    are built on), as in the corpus loader.
    """
    out = []
    for r in parsed.relations:
        out.append(Relation(
            cause=r["cause_no_quantifier"], effect=r["effect_no_quantifier"],
            cause_np=r["cause_np"], effect_np=r["effect_np"],
            cause_context=r["cause_context"], effect_context=r["effect_context"],
            cause_belongs_to=r["cause_belongs_to"], effect_belongs_to=r["effect_belongs_to"],
            trigger=r["target"], combined=r["combined"], nested=r["nested"],
            explicitness=Explicitness(r["explicitness"]) if r["explicitness"] else None,
            polarity=Polarity(r["relation_type"]) if r["relation_type"] else None,
            correlation=Correlation(r["correlation"]) if r["correlation"] else None,
            confidence=confidence, abbreviations=parsed.abbreviations,
        ))
    return tuple(out)


def to_statement(parsed: ParsedAnnotation, text: str, *, id: str = "text-1", strict: bool = True,
                 meta: Optional[dict] = None) -> Statement:
    """A :class:`~causalgraph.model.Statement` from a parsed answer.

    ``meta["annotation"]`` records the parse rule and issues.  With
    ``strict`` (default) an unreadable answer raises :class:`ParseError`;
    otherwise it gives a non-causal statement whose meta says it failed.
    """
    if parsed.failed and strict:
        raise ParseError(f"annotation of {id}: {'; '.join(parsed.issues)} (rule {parsed.rule})")
    info = {"rule": parsed.rule, "issues": list(parsed.issues), "failed": parsed.failed}
    m = dict(meta or {})
    m["annotation"] = {**m.get("annotation", {}), **info}
    relations = to_relations(parsed)
    return Statement(id=id, text=text, causal=bool(parsed.causal) and bool(relations), relations=relations, meta=m)


def relation_to_answer(r: Relation) -> dict:
    """A model relation written in the answer format (what a perfect annotator answers)."""
    return {
        "target": r.trigger, "explicitness": {"explicit": "E", "implicit": "I"}.get(getattr(r.explicitness, "value", None)),
        "cause_np": r.cause_np or r.cause, "cause_context": r.cause_context, "cause_no_quantifier": r.cause,
        "cause_belongs_to": r.cause_belongs_to,
        "effect_np": r.effect_np or r.effect, "effect_context": r.effect_context, "effect_no_quantifier": r.effect,
        "effect_belongs_to": r.effect_belongs_to,
        "combined": r.combined, "nested": r.nested,
        "relation_type": getattr(r.polarity, "value", None), "correlation": getattr(r.correlation, "value", None),
    }


def statement_to_answer(statement: Statement) -> dict:
    """A gold statement as the answer a perfect annotator gives (used as the gold of annotation items).

    Examples
    --------
    >>> from causalgraph.model import Statement, Relation
    >>> statement_to_answer(Statement("s", "Warming melts ice.", True, (Relation("warming", "ice"),)))["relations"][0]["cause_np"]
    'warming'
    """
    rels = statement.relations
    abbrev = next((r.abbreviations for r in rels if r.abbreviations), None)
    return {"causal": bool(statement.causal), "abbreviations": abbrev,
            "relations": [relation_to_answer(r) for r in rels]}
