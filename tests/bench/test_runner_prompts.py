"""Runs record their prompt catalog, resume with it, refuse another, and keep the cache keys of tables runs."""

from __future__ import annotations

import json

import pytest

from causalgraph.bench.runner import run_benchmark
from causalgraph.runlog.store import load_run
from causalgraph.errors import ConfigError
from causalgraph.tasks import get_task

from bench_helpers import YN_TASK, yn_items

# Written by causalgraph at commit 459c51c (before the authors' catalog existed): `bench run --task ccr-member
# --variant all --model mock/oracle --limit 4 --temperature 0.7` on the released spreadsheet.  Those runs
# were runs of the printed tables, so `--prompts tables` must ask the very same requests.
KEYS_AT_459C51C = {
    "ccr-member/A_4/cc-001/e000": ("4ce4bd68df252d97c189be91cc4c4d30348a2518d701e9622734bb3aad5b5a35",
                                   "56c1cc28b9293ab50bbefbbf0d767e93182d91b68edd44c34c2c1322a7e9343d"),
    "ccr-member/SN_5/cc-001/e001": ("6df74e2f6455ac3ef91ec3c817a80489869354c7d244d8ca93a4c60a0f3b6a34",
                                    "91d390442349c4a0b63f841c93f136d68cdaeab318408b829b0e1ff5e1686d66"),
    "ccr-member/ML_6/cc-001/e003": ("eee803206ed070c23cc5c784fe772b79c68d936cc87da8621daa793d44ec4b91",
                                    "ae9c57b2656efb5226d34290f5fbe94dc711accd175114610cfbb05eb859e807"),
}


def _run(out, climatecause_path, **kw):
    return run_benchmark("ccr-member", kw.pop("variants", "all"), "mock/oracle", data=str(climatecause_path),
                         limit=kw.pop("limit", 4), out=out, temperature=0.7, progress=False, **kw)


def _keys(path):
    return {r.item_id: (r.request_key, r.prompt_sha256) for r in load_run(path).responses}


def test_a_tables_run_asks_the_requests_runs_before_the_authors_catalog_asked(climatecause_path, isolated_cache,
                                                                             tmp_path):
    res = _run(tmp_path / "t", climatecause_path, prompts="tables")
    keys = _keys(res.path)
    assert {k: keys[k] for k in KEYS_AT_459C51C} == KEYS_AT_459C51C
    assert load_run(res.path).manifest.prompts == "tables"
    assert all("prompts" not in r.meta for r in load_run(res.path).responses)


def test_the_default_run_sends_the_authors_prompts_and_records_the_catalog(climatecause_path, isolated_cache,
                                                                          tmp_path):
    tables = _keys(_run(tmp_path / "t", climatecause_path, prompts="tables").path)
    res = _run(tmp_path / "a", climatecause_path)
    run = load_run(res.path)
    assert run.manifest.prompts == "authors"
    assert all(r.meta["prompts"] == "authors" for r in run.responses)
    authors = _keys(res.path)
    assert set(authors) == set(tables)  # the same items under both catalogs
    changed = {k.split("/")[1] for k in authors if authors[k][1] != tables[k][1]}
    # Of ccr-member's variants, A_5, SN_5 and ML_5 already read as the authors' text (docs/reproduction.md).
    assert changed == {"A_4", "A_6", "SN_4", "SN_6", "ML_4", "ML_6"}


def test_a_resumed_run_keeps_its_catalog_and_refuses_another_in_one_line(climatecause_path, isolated_cache,
                                                                        tmp_path):
    out = tmp_path / "a"
    _run(out, climatecause_path, variants="A_4", limit=2)
    again = _run(out, climatecause_path, variants="A_4", limit=3)  # no --prompts: the folder's own catalog
    assert (again.written, again.skipped) == (1, 2)
    assert load_run(out).manifest.prompts == "authors"
    with pytest.raises(ConfigError) as exc:
        _run(out, climatecause_path, variants="A_4", limit=3, prompts="tables")
    assert str(exc.value) == (f"{out} holds a run with different prompts ('authors' there, 'tables' now); choose "
                              "another --out to start a new run")


def test_a_run_folder_without_a_catalog_reads_and_resumes_as_a_tables_run(climatecause_path, isolated_cache,
                                                                         tmp_path):
    out = tmp_path / "old"
    _run(out, climatecause_path, variants="A_4,SN_6", limit=2, prompts="tables")
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    del manifest["prompts"]  # as every manifest written before the catalogs
    (out / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    assert get_task("ccr-member").manifest_prompts(load_run(out).manifest) == "tables"
    before = _keys(out)
    again = _run(out, climatecause_path, variants="A_4,SN_6", limit=3)
    assert (again.written, again.skipped) == (2, 4)
    assert load_run(out).manifest.prompts == "tables"
    after = _keys(out)
    assert {k: after[k] for k in before} == before
    fresh = _keys(_run(tmp_path / "t", climatecause_path, variants="A_4,SN_6", limit=3, prompts="tables").path)
    assert after == fresh
    with pytest.raises(ConfigError, match="different prompts \\('tables' there, 'authors' now\\)"):
        _run(out, climatecause_path, variants="A_4,SN_6", limit=3, prompts="authors")


def test_items_given_to_a_run_say_their_catalog(climatecause_path, climatecause, isolated_cache, tmp_path):
    spec = get_task("ccr-member")
    authors = spec.items(climatecause, "A_4")[:2]
    tables = spec.items(climatecause, "A_4", prompts="tables")[2:4]
    res = run_benchmark("ccr-member", "A_4", "mock/oracle", items=tables, out=tmp_path / "t", progress=False)
    assert load_run(res.path).manifest.prompts == "tables"
    with pytest.raises(ConfigError, match="built from the prompt catalogs authors, tables; a run holds the items of one"):
        run_benchmark("ccr-member", "A_4", "mock/oracle", items=authors + tables, out=tmp_path / "x", progress=False)
    with pytest.raises(ConfigError, match="built from the 'authors' prompts, not 'tables'"):
        run_benchmark("ccr-member", "A_4", "mock/oracle", items=authors, out=tmp_path / "y", prompts="tables",
                      progress=False)


def test_a_task_without_catalogs_records_none_and_refuses_prompts_naming_it(isolated_cache, tmp_path):
    res = run_benchmark(YN_TASK, ["v_1"], "mock/oracle", items=yn_items(variants=("v_1",)), out=tmp_path / "a", progress=False)
    assert load_run(res.path).manifest.prompts is None and "prompts" not in load_run(res.path).manifest.to_dict()
    with pytest.raises(ConfigError, match=f"task '{YN_TASK}' has one set of prompts of its own and no catalog to "
                                          "choose; drop --prompts authors"):
        run_benchmark(YN_TASK, ["v_1"], "mock/oracle", items=yn_items(variants=("v_1",)), out=tmp_path / "b", prompts="authors",
                      progress=False)
