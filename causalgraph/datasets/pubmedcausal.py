"""Load PubMedCausal: the prepared extraction split or the raw hub format.

Prepared format (the authors' ``extraction_combined`` split): a JSON list of
``{"s/n", "sentence", "pairs": [{"cause", "effect", "sententiality",
"causality"}], "num_pairs"}``.

Raw hub format (``30k_train.json``/``30k_test.json``): flat records with
``Sentence``, ``Cause 1..16``, ``Effect 1..16``, ``Sententiality N`` and
``Causality N``; a record without pairs is a non-causal row.  A JSON list or
JSON Lines are both accepted.

Every field must have the type the format gives it (``sentence`` and the spans
text, ``s/n`` and ``num_pairs`` integers, labels text or null): a record with a
field of another type is refused, naming record, field, the value found and the
type expected.  Labels are normalised (``Explcit`` → explicit, ``intra`` →
intra …); an empty label stays ``None`` and is listed; an unknown one refuses
the file, as in the ClimateCause loader (``strict=False`` lists every problem
and keeps it as ``None``).
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Optional

from .._core.wording import describe_found
from ..errors import SchemaError
from ..model import Corpus, Problem, Relation, Statement, unprintable_char
from . import labels as L
from .fetch import resolve_file, sha256_file

__all__ = ["load_pubmedcausal"]

_RAW_CAUSE = re.compile(r"^cause[\s_]*(\d+)$", re.I)


def _read_json(p: Path) -> list:
    try:
        text = p.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise SchemaError(f"{p}: cannot read as UTF-8 text ({exc})") from None
    if not text.strip():
        raise SchemaError(f"{p}: the file is empty")
    try:
        if p.suffix.lower() == ".jsonl":
            # A .jsonl file is JSON Lines even when its one line parses as a whole ([1, 2, 3]).
            raise json.JSONDecodeError("JSON Lines", text, 0)
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        # JSON Lines: one object per line, and lines end at \n only; str.splitlines would also
        # break inside a string holding a raw \u2028, \u2029 or \x85, which JSON allows.
        data = []
        for n, line in enumerate(text.split("\n"), start=1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as line_exc:
                if p.suffix.lower() == ".jsonl":
                    raise SchemaError(f"{p}: line {n}: not JSON ({line_exc.msg} at column {line_exc.colno}); "
                                      "expected one JSON object per line") from None
                raise SchemaError(f"{p}: not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}) "
                                  f"and not JSON Lines (line {n})") from None
            if not isinstance(rec, dict):
                # each line is one record: a list on a line is not a line of records
                raise SchemaError(f"{p}: line {n}: found {_describe(rec)}; expected an object (JSON Lines: one "
                                  "record per line)")
            data.append(rec)
    if isinstance(data, dict):
        for key in ("data", "rows", "predictions"):
            if isinstance(data.get(key), list):
                data = data[key]
                break
    if not isinstance(data, list):
        raise SchemaError(f"{p}: expected a JSON list of records, found {type(data).__name__}")
    return data


def _field(rec: dict, *names: str):
    lower = {str(k).strip().lower(): k for k in rec}
    for n in names:
        if n in lower:
            return rec[lower[n]]
    return None


class _Labels:
    """Counts how many labels needed normalising and how many stayed unknown."""

    def __init__(self, fname: str):
        self.fname = fname
        self.normalised: dict[str, int] = {}
        self.unknown: dict[str, int] = {}
        self.empty = 0
        self.problems: list[Problem] = []  # empty labels: kept as None, listed, never refused
        self.unknown_problems: list[Problem] = []  # unknown labels: kept as None when lenient, refused when strict

    def parse(self, raw, parser, canonical_spellings, record: int, column: str, kind: str):
        if L.is_empty(raw):
            self.empty += 1
            self.problems.append(Problem(self.fname, record, column, raw, L.ACCEPTED[kind],
                                         f"{self.fname}: record {record}, field {column!r}: empty label; "
                                         f"kept as None (expected {L.ACCEPTED[kind]})"))
            return None
        val = parser(raw)
        s = str(raw).strip()
        if val is None:
            self.unknown[s] = self.unknown.get(s, 0) + 1
            self.unknown_problems.append(Problem(self.fname, record, column, raw, L.ACCEPTED[kind],
                                         f"{self.fname}: record {record}, field {column!r}: unknown label "
                                         f"{s!r}; expected {L.ACCEPTED[kind]}"))
        elif s not in canonical_spellings:
            key = f"{s} -> {val.value}"
            self.normalised[key] = self.normalised.get(key, 0) + 1
        return val


# How a found value is shown in a message (shared with the relations and graph-file loaders).
_describe = describe_found


class _Record:
    """Reads one record's fields, checking each against the type the format gives it.

    Every wrong field is a problem, not only the first, so a lenient load lists them all; a
    record with any such problem is left out of the corpus.
    """

    def __init__(self, fname: str, recno: int):
        self.fname, self.recno = fname, recno
        self.problems: list[Problem] = []

    def add(self, field: str, value, expected: str, found: Optional[str] = None, pair: Optional[int] = None) -> None:
        where = f"record {self.recno}, field {field!r}" + (f" (pair {pair})" if pair is not None else "")
        self.problems.append(Problem(self.fname, self.recno, field, value, expected,
                                     f"{self.fname}: {where}: found {found or _describe(value)}; expected {expected}"))

    def text(self, field: str, value, expected: str, *, optional: bool = False) -> Optional[str]:
        """A text field: a JSON string (``optional``: or null / absent)."""
        if value is None and optional:
            return None
        if not isinstance(value, str):
            self.add(field, value, expected)
            return None
        return value

    def integer(self, field: str, value, expected: str) -> Optional[int]:
        # bool is an int in Python, and 3.0 or NaN are JSON numbers that are no integers.
        if type(value) is not int:
            self.add(field, value, expected)
            return None
        return value


def _pair_labels(rec: _Record, prefix: str, j: int, sent, caus):
    """The two label fields of a pair: text, or null / absent (an empty label, kept as None)."""
    col_s = f"{prefix}sententiality" if prefix else f"Sententiality {j}"
    col_c = f"{prefix}causality" if prefix else f"Causality {j}"
    ok = True
    for col, value in ((col_s, sent), (col_c, caus)):
        if value is not None and not isinstance(value, str):
            rec.add(col, value, "a label as text (or null)", pair=j)
            ok = False
    return ok, col_s, col_c


def load_pubmedcausal(path: Optional[str | Path] = None, split: str = "test", *, strict: bool = True):
    """Load PubMedCausal rows into a :class:`~causalgraph.model.Corpus`.

    Parameters
    ----------
    path
        A JSON file in the prepared or the raw format, or a folder holding
        ``extraction_<split>.json``.  ``None`` resolves the dataset name
        ``pubmedcausal`` for ``split``.
    split
        ``"train"`` or ``"test"`` (used when ``path`` is None or a folder).
    strict
        With ``True`` (default) the first problem raises
        :class:`~causalgraph.errors.SchemaError` (saying how many more follow):
        a field of the wrong type (``"sentence": ["a"]``, ``"s/n": 3.7``,
        ``true`` or ``NaN``), an unknown label, an empty span, a duplicate
        s/n.  An *empty* label is not refused: the release holds four (kept as
        None and listed in ``corpus.problems``).  With ``False`` the call
        returns ``(corpus, problems)``: every problem is listed, and a record
        that cannot become a statement is left out *and* listed.

    Returns
    -------
    Corpus
        One statement per row, id ``pmc-<s/n>``; ``corpus.report`` holds
        ``rows``, ``pairs``, ``labels_normalised`` (total and per spelling),
        ``labels_unknown`` and ``labels_empty``; ``corpus.problems`` lists
        every unknown or empty label.  ``(corpus, problems)`` with
        ``strict=False``.

    Examples
    --------
    >>> corpus = load_pubmedcausal(split="test")  # doctest: +SKIP
    >>> len(corpus), len(corpus.relations)  # doctest: +SKIP
    (1973, 3199)
    """
    if split not in ("train", "test"):
        raise SchemaError(f"unknown PubMedCausal split {split!r}; expected 'train' or 'test'")
    if path is None:
        p = resolve_file("pubmedcausal", split)
    else:
        p = Path(path)
        if p.is_dir():
            cand = [p / f"extraction_{split}.json", p / f"{split}.json", p / f"30k_{split}.json"]
            hit = next((c for c in cand if c.is_file()), None)
            if hit is None:
                raise SchemaError(f"{p}: folder holds none of {', '.join(c.name for c in cand)}")
            p = hit
        if not p.is_file():
            raise SchemaError(f"{p}: not a regular file" if p.exists() else f"{p}: no such file")
    fname = str(p)
    data = _read_json(p)
    if not data:
        raise SchemaError(f"{fname}: the file holds no records")
    labels = _Labels(fname)
    # Problems that refuse a record (or, strict, the file); empty labels are listed apart (kept).
    refused: list[Problem] = []
    statements: list[Statement] = []
    seen_ids: dict[str, int] = {}
    fmt = None
    n_pairs = 0
    for recno, raw_rec in enumerate(data, start=1):
        if not isinstance(raw_rec, dict):
            refused.append(Problem(fname, recno, None, raw_rec, "an object",
                                   f"{fname}: record {recno}: expected an object, found {_describe(raw_rec)}"))
            continue
        st, n = _statement(raw_rec, recno, fname, labels, seen_ids, fmt)
        fmt = fmt or st[0]
        if st[1]:
            refused.extend(st[1])
            continue
        statements.append(st[2])
        n_pairs += n
    n_refused = len({q.row for q in refused})
    # Unknown labels refuse the file when strict, like the ClimateCause loader's; lenient, each stays None.
    fatal = sorted(refused + labels.unknown_problems, key=lambda q: q.row or 0)
    if strict and fatal:
        extra = len(fatal) - 1
        more = (f" (and {extra} more problem{'s' if extra > 1 else ''}; in Python, "
                f"causalgraph.datasets.load_pubmedcausal(path, strict=False) lists every one)") if extra else ""
        raise SchemaError(fatal[0].message + more)
    # Problems in file order, as a person reads the file.
    problems = sorted(fatal + labels.problems, key=lambda q: q.row or 0)
    report = {
        "format": fmt,
        "split": split,
        "rows": len(statements),
        "causal_rows": sum(1 for s in statements if s.causal),
        "pairs": n_pairs,
        "labels_normalised": sum(labels.normalised.values()),
        "labels_normalised_by_spelling": dict(sorted(labels.normalised.items())),
        "labels_unknown": sum(labels.unknown.values()),
        "labels_unknown_by_spelling": dict(sorted(labels.unknown.items())),
        "labels_empty": labels.empty,
    }
    if not strict:
        report["records_refused"] = n_refused
    corpus = Corpus(name="pubmedcausal", statements=statements, source=fname, sha256=sha256_file(p),
                    problems=problems, report=report)
    if strict:
        return corpus
    return corpus, list(problems)


def _statement(raw: dict, recno: int, fname: str, labels: _Labels, seen_ids: dict, fmt):
    """One record as ``((format, problems, statement), pairs)``: the statement is None when refused."""
    rec = _Record(fname, recno)
    if "pairs" in raw or "sentence" in raw:
        fmt = "prepared"
        sentence = (rec.text("sentence", raw["sentence"], "the row's text") if "sentence" in raw
                    else rec.add("sentence", None, "the row's text", found="no 'sentence' field"))
        raw_pairs = raw.get("pairs")
        pairs = []
        if raw_pairs is not None and not isinstance(raw_pairs, list):
            rec.add("pairs", raw_pairs, "a list of pairs")
            raw_pairs = None
        for j, pr in enumerate(raw_pairs or [], start=1):
            if not isinstance(pr, dict):
                rec.add(f"pairs[{j}]", pr, "an object with cause and effect")
                continue
            pairs.append((j, pr.get("cause"), pr.get("effect"), pr.get("sententiality"), pr.get("causality"),
                          f"pairs[{j}]."))
        if "num_pairs" in raw and raw["num_pairs"] is not None:
            declared = rec.integer("num_pairs", raw["num_pairs"], "an integer, the number of entries in 'pairs'")
            n_listed = len(raw_pairs) if isinstance(raw_pairs, list) else None
            if declared is not None and n_listed is not None and declared != n_listed:
                # A count that disagrees means pairs were lost or added on the way.
                rec.add("num_pairs", declared, f"{n_listed}, the number of entries in 'pairs'",
                        found=repr(declared))
        sn_field = "s/n" if "s/n" in raw else None
        sn_raw = raw.get("s/n")
        sn_expected = "an integer (or no s/n: the record number is used)"
    else:
        fmt = "raw"
        keys = {str(k).strip().lower(): k for k in raw}
        text_key = next((keys[n] for n in ("sentence", "text") if n in keys), None)
        sentence = (rec.text(str(text_key), raw[text_key], "the row's text") if text_key is not None
                    else rec.add("Sentence", None, "the row's text", found="no 'Sentence' field"))
        pairs = []
        idx = sorted({int(m.group(1)) for k in raw for m in [_RAW_CAUSE.match(str(k).strip())] if m})
        for j in idx:
            c = _field(raw, f"cause {j}", f"cause_{j}", f"cause{j}")
            e = _field(raw, f"effect {j}", f"effect_{j}", f"effect{j}")
            if L.is_empty(c) and L.is_empty(e):
                continue
            pairs.append((j, c, e, _field(raw, f"sententiality {j}", f"sententiality_{j}"),
                          _field(raw, f"causality {j}", f"causality_{j}"), ""))
        sn_field = next((str(keys[n]) for n in ("s/n", "sn", "id") if n in keys), None)
        sn_raw = raw[keys[sn_field.strip().lower()]] if sn_field is not None else None
        sn_expected = "an integer or a text id (or no id: the record number is used)"
    if sentence is not None and L.is_empty(sentence):
        rec.add("sentence" if fmt == "prepared" else str(text_key), sentence, "the row's text",
                found="an empty value")
    if sn_raw is None:
        sn = str(recno)
    elif fmt == "raw" and isinstance(sn_raw, str) and not L.is_empty(sn_raw):
        sn = sn_raw.strip()
    else:
        sn = rec.integer(sn_field, sn_raw, sn_expected)
        sn = None if sn is None else str(sn)
    if sn is not None:
        sid = f"pmc-{sn}"
        if sid in seen_ids:
            rec.add(sn_field or "s/n", sn, "a unique s/n", found=f"{sn!r} again (first at record {seen_ids[sid]})")
        else:
            # A refused record claims its s/n too, so a later duplicate is not taken for the first.
            seen_ids[sid] = recno
    rels = []
    for j, c, e, sent, caus, prefix in pairs:
        spans_ok = True
        for which, value in (("cause", c), ("effect", e)):
            field_name = f"{prefix}{which}" if prefix else f"{which.capitalize()} {j}"
            if value is not None and not isinstance(value, str):
                rec.add(field_name, value, f"the {which} as text", pair=j)
                spans_ok = False
            elif L.is_empty(value):
                # Spaces or invisible characters only would make an event that prints as nothing.
                found = (f"an empty {which}" if not isinstance(value, str) or not value.strip()
                         else f"{value!r}, which shows nothing")
                rec.add(field_name, value, "both cause and effect", found=found, pair=j)
                spans_ok = False
            else:
                bad = unprintable_char(value)
                if bad:
                    # XML cannot hold it even as a reference: the event would have no GraphML encoding.
                    rec.add(field_name, value, "text without control characters (tab and line breaks are fine)",
                            found=f"{value!r}, which holds the control character {bad!r} (U+{ord(bad):04X})",
                            pair=j)
                    spans_ok = False
        labels_ok, col_s, col_c = _pair_labels(rec, prefix, j, sent, caus)
        if spans_ok and labels_ok and not rec.problems:
            rels.append((j, c, e, sent, caus, col_s, col_c))
    if rec.problems:
        return (fmt, rec.problems, None), 0
    relations = tuple(Relation(
        cause=c.strip(), effect=e.strip(), cause_np=c.strip(), effect_np=e.strip(),
        sententiality=labels.parse(sent, L.parse_sententiality, {"Intra", "Inter"}, recno, col_s, "sententiality"),
        explicitness=labels.parse(caus, L.parse_explicitness, {"Explicit", "Implicit"}, recno, col_c,
                                  "explicitness"),
        source_file=fname, source_row=recno,
    ) for j, c, e, sent, caus, col_s, col_c in rels)
    st = Statement(id=f"pmc-{sn}", text=sentence.strip(), causal=bool(relations), relations=relations,
                   meta={"s/n": sn}, source_file=fname, source_rows=(recno,))
    return (fmt, [], st), len(relations)
