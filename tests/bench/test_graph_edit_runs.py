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


def _plan(capsys, *args):
    assert main(["bench", "plan", "--data", "sample", "--format", "json", *args]) == 0
    captured = capsys.readouterr()
    rows = json.loads(captured.out)
    return [r for r in rows if r["task"] != "total"] if len(rows) > 1 else rows, captured.err


def test_plan_under_a_graph_edit_counts_the_run_and_measures_the_edited_prompts(tmp_path, isolated_cache, capsys):
    from causalgraph.datasets import load_corpus
    from causalgraph.tasks import get_task

    rows, _ = _plan(capsys, "--task", "ccr-position", "--variant", "A_5,SN_5.nonsense", "--graph-edit", "shuffle",
                    "--model", "mock/oracle")
    corpus = load_corpus("sample")
    spec = get_task("ccr-position")
    expected = []
    for v, names in (("A_5", None), ("SN_5", "nonsense")):
        items = spec.items(corpus, v, event_names=names, graph_edit="shuffle")
        expected.append((items[0].variant, len(items), sum(len(m["content"]) for it in items for m in it.messages())))
    assert [(r["variant"], r["requests"], r["prompt_chars"]) for r in rows] == expected
    assert [e[0] for e in expected] == ["A_5.shuffle", "SN_5.nonsense.shuffle"]
    # Without the option the same variant is planned on the real prompts.
    real, _ = _plan(capsys, "--task", "ccr-position", "--variant", "A_5", "--model", "mock/oracle")
    real_items = spec.items(corpus, "A_5")
    assert real[0]["prompt_chars"] == sum(len(m["content"]) for it in real_items for m in it.messages())
    # bench run under the same edit asks exactly the planned requests.
    out = tmp_path / "run"
    assert main(["bench", "run", "--data", "sample", "--task", "ccr-position", "--variant", "A_5,SN_5.nonsense",
                 "--graph-edit", "shuffle", "--model", "mock/oracle", "--out", str(out)]) == 0
    lines = [json.loads(x) for x in (out / "responses.jsonl").read_text().splitlines()]
    assert {v: sum(r["variant"] == v for r in lines) for v in ("A_5.shuffle", "SN_5.nonsense.shuffle")} == \
        {r["variant"]: r["requests"] for r in rows}


def test_loglik_plan_and_run_take_a_graph_edit(tmp_path, isolated_cache, capsys):
    from causalgraph.datasets import load_corpus
    from causalgraph.tasks import get_task

    rows, _ = _plan(capsys, "--task", "ccr-member", "--variant", "A_5", "--graph-edit", "reverse", "--model",
                    "mock/oracle", "--method", "loglik")
    items = get_task("ccr-member").items(load_corpus("sample"), "A_5", graph_edit="reverse")
    # Prompt plus both continuations ("Yes", "No") per item; nothing generated.
    chars = sum(len(m["content"]) for it in items for m in it.messages()) + len(items) * len("YesNo")
    assert [(r["variant"], r["requests"], r["prompt_chars"], r["output_tokens_est"]) for r in rows] == \
        [("A_5.reverse", len(items), chars, 0)]
    out = tmp_path / "ll"
    assert main(["bench", "run", "--data", "sample", "--task", "ccr-member", "--variant", "A_5", "--graph-edit",
                 "reverse", "--method", "loglik", "--model", "mock/oracle", "--out", str(out)]) == 0
    lines = [json.loads(x) for x in (out / "responses.jsonl").read_text().splitlines()]
    assert len(lines) == len(items)
    assert all(r["variant"] == "A_5.reverse" and r["continuations"] == {"yes": "Yes", "no": "No"}
               and r["label"] == r["gold"] for r in lines)
    assert sorted((r["item_id"], r["gold"]) for r in lines) == sorted((it.id, it.gold) for it in items)


def test_plan_of_all_tasks_under_an_edit_leaves_out_those_without_a_graph(capsys):
    rows, err = _plan(capsys, "--graph-edit", "reverse", "--model", "mock/oracle")
    assert {r["task"] for r in rows} == {"ccr-member", "ccr-position"} and len(rows) == 18
    assert all(r["variant"].endswith(".reverse") for r in rows)
    assert "corri, corri-rc, ccr-eci-member, ccr-eci-position left out" in err


def test_plan_of_a_named_task_without_a_graph_refuses_the_edit_in_one_line(capsys):
    assert main(["bench", "plan", "--data", "sample", "--task", "ccr-eci-member", "--variant", "F_5",
                 "--graph-edit", "shuffle"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot take graph edit 'shuffle'" in err[0]
    assert main(["bench", "plan", "--data", "sample", "--task", "ccr-member", "--variant", "A_5.reverse",
                 "--graph-edit", "shuffle"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "edits the graph ('reverse') but --graph-edit shuffle" in err[0]
