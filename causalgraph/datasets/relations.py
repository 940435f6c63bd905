"""The minimal relations format: one row per cause → effect relation, any corpus (docs/data.md).

A CSV, TSV, JSON Lines or Parquet file with the columns ``text``, ``cause``
and ``effect``, and optionally ``statement_id``, ``correlation``,
``relation_type``, ``explicitness``, ``cause_belongs_to``,
``effect_belongs_to``, ``nested``, ``combined`` and ``context``.  A row with
a text and neither cause nor effect is a statement without causality.  Every
row is validated like a ClimateCause row; a label column the file does not
have is recorded in :attr:`Corpus.lacks <causalgraph.model.Corpus>`, so that
the metrics reading it are NaN and the tasks needing it are refused, rather
than scoring the file as if every relation were unlabelled.  JSON Lines and
Parquet cells are typed: a cell that is not text (a number, a boolean, a
list) is refused, never turned into text; a column given twice is refused.
"""

from __future__ import annotations

import difflib
import json
import math
from collections import OrderedDict
from pathlib import Path
from typing import Iterator, Optional

from .._core.wording import describe_found
from ..errors import SchemaError
from ..model import Corpus, Problem, Relation, Statement, unprintable_char
from . import labels as L
from .climatecause import _norm_header, _read_csv
from .fetch import sha256_file

__all__ = ["REQUIRED_COLUMNS", "OPTIONAL_COLUMNS", "LABEL_COLUMNS", "RELATIONS_SUFFIXES", "load_relations",
           "relations_header", "example_relations_path"]

#: Columns every relations file has.
REQUIRED_COLUMNS = ("text", "cause", "effect")
#: Columns a relations file may have, in the order docs/data.md lists them.
OPTIONAL_COLUMNS = ("statement_id", "correlation", "relation_type", "explicitness", "cause_belongs_to",
                    "effect_belongs_to", "nested", "combined", "context")
#: The optional columns that hold annotation labels: a file without one *lacks* that label.
LABEL_COLUMNS = ("correlation", "relation_type", "explicitness", "cause_belongs_to", "effect_belongs_to",
                 "nested", "combined")
#: File types the format is read from.
RELATIONS_SUFFIXES = (".csv", ".tsv", ".jsonl", ".parquet")

# Columns only a row with a relation may fill.
_RELATION_ONLY = LABEL_COLUMNS


def example_relations_path() -> Path:
    """The example relations file shipped with the package (every optional column, three statements).

    Examples
    --------
    >>> len(load_relations(example_relations_path()))
    3
    """
    return Path(__file__).with_name("sample") / "example_relations.csv"


def relations_header(names) -> Optional[dict[str, int]]:
    """Column → index when ``names`` (a header) is a relations header, else ``None``.

    A relations header holds ``text``, ``cause`` and ``effect`` (any case,
    spaces or hyphens for underscores) and no ClimateCause ``Causal?``
    column, which every ClimateCause file has; so no file that loads as
    ClimateCause is read as relations.

    Examples
    --------
    >>> relations_header(["Text", "Cause", "Effect", "correlation"])
    {'text': 0, 'cause': 1, 'effect': 2, 'correlation': 3}
    >>> relations_header(["ipccText", "Causal?", "Cause_no_quantifier"]) is None
    True
    """
    keys = [_norm_header(n) if n is not None else "" for n in names]
    if "causal" in keys or not all(c in keys for c in REQUIRED_COLUMNS):
        return None
    out: dict[str, int] = {}
    for i, k in enumerate(keys):
        if k in REQUIRED_COLUMNS + OPTIONAL_COLUMNS and k not in out:
            out[k] = i
    return out


def _relations_like(names) -> bool:
    """Whether a header reads as an attempt at the relations format: a ``cause`` or ``effect`` column
    (ClimateCause spells them ``Cause_no_quantifier``, ``Effect_no_quantifier``) and no ``Causal?``.

    Such a file goes to :func:`load_relations`, which names the relations column it lacks, rather than
    to the ClimateCause loader, which would answer with the spreadsheet's columns.

    Examples
    --------
    >>> _relations_like(["text", "cause"]), _relations_like(["cause", "effect", "correlation"])
    (True, True)
    >>> _relations_like(["ipccText", "Causal?", "Cause_no_quantifier"]), _relations_like(["text"])
    (False, False)
    """
    keys = {_norm_header(n) for n in names if n is not None}
    return "causal" not in keys and bool(keys & {"cause", "effect"})


def _sniff_jsonl(path: Path) -> Optional[dict]:
    """The first record of a JSON Lines file when it is a relations record (a cause or effect key, no pairs)."""
    try:
        with open(path, encoding="utf-8-sig") as fh:
            for line in fh:
                if line.strip():
                    rec = json.loads(line)
                    if isinstance(rec, dict) and _relations_like(list(rec)) and "pairs" not in rec:
                        return rec
                    return None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    return None


def is_relations_file(path: Path) -> bool:
    """Whether ``path`` is read as a relations file, judged from its header (CSV/TSV) or first record (JSONL).

    A header with a ``cause`` or ``effect`` column and no ClimateCause ``Causal?`` column is one;
    so is every Parquet file.
    """
    suffix = path.suffix.lower()
    if suffix == ".parquet":
        return True
    if suffix == ".jsonl":
        return _sniff_jsonl(path) is not None
    if suffix in (".csv", ".tsv"):
        import csv

        try:
            with open(path, encoding="utf-8-sig", newline="") as fh:
                header = next(csv.reader(fh, delimiter="\t" if suffix == ".tsv" else ","), None)
        except (OSError, UnicodeDecodeError, csv.Error):
            return False
        return header is not None and _relations_like(header)
    return False


class _Rows:
    """Header, rows and how a person names a row, for each file type."""

    def __init__(self, headers: list[str], rows: Iterator[tuple[int, list]], unit: str,
                 lines: Optional[dict] = None):
        self.headers, self.rows, self.unit, self.lines = headers, rows, unit, lines or {}

    def where(self, n: int) -> str:
        if n in self.lines:
            a, b = self.lines[n]
            return f"{self.unit} {n} ({f'line {a}' if a == b else f'lines {a}-{b}'} of the file)"
        return f"{self.unit} {n}"


def _read(path: Path) -> _Rows:
    suffix = path.suffix.lower()
    if suffix in (".csv", ".tsv", ".txt"):
        table = _read_csv(path, "\t" if suffix == ".tsv" else ",")
        if table.unclosed is not None:
            raise SchemaError(f"{path}: row {table.unclosed}: a quoted field opens and the file ends before it "
                              'closes; expected a closing " (the file may be cut off)')
        return _Rows(table.headers, table.rows, "row", table.lines)
    if suffix == ".jsonl":
        return _read_jsonl(path)
    if suffix == ".parquet":
        return _read_parquet(path)
    raise SchemaError(f"{path}: unsupported file type {suffix!r} for the relations format; expected "
                      f"{', '.join(RELATIONS_SUFFIXES)}")


def _read_jsonl(path: Path) -> _Rows:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise SchemaError(f"{path}: cannot read as UTF-8 text ({exc})") from None
    records: list[tuple[int, dict]] = []
    # Lines end at \n only: JSON strings may hold a raw \u2028, which str.splitlines would break at.
    for n, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line, object_pairs_hook=_once)
        except json.JSONDecodeError as exc:
            raise SchemaError(f"{path}: line {n}: not JSON ({exc.msg} at column {exc.colno}); expected one "
                              "JSON object per line") from None
        except _Twice as exc:
            raise SchemaError(f"{path}: line {n}: the key {exc.args[0]!r} appears twice in one object (JSON keeps "
                              "the last silently); expected each key once") from None
        if not isinstance(rec, dict):
            raise SchemaError(f"{path}: line {n}: found {describe_found(rec)}; expected an object with "
                              "keys text, cause, effect")
        records.append((n, rec))
    if not records:
        raise SchemaError(f"{path}: the file is empty (no records)")
    headers: list[str] = []
    for _, rec in records:
        for k in rec:
            if k not in headers:
                headers.append(k)
    rows = iter([(n, [rec.get(h) for h in headers]) for n, rec in records])
    return _Rows(headers, rows, "line")


class _Twice(Exception):
    """A JSON object with a key twice."""


def _once(pairs: list) -> dict:
    # json.loads keeps the last of two equal keys without a word; a relations record says it once.
    out: dict = {}
    for k, v in pairs:
        if k in out:
            raise _Twice(k)
        out[k] = v
    return out


def _read_parquet(path: Path) -> _Rows:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise SchemaError(f"{path}: reading Parquet needs pyarrow (pip install 'causalgraph[dataset]')") from None
    try:
        table = pq.read_table(path)
    except Exception as exc:  # pyarrow raises ArrowInvalid, OSError … for a damaged file
        raise SchemaError(f"{path}: cannot read as Parquet ({type(exc).__name__}: {exc})") from None
    headers = list(table.column_names)
    data = table.to_pylist()
    rows = iter([(i, [rec.get(h) for h in headers]) for i, rec in enumerate(data, start=1)])
    return _Rows(headers, rows, "record")


# What each column holds, for the message refusing a cell of another type.
_TYPE_EXPECTED = {"text": "the statement text as text", "cause": "an event name as text",
                  "effect": "an event name as text", "statement_id": "a statement id as text",
                  "context": "text", "cause_belongs_to": "an event name as text (or empty)",
                  "effect_belongs_to": "an event name as text (or empty)", "correlation": "a label as text",
                  "relation_type": "a label as text", "explicitness": "a label as text",
                  "nested": "Yes/No as text, or a boolean", "combined": "Yes/No as text, or a boolean"}


def _text_cell(column: str, value) -> bool:
    """Whether a cell has the type its column takes: text or empty (null; NaN, Parquet's missing
    float), and for ``nested``/``combined`` also a boolean.  CSV cells are always text."""
    if value is None or isinstance(value, str) or (type(value) is float and math.isnan(value)):
        return True
    return column in ("nested", "combined") and isinstance(value, bool)


def _empty(value) -> bool:
    return L.is_empty(value) or (isinstance(value, float) and math.isnan(value))


def load_relations(path: str | Path, *, strict: bool = True, id_prefix: str = "rel"):
    """Load a relations file (CSV, TSV, JSON Lines or Parquet) into a :class:`~causalgraph.model.Corpus`.

    Parameters
    ----------
    path
        The file.  Its header (JSONL: the keys of its records) must hold
        ``text``, ``cause`` and ``effect``; see :data:`OPTIONAL_COLUMNS`.
    strict
        ``True`` (default): the first problem raises
        :class:`~causalgraph.errors.SchemaError` (with how many more there
        are).  ``False``: returns ``(corpus, problems)``, the rows with a
        problem left out and listed.
    id_prefix
        Statement ids when the file has no ``statement_id`` column:
        ``<id_prefix>-001`` … in order of first appearance of each text.

    Returns
    -------
    Corpus
        Named ``relations``; :attr:`~causalgraph.model.Corpus.lacks` lists
        the label columns of :data:`LABEL_COLUMNS` the file does not have.

    Examples
    --------
    >>> corpus = load_relations(example_relations_path())
    >>> corpus.lacks, [len(s.relations) for s in corpus]
    ((), [3, 2, 0])
    """
    p = Path(path)
    if not p.is_file():
        raise SchemaError(f"{p}: not a regular file" if p.exists() else f"{p}: no such file")
    fname = str(p)
    table = _read(p)
    cols = relations_header(table.headers)
    keys = [_norm_header(h) if h is not None else "" for h in table.headers]
    if cols is None:
        missing = [c for c in REQUIRED_COLUMNS if c not in keys]
        # an export-graphs edge list (cause, effect, correlation, relation_type) is a graph without text
        edge_list = missing == ["text"] and set(keys) <= {"cause", "effect", "correlation", "relation_type"}
        # (read as a graph when it is the .tsv export-graphs writes; as a .csv it reaches this)
        hint = ("; an export-graphs edge list has no statement text: add a text column, or read it as the .tsv "
                "export-graphs writes, which --data reads as a graph file" if edge_list else "")
        raise SchemaError(f"{fname}: missing required column(s) {', '.join(map(repr, missing))}; found columns "
                          f"{table.headers!r} (the relations format: text, cause, effect, and optionally "
                          f"{', '.join(OPTIONAL_COLUMNS)}; docs/data.md){hint}")
    # A column given twice would be read from its first place only, the other silently dropped.
    first: dict[str, int] = {}
    for i, k in enumerate(keys):
        if k in REQUIRED_COLUMNS + OPTIONAL_COLUMNS:
            if k in first:
                j = first[k]
                raise SchemaError(f"{fname}: column {k!r} appears twice ({table.headers[j]!r} as column {j + 1}, "
                                  f"{table.headers[i]!r} as column {i + 1}); expected each column once")
            first[k] = i
    # A misspelt optional column would silently make its metric NaN: refuse names close to one.
    ignored = []
    for h, k in zip(table.headers, keys):
        if k and k not in cols:
            close = difflib.get_close_matches(k, REQUIRED_COLUMNS + OPTIONAL_COLUMNS, n=1, cutoff=0.8)
            if close:
                raise SchemaError(f"{fname}: column {h!r}: not a column of the relations format; expected "
                                  f"{close[0]!r} (accepted: {', '.join(REQUIRED_COLUMNS + OPTIONAL_COLUMNS)})")
            ignored.append(h)
    disp = {c: table.headers[i] for c, i in cols.items()}
    problems: list[Problem] = []

    def add(n, column, value, expected, what=None):
        place = table.where(n) + (f", column {disp.get(column, column)!r}" if column else "")
        found = f"found {value!r}" if what is None else what
        problems.append(Problem(fname, n, disp.get(column, column) if column else None, value, expected,
                                f"{fname}: {place}: {found}; expected {expected}"))

    def cell(row, c):
        i = cols.get(c)
        return row[i] if i is not None and i < len(row) else None

    groups: "OrderedDict[str, dict]" = OrderedDict()
    n_rows = blank = 0
    for n, row in table.rows:
        if all(_empty(v) for v in row):
            blank += 1
            continue
        n_rows += 1
        if len(row) < len(table.headers) and table.unit == "row":
            add(n, None, len(row), "one field per header column (was the file cut off mid-row?)",
                what=f"found {len(row)} of {len(table.headers)} fields")
            continue
        # A value under no header (a shifted row, a stray note) would otherwise vanish unread.
        stray = [i for i in range(len(row)) if (i >= len(table.headers) or _empty(table.headers[i]))
                 and not _empty(row[i])]
        if stray:
            add(n, None, row[stray[0]], "an empty cell: only columns with a header are read",
                what=f"found {row[stray[0]]!r} in column {stray[0] + 1}, which has no header")
            continue
        # JSON Lines and Parquet cells are typed: a number or a boolean is refused, never turned into text.
        typed = [(c, cell(row, c)) for c in cols if not _text_cell(c, cell(row, c))]
        for c, value in typed:
            add(n, c, value, _TYPE_EXPECTED.get(c, "text"), what=f"found {describe_found(value)}")
        if typed:
            continue
        text = L.clean(cell(row, "text"))
        if text is None:
            add(n, "text", cell(row, "text"), "the statement text", what="found an empty cell")
            continue
        sid = L.clean(cell(row, "statement_id")) if "statement_id" in cols else None
        if "statement_id" in cols and sid is None:
            add(n, "statement_id", cell(row, "statement_id"), "a statement id (the column is present, so every "
                "row needs one)", what="found an empty cell")
            continue
        key = sid if sid is not None else text
        g = groups.get(key)
        if g is None:
            g = groups[key] = {"id": sid, "text": text, "rows": [], "relations": [], "context": None}
        elif g["text"] != text:
            add(n, "text", text, f"the text of row {g['rows'][0]}, which has the same statement_id {sid!r}",
                what=f"found {text[:60]!r}")
            continue
        context = L.clean(cell(row, "context"))
        if context is not None:
            if g["context"] is not None and g["context"] != context:
                add(n, "context", context, f"the context of {table.where(g['rows'][0])} of the same statement "
                    "(context belongs to the statement)")
                continue
            g["context"] = context
        g["rows"].append(n)
        cause_raw, effect_raw = cell(row, "cause"), cell(row, "effect")
        if _empty(cause_raw) and _empty(effect_raw):
            # A statement without a causal relation (the text is kept and counts as non-causal).
            filled = [c for c in _RELATION_ONLY if c in cols and not _empty(cell(row, c))]
            for c in filled:
                add(n, c, cell(row, c), "an empty cell, since the row has no cause and effect")
            continue
        rel = _relation(row, n, fname, cell, cols, add)
        if rel is not None:
            g["relations"].append(rel)
    if n_rows == 0:
        raise SchemaError(f"{fname}: the file has a header but no data rows")
    if strict and problems:
        extra = len(problems) - 1
        # The command line has no lenient mode: name the Python call that lists them, not a bare parameter.
        more = (f" (and {extra} more problem{'s' if extra > 1 else ''}; in Python, "
                f"causalgraph.datasets.load_relations(path, strict=False) lists every one)") if extra else ""
        raise SchemaError(problems[0].message + more)
    width = max(3, len(str(len(groups))))
    statements = []
    for i, g in enumerate(groups.values(), start=1):
        meta: dict = {"format": "relations"}
        if g["context"] is not None:
            meta["context"] = g["context"]
        statements.append(Statement(
            id=g["id"] if g["id"] is not None else f"{id_prefix}-{i:0{width}d}", text=g["text"],
            causal=bool(g["relations"]), relations=tuple(g["relations"]), meta=meta, source_file=fname,
            source_rows=tuple(g["rows"])))
    lacks = tuple(c for c in LABEL_COLUMNS if c not in cols)
    corpus = Corpus(name="relations", statements=statements, source=fname, sha256=sha256_file(p),
                    problems=list(problems), lacks=lacks,
                    report={"rows": n_rows, "blank_rows": blank, "problems": len(problems),
                            "ignored_columns": ignored})
    return corpus if strict else (corpus, list(problems))


def _relation(row, n, fname, cell, cols, add) -> Optional[Relation]:
    ok = True
    events = {}
    for c in ("cause", "effect"):
        raw = cell(row, c)
        if isinstance(raw, (list, dict, tuple)):
            # JSON Lines and Parquet cells can hold lists and objects; an event is one text.
            add(n, c, raw, "an event name (text)", what=f"found a {type(raw).__name__} {raw!r}")
            ok = False
            continue
        value = L.clean(raw)
        if value is None:
            add(n, c, raw, f"a{'n' if c == 'effect' else ''} {c} (the row names the "
                f"{'effect' if c == 'cause' else 'cause'}); leave both empty for a statement without causality",
                what="found an empty cell")
            ok = False
        elif unprintable_char(value):
            bad = unprintable_char(value)
            add(n, c, value, "text without control characters (tab and line breaks are fine)",
                what=f"found {value!r}, which holds the control character {bad!r} (U+{ord(bad):04X})")
            ok = False
        events[c] = value
    parsed: dict = {}
    for c, field, parser, acc in (("correlation", "correlation", L.parse_correlation, "correlation"),
                                  ("relation_type", "polarity", L.parse_polarity, "polarity"),
                                  ("explicitness", "explicitness", L.parse_explicitness, "explicitness")):
        if c not in cols:
            continue
        raw = cell(row, c)
        value = parser(raw)
        if value is None:
            # The column is there, so every relation needs the label: an empty cell is as bad as a typo.
            add(n, c, raw, L.ACCEPTED[acc], what="found an empty cell" if _empty(raw) else None)
            ok = False
        parsed[field] = value
    for c in ("nested", "combined"):
        if c not in cols:
            continue
        raw = cell(row, c)
        value, known = L.parse_yes_no(raw)
        if not known:
            add(n, c, raw, L.ACCEPTED["yes_no"])
            ok = False
        parsed[c] = value
    for c in ("cause_belongs_to", "effect_belongs_to"):
        if c in cols:
            v = L.clean(cell(row, c))
            parsed[c] = None if v == "/" else v  # the ClimateCause guidelines write "/" for nothing
    if not ok:
        return None
    return Relation(cause=events["cause"], effect=events["effect"], source_file=fname, source_row=n, **parsed)
