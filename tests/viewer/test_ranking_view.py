"""Tie groups and rank intervals in ``bench view`` and ``bench report`` with several runs: the numbers
``stats compare --rank`` prints for the same runs, and a letter display worked by hand."""

from __future__ import annotations

import json
import math
import re

import pytest

from causalgraph.cli import main
from causalgraph.cli._common import format_float
from causalgraph.viewer import load_views
from causalgraph.viewer.ranking import ranking_section

from toy_runs import write_toy_run

ITEMS = ("sample-001", "sample-002", "sample-003", "sample-004")
ALL_RIGHT = {v: {s: "correct" for s in ITEMS} for v in ("a", "b")}
ALL_WRONG = {v: {s: "wrong" for s in ITEMS} for v in ("a", "b")}
HALF = {"a": {s: "correct" for s in ITEMS}, "b": {s: "wrong" for s in ITEMS}}


@pytest.fixture
def three_models(tmp_path):
    """Three models over the same eight items (the toy task: 4 sample statements × 2 variants)."""
    return [str(write_toy_run(tmp_path / "right", ALL_RIGHT, model="hand/right")),
            str(write_toy_run(tmp_path / "half", HALF, model="hand/half")),
            str(write_toy_run(tmp_path / "wrong", ALL_WRONG, model="hand/wrong"))]


def _stats_rank(runs, capsys, fmt="json"):
    capsys.readouterr()
    assert main(["stats", "compare", *runs, "--by", "model", "--rank", "--format", fmt]) == 0
    out = capsys.readouterr()
    return (json.loads(out.out) if fmt == "json" else out.out), out.err


def _same(a, b):
    if a is None or (isinstance(a, float) and math.isnan(a)):
        return b is None or (isinstance(b, float) and math.isnan(b))
    return a == pytest.approx(b, abs=1e-12) if isinstance(a, float) else a == b


def test_letters_worked_by_hand(three_models):
    # Correct answers: right 8/8, half 4/8 (variant a), wrong 0/8.  McNemar exact (discordant pairs b, c):
    #   right–wrong: b = 8, c = 0 → p = 2·0.5⁸ = 0.0078125;  right–half and half–wrong: b = 4, c = 0 → p = 2·0.5⁴ = 0.125.
    # Holm over the 3 pairs: 3·0.0078125 = 0.0234 ≤ 0.05 rejects right–wrong; the next, 2·0.125 = 0.25, stops.
    # Separated: right/wrong only.  Groups {right, half} and {half, wrong}; by score (F1 of "yes": right 1.0,
    # half 2·3/(2·3 + 1 + 3) = 0.6, wrong 0) the first is "a": right a, half ab, wrong b.
    sec = ranking_section(three_models)
    assert sec["error"] is None and (sec["by"], sec["alpha"], sec["n_boot"], sec["test"]) == ("model", 0.05, 1000, "mcnemar")
    got = [(r["arm"], r["group"], r["score"], r["rank"]) for r in sec["rows"]]
    assert got == [("hand/right", "a", 1.0, 1.0), ("hand/half", "ab", pytest.approx(0.6), 2.0), ("hand/wrong", "b", 0.0, 3.0)]
    assert [(r["n"], r["statements"]) for r in sec["rows"]] == [(8, 4)] * 3


def test_view_and_report_show_the_rankings_of_stats_compare(three_models, capsys):
    ref, _ = _stats_rank(three_models, capsys)
    views, cmp = load_views(three_models)
    rows = cmp["ranking"]["rows"]
    assert [r["arm"] for r in rows] == [r["arm"] for r in ref] and len(ref) == 3
    for mine, theirs in zip(rows, ref):
        for k in ("task", "metric", "arm", "score", "ci_low", "ci_high", "group", "rank", "rank_low", "rank_high", "n",
                  "statements", "note"):
            assert _same(theirs[k], mine[k]), (k, mine[k], theirs[k])
    # bench report --rank model: the same rows in JSON, and in a table the same lines stats compare prints.
    assert main(["bench", "report", *three_models, "--rank", "model", "--format", "json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert [r["run"] for r in rep["runs"]] == three_models
    assert rep["ranking"]["by"] == "model" and rep["ranking"]["rows"] == ref
    table, _ = _stats_rank(three_models, capsys, fmt="table")
    assert main(["bench", "report", *three_models, "--rank", "model"]) == 0
    out = capsys.readouterr().out
    assert out.endswith("\nranking by model (stats compare --by model --rank)\n" + table)
    csv_ref, _ = _stats_rank(three_models, capsys, fmt="csv")
    assert main(["bench", "report", *three_models, "--rank", "model", "--format", "csv"]) == 0
    assert capsys.readouterr().out.endswith("\n\n" + csv_ref)


def test_undefined_scores_are_shown_as_undefined_with_the_note(tmp_path, capsys):
    # Only sample-004 (gold "no"): answering "no" leaves F1 of "yes" without a positive anywhere: undefined.
    runs = [str(write_toy_run(tmp_path / m, {"a": {"sample-004": o}}, model=f"hand/{m}"))
            for m, o in (("right", "correct"), ("wrong", "wrong"), ("right2", "correct"))]
    ref, err = _stats_rank(runs, capsys)
    assert "score undefined" in err
    views, cmp = load_views(runs)
    rows = cmp["ranking"]["rows"]
    undefined = [r["arm"] for r in rows if r["score"] is None]
    assert undefined == [r["arm"] for r in ref if r["score"] is None] == ["hand/right", "hand/right2"]
    for r in rows:
        if r["score"] is None:
            assert r["rank"] is None and r["rank_low"] is None and r["note"].startswith("score undefined")
    table, _ = _stats_rank(runs, capsys, fmt="table")
    assert main(["bench", "report", *runs, "--rank", "model"]) == 0
    out = capsys.readouterr()
    assert out.out.endswith(table) and "—" in table
    assert "causalgraph bench: note: viewer-toy hand/right: score undefined" in out.err


def test_runs_that_cannot_be_ranked_get_the_reason(tmp_path, capsys):
    runs = [str(write_toy_run(tmp_path / "a", ALL_RIGHT, model="same")),
            str(write_toy_run(tmp_path / "b", ALL_WRONG, model="same"))]
    views, cmp = load_views(runs)
    assert cmp["ranking"]["rows"] == [] and "twice" in cmp["ranking"]["error"]
    # Two runs of one model are one arm whatever the axis (stats compare --rank refuses them alike).
    assert "twice" in load_views(runs, rank="variant")[1]["ranking"]["error"]
    assert load_views(runs, rank=None)[1]["ranking"] is None
    assert main(["bench", "report", *runs, "--rank", "model"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("causalgraph") and "twice" in err[0]


def test_bench_view_rank_option(three_models, tmp_path, capsys):
    page = tmp_path / "p.html"
    assert main(["bench", "view", *three_models, "-o", str(page), "--rank", "none"]) == 0
    data = json.loads(re.search(r'id="cg-run-data">(.*?)</script>', page.read_text(), re.S).group(1))
    assert data["compare"]["ranking"] is None
    assert main(["bench", "view", *three_models, "-o", str(page)]) == 0
    data = json.loads(re.search(r'id="cg-run-data">(.*?)</script>', page.read_text(), re.S).group(1))
    assert [r["group"] for r in data["compare"]["ranking"]["rows"]] == ["a", "ab", "b"]
    assert format_float(data["compare"]["ranking"]["rows"][1]["score"]) == "0.6000"
