"""The registry of complexity metrics, the Complexity record built from it, and eq. 7 computed once."""

from __future__ import annotations

import sys

import math
import pickle
from dataclasses import FrozenInstanceError, replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from statement_strategies import statements

from causalgraph.annotation.reference import PAPER_RANGES, corpus_ranges, normalized_complexity
from causalgraph.errors import ConfigError
from causalgraph.metrics.analysis import complexity_summary, cooccurrence
from causalgraph.metrics.complexity import (
    COMPLEXITY_COLUMNS,
    METRICS,
    ComplexityMetric,
    Complexity,
    c_s,
    complexity,
    complexity_columns,
    complexity_metrics,
    complexity_table,
    metric_names,
    normalize_weights,
    normalized_term,
    register_metric,
    unregister_metric,
)
from causalgraph.model import Correlation, Relation, Statement

NEG = Correlation.NEGATIVE
PAPER = ("com", "ex", "nest", "corr", "pol")


def test_the_registry_holds_the_papers_five_metrics_in_its_order():
    assert METRICS == metric_names() == PAPER
    assert [m.symbol for m in complexity_metrics()] == ["C^com", "C^ex", "C^nest", "C^corr", "C^pol"]
    assert all(m.description and callable(m.function) for m in complexity_metrics())
    assert COMPLEXITY_COLUMNS == complexity_columns() == (
        "statement_id", "statement", "c_com", "c_ex", "c_nest", "c_corr", "c_pol", "c_raw", "c_norm", "density",
        "n_tokens")


def _corpus():
    return [
        Statement("t1", "Nothing causal here.", False),
        Statement("t2", "A lowers B which lowers C.", True, (Relation("a", "b", correlation=NEG),
                                                            Relation("b", "c", correlation=NEG))),
        Statement("t3", "A, D and E raise B.", True, (Relation("a", "b"), Relation("d", "b"), Relation("e", "b"),
                                                      Relation("a", "b"))),
    ]


def _distinct_events(st_: Statement) -> int:
    # By hand, independently of the graph compiler: every cause and effect string, counted once.
    return len({x for r in st_.relations for x in (r.cause, r.effect)})


def test_a_registered_toy_metric_is_computed_everywhere_and_gone_once_removed():
    corpus = _corpus()
    five = complexity_table(corpus)
    register_metric(ComplexityMetric("events", lambda graph, options: len(graph.nodes), "number of distinct events"))
    try:
        assert metric_names() == (*PAPER, "events")
        c = complexity(corpus[2])
        assert c.events == c["events"] == _distinct_events(corpus[2]) == 4
        # An extra metric, never a term: raw stays the paper's five (issue 35, item 2); total() sums another.
        assert c.raw == c.com + c.ex + c.nest + c.corr + c.pol
        assert c.total((*PAPER, "events")) == c.raw + 4
        assert "events=4" in repr(c) and list(c.as_dict()) == [*PAPER, "events", "raw"]

        t = complexity_table(corpus)
        assert list(t.columns) == list(complexity_columns())
        assert list(t.columns)[7:9] == ["c_events", "c_raw"]
        counts = [_distinct_events(s) for s in corpus]
        assert t.c_events.tolist() == counts == [0, 3, 4]
        assert t.c_norm.tolist() == five.c_norm.tolist() and t.c_raw.tolist() == five.c_raw.tolist()
        assert t.attrs["composite"] == {"metrics": PAPER, "weights": (1.0,) * 5}
        # Asked for, the composite gains the toy's min-max term, (v - 0) / (4 - 0), on top of the paper's five.
        both = complexity_table(corpus, metrics=(*PAPER, "events"))
        assert both.c_norm.tolist() == pytest.approx([a + v / 4 for a, v in zip(five.c_norm, counts)])
        assert both.c_raw.tolist() == pytest.approx([a + v for a, v in zip(five.c_raw, counts)])
        assert both.attrs["composite"] == {"metrics": (*PAPER, "events"), "weights": (1.0,) * 6}

        assert normalize_weights(None) == (1.0,) * 5
        assert normalize_weights(None, "com,ex,nest,corr,pol,events") == (1.0,) * 6
        with pytest.raises(ConfigError, match=r"expected 6 weights \(com, ex, nest, corr, pol, events\)"):
            normalize_weights("1,1,1,1,1", (*PAPER, "events"))
        assert complexity_table(corpus, {"events": 0}, metrics=(*PAPER, "events")).c_norm.tolist() == \
            five.c_norm.tolist()

        summary = complexity_summary(t)
        # The paper's figures keep to its five metrics: "complex in k" counts k = 0..5.
        assert summary.ranges["events"] == (0, 4) and max(summary.complex_in) == 5
        assert summary.complex_in == complexity_summary(five).complex_in
        assert cooccurrence(t).loc["events", "corr"] == 1  # t2 is complex in both; t3 has no negative edge

        out = normalized_complexity(corpus[2], corpus_ranges(corpus, "three"))
        assert out["events"] == 4 and out["norm"]["events"] == 1.0
        assert out["c_s"] == t.c_norm[2] == five.c_norm[2]
        # Reference ranges without the extra metric still give the paper's C(s); its norm is undefined.
        paper = normalized_complexity(corpus[2], PAPER_RANGES)
        assert math.isnan(paper["norm"]["events"]) and paper["c_s"] == c_s(complexity(corpus[2]), PAPER_RANGES.ranges)
    finally:
        unregister_metric("events")
    assert metric_names() == PAPER and "events" not in complexity(corpus[2]).as_dict()
    assert complexity_table(corpus).equals(five)


@pytest.mark.parametrize("name, function, message", [
    ("com", lambda g, o: 0, "already registered"),
    ("raw", lambda g, o: 0, "lower-case identifier"),
    ("Big-Name", lambda g, o: 0, "lower-case identifier"),
    ("ok", 3, "expected a callable"),
])
def test_register_metric_refuses_a_taken_reserved_or_malformed_metric(name, function, message):
    with pytest.raises(ConfigError, match=message):
        register_metric(ComplexityMetric(name, function, "x"))
    assert metric_names() == PAPER


def test_the_papers_metrics_cannot_be_removed_and_unknown_ones_are_named():
    with pytest.raises(ConfigError, match="one of the paper's five"):
        unregister_metric("corr")
    with pytest.raises(ConfigError, match="'nope' is not registered; registered: com, ex, nest, corr, pol"):
        unregister_metric("nope")


def test_a_built_in_metric_added_after_the_papers_five_is_not_one_of_them(monkeypatch):
    """The recipe's one line (``_builtin_metric`` after the five, in the module's source) gives a metric that
    can be replaced and removed: the module is run again from its source with that line added."""
    import ast
    import types
    from pathlib import Path

    from causalgraph.metrics import complexity as cx

    source = Path(cx.__file__).read_text(encoding="utf-8")
    pol = next(n for n in ast.parse(source).body if isinstance(n, ast.Expr) and isinstance(n.value, ast.Call)
               and getattr(n.value.func, "id", None) == "_builtin_metric" and n.value.args[0].value == "pol")
    lines = source.splitlines()
    lines.insert(pol.end_lineno, '_builtin_metric("extra_builtin", lambda g, o: 1.0, "the recipe\'s metric", columns=())')
    probe = types.ModuleType("causalgraph.metrics._recipe_probe")
    probe.__package__ = "causalgraph.metrics"
    monkeypatch.setitem(sys.modules, probe.__name__, probe)  # dataclasses look their module up there
    exec(compile("\n".join(lines), "recipe_probe", "exec"), probe.__dict__)
    assert probe.metric_names() == (*PAPER, "extra_builtin")
    assert probe._PAPER_METRICS == tuple(PAPER)
    probe.register_metric(probe.ComplexityMetric("extra_builtin", lambda g, o: 2.0, "replaced"), replace=True)
    probe.unregister_metric("extra_builtin")
    assert probe.metric_names() == tuple(PAPER)
    with pytest.raises(ConfigError, match="one of the paper's five"):
        probe.unregister_metric("pol")


def test_complexity_record_needs_every_metric_and_is_frozen_hashable_and_picklable():
    with pytest.raises(TypeError, match=r"missing \['pol'\], unknown \[\]"):
        Complexity(com=1, ex=0, nest=0.0, corr=0)
    with pytest.raises(TypeError, match=r"unknown \['density'\]"):
        Complexity(com=1, ex=0, nest=0.0, corr=0, pol=0, density=1)
    c = Complexity(pol=1, corr=25, nest=0.0, ex=0, com=12)  # any keyword order; stored in the paper's
    assert repr(c) == "Complexity(com=12, ex=0, nest=0.0, corr=25, pol=1, raw=38.0)"
    with pytest.raises(FrozenInstanceError):
        c.com = 3
    assert c == Complexity(com=12, ex=0, nest=0.0, corr=25, pol=1) and len({c, pickle.loads(pickle.dumps(c))}) == 1
    assert c != Complexity(com=12, ex=0, nest=0.0, corr=25, pol=0)
    with pytest.raises(AttributeError):
        c.density


def test_normalized_term_and_c_s_are_eq_7_by_hand():
    assert normalized_term(3, 1, 5) == 0.5 and normalized_term(3, 1, 5, 4.0) == 2.0
    assert normalized_term(9, 1, 5) == 2.0  # beyond the range: not clipped
    assert normalized_term(4, 2, 2, 7.0) == 0.0  # an empty range contributes nothing
    ranges = {"com": (0, 12), "ex": (0, 16), "nest": (0, 20.93), "corr": (0, 70), "pol": (0, 40)}
    values = {"com": 3, "ex": 4, "nest": 0.0, "corr": 7, "pol": 10}
    assert c_s(values, ranges) == pytest.approx(3 / 12 + 4 / 16 + 7 / 70 + 10 / 40)
    assert c_s(values, ranges, {"com": 2, "pol": 0}) == pytest.approx(2 * 3 / 12 + 4 / 16 + 7 / 70)
    with pytest.raises(ConfigError, match=r"no \(min, max\) range for metric\(s\) pol"):
        c_s(values, {k: v for k, v in ranges.items() if k != "pol"})


@settings(max_examples=60)
@given(st.lists(statements(max_relations=6), min_size=1, max_size=4))
def test_corpus_c_s_equals_the_reference_c_s_against_the_corpus_own_ranges(stmts):
    # The two callers of eq. 7 (the table over a corpus, one statement against reference ranges) give the
    # same bits when the reference is the corpus itself.
    stmts = [replace(s, id=f"s{i}") for i, s in enumerate(stmts)]
    table = complexity_table(stmts)
    ref = corpus_ranges(stmts, "self")
    cols = {m: table[f"c_{m}"].tolist() for m in PAPER}
    for i, s in enumerate(stmts):
        got = normalized_complexity(s, ref)["c_s"]
        # Eq. 7 by hand from the table's own metric columns: sum of min-max terms, 0 for an empty range.
        by_hand = sum(0.0 if max(v) == min(v) else (v[i] - min(v)) / (max(v) - min(v)) for v in cols.values())
        assert got == table.c_norm[i] and got == pytest.approx(by_hand, abs=1e-12) and math.isfinite(got)


def test_a_registered_metric_without_a_reference_range_is_a_score_row_with_no_range():
    """``causalgraph score --reference paper`` with a metric installed: the paper's ranges have none for it."""
    from causalgraph.annotation.text_scores import score_statement

    st_ = _corpus()[1]   # a negative chain: C^corr and C^pol above 0
    register_metric(ComplexityMetric("events", lambda graph, options: len(graph.nodes), "number of distinct events"))
    try:
        rows = {r["metric"]: r for r in score_statement(st_, reference="paper").rows()}
    finally:
        unregister_metric("events")
    assert rows["C^events"]["value"] == _distinct_events(st_) == 3
    assert math.isnan(rows["C^events"]["normalised"])
    assert rows["C^events"]["reference_min"] is None and rows["C^events"]["reference_max"] is None
    # The paper's five keep the published ranges (§5.2.1), and C(s) sums their terms alone.
    published = {"com": 12.0, "ex": 16.0, "nest": 20.93, "corr": 70.0, "pol": 40.0}
    for m, hi in published.items():
        assert (rows[f"C^{m}"]["reference_min"], rows[f"C^{m}"]["reference_max"]) == (0.0, hi)
    assert rows["C^corr"]["value"] > 0 and rows["C(s)"]["value"] > 0
    assert rows["C(s)"]["value"] == pytest.approx(sum(rows[f"C^{m}"]["value"] / hi for m, hi in published.items()))
