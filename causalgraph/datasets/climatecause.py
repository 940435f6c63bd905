"""Load ClimateCause (the released xlsx, or a CSV/xlsx with the README's names).

The released spreadsheet has one row per causal relation; a statement
without causality has one row with ``Causal?`` = ``No``.  Rows are grouped
into statements by their text, as the paper does (the ``statement`` link
column is not a statement key: one text carries several links).
"""

from __future__ import annotations

import csv
import re
from collections import OrderedDict
from pathlib import Path
from typing import Iterator, Optional

from ..errors import SchemaError
from ..model import Corpus, Problem, Relation, Statement
from . import labels as L
from .fetch import resolve_file, sha256_file

__all__ = ["load_climatecause", "COLUMNS", "read_rows"]


def _norm_header(name: str) -> str:
    # camelCase → snake, then any run of non-alphanumerics → "_".
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", str(name).strip())
    return re.sub(r"[^a-z0-9]+", "_", s.lower()).strip("_")


# field → (display name used in messages, accepted normalised header spellings,
#          accepted normalised prefixes).  The released file's own headers come
#          first; the UPPER_CASE names of the upstream README and the feature
#          names of the paper's Table 6 normalise to the same keys.
COLUMNS: "OrderedDict[str, tuple[str, tuple[str, ...], tuple[str, ...]]]" = OrderedDict(
    [
        ("link", ("statement", ("statement", "statement_link", "link", "statement_url"), ())),
        ("section", ("Part of", ("part_of", "section"), ())),
        ("paragraph", ("Paragraph", ("paragraph",), ())),
        ("series_ordinal", ("Series ordinal", ("series_ordinal", "series"), ())),
        ("text", ("ipccText", ("ipcc_text", "text", "statement_text"), ())),
        ("causal", ("Causal?", ("causal", "causation", "causal_yes_no", "is_causal"), ())),
        ("trigger", ("Trigger", ("trigger", "target"), ())),
        ("explicitness", ("Explicit/implicit", ("explicit_implicit", "explicitness"), ())),
        (
            "polarity",
            (
                "Causation: Positive/Negative (causes/doesn't cause or produce/do_not_produce)",
                ("relation_type", "polarity", "causation_type", "causation_positive_negative"),
                ("causation_positive_negative",),
            ),
        ),
        (
            "correlation",
            (
                "Correlation (positive/negative or increase-increase/increase-decrease)",
                ("correlation",),
                ("correlation_positive_negative",),
            ),
        ),
        ("cause_np", ("Cause--NP", ("cause_np",), ())),
        ("effect_np", ("Effect--NP", ("effect_np",), ())),
        ("cause_context", ("Context - Cause", ("context_cause", "cause_context"), ())),
        ("effect_context", ("Context - Effect", ("context_effect", "effect_context"), ())),
        ("cause", ("Cause_no_quantifier", ("cause_no_quantifier",), ())),
        ("effect", ("Effect_no_quantifier", ("effect_no_quantifier",), ())),
        ("cause_belongs_to", ("cause belongs to", ("cause_belongs_to",), ())),
        ("effect_belongs_to", ("effect belongs to", ("effect_belongs_to",), ())),
        ("abbreviations", ("abbreviations", ("abbreviations", "abbreviation"), ())),
        ("combined", ("Combined", ("combined",), ())),
        ("confidence_link", ("confidence", ("confidence", "confidence_link"), ())),
        ("confidence", ("confidenceLabel", ("confidence_label", "confidence_level"), ())),
        ("nested", ("Nested causality", ("nested_causality", "nested"), ())),
    ]
)

# Without these a file cannot be read as ClimateCause at all.
_ESSENTIAL = ("text", "causal", "cause", "effect")
# Required for the metrics; a lenient load lists a missing one and goes on.
_REQUIRED = ("explicitness", "polarity", "correlation", "combined", "nested",
             "cause_belongs_to", "effect_belongs_to")
# Columns that only a causal row may fill.
_RELATION_FIELDS = ("trigger", "explicitness", "polarity", "correlation", "cause_np", "effect_np",
                    "cause_context", "effect_context", "cause", "effect", "cause_belongs_to",
                    "effect_belongs_to", "abbreviations", "combined", "nested")


def _match_columns(headers: list[str]) -> dict[str, int]:
    found: dict[str, int] = {}
    for idx, h in enumerate(headers):
        if h is None:
            continue
        k = _norm_header(h)
        if not k:
            continue
        for fld, (_disp, exact, prefixes) in COLUMNS.items():
            if fld in found:
                continue
            if k in exact or any(k.startswith(p) for p in prefixes):
                found[fld] = idx
                break
    return found


def read_rows(path: Path) -> tuple[list[str], Iterator[tuple[int, list]]]:
    """Headers and ``(spreadsheet row number, cells)`` of an xlsx or CSV file.

    Row numbers are as a person sees them: the header is row 1.  A workbook
    that cannot be read (not a zip file, a damaged entry, malformed XML),
    whether when it is opened or later while its rows are read, raises
    :class:`~causalgraph.errors.SchemaError` naming the file and what could
    not be read.
    """
    suffix = path.suffix.lower()
    if suffix in (".xlsx", ".xlsm"):
        return _read_xlsx(path)
    if suffix in (".csv", ".tsv", ".txt"):
        try:
            text = path.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as exc:
            raise SchemaError(f"{path}: cannot read as UTF-8 text ({exc})") from None
        rows = list(csv.reader(text.splitlines(True), delimiter="\t" if suffix == ".tsv" else ","))
        if not rows:
            raise SchemaError(f"{path}: the file is empty (no header row)")
        return rows[0], ((n, r) for n, r in enumerate(rows[1:], start=2))
    raise SchemaError(f"{path}: unsupported file type {suffix!r}; expected .xlsx or .csv")


def _damaged(path: Path, what: str, exc: BaseException) -> SchemaError:
    # openpyxl passes on whatever its zip, zlib and XML layers raise for a damaged file
    # (BadZipFile, zlib.error, ParseError, KeyError, ValueError, IndexError ...): one message for all.
    detail = " ".join(str(exc).split()) or "no detail"
    kind = type(exc).__name__
    if kind == "error":  # zlib.error: the bare class name says nothing
        kind = f"{type(exc).__module__}.error"
    return SchemaError(f"{path}: cannot read as an xlsx workbook: {what} failed ({kind}: "
                       f"{detail}); expected an intact .xlsx file (a truncated or damaged copy reads like this: "
                       "copy or export it again)")


def _read_xlsx(path: Path) -> tuple[list[str], Iterator[tuple[int, list]]]:
    import openpyxl

    try:
        wb = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:
        raise _damaged(path, "opening it", exc) from None
    # Read-only mode streams the sheet: a damaged part of it only shows while its rows are read,
    # so every read of a row is guarded, not only the opening.
    try:
        ws = wb.worksheets[0]
        it = ws.iter_rows(values_only=True)
        first = next(it, None)
    except Exception as exc:
        wb.close()
        raise _damaged(path, "reading row 1 (the header)", exc) from None
    if first is None:
        wb.close()
        raise SchemaError(f"{path}: the file is empty (no header row)")
    headers = [("" if c is None else str(c)) for c in first]

    def gen() -> Iterator[tuple[int, list]]:
        n = 1
        try:
            while True:
                n += 1
                try:
                    row = next(it)
                except StopIteration:
                    return
                except Exception as exc:
                    raise _damaged(path, f"reading row {n}", exc) from None
                yield n, list(row)
        finally:
            wb.close()

    return headers, gen()


class _Collector:
    def __init__(self, file: str):
        self.file = file
        self.problems: list[Problem] = []

    def add(self, row, column, value, expected, what=None):
        where = f"row {row}, " if row is not None else ""
        col = f"column {column!r}: " if column else ""
        found = f"found {value!r}" if what is None else what
        msg = f"{self.file}: {where}{col}{found}; expected {expected}"
        self.problems.append(Problem(self.file, row, column, value, expected, msg))


def load_climatecause(path: Optional[str | Path] = None, *, strict: bool = True, id_prefix: str = "cc"):
    """Load ClimateCause into a :class:`~causalgraph.model.Corpus`.

    Parameters
    ----------
    path
        An xlsx or CSV file.  ``None`` resolves the dataset name
        ``climatecause`` (``$CAUSALGRAPH_DATA``, the user cache, or the
        pinned download).
    strict
        With ``True`` (default) the first problem raises
        :class:`~causalgraph.errors.SchemaError`.  With ``False`` the call
        returns ``(corpus, problems)``: every problem is listed, and a row
        that cannot become a relation is left out *and* listed.
    id_prefix
        Statement ids are ``<id_prefix>-001``, ``<id_prefix>-002`` … in order
        of first appearance (``cc-`` for ClimateCause).

    Examples
    --------
    >>> corpus = load_climatecause()  # doctest: +SKIP
    >>> len(corpus), len(corpus.relations)  # doctest: +SKIP
    (75, 874)
    """
    p = Path(path) if path is not None else resolve_file("climatecause", "full")
    if p.is_dir():
        candidates = sorted(p.glob("*.xlsx")) + sorted(p.glob("*.csv"))
        if not candidates:
            raise SchemaError(f"{p}: folder holds no .xlsx or .csv file")
        p = candidates[0]
    if not p.is_file():
        raise SchemaError(f"{p}: no such file")
    fname = str(p)
    headers, rows = read_rows(p)
    cols = _match_columns(headers)
    col = _Collector(fname)

    missing_essential = [f for f in _ESSENTIAL if f not in cols]
    if missing_essential:
        names = ", ".join(repr(COLUMNS[f][0]) for f in missing_essential)
        raise SchemaError(
            f"{fname}: missing required column(s) {names}; found columns {headers!r} "
            "(accepted: the released spreadsheet's headers or the upstream README's UPPER_CASE names)"
        )
    for f in _REQUIRED:
        if f not in cols:
            col.add(None, COLUMNS[f][0], None, "this column to be present", what="missing required column")
    if col.problems and strict:
        raise SchemaError(col.problems[0].message)

    def cell(row: list, fld: str):
        i = cols.get(fld)
        return row[i] if i is not None and i < len(row) else None

    # Messages name a column as the file spells it.
    disp = {f: headers[cols[f]] if f in cols else COLUMNS[f][0] for f in COLUMNS}
    groups: "OrderedDict[str, dict]" = OrderedDict()
    blank_rows = 0
    n_rows = 0
    for rownum, row in rows:
        if all(L.is_empty(c) for c in row):
            blank_rows += 1
            continue
        n_rows += 1
        # A value under no header (a shifted row, a stray note) would otherwise vanish unread.
        for i in range(len(row)):
            if (i >= len(headers) or L.is_empty(headers[i])) and not L.is_empty(row[i]):
                col.add(rownum, f"{_column_letter(i)} (no header)", row[i],
                        "an empty cell: only columns with a header are read")
        text = L.clean(cell(row, "text"))
        if text is None:
            col.add(rownum, disp["text"], cell(row, "text"), "the statement text", what="found an empty cell")
            continue
        causal, known = L.parse_yes_no(cell(row, "causal"))
        if causal is None:
            col.add(rownum, disp["causal"], cell(row, "causal"), "Yes or No")
            continue
        g = groups.setdefault(text, {"rows": [], "causal": causal, "relations": [], "meta": OrderedDict(
            links=[], section=L.clean(cell(row, "section")), paragraph=L.clean(cell(row, "paragraph")),
            series_ordinal=L.clean(cell(row, "series_ordinal")), confidence=[])})
        g["rows"].append(rownum)
        link = L.clean(cell(row, "link"))
        if link and link not in g["meta"]["links"]:
            g["meta"]["links"].append(link)
        conf = L.clean(cell(row, "confidence"))
        if conf and conf not in g["meta"]["confidence"]:
            g["meta"]["confidence"].append(conf)
        if causal != g["causal"]:
            col.add(rownum, disp["causal"], cell(row, "causal"),
                    f"{'Yes' if g['causal'] else 'No'} like row {g['rows'][0]} of the same statement text")
            continue
        if not causal:
            filled = [f for f in _RELATION_FIELDS if f in cols and not L.is_empty(cell(row, f))]
            for f in filled:
                col.add(rownum, disp[f], cell(row, f), f"an empty cell, since {disp['causal']} is No")
            continue
        rel = _relation(row, rownum, fname, cell, disp, col, cols)
        if rel is not None:
            g["relations"].append(rel)

    if n_rows == 0:
        raise SchemaError(f"{fname}: the file has a header but no data rows")
    if strict and col.problems:
        extra = len(col.problems) - 1
        more = f" (and {extra} more problem{'s' if extra > 1 else ''}; load with strict=False to list all)" if extra else ""
        raise SchemaError(col.problems[0].message + more)

    statements = []
    width = max(3, len(str(len(groups))))
    for i, (text, g) in enumerate(groups.items(), start=1):
        statements.append(Statement(
            id=f"{id_prefix}-{i:0{width}d}", text=text, causal=g["causal"],
            relations=tuple(g["relations"]), meta=dict(g["meta"]), source_file=fname,
            source_rows=tuple(g["rows"]),
        ))
    corpus = Corpus(name="climatecause", statements=statements, source=fname, sha256=sha256_file(p),
                    problems=list(col.problems),
                    report={"rows": n_rows, "blank_rows": blank_rows, "problems": len(col.problems)})
    if strict:
        return corpus
    return corpus, list(col.problems)


def _relation(row, rownum, fname, cell, disp, col: _Collector, present) -> Optional[Relation]:
    cause = L.clean(cell(row, "cause"))
    effect = L.clean(cell(row, "effect"))
    ok = True
    if cause is None:
        col.add(rownum, disp["cause"], cell(row, "cause"), "a cause (the row is causal)", what="found an empty cell")
        ok = False
    if effect is None:
        col.add(rownum, disp["effect"], cell(row, "effect"), "an effect (the row is causal)",
                what="found an empty cell")
        ok = False
    parsed = {}
    for fld, parser, acc in (("explicitness", L.parse_explicitness, "explicitness"),
                             ("polarity", L.parse_polarity, "polarity"),
                             ("correlation", L.parse_correlation, "correlation")):
        raw = cell(row, fld)
        val = parser(raw)
        # A causal relation needs every label: an empty cell is as bad as a typo.
        # (A missing column was reported once already, not on every row.)
        if val is None and fld in present:
            col.add(rownum, disp[fld], raw, L.ACCEPTED[acc])
        parsed[fld] = val
    for fld in ("combined", "nested"):
        raw = cell(row, fld)
        val, known = L.parse_yes_no(raw)
        if not known:
            col.add(rownum, disp[fld], raw, L.ACCEPTED["yes_no"])
        parsed[fld] = val
    if not ok:
        return None
    trigger = L.clean(cell(row, "trigger"))
    return Relation(
        cause=cause,
        effect=effect,
        cause_np=L.clean(cell(row, "cause_np")),
        effect_np=L.clean(cell(row, "effect_np")),
        cause_context=_slash_none(cell(row, "cause_context")),
        effect_context=_slash_none(cell(row, "effect_context")),
        cause_belongs_to=_slash_none(cell(row, "cause_belongs_to")),
        effect_belongs_to=_slash_none(cell(row, "effect_belongs_to")),
        trigger=None if trigger == "/" else trigger,
        combined=parsed["combined"],
        nested=parsed["nested"],
        explicitness=parsed["explicitness"],
        polarity=parsed["polarity"],
        correlation=parsed["correlation"],
        confidence=L.clean(cell(row, "confidence")),
        abbreviations=_slash_none(cell(row, "abbreviations")),
        source_file=fname,
        source_row=rownum,
    )


def _column_letter(index: int) -> str:
    """Spreadsheet column letters of a 0-based index (0 → A, 26 → AA)."""
    out = ""
    n = index + 1
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(65 + r) + out
    return out


def _slash_none(value) -> Optional[str]:
    # The guidelines write "/" for "nothing here".
    v = L.clean(value)
    return None if v == "/" else v
