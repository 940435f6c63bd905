"""Load PubMedCausal: the prepared extraction split or the raw hub format.

Prepared format (the authors' ``extraction_combined`` split): a JSON list of
``{"s/n", "sentence", "pairs": [{"cause", "effect", "sententiality",
"causality"}], "num_pairs"}``.

Raw hub format (``30k_train.json``/``30k_test.json``): flat records with
``Sentence``, ``Cause 1..16``, ``Effect 1..16``, ``Sententiality N`` and
``Causality N``; a record without pairs is a non-causal row.  A JSON list or
JSON Lines are both accepted.

Labels are normalised (``Explcit`` → explicit, ``intra`` → intra …); empty or
unknown labels stay ``None`` and are counted in ``corpus.report``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Optional

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
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        # JSON Lines: one object per line, and lines end at \n only; str.splitlines would also
        # break inside a string holding a raw \u2028, \u2029 or \x85, which JSON allows.
        data = []
        for n, line in enumerate(text.split("\n"), start=1):
            if not line.strip():
                continue
            try:
                data.append(json.loads(line))
            except json.JSONDecodeError:
                raise SchemaError(f"{p}: not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}) "
                                  f"and not JSON Lines (line {n})") from None
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
        self.problems: list[Problem] = []

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
            self.problems.append(Problem(self.fname, record, column, raw, L.ACCEPTED[kind],
                                         f"{self.fname}: record {record}, field {column!r}: unknown label "
                                         f"{s!r}; kept as None (expected {L.ACCEPTED[kind]})"))
        elif s not in canonical_spellings:
            key = f"{s} -> {val.value}"
            self.normalised[key] = self.normalised.get(key, 0) + 1
        return val


def load_pubmedcausal(path: Optional[str | Path] = None, split: str = "test") -> Corpus:
    """Load PubMedCausal rows into a :class:`~causalgraph.model.Corpus`.

    Parameters
    ----------
    path
        A JSON file in the prepared or the raw format, or a folder holding
        ``extraction_<split>.json``.  ``None`` resolves the dataset name
        ``pubmedcausal`` for ``split``.
    split
        ``"train"`` or ``"test"`` (used when ``path`` is None or a folder).

    Returns
    -------
    Corpus
        One statement per row, id ``pmc-<s/n>``; ``corpus.report`` holds
        ``rows``, ``pairs``, ``labels_normalised`` (total and per spelling),
        ``labels_unknown`` and ``labels_empty``; ``corpus.problems`` lists
        every unknown or empty label.

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
    statements: list[Statement] = []
    seen_ids: dict[str, int] = {}
    fmt = None
    n_pairs = 0
    for recno, rec in enumerate(data, start=1):
        if not isinstance(rec, dict):
            raise SchemaError(f"{fname}: record {recno}: expected an object, found {type(rec).__name__}")
        if "pairs" in rec or "sentence" in rec:
            fmt = fmt or "prepared"
            sentence = rec.get("sentence")
            raw_pairs = rec.get("pairs") or []
            if not isinstance(raw_pairs, list):
                raise SchemaError(f"{fname}: record {recno}, field 'pairs': expected a list, "
                                  f"found {type(raw_pairs).__name__}")
            pairs = []
            for j, pr in enumerate(raw_pairs, start=1):
                if not isinstance(pr, dict):
                    raise SchemaError(f"{fname}: record {recno}, field 'pairs[{j}]': expected an object "
                                      f"with cause and effect, found {pr!r}")
                pairs.append((j, pr.get("cause"), pr.get("effect"), pr.get("sententiality"), pr.get("causality"),
                              f"pairs[{j}]."))
            declared = rec.get("num_pairs")
            if declared is not None and declared != len(raw_pairs):
                # A count that disagrees means pairs were lost or added on the way.
                raise SchemaError(f"{fname}: record {recno}, field 'num_pairs': found {declared!r}; expected "
                                  f"{len(raw_pairs)}, the number of entries in 'pairs'")
        else:
            fmt = fmt or "raw"
            sentence = _field(rec, "sentence", "text")
            pairs = []
            idx = sorted({int(m.group(1)) for k in rec for m in [_RAW_CAUSE.match(str(k).strip())] if m})
            for j in idx:
                c = _field(rec, f"cause {j}", f"cause_{j}", f"cause{j}")
                e = _field(rec, f"effect {j}", f"effect_{j}", f"effect{j}")
                if L.is_empty(c) and L.is_empty(e):
                    continue
                pairs.append((j, c, e, _field(rec, f"sententiality {j}", f"sententiality_{j}"),
                              _field(rec, f"causality {j}", f"causality_{j}"), ""))
        if L.is_empty(sentence):
            raise SchemaError(f"{fname}: record {recno}, field 'sentence': found an empty value; "
                              "expected the row's text")
        sn = _field(rec, "s/n", "sn", "id")
        sn = recno if L.is_empty(sn) else L.clean(sn)
        sid = f"pmc-{sn}"
        if sid in seen_ids:
            raise SchemaError(f"{fname}: record {recno}, field 's/n': found {sn!r} again (first at record "
                              f"{seen_ids[sid]}); expected a unique s/n")
        seen_ids[sid] = recno
        rels = []
        for j, c, e, sent, caus, prefix in pairs:
            for which, value in (("cause", c), ("effect", e)):
                field_name = f"{prefix}{which}" if prefix else f"{which.capitalize()} {j}"
                if isinstance(value, (list, dict, bool)):
                    raise SchemaError(f"{fname}: record {recno}, field '{field_name}' (pair {j}): found a "
                                      f"{type(value).__name__} ({value!r}); expected the {which} as text")
                if L.is_empty(value):
                    # Spaces or invisible characters only would make an event that prints as nothing.
                    found = (f"an empty {which}" if not isinstance(value, str) or not value.strip()
                             else f"{value!r}, which shows nothing")
                    raise SchemaError(f"{fname}: record {recno}, field '{field_name}' (pair {j}): found {found}; "
                                      "expected both cause and effect")
                bad = unprintable_char(str(value))
                if bad:
                    # XML cannot hold it even as a reference: the event would have no GraphML encoding.
                    raise SchemaError(f"{fname}: record {recno}, field '{field_name}' (pair {j}): found {value!r}, "
                                      f"which holds the control character {bad!r} (U+{ord(bad):04X}); expected "
                                      f"text without control characters (tab and line breaks are fine)")
            col_s = f"{prefix}sententiality" if prefix else f"Sententiality {j}"
            col_c = f"{prefix}causality" if prefix else f"Causality {j}"
            rels.append(Relation(
                cause=str(c).strip(), effect=str(e).strip(), cause_np=str(c).strip(), effect_np=str(e).strip(),
                sententiality=labels.parse(sent, L.parse_sententiality, {"Intra", "Inter"}, recno, col_s,
                                           "sententiality"),
                explicitness=labels.parse(caus, L.parse_explicitness, {"Explicit", "Implicit"}, recno, col_c,
                                          "explicitness"),
                source_file=fname, source_row=recno,
            ))
        n_pairs += len(rels)
        statements.append(Statement(id=sid, text=str(sentence).strip(), causal=bool(rels), relations=tuple(rels),
                                    meta={"s/n": sn}, source_file=fname, source_rows=(recno,)))
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
    return Corpus(name="pubmedcausal", statements=statements, source=fname, sha256=sha256_file(p),
                  problems=labels.problems, report=report)
