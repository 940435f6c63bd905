"""The run page as HTML: compact columns, packed details, a strict CSP, escaping; ``bench view``."""

from __future__ import annotations

import base64
import hashlib
import json
import re

import pytest

from causalgraph.runlog.store import load_run
from causalgraph.cli import main
from causalgraph.viewer import load_views, pack, run_page_html, unpack, write_run_page
from causalgraph.viewer.payload import CHUNK, build_payload

from toy_runs import RUN_A, write_toy_run

HOSTILE = ('<script>window.__pwned = "response"</script> <img src=x onerror="window.__pwned=\'img\'"> '
           '</textarea><textarea> </script><!-- \u2028 & done')


def _data(page: str) -> dict:
    return json.loads(re.search(r'<script type="application/json" id="cg-run-data">(.*?)</script>', page, re.S).group(1))


def test_pack_round_trips_and_is_deterministic():
    obj = {"a": ["<b>", 1.5, None, "\u2028"]}
    assert unpack(pack(obj)) == obj and pack(obj) == pack(obj)


def test_payload_columns_decode_to_the_records(toy_runs):
    views, cmp = load_views(list(toy_runs))
    d = build_payload(views, cmp)
    cols, dic = d["cols"], d["dict"]
    recs = [r for v in views for r in v.records]
    assert len(cols["state"]) == len(recs) == 16
    for i, r in enumerate(recs):
        assert dic["variant"][cols["variant"][i]] == r.variant
        assert dic["statement"][cols["statement"][i]] == r.meta["statement_id"]
        assert dic["value"][cols["gold"][i]] == r.gold
        assert dic["value"][cols["answer"][i]] == (r.label or "")
        assert dic["key"][cols["key"][i]] == r.meta["statement_id"]
    assert [d["states"][s] for s in cols["state"][:8]] == [RUN_A[v][f"sample-00{i}"] for v in "ab" for i in range(1, 5)]
    assert [r["start"] for r in d["runs"]] == [0, 8] and [r["chunk0"] for r in d["runs"]] == [0, 1]
    details = unpack(d["details"][1])
    assert [x["id"] for x in details] == [r.item_id for r in views[1].records]
    prompts = unpack(d["prompts"][0])
    assert prompts[4][0] == "Answer yes or no." and prompts[4][2] == "verified"
    # C(s) of the sample statements (complexity_table over the corpus): 0.5, 3.0, 1.0, 0.
    cs = dict(zip(dic["statement"], d["statements"]["cs"]))
    assert cs == {"sample-001": 0.5, "sample-002": 3.0, "sample-003": 1.0, "sample-004": 0.0}
    assert set(json.loads(json.dumps(d["statements"]["graph"]))) == {True, False}


def test_details_are_chunked_by_chunk_size(tmp_path, monkeypatch):
    import causalgraph.viewer.payload as payload

    monkeypatch.setattr(payload, "CHUNK", 3)
    views, cmp = load_views([write_toy_run(tmp_path / "r", RUN_A)])
    d = payload.build_payload(views, cmp)
    assert d["chunk"] == 3 and len(d["details"]) == len(d["prompts"]) == 3
    assert [len(unpack(c)) for c in d["details"]] == [3, 3, 2]
    assert CHUNK == 1000


def test_page_allows_only_its_own_scripts_and_loads_nothing(tmp_path):
    path = write_toy_run(tmp_path / "r", {"a": {"sample-001": "wrong"}},
                         responses={("a", "viewer-toy/a/sample-001"): HOSTILE})
    page = run_page_html([path])
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', page).group(1)
    assert csp.startswith("default-src 'none'; script-src 'sha256-")
    assert "unsafe-inline" not in csp.split("style-src")[0] and "'self'" not in csp
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    assert len(scripts) == 2  # vis-network and the viewer; the data block is not executable
    for body in scripts:
        digest = base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode()
        assert f"'sha256-{digest}'" in csp
    assert not re.search(r"<(script|link|img|iframe)[^>]*\s(src|href)\s*=", page, re.I)


def test_hostile_response_travels_escaped_and_arrives_intact(tmp_path):
    path = write_toy_run(tmp_path / "r", {"a": {"sample-001": "wrong"}},
                         responses={("a", "viewer-toy/a/sample-001"): HOSTILE})
    page = run_page_html([path])
    data_block = re.search(r'id="cg-run-data">(.*?)</script>', page, re.S).group(1)
    assert "<" not in data_block and "\u2028" not in data_block
    assert unpack(_data(page)["details"][0])[0]["response"] == HOSTILE
    assert "window.__pwned" not in page


def test_write_run_page_writes_beside_one_run_and_refuses_other_suffixes(tmp_path):
    path = write_toy_run(tmp_path / "r", RUN_A)
    assert write_run_page([path]) == path / "view.html"
    assert (path / "view.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    from causalgraph.errors import ConfigError

    with pytest.raises(ConfigError, match="expected a file name ending in .html"):
        write_run_page([path], tmp_path / "page.txt")


def test_bench_view_cli_prints_the_page_path(toy_runs, tmp_path, capsys):
    assert main(["bench", "view", str(toy_runs[0])]) == 0
    assert capsys.readouterr().out.strip() == str(toy_runs[0] / "view.html")
    out = tmp_path / "cmp.html"
    assert main(["bench", "view", *map(str, toy_runs), "-o", str(out), "--title", "A against B"]) == 0
    assert capsys.readouterr().out.strip() == str(out)
    page = out.read_text(encoding="utf-8")
    assert "<title>A against B</title>" in page and len(_data(page)["compare"]["flipped"]) == 3


def test_bench_view_cli_names_a_folder_that_is_not_a_run(tmp_path, capsys):
    assert main(["bench", "view", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "is not a run directory" in err and "\n" not in err


def test_load_views_accepts_loaded_runs_and_names_them(tmp_path):
    run = load_run(write_toy_run(tmp_path / "mine", RUN_A))
    views, cmp = load_views([run])
    assert views[0].name == "mine" and cmp is None


def test_run_and_extraction_report_show_themselves_in_jupyter(tmp_path):
    import html as _html

    from causalgraph.extraction import ExtractedPair, PredictionSet, RowPrediction, evaluate_extraction

    run = load_run(write_toy_run(tmp_path / "r", RUN_A))
    frame = run._repr_html_()
    assert frame.startswith('<iframe sandbox="allow-scripts" ')
    assert len(_data(_html.unescape(re.search(r'srcdoc="(.*)"></iframe>$', frame, re.S).group(1)))["cols"]["state"]) == 8
    evil = "<script>window.__pwned=1</script>"
    gold = PredictionSet({"1": RowPrediction("1", None, (ExtractedPair("smoking", "lung cancer"),))}, evil, "rows")
    pred = PredictionSet({"1": RowPrediction("1", None, (ExtractedPair("Smoking", "cancer"), ExtractedPair(evil, "x")))},
                         "p", "rows")
    rep = evaluate_extraction(pred, gold, mode="hungarian")
    page = _html.unescape(re.search(r'srcdoc="(.*)"></iframe>$', rep._repr_html_(), re.S).group(1))
    assert evil not in page and "&lt;script&gt;window.__pwned=1&lt;/script&gt;" in page
    assert page.count("<script>") == 1
    buckets = dict(re.findall(r'<tr><td>([a-z-]+)</td><td class="num" data-sort="(\d+)"', page))
    assert {k: int(v) for k, v in buckets.items()} == rep.buckets["counts"]
    token = rep.metric("token")
    assert f'<td class="num" data-sort="{token["f1"]}">{token["f1"]:.4f}</td>' in page


@pytest.mark.slow
def test_run_page_is_identical_whatever_the_hash_seed(toy_runs, tmp_path):
    import os
    import subprocess
    import sys

    pages = []
    for seed in ("1", "2"):
        out = tmp_path / f"page-{seed}.html"
        subprocess.run([sys.executable, "-m", "causalgraph", "bench", "view", *map(str, toy_runs), "-o", str(out)],
                       check=True, capture_output=True, env={**os.environ, "PYTHONHASHSEED": seed})
        pages.append(out.read_bytes())
    assert pages[0] == pages[1]
