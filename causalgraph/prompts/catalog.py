"""Reading the prompt catalogs packaged in ``causalgraph/prompts/``: one loader for every catalog.

A catalog is a folder of data files under ``causalgraph/prompts/`` (the
ClimateCause variants, the PubMedCausal strategies, the annotation prompt,
and any catalog added later).  Its module reads them with three calls:

:func:`read_text`
    a prompt text (``instructions.txt``, ``extraction/zero_shot.txt``);
:func:`read_json`
    a JSON document;
:func:`load_catalog`
    a JSON document whose top-level fields, and the fields of each entry
    of one list in it, are checked against the types the module expects.

Files are read from the installed package (:mod:`importlib.resources`), so
the catalogs work from a wheel as from a checkout.  Every problem is a
:class:`~causalgraph.errors.SchemaError` naming the file, the entry (its
position and id) and the field, with what was found and what was expected:
a catalog that does not match its module is a broken installation or a
mistake in the data file, never something a user typed.

Examples
--------
>>> doc = load_catalog("climatecause", "corri.json", required={"variants": list},
...                    entries="variants", entry_required={"id": str, "template": str})
>>> doc["variants"][0]["id"]
'0_1'
>>> read_text("annotation", "statement.txt").strip()
'Statement: {statement}'
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any, Mapping, Optional, Union

from ..errors import SchemaError

__all__ = ["catalog_path", "read_text", "read_json", "check_fields", "load_catalog"]

#: A field's expected type: a type, or a tuple of types any of which will do.
FieldType = Union[type, tuple]

_TYPE_NAMES = {str: "a string", list: "a list", dict: "an object", bool: "true or false", int: "an integer",
               float: "a number"}


def catalog_path(folder: str, name: str) -> str:
    """The file's path as error messages write it: ``causalgraph/prompts/<folder>/<name>``.

    Examples
    --------
    >>> catalog_path("pubmedcausal", "extraction/cot.txt")
    'causalgraph/prompts/pubmedcausal/extraction/cot.txt'
    """
    return f"causalgraph/prompts/{folder}/{name}"


@lru_cache(maxsize=None)
def read_text(folder: str, name: str) -> str:
    """The text of a packaged prompt file (UTF-8), as written.

    Parameters
    ----------
    folder
        The catalog's folder under ``causalgraph/prompts/`` (``"annotation"``).
    name
        The file, possibly in a sub-folder (``"extraction/cot.txt"``).

    Raises
    ------
    SchemaError
        The file is missing or is not UTF-8 text.

    Examples
    --------
    >>> read_text("annotation", "system.txt").split()[:3]
    ['You', 'are', 'an']
    """
    path = resources.files(__package__).joinpath(folder, *name.split("/"))
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SchemaError(f"prompt catalog file {catalog_path(folder, name)} is missing from the installed "
                          "package (a broken installation?)") from None
    except UnicodeDecodeError as exc:
        raise SchemaError(f"prompt catalog file {catalog_path(folder, name)}: byte {exc.start} is not UTF-8; "
                          "expected UTF-8 text") from None


def read_json(folder: str, name: str) -> Any:
    """A packaged JSON file, parsed (a new object on every call, so callers may change it).

    Raises
    ------
    SchemaError
        The file is missing, or is not JSON (the message gives line and column).

    Examples
    --------
    >>> sorted(read_json("pubmedcausal", "catalog.json")["tasks"])
    ['pubmedcausal-detect', 'pubmedcausal-extract']
    """
    text = read_text(folder, name)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise SchemaError(f"prompt catalog file {catalog_path(folder, name)}, line {exc.lineno} column {exc.colno}: "
                          f"not valid JSON ({exc.msg})") from None


def _expected(kind: FieldType) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(_TYPE_NAMES.get(k, k.__name__) for k in kinds)


def _found(value: Any) -> str:
    if value is None:
        return "null"
    shown = repr(value)
    return f"{type(value).__name__} {shown if len(shown) <= 40 else shown[:37] + '...'}"


def _is(value: Any, kind: FieldType) -> bool:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    # JSON true/false are Python bools, which are also ints: an integer field does not take them.
    return isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)


def check_fields(entry: Any, where: str, required: Mapping[str, FieldType],
                 optional: Optional[Mapping[str, FieldType]] = None) -> dict:
    """Check one catalog object: required fields present with their types, optional ones typed or null.

    Fields not named are allowed (catalogs carry notes and provenance).

    Parameters
    ----------
    entry
        The object read from the file.
    where
        How the message names it: ``"causalgraph/prompts/x/y.json, variants[2] (id 'F_1')"``.
    required, optional
        Field → expected type (or tuple of types).  An optional field may be
        missing or ``null``.

    Returns
    -------
    dict
        ``entry`` itself, once checked.

    Examples
    --------
    >>> check_fields({"id": "a", "n": 2}, "demo.json", {"id": str}, {"n": int})
    {'id': 'a', 'n': 2}
    >>> check_fields({"id": 3}, "demo.json, entries[0]", {"id": str})
    Traceback (most recent call last):
    ...
    causalgraph.errors.SchemaError: demo.json, entries[0]: field 'id' is int 3; expected a string
    """
    if not isinstance(entry, dict):
        raise SchemaError(f"{where}: found {_found(entry)}; expected an object with fields "
                          f"{', '.join(map(repr, required))}")
    for key, kind in required.items():
        if key not in entry:
            raise SchemaError(f"{where}: field {key!r} is missing; expected {_expected(kind)}")
        if not _is(entry[key], kind):
            raise SchemaError(f"{where}: field {key!r} is {_found(entry[key])}; expected {_expected(kind)}")
    for key, kind in (optional or {}).items():
        value = entry.get(key)
        if value is not None and not _is(value, kind):
            raise SchemaError(f"{where}: field {key!r} is {_found(value)}; expected {_expected(kind)} or null")
    return entry


def load_catalog(folder: str, name: str, *, required: Mapping[str, FieldType],
                 optional: Optional[Mapping[str, FieldType]] = None, entries: Optional[str] = None,
                 entry_required: Optional[Mapping[str, FieldType]] = None,
                 entry_optional: Optional[Mapping[str, FieldType]] = None, entry_name: str = "id") -> dict:
    """Read a packaged JSON catalog and check its fields and those of its entries.

    Parameters
    ----------
    folder, name
        The file, as for :func:`read_json`.
    required, optional
        Top-level fields (see :func:`check_fields`).
    entries
        A top-level list field whose items are entries (``"variants"``);
        ``None`` when the catalog has no such list.  It must be named in
        ``required`` as a ``list``.
    entry_required, entry_optional
        The fields of every entry.
    entry_name
        The entry field that messages quote to say which entry is wrong
        (besides its position).

    Returns
    -------
    dict
        The parsed document (a new object on every call).

    Raises
    ------
    SchemaError
        Naming the file, the entry (``variants[3] (id 'F_2')``) and the field.

    Examples
    --------
    >>> doc = load_catalog("annotation", "exemplars.json", required={"exemplars": list}, entries="exemplars",
    ...                    entry_required={"id": str, "statement": str, "answer": dict})
    >>> len(doc["exemplars"])
    4
    """
    path = catalog_path(folder, name)
    doc = check_fields(read_json(folder, name), path, required, optional)
    if entries is not None:
        for i, entry in enumerate(doc[entries]):
            label = entry.get(entry_name) if isinstance(entry, dict) else None
            where = f"{path}, {entries}[{i}]" + (f" ({entry_name} {label!r})" if isinstance(label, str) else "")
            check_fields(entry, where, entry_required or {}, entry_optional)
    return doc
