"""A plugin distribution extends causalgraph with no file of causalgraph edited.

The test builds, in a temporary folder, the distribution of ``examples/plugin``: its module and a
``*.dist-info`` folder holding METADATA and the ``entry_points.txt`` written from the example's
``pyproject.toml``, exactly what ``pip install ./examples/plugin`` leaves in site-packages.  With
that folder on ``PYTHONPATH`` the real command line takes up the plugin's task, backend, encoding
and metric; every value asserted is computed here independently.  This proves the recipes of
docs/architecture.md ("Plugins").
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest


ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "plugin"
DIST = "causalgraph_plugin_demo-0.1.dist-info"


def write_dist(folder: Path, name: str, version: str, entry_points: dict[str, dict[str, str]]) -> None:
    """A ``<name>-<version>.dist-info`` folder with METADATA and ``entry_points.txt`` in ``folder``."""
    info = folder / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8")
    lines = []
    for group, eps in entry_points.items():
        lines.append(f"[{group}]")
        lines += [f"{k} = {v}" for k, v in eps.items()]
        lines.append("")
    (info / "entry_points.txt").write_text("\n".join(lines), encoding="utf-8")


@pytest.fixture(scope="module")
def plugin(tmp_path_factory) -> Path:
    """The example plugin, installed in a folder of its own (module + dist-info)."""
    folder = tmp_path_factory.mktemp("plugin")
    shutil.copy(EXAMPLE / "causalgraph_plugin_demo.py", folder)
    project = tomllib.loads((EXAMPLE / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    write_dist(folder, project["name"], project["version"], project["entry-points"])
    return folder


@pytest.fixture(scope="module")
def cg(plugin, tmp_path_factory):
    """Run ``causalgraph ARGS`` in a subprocess with the plugin on PYTHONPATH; returns (rc, stdout, stderr)."""
    cache = tmp_path_factory.mktemp("cache")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(plugin)]),
           "CAUSALGRAPH_CACHE": str(cache), "CAUSALGRAPH_OFFLINE": "1"}

    def run(*args: str, extra_path: Path | None = None):
        e = dict(env)
        if extra_path is not None:
            e["PYTHONPATH"] = os.pathsep.join([e["PYTHONPATH"], str(extra_path)])
        p = subprocess.run([sys.executable, "-m", "causalgraph", *args], capture_output=True, text=True, env=e,
                           timeout=600)
        return p.returncode, p.stdout, p.stderr

    return run


def rows(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


def distinct_events(statement) -> int:
    """The events of a statement counted from its relations (what the plugin's metric must report)."""
    return len({x for r in statement.relations for x in (r.cause, r.effect)})


def test_the_task_is_listed_and_runs_with_the_plugin_backend(cg, tmp_path):
    rc, out, err = cg("bench", "tasks", "--format", "csv")
    assert rc == 0, err
    listed = {r["task"]: r for r in rows(out)}
    assert listed["plugin-even"]["variants"] == "v_1" and listed["plugin-even"]["kind"] == "binary"
    rc, out, err = cg("bench", "run", "--task", "plugin-even", "--variant", "v_1", "--model", "plugin/fours",
                      "--out", str(tmp_path / "run"))
    assert rc == 0, err
    rc, out, err = cg("bench", "report", str(tmp_path / "run"), "--format", "json")
    assert rc == 0, err
    [report] = json.loads(out)
    m = report["metrics"]
    assert m["task"] == "plugin-even" and m["model"] == "plugin/fours"
    # plugin/fours says yes to multiples of four: on 0…11 it is right where (n % 4 == 0) == (n % 2 == 0).
    n = range(12)
    expected_accuracy = sum((i % 4 == 0) == (i % 2 == 0) for i in n) / len(n)
    tp = sum(i % 4 == 0 for i in n)
    expected_recall = tp / sum(i % 2 == 0 for i in n)
    v = m["variants"]["v_1"]
    assert v["items"] == 12 and v["errors"] == 0 and v["parse_failures"] == 0
    assert v["accuracy"] == pytest.approx(expected_accuracy)
    assert v["recall"] == pytest.approx(expected_recall) and v["precision"] == pytest.approx(1.0)
    answers = [json.loads(line) for line in (tmp_path / "run" / "responses.jsonl").read_text().splitlines()]
    assert {a["label"] for a in answers if int(re.search(r"q(\d+)", a["item_id"]).group(1)) % 4 == 0} == {"yes"}


def test_the_encoding_works_in_encode_items_and_a_structure_task(cg, climatecause):
    rc, arrows, err = cg("encode", "--statement", "cc-007", "--encoding", "plugin-arrows")
    assert rc == 0, err
    rc, adjacency, err = cg("encode", "--statement", "cc-007", "--encoding", "adjacency")
    assert rc == 0, err
    # The same edges in the same order: "(c, e) (c, e)" rewritten as "c => e ; c => e".
    pairs = re.findall(r"\(([^()]*?), ([^()]*?)\)", adjacency)
    assert arrows.strip() == " ; ".join(f"{c} => {e}" for c, e in pairs)
    assert len(pairs) == len({(r.cause, r.effect) for r in climatecause["cc-007"].relations})

    rc, out, err = cg("items", "--task", "ccr-member", "--variant", "A_5", "--encoding", "plugin-arrows",
                      "--format", "json")
    assert rc == 0, err
    items = json.loads(out)
    assert items and all(it["variant"] == "PA_5" for it in items)
    first = next(it for it in items if it["meta"]["statement_id"] == "cc-007")
    assert arrows.strip() in first["prompt"]

    rc, out, err = cg("bench", "tasks", "--format", "csv")
    assert "PA_1" in {r["task"]: r for r in rows(out)}["reachability"]["variants"].split(",")
    rc, out, err = cg("items", "--task", "reachability", "--variant", "PA_1", "--format", "json")
    assert rc == 0, err
    items = json.loads(out)
    mine = [it for it in items if it["meta"]["statement_id"] == "cc-007"]
    assert mine and all(arrows.strip() in it["prompt"] for it in mine)


def test_the_metric_is_a_column_of_complexity_the_report_and_the_annotation_evaluation(cg, climatecause, tmp_path):
    two = ("cc-001", "cc-007")
    rc, out, err = cg("complexity", "--format", "csv")
    assert rc == 0, err
    table = {r["statement_id"]: r for r in rows(out)}
    header = list(rows(out)[0])
    assert header.index("c_events") == header.index("c_pol") + 1  # after the paper's five
    for sid in two:
        assert int(table[sid]["c_events"]) == distinct_events(climatecause[sid]) > 0
        # An extra column, never a term: c_raw stays the sum of the paper's five (issue 35, item 2).
        paper = sum(float(table[sid][f"c_{m}"]) for m in ("com", "ex", "nest", "corr", "pol"))
        assert float(table[sid]["c_raw"]) == pytest.approx(paper)
        assert table[sid]["c_metrics"] == "com,ex,nest,corr,pol" and table[sid]["c_weights"] == "1,1,1,1,1"

    rc, out, err = cg("report", "-o", str(tmp_path / "report"), "--max-graphs", "1")
    assert rc == 0, err
    report = {r["statement_id"]: r for r in rows((tmp_path / "report" / "complexity.csv").read_text())}
    for sid in two:
        assert int(report[sid]["c_events"]) == distinct_events(climatecause[sid])
    page = (tmp_path / "report" / "index.html").read_text(encoding="utf-8")
    assert "<th>C^events</th>" in page and "Histograms of C^com, C^ex, C^nest, C^corr, C^pol, C^events" in page
    # The report says what its C(s) is made of: the paper's five, the plugin's metric an extra column only.
    # Right under the table it describes, in the table's words ("sum"), naming the column that is no term.
    after = page[page.index('id="complexity-table"'):]
    after = after[after.index("</table>") + len("</table>"):].lstrip()
    assert after.startswith('<p class="muted" id="composite">The sum column is c_raw; c_raw and C(s) (c_norm) over '
                            "com, ex, nest, corr, pol with weights 1, 1, 1, 1, 1 (the paper&#x27;s five); C^events is "
                            "a column of its own, in neither.</p>"), after[:300]
    assert {(r["c_metrics"], r["c_weights"]) for r in report.values()} == {("com,ex,nest,corr,pol", "1,1,1,1,1")}

    rc, out, err = cg("annotate", "--data", "climatecause", "--limit", "7", "--model", "mock/oracle",
                      "--out", str(tmp_path / "annotate"))
    assert rc == 0, err
    rc, out, err = cg("evaluate-annotation", str(tmp_path / "annotate"), "--per-statement", "--format", "csv")
    assert rc == 0, err
    per = {r["statement_id"]: r for r in rows(out)}
    for sid in two:
        assert int(per[sid]["gold_events"]) == int(per[sid]["pred_events"]) == distinct_events(climatecause[sid])
    rc, out, err = cg("evaluate-annotation", str(tmp_path / "annotate"), "--format", "csv")
    assert {r["measure"]: float(r["value"]) for r in rows(out)}["complexity.mae.events"] == 0.0


def test_a_broken_plugin_is_one_line_naming_its_distribution(cg, tmp_path):
    write_dist(tmp_path, "broken-plugin", "2.0", {"causalgraph.tasks": {"broken-task": "no_such_module_xyz:TASK"}})
    rc, out, err = cg("items", "--task", "broken-task", "--variant", "v_1", extra_path=tmp_path)
    assert rc == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert "'broken-task'" in err and "'broken-plugin 2.0'" in err and "causalgraph.tasks" in err
    assert "ModuleNotFoundError" in err
    # Listing the tasks leaves it out, with a note, and lists the others.
    rc, out, err = cg("bench", "tasks", extra_path=tmp_path)
    assert rc == 0 and "broken-task" not in out and "corri" in out and "plugin-even" in out
    assert err.count("\n") == 1 and "'broken-plugin 2.0'" in err and "causalgraph plugins" in err
    # The rest of causalgraph still works: nothing is read from the broken plugin unless it is used.
    rc, out, err = cg("encode", "--statement", "cc-007", extra_path=tmp_path)
    assert rc == 0, err


def test_a_plugin_that_calls_sys_exit_on_import_breaks_only_itself(cg, tmp_path):
    """sys.exit() in a plugin's module is an import failure like any other, not the end of the command."""
    (tmp_path / "cg_exits_on_import.py").write_text("import sys\nsys.exit(3)\n", encoding="utf-8")
    write_dist(tmp_path, "exiting-plugin", "0.3", {"causalgraph.encodings": {"exit-enc": "cg_exits_on_import:X"},
                                                   "causalgraph.metrics": {"exit_metric": "cg_exits_on_import:X"}})
    rc, out, err = cg("plugins", "--format", "json", extra_path=tmp_path)
    assert rc == 0, err
    mine = {r["name"]: r for r in json.loads(out) if r["distribution"] == "exiting-plugin"}
    assert set(mine) == {"exit-enc", "exit_metric"}
    assert all(r["status"] == "failed" and "sys.exit(3)" in r["detail"] for r in mine.values()), mine
    # The metric is left out of complexity with a note; the paper's columns are still printed.
    rc, out, err = cg("complexity", "--format", "csv", extra_path=tmp_path)
    assert rc == 0 and "Traceback" not in err, err
    header = out.splitlines()[0].split(",")
    assert header[:7] == ["statement_id", "statement", "c_com", "c_ex", "c_nest", "c_corr", "c_pol"], header
    assert {"c_raw", "c_norm"} <= set(header) and "c_exit_metric" not in header and "exit_metric" not in header
    assert "'exiting-plugin 0.3'" in err
    # Asked for by name: one line naming the distribution, exit 2.
    rc, out, err = cg("encode", "--statement", "cc-007", "--encoding", "exit-enc", extra_path=tmp_path)
    assert rc == 2 and out == "" and err.count("\n") == 1, (rc, out, err)
    assert "'exiting-plugin 0.3'" in err and "sys.exit(3)" in err


def test_an_installed_metric_changes_no_c_raw_or_c_s_and_the_opt_in_composite_adds_it(cg, climatecause, capsys):
    """Issue 35, item 2: C(s) and c_raw are the paper's five whatever is installed; a composite is asked for."""
    from causalgraph.cli import main

    assert main(["complexity", "--format", "csv"]) == 0  # this process has no plugin installed
    bare = {r["statement_id"]: r for r in rows(capsys.readouterr().out)}
    rc, out, err = cg("complexity", "--format", "csv")
    assert rc == 0, err
    with_plugin = {r["statement_id"]: r for r in rows(out)}
    assert list(with_plugin) == list(bare) and len(bare) == len(climatecause) == 75
    for sid, r in bare.items():
        for col in ("c_com", "c_ex", "c_nest", "c_corr", "c_pol", "c_raw", "c_norm", "density", "c_metrics",
                    "c_weights"):
            assert with_plugin[sid][col] == r[col], (sid, col)
    assert "c_events" not in bare["cc-007"] and int(with_plugin["cc-007"]["c_events"]) == 4

    # --metrics …,events: the plugin's metric becomes a term.  By hand for cc-007: C^corr = 4 of the
    # corpus range [0, 70] (the paper's), 4 events of the range [0, max events], every other term 0.
    rc, out, err = cg("complexity", "--metrics", "com,ex,nest,corr,pol,events", "--format", "csv")
    assert rc == 0, err
    composite = {r["statement_id"]: r for r in rows(out)}
    events = {s.id: distinct_events(s) for s in climatecause}
    assert distinct_events(climatecause["cc-007"]) == 4 and bare["cc-007"]["c_corr"] == "4"
    assert float(composite["cc-007"]["c_raw"]) == 4 + 4
    assert float(composite["cc-007"]["c_norm"]) == pytest.approx(4 / 70 + 4 / max(events.values()))
    assert composite["cc-007"]["c_metrics"] == "com,ex,nest,corr,pol,events"
    assert composite["cc-007"]["c_weights"] == "1,1,1,1,1,1"
    for sid, r in composite.items():
        assert float(r["c_raw"]) == pytest.approx(float(bare[sid]["c_raw"]) + events[sid])
    # Weights follow --metrics: the events term alone.
    rc, out, err = cg("complexity", "--metrics", "events", "--weights", "2", "--format", "json")
    assert rc == 0, err
    alone = {r["statement_id"]: r for r in json.loads(out)}
    assert alone["cc-007"]["c_norm"] == pytest.approx(2 * 4 / max(events.values()))
    assert alone["cc-007"]["c_raw"] == 4 and alone["cc-007"]["c_metrics"] == "events"


def test_the_reducer_scores_repeated_samples_and_plugins_lists_all_five(cg, tmp_path):
    # plugin/fours answers the same every time: with two epochs an item has c = 2 right answers (the
    # 9 items of 12 where "a multiple of four" agrees with "even") or c = 0, so "at least half of k = 2
    # drawn right" is 1 or 0: the mean is 9/12.  With k = 1 it is c / n, the same.
    rc, out, err = cg("bench", "run", "--task", "plugin-even", "--variant", "v_1", "--model", "plugin/fours",
                      "--epochs", "2", "--temperature", "1", "--out", str(tmp_path / "run"), "--no-progress")
    assert rc == 0, err
    right = sum((i % 4 == 0) == (i % 2 == 0) for i in range(12))
    for k in ("2", "1"):
        rc, out, err = cg("bench", "report", str(tmp_path / "run"), "--reducer", f"half~{k}", "--format", "csv")
        assert rc == 0, err
        row = next(r for r in rows(out) if r["variant"] == "v_1")
        assert float(row[f"half~{k}"]) == pytest.approx(right / 12) == 0.75
    rc, out, err = cg("plugins", "--format", "json")
    assert rc == 0, err
    listed = {(r["group"], r["name"]): r for r in json.loads(out)}
    assert set(listed) == {("causalgraph.tasks", "plugin-even"), ("causalgraph.backends", "plugin"),
                           ("causalgraph.encodings", "plugin-arrows"), ("causalgraph.metrics", "events"),
                           ("causalgraph.reducers", "half~k"), ("causalgraph.formats", "arrows"),
                           ("causalgraph.scoring_metrics", "youden_j")}
    assert {(r["distribution"], r["version"], r["status"]) for r in listed.values()} == \
        {("causalgraph-plugin-demo", "0.1", "ok")}


def test_plugins_lists_hostile_entry_point_names_without_sending_them_to_the_terminal(cg, tmp_path):
    """Names with control characters, markup or nothing at all: listed and failed, one row each, escaped in the table."""
    hostile = {"<script>alert(1)</script>": "cg_no_such:X", "": "cg_no_such:Y", "bell\x07\x1b[31mred": "cg_no_such:Z",
               "plain": "cg_no\x1b[2Jsuch:W"}
    info = tmp_path / "hostile-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: hostile\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[causalgraph.metrics]\n" + "".join(f"{k} = {v}\n" for k, v in hostile.items())
                                           + "[causalgraph.weird]\n\x1b[2Jclear = a:b\n", encoding="utf-8")
    rc, out, err = cg("plugins", "--format", "json", extra_path=tmp_path)
    assert rc == 0 and "Traceback" not in err, err
    mine = {r["name"]: r for r in json.loads(out) if r["distribution"] == "hostile"}
    assert set(mine) == {*hostile, "\x1b[2Jclear"}
    assert all(mine[n]["status"] == "failed" for n in hostile) and mine["\x1b[2Jclear"]["status"] == "unknown group"
    rc, out, err = cg("plugins", extra_path=tmp_path)
    assert rc == 0 and "Traceback" not in err, err
    # The table is for a terminal: no escape sequence or bell reaches it, each shown as its \\x code.
    assert not any(c in out for c in "\x07\x1b"), out
    assert "bell\\x07\\x1b[31mred" in out and "\\x1b[2Jclear" in out and "<script>alert(1)</script>" in out
    assert sum("hostile" in line for line in out.splitlines()) == 5
    rc, out, err = cg("plugins", "--format", "csv", extra_path=tmp_path)
    assert rc == 0 and sum(r["distribution"] == "hostile" for r in rows(out)) == 5
    # The notes other commands give name the entry points as Python literals: escaped there too.
    rc, out, err = cg("complexity", "--format", "csv", extra_path=tmp_path)
    assert rc == 0 and not any(c in err for c in "\x07\x1b") and err.count("'hostile 1.0'") == 4, err
    assert "(cg_no\\x1b[2Jsuch:W)" in err, err


def test_a_plugins_code_that_raises_or_exits_when_used_breaks_only_itself(cg, tmp_path):
    """Registry.call guards a plugin's code at use time: an encoder that raises on a larger graph than the
    load-time probe's, a metric that calls sys.exit(); one line naming the plugin, never a traceback or the
    end of the command."""
    (tmp_path / "cg_use_time.py").write_text(textwrap.dedent('''
        import sys
        from causalgraph.encodings import Encoding

        def _picky(nodes, edges, signs):
            if len(nodes) > 2:
                raise ValueError("too many nodes")
            return "ok"

        PICKY = Encoding("picky", _picky, prefix="PK")

        def exits(graph, options):
            """Ends the process when scored."""
            sys.exit(3)
    '''), encoding="utf-8")
    write_dist(tmp_path, "use-time", "0.4", {"causalgraph.encodings": {"picky": "cg_use_time:PICKY"},
                                             "causalgraph.metrics": {"exits": "cg_use_time:exits"}})
    for argv in (["encode", "--statement", "cc-007", "--encoding", "picky"],
                 ["items", "--task", "ccr-member", "--variant", "PK_5", "--limit", "1"]):
        rc, out, err = cg(*argv, extra_path=tmp_path)
        assert rc == 2 and out == "" and err.count("\n") == 1, (argv, rc, err)
        assert "'use-time 0.4'" in err and "its encoder raised ValueError: too many nodes" in err, err
    rc, bare, _ = cg("complexity", "--format", "csv")
    rc, out, err = cg("complexity", "--format", "csv", extra_path=tmp_path)
    assert rc == 0 and "Traceback" not in err, (rc, err)
    assert out == bare and "c_exits" not in out.splitlines()[0]  # bare: the same plugins but this one
    assert "'use-time 0.4'" in err and "its function raised SystemExit: 3" in err and "left out" in err, err
    rc, out, err = cg("complexity", "--metrics", "com,exits", extra_path=tmp_path)
    assert rc == 2 and out == "" and err.count("\n") == 1 and "SystemExit: 3" in err, (rc, err)


def test_an_encoder_giving_a_long_non_text_at_load_is_one_short_line(cg, tmp_path):
    """The load-time probe quotes the value as every refusal does: cut to 80 characters (registry.short_repr)."""
    (tmp_path / "cg_long_list.py").write_text(
        "from causalgraph.encodings import Encoding\n"
        "LONG = Encoding('long-list', lambda nodes, edges, signs: list(range(5000)), prefix='LL')\n", encoding="utf-8")
    write_dist(tmp_path, "long-list", "0.1", {"causalgraph.encodings": {"long-list": "cg_long_list:LONG"}})
    rc, out, err = cg("encode", "--statement", "cc-007", "--encoding", "long-list", extra_path=tmp_path)
    assert rc == 2 and out == "" and err.count("\n") == 1, (rc, err[:300])
    assert ("its encoder returned " + repr(list(range(5000)))[:77] + "... (list) for the graph a -> b; expected the "
            "graph as text (str)") in err and len(err) < 400, err[:300]


def test_the_file_format_is_written_by_export_graphs_and_read_back_by_data(cg, climatecause, tmp_path):
    from causalgraph.graph import compile_graph
    from causalgraph.readwrite import to_graphml

    rc, out, err = cg("export-graphs", str(tmp_path / "g"), "--format", "arrows", "--statement", "cc-007", "cc-046")
    assert rc == 0, err
    assert out.split() == [str(tmp_path / "g" / "cc-007.arrows"), str(tmp_path / "g" / "cc-046.arrows")]
    graph = compile_graph(climatecause["cc-046"])
    lines = (tmp_path / "g" / "cc-046.arrows").read_text(encoding="utf-8").splitlines()
    assert lines == [f"{e.cause} -> {e.effect}" + (f"\t{e.correlation.value}" if e.correlation else "")
                     for e in graph.edges]
    # --data reads the file through the plugin's reader: the same edges, as chains sees them
    rc, back, err = cg("chains", "--data", str(tmp_path / "g" / "cc-046.arrows"), "--format", "csv")
    assert rc == 0, err
    rc, want, err = cg("chains", "--format", "csv")
    assert rc == 0, err
    mine = [r for r in rows(want) if r["statement_id"] == "cc-046"]
    theirs = rows(back)
    assert [(r["event"], r["position"], r["depth"]) for r in theirs] == [(r["event"], r["position"], r["depth"])
                                                                        for r in mine]
    # the built-in formats are unchanged with the plugin installed
    rc, out, err = cg("export-graphs", str(tmp_path / "b"), "--format", "graphml", "--statement", "cc-046")
    assert rc == 0, err
    assert (tmp_path / "b" / "cc-046.graphml").read_text(encoding="utf-8") == to_graphml(graph)


def test_the_scoring_metric_reaches_report_metrics_view_and_compare_only_when_asked(cg, tmp_path):
    # plugin/fours on 0…11: gold yes for the 6 even numbers, it says yes for 0, 4, 8 (3 of them) and no for every
    # odd one: recall of yes 3/6, of no 6/6, so Youden's J = 0.5 + 1 - 1 = 0.5.
    for name, model in (("fours", "plugin/fours"), ("oracle", "mock/oracle")):
        rc, out, err = cg("bench", "run", "--task", "plugin-even", "--variant", "v_1", "--model", model,
                          "--out", str(tmp_path / name), "--no-progress")
        assert rc == 0, err
    rc, plain, err = cg("bench", "report", str(tmp_path / "fours"), "--format", "json")
    assert rc == 0, err
    assert "youden_j" not in plain and "scoring_metrics" not in plain  # installed, not asked: nothing changes
    rc, out, err = cg("bench", "report", str(tmp_path / "fours"), "--scoring-metric", "youden_j", "--format", "json")
    assert rc == 0, err
    [report] = json.loads(out)
    v = report["metrics"]["variants"]["v_1"]
    assert v["scoring_metrics"] == {"youden_j": pytest.approx(0.5)}
    assert report["metrics"]["scoring_metrics"] == {"youden_j": "Youden's J: recall of both classes minus 1"}
    rc, out, err = cg("bench", "report", str(tmp_path / "fours"), "--scoring-metric", "youden_j", "--format", "csv")
    assert rc == 0, err
    row = next(r for r in rows(out) if r["variant"] == "v_1")
    # 12 items without a statement, each a bootstrap unit of its own: fewer than 30, so no interval
    assert float(row["youden_j"]) == pytest.approx(0.5) and row["youden_j_ci95"] == ""
    rc, out, err = cg("bench", "run", "--task", "plugin-even", "--variant", "v_1", "--model", "plugin/fours",
                      "--out", str(tmp_path / "fours"), "--no-progress", "--scoring-metric", "youden_j")
    assert rc == 0, err
    written = json.loads((tmp_path / "fours" / "metrics.json").read_text(encoding="utf-8"))
    assert written["variants"]["v_1"]["scoring_metrics"]["youden_j"] == pytest.approx(0.5)
    rc, out, err = cg("bench", "view", str(tmp_path / "fours"), "-o", str(tmp_path / "v.html"))
    assert rc == 0, err
    assert '"scoring_metrics": [["youden_j", 0.5, null]]' in (tmp_path / "v.html").read_text(encoding="utf-8")
    rc, out, err = cg("stats", "compare", str(tmp_path / "fours"), str(tmp_path / "oracle"), "--by", "model",
                      "--scoring-metric", "youden_j", "--format", "json")
    assert rc == 0, err
    [cmp] = json.loads(out)
    assert (cmp["youden_j_a"], cmp["youden_j_b"]) == (pytest.approx(0.5), pytest.approx(1.0))
    assert cmp["youden_j_diff"] == pytest.approx(0.5) and cmp["youden_j_ci_low"] is None
    assert cmp["scoring_note"] == ("youden_j interval not estimable: 12 statements, at least 30 needed "
                                   "(docs/statistics.md#scoring-metrics)")
