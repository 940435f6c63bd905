"""Two runs over the same items: flipped items, McNemar on correctness, agreement per statement."""

from __future__ import annotations

import pytest
from scipy import stats as ss

from causalgraph.runlog.store import load_run
from causalgraph.viewer.compare import compare_runs
from causalgraph.viewer.runs import build_run_view

from toy_runs import RUN_A, RUN_B, write_toy_run


def _compare(paths):
    runs = [load_run(p) for p in paths]
    views = [build_run_view(r) for r in runs]
    return views, compare_runs(views, runs)


def test_flipped_items_are_exactly_those_whose_correctness_differs(toy_runs):
    views, cmp = _compare(toy_runs)
    expected = sorted((v, f"sample-00{i}") for v in RUN_A for i in range(1, 5)
                      if (RUN_A[v][f"sample-00{i}"] == "correct") != (RUN_B[v][f"sample-00{i}"] == "correct"))
    assert expected == [("a", "sample-002"), ("a", "sample-003"), ("a", "sample-004")]
    assert sorted((f[0], f[1]) for f in cmp["flipped"]) == expected
    for variant, key, sid, idx in cmp["flipped"]:
        assert sid == key
        assert [views[k].records[i].item_id for k, i in enumerate(idx)] == [f"viewer-toy/{variant}/{key}"] * 2


def test_mcnemar_per_variant_counts_the_discordant_items_by_hand(toy_runs):
    _, cmp = _compare(toy_runs)
    (entry,) = cmp["pairs"]
    assert entry["variants"] == [["a", "a"], ["b", "b"]]
    rows = {r["variant_a"]: r for r in entry["mcnemar"]}
    # Variant a: right in A only: sample-004; right in B only: sample-002, sample-003; both right: sample-001.
    a = rows["a"]
    assert (a["n"], a["both_right"], a["b"], a["c"], a["both_wrong"]) == (4, 1, 1, 2, 0)
    assert a["statistic"] == pytest.approx(0.0)  # (|1 - 2| - 1)² / 3
    assert a["p"] == pytest.approx(1.0)
    b = rows["b"]
    assert (b["b"], b["c"], b["both_right"], b["both_wrong"]) == (0, 0, 2, 2) and b["p"] == 1.0
    assert a["p_bonferroni"] == pytest.approx(min(1.0, 2 * a["p"]))


def test_mcnemar_statistic_follows_the_corrected_chi_square(tmp_path):
    # Five items right in A only, none in B only: χ² = (5 - 1)² / 5 = 3.2.
    a = {"a": {f"sample-00{i}": "correct" for i in range(1, 5)}}
    b = {"a": {f"sample-00{i}": "wrong" for i in range(1, 5)}}
    views, cmp = _compare([write_toy_run(tmp_path / "x", a), write_toy_run(tmp_path / "y", b)])
    row = cmp["pairs"][0]["mcnemar"][0]
    assert (row["b"], row["c"]) == (4, 0)
    assert row["statistic"] == pytest.approx(9 / 4)
    assert row["p"] == pytest.approx(ss.chi2.sf(9 / 4, 1))


def test_agreement_per_statement_counts_same_answers_and_same_correctness(toy_runs):
    _, cmp = _compare(toy_runs)
    rows = {s["statement"]: s for s in cmp["statements"]}
    assert set(rows) == {"sample-001", "sample-002", "sample-003", "sample-004"}
    # sample-003: a unparsed vs correct (answers differ), b error in both (no answer: not the same answer).
    s3 = rows["sample-003"]
    assert (s3["items"], s3["same_answer"], s3["same_correctness"], s3["correct"]) == (2, 0, 1, [0, 1])
    s1 = rows["sample-001"]
    assert (s1["items"], s1["same_answer"], s1["same_correctness"], s1["correct"], s1["agreement"]) == (2, 2, 2, [2, 2], 1.0)
    s4 = rows["sample-004"]
    assert (s4["same_answer"], s4["same_correctness"], s4["correct"]) == (1, 1, [1, 0])


def test_label_mcnemar_of_the_stats_module_is_shown_beside(toy_runs):
    _, cmp = _compare(toy_runs)
    rows = cmp["pairs"][0]["label_mcnemar"]
    assert [r["variant_a"] for r in rows] == ["a", "b"]
    # Variant a (gold yes, yes, yes, no): A answers yes, no, –, no and B yes, yes, yes, yes; the unparsed
    # item is left out: 3 pairs, 2 of them discordant (A no, B yes).
    assert (rows[0]["n"], rows[0]["excluded"], rows[0]["b"] + rows[0]["c"]) == (3, 1, 2)


def test_one_run_has_no_comparison_and_runs_without_common_items_say_so(tmp_path):
    views, cmp = _compare([write_toy_run(tmp_path / "x", {"a": {"sample-001": "correct"}})])
    assert cmp is None
    _, cmp = _compare([write_toy_run(tmp_path / "y", {"a": {"sample-001": "correct"}}),
                       write_toy_run(tmp_path / "z", {"b": {"sample-001": "correct"}})])
    assert cmp["flipped"] == [] and cmp["notes"] == ["no item is in every run: nothing to compare"]


def test_variants_without_a_partner_get_a_note_that_advises_no_option_bench_view_lacks(tmp_path):
    # Run A has variants a and b, run B only a: b has no partner. The stats commands advise --pair A:B;
    # bench view has no such option, so its note names the variants left out and what was compared.
    _, cmp = _compare([write_toy_run(tmp_path / "x", {"a": {"sample-001": "correct"}, "b": {"sample-001": "wrong"}}),
                       write_toy_run(tmp_path / "y", {"a": {"sample-001": "wrong"}})])
    notes = cmp["pairs"][0]["notes"]
    assert notes == ["variants without a partner: run A ['b'], run B []; compared on the variants with the same "
                     "id in both runs only (a)"]
    assert not any("--pair" in n for n in notes)
    assert [f[:2] for f in cmp["flipped"]] == [["a", "sample-001"]]


def test_the_stats_commands_still_advise_their_pair_option():
    from causalgraph.errors import ConfigError
    from causalgraph.stats.runs import pair_variants

    with pytest.raises(ConfigError, match=r"run A \['b'\], run B \[\]; pass the pairs explicitly \(--pair A:B\)$"):
        pair_variants(["a", "b"], ["a"])
