"""The corpus model: relations, statements, corpora and their label enums.

Both corpora load into the same records.  A ClimateCause relation uses every
field; a PubMedCausal pair fills cause/effect (its spans serve as NP and
no-quantifier forms), explicitness (the paper's "causality type") and
sententiality.
"""

from __future__ import annotations

import enum
import re
import unicodedata
from dataclasses import dataclass, field, fields
from typing import Iterator, Optional
from ..errors import ConfigError
from .._core.wording import plural

__all__ = [
    "Correlation",
    "Polarity",
    "Explicitness",
    "Sententiality",
    "Relation",
    "Statement",
    "Corpus",
    "Problem",
    "as_statements",
    "is_blank",
    "unprintable_char",
]


def is_blank(text: object) -> bool:
    """True when ``text`` shows nothing: empty, or only whitespace and invisible characters.

    Invisible means a control or format character (zero-width space, BOM,
    word joiner …): a cell holding only those looks empty to a person, so
    it must not become an event that prints as nothing.  Anything that is
    not a string is not blank (callers check types themselves).

    Examples
    --------
    >>> [is_blank(t) for t in ("", "  ", "\u200b\ufeff", "\xa0\t", "a", " a ")]
    [True, True, True, True, False, False]
    """
    if not isinstance(text, str):
        return False
    return all(ch.isspace() or unicodedata.category(ch) in ("Cc", "Cf") for ch in text)


# Characters XML 1.0 can hold (https://www.w3.org/TR/xml/#charsets): tab, line feed, carriage
# return and everything from U+0020 except lone surrogates and U+FFFE/U+FFFF.
_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def unprintable_char(text: str) -> Optional[str]:
    r"""The first character of ``text`` that XML 1.0 cannot hold (a C0 control other than tab and line
    ends, a lone surrogate, U+FFFE, U+FFFF), or ``None``.

    Such a character cannot be written in a GraphML document at all (not even as a character
    reference), so an event holding one has no GraphML encoding: loaders refuse it row by row and
    the GraphML encoder names it.

    Examples
    --------
    >>> unprintable_char("CO2\x07 rise"), unprintable_char("tab\tand newline\n are fine")
    ('\x07', None)
    """
    m = _NOT_XML.search(text)
    return m.group() if m else None


class _Label(str, enum.Enum):
    """A label whose value is its canonical lowercase spelling."""

    def __str__(self) -> str:  # prints as "positive", not "Correlation.POSITIVE"
        return self.value

    @property
    def sign(self) -> int:
        """+1 for a positive label, -1 for a negative one (signed labels only)."""
        if self.value == "positive":
            return 1
        if self.value == "negative":
            return -1
        raise AttributeError(f"{type(self).__name__} has no sign")


class Correlation(_Label):
    """Direction of the association between cause and effect.

    positive: increase → increase (or decrease → decrease);
    negative: increase → decrease (or decrease → increase).
    """

    POSITIVE = "positive"
    NEGATIVE = "negative"


class Polarity(_Label):
    """The paper's *relation type*: positive = causes, negative = prevents."""

    POSITIVE = "positive"
    NEGATIVE = "negative"


class Explicitness(_Label):
    """Whether the trigger conveys the relation explicitly (E) or implicitly (I).

    PubMedCausal calls the same distinction its *causality type*.
    """

    EXPLICIT = "explicit"
    IMPLICIT = "implicit"


class Sententiality(_Label):
    """Whether cause and effect lie in one sentence (intra) or across sentences (inter)."""

    INTRA = "intra"
    INTER = "inter"


@dataclass(frozen=True)
class Problem:
    """One problem found while loading a file (used by lenient loading).

    ``row`` is the row as a person sees it in the spreadsheet (the header is
    row 1) or the 1-based record number in a JSON list; ``None`` when the
    problem concerns the whole file.
    """

    file: str
    row: Optional[int]
    column: Optional[str]
    value: object
    expected: str
    message: str

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class Relation:
    """One annotated cause → effect relation.

    ``cause`` and ``effect`` are the no-quantifier forms, the events that
    graphs and metrics are built on; the other forms are kept alongside.
    Labels that a corpus does not annotate are ``None``.
    """

    cause: str
    effect: str
    cause_np: Optional[str] = None
    effect_np: Optional[str] = None
    cause_context: Optional[str] = None
    effect_context: Optional[str] = None
    cause_belongs_to: Optional[str] = None
    effect_belongs_to: Optional[str] = None
    trigger: Optional[str] = None
    combined: Optional[bool] = None
    nested: Optional[bool] = None
    explicitness: Optional[Explicitness] = None
    polarity: Optional[Polarity] = None
    correlation: Optional[Correlation] = None
    confidence: Optional[str] = None
    abbreviations: Optional[str] = None
    sententiality: Optional[Sententiality] = None
    source_file: Optional[str] = None
    source_row: Optional[int] = None

    def key(self) -> tuple:
        """The annotation content without provenance.

        Two relations with the same key are the same annotation written
        twice (the paper's "identical relations count once").
        """
        return tuple(
            getattr(self, f.name) for f in fields(self) if f.name not in ("source_file", "source_row")
        )

    def to_dict(self) -> dict:
        """A flat dict with labels as their canonical strings."""
        out = {}
        for f in fields(self):
            v = getattr(self, f.name)
            out[f.name] = v.value if isinstance(v, enum.Enum) else v
        return out


@dataclass(frozen=True)
class Statement:
    """A statement (a ClimateCause text or a PubMedCausal row) and its relations.

    ``causal`` is the annotated presence of causality; for a causal
    statement ``relations`` is non-empty.  ``meta`` holds corpus-specific
    provenance (section, paragraph, statement links, s/n …).
    """

    id: str
    text: str
    causal: bool
    relations: tuple[Relation, ...] = ()
    meta: dict = field(default_factory=dict, compare=False, hash=False)
    source_file: Optional[str] = None
    source_rows: tuple[int, ...] = ()

    def unique_relations(self) -> list[Relation]:
        """Relations with duplicates (same :meth:`Relation.key`) removed, first kept."""
        seen: set = set()
        out = []
        for r in self.relations:
            k = r.key()
            if k not in seen:
                seen.add(k)
                out.append(r)
        return out


@dataclass
class Corpus:
    """An ordered collection of statements, with where they came from.

    ``problems`` lists everything a lenient load reported; ``report`` holds
    loader statistics such as how many labels were normalised.  ``lacks``
    names what the source does not hold, in the column names of the
    relations format (docs/data.md): ``"text"`` for graph files,
    ``"correlation"``, ``"relation_type"``, ``"nested"`` … for a relations
    file without those columns.  Metrics that read a lacking label are NaN
    and tasks that need one are refused; the two released corpora lack
    nothing (PubMedCausal's unannotated labels read as today).
    """

    name: str
    statements: list[Statement]
    source: Optional[str] = None
    sha256: Optional[str] = None
    problems: list[Problem] = field(default_factory=list)
    report: dict = field(default_factory=dict)
    lacks: tuple[str, ...] = ()

    def __len__(self) -> int:
        return len(self.statements)

    def __repr__(self) -> str:
        """A one-line summary, as pandas shows a frame: the dataclass's own repr spelled out every
        statement and relation (2.8 MB for PubMedCausal's test split).

        Examples
        --------
        >>> c = Corpus("demo", [Statement(f"s{i}", "t", True, (Relation("a", "b"),)) for i in range(1, 7)])
        >>> c
        <Corpus 'demo': 6 statements (s1, s2, s3, …, s6), 6 relations>
        """
        ids = [s.id for s in self.statements]
        shown = ", ".join(ids if len(ids) <= 4 else [*ids[:3], "…", ids[-1]])
        n_rel = sum(len(s.relations) for s in self.statements)
        parts = [f"{plural(len(ids), 'statement')}" + (f" ({shown})" if ids else ""), plural(n_rel, "relation")]
        if self.source:
            parts.append(f"source {self.source!r}")
        if self.sha256:
            parts.append(f"sha256 {self.sha256[:12]}…")
        if self.problems:
            parts.append(plural(len(self.problems), "problem"))
        if self.lacks:
            parts.append(f"lacks {', '.join(self.lacks)}")
        return f"<Corpus {self.name!r}: {', '.join(parts)}>"

    def __iter__(self) -> Iterator[Statement]:
        return iter(self.statements)

    def __getitem__(self, key: int | str) -> Statement:
        """Index by position, or by statement id (``corpus["cc-007"]``)."""
        if isinstance(key, str):
            for s in self.statements:
                if s.id == key:
                    return s
            raise KeyError(f"no statement with id {key!r} in corpus {self.name!r}")
        return self.statements[key]

    @property
    def relations(self) -> list[Relation]:
        """All relations of all statements, in data order."""
        return [r for s in self.statements for r in s.relations]

    def causal_statements(self) -> list[Statement]:
        """The statements annotated as causal."""
        return [s for s in self.statements if s.causal]

    def to_frame(self):
        """One row per statement: id, text, causal, number of relations, meta fields.

        Examples
        --------
        >>> from causalgraph import load_climatecause
        >>> load_climatecause().to_frame().shape[0]  # doctest: +SKIP
        75
        """
        import pandas as pd

        rows = []
        for s in self.statements:
            row = {"statement_id": s.id, "statement": s.text, "causal": s.causal, "n_relations": len(s.relations)}
            row.update({k: v for k, v in s.meta.items()})
            rows.append(row)
        return pd.DataFrame(rows)

    def relations_frame(self):
        """One row per relation, with the statement id in front.

        Examples
        --------
        >>> from causalgraph import load_climatecause
        >>> load_climatecause().relations_frame().shape[0]  # doctest: +SKIP
        874
        """
        import pandas as pd

        cols = ["statement_id"] + [f.name for f in fields(Relation)]
        rows = [{"statement_id": s.id, **r.to_dict()} for s in self.statements for r in s.relations]
        return pd.DataFrame(rows, columns=cols)


def as_statements(corpus) -> list[Statement]:
    """The statements of a Corpus or of any iterable of statements, checked.

    Metric tables accept either; anything else is a
    :class:`~causalgraph.errors.ConfigError` naming the offending item.

    Examples
    --------
    >>> len(as_statements([Statement("s1", "t", False)]))
    1
    """
    stmts = list(corpus)
    for i, s in enumerate(stmts):
        if not isinstance(s, Statement):
            raise ConfigError(f"item {i} of the corpus is a {type(s).__name__}, expected a Statement")
    return stmts
