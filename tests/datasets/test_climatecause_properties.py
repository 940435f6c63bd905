"""Properties of the ClimateCause CSV loader: any text in any field survives a csv.writer round trip.

Rows are written with ``csv.writer`` (what a spreadsheet export or a script produces) with arbitrary
text, quotes, commas, every kind of line break and invisible characters in the free-text fields, and
labels from the accepted spellings or a misspelt one.  Loading gives back exactly the relations
written (trimmed, ``/`` read as nothing), or a SchemaError naming the first row at fault, the row
a spreadsheet shows (the header is row 1).
"""

from __future__ import annotations

import csv
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from causalgraph import Correlation, Explicitness, Polarity, SchemaError, load_climatecause
from causalgraph.model import is_blank

HEADERS = ["statement", "ipccText", "Causal?", "Trigger", "Explicit/implicit",
           "Causation: Positive/Negative (causes/doesn't cause or produce/do_not_produce)",
           "Correlation (positive/negative or increase-increase/increase-decrease)",
           "Cause--NP", "Effect--NP", "Cause_no_quantifier", "Effect_no_quantifier",
           "cause belongs to", "effect belongs to", "Combined", "confidenceLabel", "Nested causality"]

# Characters that break records or fields in one reader or another: CSV's own, every line end
# str.splitlines knows, invisible ones.  UTF-8 cannot hold lone surrogates, so they are left out.
TRICKY = ['"', ",", "\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u2029", "\ufeff",
          "\u200b", "\x00", " ", "\t", "/"]
free_text = st.lists(st.one_of(st.sampled_from(TRICKY), st.characters(exclude_categories=("Cs",))),
                     max_size=8).map("".join)

CORRELATIONS = {"Positive_correlation": Correlation.POSITIVE, "increase-decrease": Correlation.NEGATIVE}
POLARITIES = {"Positive": Polarity.POSITIVE, "Negative": Polarity.NEGATIVE}
EXPLICITNESS = {"E": Explicitness.EXPLICIT, "I": Explicitness.IMPLICIT}
YES_NO = {"": None, "Yes": True, "No": False}


def _clean(value: str):
    return None if is_blank(value) else value.strip()


def _slash(value: str):
    v = _clean(value)
    return None if v == "/" else v


rows = st.lists(st.fixed_dictionaries({
    "text": free_text, "trigger": free_text, "cause": free_text, "effect": free_text,
    "cause_np": free_text, "effect_np": free_text, "cb": free_text, "eb": free_text, "conf": free_text,
    # a misspelt label now and then: its row must be the one named
    "corr": st.sampled_from([*CORRELATIONS, "Positiv"]),
    "pol": st.sampled_from(list(POLARITIES)), "expl": st.sampled_from(list(EXPLICITNESS)),
    "combined": st.sampled_from(list(YES_NO)), "nested": st.sampled_from(list(YES_NO)),
}), min_size=1, max_size=4)


def _fields(r: dict) -> list[str]:
    return ["http://x/1", r["text"], "Yes", r["trigger"], r["expl"], r["pol"], r["corr"], r["cause_np"],
            r["effect_np"], r["cause"], r["effect"], r["cb"], r["eb"], r["combined"], r["conf"], r["nested"]]


# Characters XML 1.0 cannot hold: an event holding one has no GraphML encoding, so the loaders refuse
# it row by row (written here independently of causalgraph.model.unprintable_char).
_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _expected(written: list[dict]) -> tuple[list[tuple], list[int], set[int]]:
    """The relations a reader must find (statement by statement, rows in order), the rows at fault,
    and the rows a reader must refuse because an event holds a character XML cannot hold."""
    groups: dict[str, list[tuple]] = {}
    bad: list[int] = []
    unholdable: set[int] = set()
    for rownum, r in enumerate(written, start=2):
        text = _clean(r["text"])
        if text is None:
            bad.append(rownum)
            continue
        rels = groups.setdefault(text, [])
        if _clean(r["cause"]) is None or _clean(r["effect"]) is None or r["corr"] not in CORRELATIONS:
            bad.append(rownum)
            if _clean(r["cause"]) is None or _clean(r["effect"]) is None:
                continue  # no relation without both events; a misspelt label is kept as None
        if _NOT_XML.search(_clean(r["cause"]) + _clean(r["effect"])):
            unholdable.add(rownum)
        rels.append((rownum, _clean(r["cause"]), _clean(r["effect"]), _clean(r["cause_np"]), _clean(r["effect_np"]),
                     _slash(r["trigger"]), _slash(r["cb"]), _slash(r["eb"]), _clean(r["conf"]),
                     CORRELATIONS.get(r["corr"]), POLARITIES[r["pol"]], EXPLICITNESS[r["expl"]],
                     YES_NO[r["combined"]], YES_NO[r["nested"]]))
    return [rel for rels in groups.values() for rel in rels], bad, unholdable


def _found(corpus) -> list[tuple]:
    return [(r.source_row, r.cause, r.effect, r.cause_np, r.effect_np, r.trigger, r.cause_belongs_to,
             r.effect_belongs_to, r.confidence, r.correlation, r.polarity, r.explicitness, r.combined, r.nested)
            for r in corpus.relations]


@settings(max_examples=250)
@given(rows)
def test_any_text_written_with_csv_writer_loads_back_or_names_its_row(tmp_path_factory, written):
    path = tmp_path_factory.mktemp("csv") / "cc.csv"
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(HEADERS)
        w.writerows(_fields(r) for r in written)
    relations, bad, unholdable = _expected(written)
    if all(_clean(r["text"]) is None for r in written):
        # no statement at all: the file is refused as a whole
        try:
            load_climatecause(path, strict=False)
        except SchemaError as exc:
            assert re.search(r"cc\.csv: (the file has a header but no data rows|row \d)", str(exc)), str(exc)
        return
    corpus, problems = load_climatecause(path, strict=False)
    named = sorted({q.row for q in problems})
    # every row at fault is named, rows whose events XML cannot hold too, and no other row
    assert named == sorted(set(bad) | unholdable)
    # every relation comes back exactly as written, except those refused for an event XML cannot hold
    assert _found(corpus) == [rel for rel in relations if rel[0] not in unholdable]
    assert [s.text for s in corpus.statements] == list(dict.fromkeys(
        _clean(r["text"]) for r in written if _clean(r["text"]) is not None))
    if named:
        try:
            load_climatecause(path)
        except SchemaError as exc:
            assert re.match(rf"{re.escape(str(path))}: row {named[0]}\b", str(exc)), str(exc)
        else:
            raise AssertionError(f"strict loading accepted a file with problems in rows {named}")
    else:
        assert _found(load_climatecause(path)) == relations


def test_csv_field_holding_a_carriage_return_keeps_it(tmp_path):
    # Found by the property above: the field '"\r"' came back as '"\n"' (the file was read with
    # universal newlines).
    written = [{"text": "A\rraises B.", "trigger": "rai\rses", "cause": "a\r\nx", "effect": "b", "cause_np": "",
                "effect_np": "", "cb": "", "eb": "", "conf": '"\r"', "corr": "Positive_correlation",
                "pol": "Positive", "expl": "E", "combined": "", "nested": ""}]
    path = tmp_path / "cc.csv"
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(HEADERS)
        w.writerows(_fields(r) for r in written)
    corpus = load_climatecause(path)
    assert corpus.statements[0].text == "A\rraises B."
    assert _found(corpus) == _expected(written)[0]
    assert corpus.relations[0].cause == "a\r\nx" and corpus.relations[0].trigger == "rai\rses"
