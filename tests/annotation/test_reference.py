"""C(s) beyond the corpus: reference ranges and the score of one annotated statement."""

from __future__ import annotations

import pytest

from causalgraph.annotation.reference import PAPER_RANGES, ReferenceRanges, climatecause_ranges, normalized_complexity
from causalgraph.annotation.text_scores import score_statement
from causalgraph.metrics.complexity import METRICS, Complexity, complexity, complexity_table
from causalgraph.model import Correlation, Relation, Statement


def test_climatecause_ranges_reproduce_the_paper(climatecause):
    ref = climatecause_ranges()
    assert ref.n_statements == 75
    # §5.2.1: C^com=[0,12], C^ex=[0,16], C^nest=[0,20.93], C^corr=[0,70], C^pol=[0,40]
    for m in METRICS:
        assert ref.ranges[m][0] == 0
        assert ref.ranges[m][1] == pytest.approx(PAPER_RANGES.ranges[m][1], abs=0.005)
    # ... and are the min/max of the metrics computed statement by statement.
    per = [complexity(s) for s in climatecause]
    assert ref.ranges["corr"][1] == max(c.corr for c in per)


def test_score_statement_of_a_corpus_statement_equals_its_corpus_c_s(climatecause):
    table = complexity_table(climatecause).set_index("statement_id")
    for sid in ("cc-001", "cc-012", "cc-059"):
        s = score_statement(climatecause[sid])
        assert s.c_s == pytest.approx(table.loc[sid, "c_norm"]), sid
        assert s.complexity["reference"]["name"] == "climatecause"
    assert max(table.c_norm) == pytest.approx(1.821, abs=5e-4)  # the paper's max C(s)


def test_normalized_complexity_does_not_clip_values_beyond_the_range():
    ref = ReferenceRanges("small", {"com": (0, 1), "ex": (0, 1), "nest": (0, 1), "corr": (0, 2), "pol": (0, 1)})
    out = normalized_complexity(Complexity(com=0, ex=0, nest=0.0, corr=5, pol=1), ref)
    assert out["norm"]["corr"] == 2.5 and out["c_s"] == 3.5 and out["beyond_range"] == ["corr"]


def test_normalized_complexity_gives_zero_for_an_empty_reference_range():
    ref = ReferenceRanges("flat", {m: (0, 0) for m in METRICS})
    out = normalized_complexity(Complexity(com=3, ex=0, nest=0.0, corr=0, pol=0), ref)
    assert out["c_s"] == 0.0 and out["beyond_range"] == ["com"]


def test_score_statement_adds_the_classic_readability_formulas():
    st = Statement("d", "The cat sat on the mat.", True,
                   (Relation("cat", "mat", correlation=Correlation.NEGATIVE),))
    s = score_statement(st, reference="paper")
    assert round(s.readability["fre"], 2) == 116.15  # textstat's value, as in causalgraph.readability's doctest
    assert s.c_s == pytest.approx(1 / 70)
    metrics = [r["metric"] for r in s.rows()]
    assert metrics[:7] == ["C^com", "C^ex", "C^nest", "C^corr", "C^pol", "C(s)", "relations"]
    assert metrics[7:] == ["FRE", "FKG", "ARI", "CLI", "DCRS"]


def test_resolve_reference_without_the_corpus_points_to_the_paper_ranges(monkeypatch, tmp_path):
    from causalgraph.annotation import reference
    from causalgraph.errors import DataNotFound

    def missing():
        raise DataNotFound("ClimateCause not found")

    monkeypatch.setattr(reference, "climatecause_ranges", missing)
    with pytest.raises(DataNotFound, match="reference='paper'"):
        reference.resolve_reference(None)
    assert reference.resolve_reference("paper") is PAPER_RANGES
