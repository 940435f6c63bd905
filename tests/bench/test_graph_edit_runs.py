"""bench run --graph-edit: edited variant ids, the manifest records the edit, real leaves runs as they were."""

from __future__ import annotations

import json

from causalgraph.cli import main


def _manifest(path):
    return json.loads((path / "manifest.json").read_text())


def test_a_run_on_reversed_graphs_records_the_edit_and_scores_the_oracle_full(tmp_path, isolated_cache, capsys):
    out = tmp_path / "rev"
    assert main(["bench", "run", "--data", "sample", "--task", "ccr-position", "--variant", "A_5,SN_5.nonsense",
                 "--graph-edit", "reverse", "--model", "mock/oracle", "--out", str(out), "--format", "json"]) == 0
    m = _manifest(out)
    assert m["variants"] == ["A_5.reverse", "SN_5.nonsense.reverse"] and m["graph_edit"] == "reverse"
    lines = [json.loads(x) for x in (out / "responses.jsonl").read_text().splitlines()]
    assert {r["variant"] for r in lines} == {"A_5.reverse", "SN_5.nonsense.reverse"}
    assert all(r["label"] == r["gold"] and r["meta"]["graph_edit"] == "reverse" for r in lines)


def test_graph_edit_real_writes_the_same_manifest_and_lines(tmp_path, isolated_cache, capsys):
    a, b = tmp_path / "a", tmp_path / "b"
    for out, extra in ((a, []), (b, ["--graph-edit", "real"])):
        assert main(["bench", "run", "--data", "sample", "--task", "parents", "--variant", "A_1", "--model",
                     "mock/oracle", "--out", str(out), *extra]) == 0
    ma, mb = _manifest(a), _manifest(b)
    for m in (ma, mb):
        for k in ("started", "invocations"):
            m.pop(k)
    assert ma == mb and "graph_edit" not in ma
    # The second run is answered from the cache: the same cache keys; only where the answer came from differs.
    assert "0 requests sent, 11 cache hits" in capsys.readouterr().err
    strip = lambda p: sorted(({k: v for k, v in json.loads(x).items()  # noqa: E731
                               if k not in ("latency_s", "time", "source", "attempts")}
                              for x in (p / "responses.jsonl").read_text().splitlines()), key=lambda r: r["item_id"])
    assert strip(a) == strip(b)


def test_a_task_without_graphs_refuses_the_edit_in_one_line(tmp_path, isolated_cache, capsys):
    assert main(["bench", "run", "--data", "sample", "--task", "ccr-eci-member", "--variant", "F_5",
                 "--graph-edit", "shuffle", "--model", "mock/oracle", "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot take graph edit 'shuffle'" in err[0]
