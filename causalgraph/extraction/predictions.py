"""Extraction predictions: read them from a run, a predictions file or a gold file.

Three sources give the same :class:`PredictionSet` (rows keyed by s/n):

* a run directory of ours (``causalgraph extract``): its
  ``predictions.json`` when present, else the labels of its
  ``responses.jsonl`` (what :func:`~causalgraph.extraction.tuples.parse_tuples`
  read when the answer came in);
* a predictions file as the authors' code writes it: a JSON object whose
  ``predictions`` list holds ``{"s/n", "sentence", "pairs"}``;
* a prepared PubMedCausal file (a JSON list of the same rows), which is how
  gold pairs are read as if they were predictions.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Sequence

from ..errors import SchemaError
from ..model import Corpus
from .tuples import ExtractedPair, pair_from_dict
from ..runlog.record import RunRecord
from ..runlog.store import load_run

__all__ = ["RowPrediction", "PredictionSet", "load_predictions", "predictions_from_corpus", "write_predictions",
           "records_to_predictions",
           "PREDICTIONS_FILE"]

PREDICTIONS_FILE = "predictions.json"


@dataclass(frozen=True)
class RowPrediction:
    """The pairs predicted for one row.

    ``null`` marks a response from which no tuple could be read; ``rule``
    says how the response was parsed (``None`` for pairs given as data).
    """

    sn: str
    sentence: Optional[str]
    pairs: tuple[ExtractedPair, ...]
    null: bool = False
    rule: Optional[str] = None
    issues: tuple[str, ...] = ()


@dataclass
class PredictionSet:
    """Predicted pairs per row, in the order of the source.

    Attributes
    ----------
    rows
        s/n (as a string) → :class:`RowPrediction`.
    source
        The file or folder read.
    kind
        ``run``, ``predictions`` (authors' format) or ``rows`` (a plain list).
    meta
        Model, strategy and other provenance when the source has them.
    asked
        The s/n of every row the source asked a model about, answered or
        not (a run's failed requests included); ``None``: the rows of
        ``rows`` (a file predicts exactly the rows it lists).
    """

    rows: dict[str, RowPrediction]
    source: str
    kind: str
    meta: dict = field(default_factory=dict)
    asked: Optional[tuple[str, ...]] = None

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def asked_rows(self) -> set[str]:
        """The s/n of the rows asked (:attr:`asked`, else those of :attr:`rows`)."""
        return set(self.rows) if self.asked is None else set(self.asked) | set(self.rows)

    @property
    def n_pairs(self) -> int:
        return sum(len(r.pairs) for r in self.rows.values())

    def rules(self) -> dict[str, int]:
        """How many rows each parse rule read, in order of first use."""
        out: dict[str, int] = {}
        for r in self.rows.values():
            if r.rule is not None:
                out[r.rule] = out.get(r.rule, 0) + 1
        return out


def _sn(value: Any, where: str) -> str:
    if value is None or (isinstance(value, str) and not value.strip()):
        raise SchemaError(f"{where}: no 's/n'; expected the row's serial number to align it with gold")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


def _rows_from_list(data: list, fname: str, kind: str) -> dict[str, RowPrediction]:
    rows: dict[str, RowPrediction] = {}
    for recno, rec in enumerate(data, start=1):
        where = f"{fname}: record {recno}"
        if not isinstance(rec, dict):
            raise SchemaError(f"{where}: expected an object with s/n, sentence and pairs, found {type(rec).__name__}")
        sn = _sn(rec.get("s/n", rec.get("sn", rec.get("id"))), where)
        if sn in rows:
            raise SchemaError(f"{where}: s/n {sn!r} appears twice; expected one record per row")
        raw_pairs = rec.get("pairs")
        if raw_pairs is None:
            raw_pairs = []
        if not isinstance(raw_pairs, list):
            raise SchemaError(f"{where}, field 'pairs': expected a list, found {type(raw_pairs).__name__}")
        issues: list[str] = []
        pairs = []
        for j, pr in enumerate(raw_pairs, start=1):
            if isinstance(pr, (list, tuple)) and 2 <= len(pr) <= 4 and all(isinstance(x, str) for x in pr):
                # [cause, effect] or [cause, effect, causality, sententiality]
                pr = dict(zip(("cause", "effect", "causality", "sententiality"), pr))
            if not isinstance(pr, dict):
                raise SchemaError(f"{where}, field 'pairs[{j}]': expected an object with cause and effect "
                                  f"(or a [cause, effect] list), found {pr!r}")
            p = pair_from_dict(pr, issues, j, clean=False)
            if p is None:
                raise SchemaError(f"{where}, field 'pairs[{j}]': {issues[-1].split(': ', 1)[1].removesuffix('; skipped')}; "
                                  "expected both cause and effect")
            pairs.append(p)
        rows[sn] = RowPrediction(sn, rec.get("sentence"), tuple(pairs), bool(rec.get("null", False)),
                                 rec.get("rule"), tuple(issues))
    return rows


def _from_file(p: Path) -> PredictionSet:
    try:
        data = json.loads(p.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError) as exc:
        raise SchemaError(f"{p}: cannot read ({exc})") from None
    except json.JSONDecodeError as exc:
        raise SchemaError(f"{p}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    if isinstance(data, dict):
        if not isinstance(data.get("predictions"), list):
            raise SchemaError(f"{p}: a JSON object without a 'predictions' list; expected "
                              '{"predictions": [{"s/n", "sentence", "pairs"}, ...]} or a list of rows')
        meta = {k: v for k, v in data.items() if k != "predictions" and not isinstance(v, (list, dict))}
        return PredictionSet(_rows_from_list(data["predictions"], str(p), "predictions"), str(p), "predictions", meta)
    if isinstance(data, list):
        return PredictionSet(_rows_from_list(data, str(p), "rows"), str(p), "rows")
    raise SchemaError(f"{p}: expected a JSON object with 'predictions' or a list of rows, found {type(data).__name__}")


def _asked(run, d: Path) -> tuple[str, ...]:
    """The s/n of every record of a run, failed requests included: the rows it asked."""
    out: dict[str, None] = {}
    for n, rec in enumerate(run.responses, start=1):
        sn = rec.meta.get("s/n")
        if sn is not None:
            out[_sn(sn, f"{d}/responses.jsonl: line {n} ({rec.item_id})")] = None
    return tuple(out)


def _from_run(d: Path) -> PredictionSet:
    pf = d / PREDICTIONS_FILE
    if pf.is_file():
        ps = _from_file(pf)
        ps.kind = "run"
        ps.source = str(d)
        if (d / "responses.jsonl").is_file() and (d / "manifest.json").is_file():
            ps.asked = _asked(load_run(d), d)
        return ps

    run = load_run(d)
    if len(run.variants) > 1:
        files = ", ".join(f"predictions.{v}.json" for v in run.variants)
        raise SchemaError(f"{d}: the run holds {len(run.variants)} strategies ({', '.join(run.variants)}); "
                          f"evaluate one of its files instead: {files}")
    rows: dict[str, RowPrediction] = {}
    for n, rec in enumerate(run.responses, start=1):
        meta = rec.meta or {}
        if rec.error:
            continue  # an item never answered has no prediction: its gold pairs count as missed
        sn = _sn(meta.get("s/n"), f"{d}/responses.jsonl: line {n} ({rec.item_id})")
        # The runner stored what the parser read (label: the pairs, None for a null answer; rule): read
        # that, never the raw response a second time (`bench parse` re-parses a run on purpose).
        label = rec.label
        pairs = tuple(p for j, g in enumerate(label or [], start=1)
                      if (p := pair_from_dict(g, [], j, clean=False)) is not None)
        rows[sn] = RowPrediction(sn, meta.get("sentence"), pairs, label is None, rec.rule)
    return PredictionSet(rows, str(d), "run", {"model": run.manifest.model, "task": run.manifest.task,
                                              "variants": run.manifest.variants}, asked=_asked(run, d))


def load_predictions(source: str | Path | PredictionSet) -> PredictionSet:
    """Read predictions from a run directory, a predictions/rows JSON file or a Corpus.

    Examples
    --------
    >>> ps = load_predictions("runs/smollm2-zs")          # doctest: +SKIP
    >>> ps.n_pairs, ps.rules()                           # doctest: +SKIP
    (12, {'braces': 5, 'unparsed': 3})
    """
    if isinstance(source, PredictionSet):
        return source
    if isinstance(source, Corpus):
        # A loaded corpus predicts its own pairs (gold against gold, or a corpus built elsewhere).
        return predictions_from_corpus(source)
    if not isinstance(source, (str, os.PathLike)):
        raise SchemaError(f"cannot read predictions from a {type(source).__name__}; expected a run directory, "
                          "a predictions file, a PredictionSet or a Corpus")
    p = Path(source).expanduser()
    if p.is_dir():
        return _from_run(p)
    if p.is_file():
        return _from_file(p)
    raise SchemaError(f"{p}: no such run directory or predictions file")


def predictions_from_corpus(corpus: Corpus) -> PredictionSet:
    """The gold pairs of a loaded PubMedCausal corpus, as a prediction set.

    Examples
    --------
    >>> from causalgraph import load_pubmedcausal
    >>> predictions_from_corpus(load_pubmedcausal(split="test")).n_pairs  # doctest: +SKIP
    3199
    """
    rows = {}
    for st in corpus:
        sn = str(st.meta.get("s/n", st.id.removeprefix("pmc-")))
        rows[sn] = RowPrediction(sn, st.text, tuple(ExtractedPair(r.cause, r.effect, r.explicitness, r.sententiality)
                                                    for r in st.relations))
    return PredictionSet(rows, corpus.source or corpus.name, "corpus", {"corpus": corpus.name})


def write_predictions(ps: PredictionSet, path: str | Path, **meta: Any) -> Path:
    """Write predictions in the authors' format (plus ``null`` and ``rule`` per row).

    Examples
    --------
    >>> write_predictions(ps, "runs/x/predictions.json", model="mock/oracle")  # doctest: +SKIP
    """
    p = Path(path)
    out = {**ps.meta, **meta, "predictions": [
        {"s/n": int(r.sn) if r.sn.isdigit() else r.sn, "sentence": r.sentence,
         "pairs": [x.to_dict() for x in r.pairs], "null": r.null, "rule": r.rule, "issues": list(r.issues)}
        for r in ps.rows.values()]}
    tmp = p.with_name(f".{p.name}.tmp")
    tmp.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(p)
    return p


def records_to_predictions(records: Sequence[RunRecord], source: str = "run",
                           order: Optional[Sequence[str]] = None) -> tuple[PredictionSet, PredictionSet]:
    """(predictions, gold) of answered extraction records, from their labels and ``meta``.

    Records that failed (``error``) are left out of both: they were never
    answered.  Rows follow ``order`` (s/n values, e.g. the corpus order) when
    given, else the order of the records; concurrent runs write records in
    completion order, so pass ``order`` for a file that does not depend on it.
    """
    if order is not None:
        rank = {str(sn): i for i, sn in enumerate(order)}
        records = sorted(records, key=lambda r: rank.get(str(r.meta.get("s/n")), len(rank)))
    preds: dict[str, RowPrediction] = {}
    gold: dict[str, RowPrediction] = {}
    for n, rec in enumerate(records, start=1):
        if rec.error:
            continue
        meta = rec.meta or {}
        sn = str(meta.get("s/n", meta.get("statement_id", n)))
        label = rec.label
        pairs = tuple(p for j, d in enumerate(label or [], start=1)
                      if (p := pair_from_dict(d, [], j, clean=False)) is not None)
        preds[sn] = RowPrediction(sn, meta.get("sentence"), pairs, label is None, rec.rule)
        gold[sn] = RowPrediction(sn, meta.get("sentence"), tuple(
            p for j, g in enumerate(meta.get("pairs") or [], start=1)
            if (p := pair_from_dict(g, [], j, clean=False)) is not None))
    return PredictionSet(preds, source, "run"), PredictionSet(gold, source, "rows")
