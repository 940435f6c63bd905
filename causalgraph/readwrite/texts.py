"""Texts from a file: one per line of a text file, or one column of a CSV or JSON Lines file.

What ``causalgraph readability --file FILE [--column COL]`` scores.  The
kind of file is read from its name:

* ``.csv``: a header row, then one text per row in the column ``--column``
  (default ``text``).  Rows are numbered as a spreadsheet shows them: the
  header is row 1, the first text row 2 (a blank line is an empty row, skipped).
* ``.jsonl`` / ``.ndjson``: one JSON object per line, the text under the key
  ``--column`` (default ``text``); rows are line numbers.  Blank lines are skipped.
* anything else: UTF-8 text, one text per line, surrounding whitespace
  stripped (as ``annotate --split lines``); blank lines are skipped and rows
  are the file's line numbers, so a score is found again at its line.

Every text must be a non-empty string: an empty cell, a missing key or a
number is an error naming the file, the row, the column, the value found and
what was expected, rather than a row quietly left out.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Optional, Union

from ..errors import ConfigError, SchemaError

__all__ = ["read_texts", "text_file_kind", "DEFAULT_COLUMN"]

#: The column (CSV) or key (JSONL) read when ``column`` is not given.
DEFAULT_COLUMN = "text"


def text_file_kind(path: Union[str, os.PathLike]) -> str:
    """``"csv"``, ``"jsonl"`` or ``"lines"``, from the file name.

    Examples
    --------
    >>> text_file_kind("abstracts.csv"), text_file_kind("a.JSONL"), text_file_kind("notes.txt")
    ('csv', 'jsonl', 'lines')
    """
    suffix = Path(path).suffix.lower()
    if suffix == ".csv":
        return "csv"
    if suffix in (".jsonl", ".ndjson"):
        return "jsonl"
    return "lines"


def _read(path: Path) -> str:
    try:
        with open(path, encoding="utf-8-sig", newline="") as fh:  # -sig: a BOM (Excel's CSV) is not text
            return fh.read()
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ConfigError(f"{path}: a folder; expected a text, CSV or JSONL file") from None
    except UnicodeDecodeError as exc:
        raise SchemaError(f"{path}: not UTF-8 text (byte {exc.start}); expected a UTF-8 file") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read it ({exc.strerror or exc})") from None


def _bad(path: Path, row: int, column: Optional[str], value, expected: str = "a non-empty text") -> SchemaError:
    where = f"{path}, row {row}" + (f", column {column!r}" if column is not None else "")
    return SchemaError(f"{where}: found {value!r:.60}; expected {expected}")


def read_texts(path: Union[str, os.PathLike], column: Optional[str] = None):
    """The texts of a file as a pandas Series indexed by row (see the module docstring for the kinds of file).

    Parameters
    ----------
    path
        A text file (one text per line), a ``.csv`` or a ``.jsonl`` file.
    column
        The CSV column or JSONL key holding the texts (default ``text``); a
        text file has no columns, so giving one is an error.

    Returns
    -------
    pandas.Series
        Texts (strings), index ``row`` (line numbers; spreadsheet rows for CSV).

    Raises
    ------
    ConfigError
        For a missing or unreadable file, a missing column, a column given for a text file.
    SchemaError
        For a row whose text is empty or not a string, or a JSONL line that is
        not an object, naming file, row, column and value.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "t.txt"
    >>> _ = p.write_text("Seas rise.\\n\\nIce melts.\\n", encoding="utf-8")
    >>> read_texts(p).to_dict()
    {1: 'Seas rise.', 3: 'Ice melts.'}
    """
    import pandas as pd

    path = Path(path)
    kind = text_file_kind(path)
    if kind == "lines" and column is not None:
        raise ConfigError(f"{path}: --column {column!r} given, but a text file has no columns (one text per line); "
                          "name the file .csv or .jsonl to read a column")
    col = column if column is not None else DEFAULT_COLUMN
    content = _read(path)
    rows: list[int] = []
    texts: list[str] = []
    if kind == "lines":
        for n, line in enumerate(content.split("\n"), start=1):  # \n only: rows are the lines an editor shows
            if line.strip():
                rows.append(n)
                texts.append(line.strip())
    elif kind == "csv":
        import csv
        import io

        try:
            reader = csv.reader(io.StringIO(content, newline=""))
            header = next(reader, None)
            if not header:
                raise ConfigError(f"{path}: empty; expected a header row naming a column {col!r}")
            if col not in header:
                raise ConfigError(f"{path}: no column {col!r}; the header has {', '.join(map(repr, header))} "
                                  "(choose one with --column)")
            at = header.index(col)
            for n, rec in enumerate(reader, start=2):
                if not rec:
                    continue  # a blank line: an empty row in a spreadsheet, holding no text
                value = rec[at] if at < len(rec) else None
                if not isinstance(value, str) or not value.strip():
                    raise _bad(path, n, col, value if value is not None else "nothing (a short row)")
                rows.append(n)
                texts.append(value)
        except csv.Error as exc:
            raise SchemaError(f"{path}, row {reader.line_num}: not CSV ({exc})") from None
    else:
        for n, line in enumerate(content.split("\n"), start=1):  # \n only: rows are the lines an editor shows
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise SchemaError(f"{path}, row {n}: not JSON ({exc.msg} at column {exc.colno}); expected one "
                                  "object per line") from None
            if not isinstance(obj, dict):
                raise _bad(path, n, None, obj, f"a JSON object with a key {col!r}")
            if col not in obj:
                raise SchemaError(f"{path}, row {n}: no key {col!r}; the object has "
                                  f"{', '.join(map(repr, list(obj)[:10])) or 'no keys'} (choose one with --column)")
            value = obj[col]
            if not isinstance(value, str) or not value.strip():
                raise _bad(path, n, col, value)
            rows.append(n)
            texts.append(value)
    if not texts:
        raise ConfigError(f"{path}: no text in it; expected "
                          + ("one text per line" if kind == "lines" else f"rows with a column {col!r}"))
    return pd.Series(texts, index=pd.Index(rows, name="row"), name="text", dtype=object)
