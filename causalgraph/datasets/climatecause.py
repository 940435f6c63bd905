"""Load ClimateCause (the released xlsx, or a CSV/xlsx with the README's names).

The released spreadsheet has one row per causal relation; a statement
without causality has one row with ``Causal?`` = ``No``.  Rows are grouped
into statements by their text, as the paper does (the ``statement`` link
column is not a statement key: one text carries several links).
"""

from __future__ import annotations

import csv
import io
import re
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Optional

from ..errors import SchemaError
from ..model import Corpus, Problem, Relation, Statement, unprintable_char
from . import labels as L
from .fetch import resolve_file, sha256_file

__all__ = ["load_climatecause", "COLUMNS", "CLIMATECAUSE_SUFFIXES"]


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


@dataclass
class _Table:
    """What the loader needs of a file: its header, its rows and, for CSV, where each row lies."""

    headers: list[str]
    rows: Iterator[tuple[int, list]]
    #: True for CSV, where every record is written with one field per header column (a shorter
    #: record was cut short); an xlsx row simply ends at its last filled cell.
    fixed_width: bool = False
    #: CSV rows that span several lines of the file: row → (first line, last line).
    lines: dict[int, tuple[int, int]] = field(default_factory=dict)
    #: The CSV row, if any, in which a quoted field opens and the file ends before it closes.
    unclosed: Optional[int] = None


#: File types the ClimateCause loader reads (a spreadsheet, or its CSV/TSV export).
CLIMATECAUSE_SUFFIXES = (".xlsx", ".xlsm", ".csv", ".tsv", ".txt")


def _read_table(path: Path) -> _Table:
    suffix = path.suffix.lower()
    if suffix in (".xlsx", ".xlsm"):
        headers, rows = _read_xlsx(path)
        return _Table(headers, rows)
    if suffix in (".csv", ".tsv", ".txt"):
        return _read_csv(path, "\t" if suffix == ".tsv" else ",")
    raise SchemaError(f"{path}: unsupported file type {suffix!r}; the ClimateCause loader reads "
                      f"{', '.join(CLIMATECAUSE_SUFFIXES)}")


def _read_csv(path: Path, delimiter: str) -> _Table:
    try:
        # newline="": Path.read_text's universal newlines would turn a \r or \r\n inside a quoted
        # field into \n; the csv module wants the file's own line ends.
        with open(path, encoding="utf-8-sig", newline="") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise SchemaError(f"{path}: cannot read as UTF-8 text ({exc})") from None
    # CSV ends a record only at \n, \r or \r\n outside quotes.  str.splitlines also breaks at
    # \x0b, \x0c, \x1c-\x1e, \x85, \u2028 and \u2029, which csv.writer leaves unquoted inside a
    # field; a StringIO with newline="" yields lines at the CSV line ends only, untranslated.
    source = _Lines(io.StringIO(text, newline=""))
    reader = csv.reader(source, delimiter=delimiter)
    records: list[tuple[int, list, int, int]] = []
    first_line = 1
    try:
        for row, cells in enumerate(reader, start=1):
            records.append((row, cells, first_line, reader.line_num))
            first_line = reader.line_num + 1
    except csv.Error as exc:
        raise SchemaError(f"{path}: line {reader.line_num}: cannot read as CSV ({exc})") from None
    if not records:
        raise SchemaError(f"{path}: the file is empty (no header row)")
    table = _Table(headers=records[0][1], rows=iter(()), fixed_width=True)
    table.lines = {row: (a, b) for row, _, a, b in records if a != row or b != row}
    row, _, a, b = records[-1]
    # The lenient reader runs a quoted field on to the end of the file when its closing quote is
    # missing (a file cut off inside it); the strict reader says so, on that record's lines alone.
    try:
        list(csv.reader(io.StringIO("".join(source.seen[a - 1:b]), newline=""), delimiter=delimiter,
                        strict=True))
    except csv.Error as exc:
        if "unexpected end of data" in str(exc):
            table.unclosed = row
    table.rows = iter([(n, cells) for n, cells, _, _ in records[1:]])
    return table


class _Lines:
    """Iterates over lines and keeps them, so a record can be read again by its line numbers."""

    def __init__(self, lines: Iterator[str]):
        self._it = iter(lines)
        self.seen: list[str] = []

    def __iter__(self) -> "_Lines":
        return self

    def __next__(self) -> str:
        line = next(self._it)
        self.seen.append(line)
        return line


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
    def __init__(self, file: str, lines: Optional[dict[int, tuple[int, int]]] = None):
        self.file = file
        self.problems: list[Problem] = []
        self.lines = lines or {}

    def where(self, row) -> str:
        """``row 5`` or, for a CSV record spanning lines 5-7 of the file, ``row 5 (lines 5-7 of the file)``."""
        if row not in self.lines:
            return f"row {row}"
        a, b = self.lines[row]
        return f"row {row} ({f'line {a}' if a == b else f'lines {a}-{b}'} of the file)"

    def add(self, row, column, value, expected, what=None):
        place = ", ".join(([self.where(row)] if row is not None else []) + ([f"column {column!r}"] if column else []))
        found = f"found {value!r}" if what is None else what
        msg = f"{self.file}: {place + ': ' if place else ''}{found}; expected {expected}"
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
        raise SchemaError(f"{p}: not a regular file" if p.exists() else f"{p}: no such file")
    fname = str(p)
    table = _read_table(p)
    headers, rows = table.headers, table.rows
    if table.unclosed == 1:
        raise SchemaError(f"{fname}: row 1 (the header): a quoted field opens and the file ends before it closes; "
                          'expected a closing " (the file may be cut off)')
    cols = _match_columns(headers)
    col = _Collector(fname, table.lines)

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
        if rownum == table.unclosed:
            # Everything from the open quote to the end of the file landed in one field.
            col.add(rownum, None, None, 'a closing " (was the file cut off inside this row?)',
                    what="a quoted field opens here and the file ends before it closes")
            continue
        if table.fixed_width and len(row) < len(headers):
            # A CSV writer writes every field of every record: a shorter one was cut short (a file
            # cut off mid-row, a line break typed into an unquoted field), so its last value is suspect too.
            col.add(rownum, None, len(row), "one field per header column (was the file cut off mid-row?)",
                    what=f"found {len(row)} of {len(headers)} fields: the row ends before column "
                         f"{headers[len(row)]!r}")
            continue
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
        more = (f" (and {extra} more problem{'s' if extra > 1 else ''}; in Python, "
                f"causalgraph.datasets.load_climatecause(path, strict=False) lists every one)") if extra else ""
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
    for fld, value, expected in (("cause", cause, "a cause (the row is causal)"),
                                 ("effect", effect, "an effect (the row is causal)")):
        if value is None:
            raw = cell(row, fld)
            # A cell of spaces or invisible characters looks empty, and would print as an empty event.
            what = ("found an empty cell" if not isinstance(raw, str) or not raw.strip()
                    else f"found {raw!r}, which shows nothing")
            col.add(rownum, disp[fld], raw, expected, what=what)
            ok = False
        elif unprintable_char(value):
            # XML cannot hold it even as a reference: the event would have no GraphML encoding.
            bad = unprintable_char(value)
            col.add(rownum, disp[fld], value, "text without control characters (tab and line breaks are fine)",
                    what=f"found {value!r}, which holds the control character {bad!r} (U+{ord(bad):04X})")
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
