"""What the graph pages, `complexity --summary` and `--open` say: counts that match, each pair once, no silence."""

from __future__ import annotations

import itertools
import re
import webbrowser

import pytest

from causalgraph import compile_graph
from causalgraph.cli import main
from causalgraph.datasets import load_corpus


def _busiest(corpus):
    """The statement whose edges carry the most relations beyond one each (several rows per edge)."""
    return max(corpus, key=lambda s: len(s.relations) - len(compile_graph(s).edges))


def test_a_graph_page_says_how_many_relations_and_how_many_distinct_edges(tmp_path, capsys, climatecause_path):
    st = _busiest(load_corpus(climatecause_path))
    g = compile_graph(st)
    assert len(st.relations) > len(g.edges)  # several annotated rows per drawn edge
    rc = main(["view", "--data", str(climatecause_path), "--statement", st.id, "-o", str(tmp_path / "g.html")])
    page = (tmp_path / "g.html").read_text(encoding="utf-8")
    n_rel = sum(len(e.relations) for e in g.edges)
    assert rc == 0 and f"{n_rel} relations, {len(g.edges)} distinct causal edges" in page
    assert f"<summary>{n_rel} relations</summary>" in page


def test_complexity_summary_lists_each_unordered_pair_of_metrics_once(capsys, climatecause_path):
    rc = main(["complexity", "--data", str(climatecause_path), "--summary", "--format", "csv"])
    rows = dict(line.rsplit(",", 1) for line in capsys.readouterr().out.splitlines()[1:])
    main(["complexity", "--data", str(climatecause_path), "--format", "csv"])
    import csv
    import io

    table = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    metrics = ["com", "ex", "nest", "corr", "pol"]
    cols = {m: next(c for c in table[0] if c.lower().endswith(m) or c.lower() == f"c_{m}") for m in metrics}
    pairs = {k: v for k, v in rows.items() if k.startswith("co-occurrence ")}
    assert rc == 0 and len(pairs) == 10
    for a, b in itertools.combinations(metrics, 2):
        both = sum(1 for r in table if float(r[cols[a]]) > 0 and float(r[cols[b]]) > 0)
        assert pairs[f"co-occurrence {a} & {b}"] == str(both)
    for m in metrics:
        assert rows[f"statements with C^{m} > 0"] == str(sum(1 for r in table if float(r[cols[m]]) > 0))
    assert "complex in 1 metric" in rows and "complex in 2 metrics" in rows


@pytest.mark.parametrize("command", [["view", "--statement", "sample-001"], ["bench", "view"]])
def test_open_without_a_browser_says_so_and_names_the_page(command, tmp_path, capsys, monkeypatch, isolated_cache):
    monkeypatch.setattr(webbrowser, "open", lambda uri, *a, **k: False)
    if command[0] == "bench":
        run = tmp_path / "r"
        main(["bench", "run", "--task", "corri", "--variant", "0_1", "--model", "mock/oracle", "--data", "sample",
              "--out", str(run)])
        capsys.readouterr()
        command = command + [str(run)]
    page = tmp_path / "p.html"
    rc = main(command + ["--data", "sample", "-o", str(page), "--open"])
    out = capsys.readouterr()
    assert rc == 0 and out.out.strip().endswith("p.html")
    assert re.fullmatch(r"causalgraph (bench|view): note: --open: no web browser could be opened \(none is installed, "
                        r"or there is no display\); open the page yourself: \S+p\.html\n", out.err)
    assert out.err.split()[-1] == str(page.resolve())


def test_open_with_a_browser_opens_the_page_and_says_nothing(tmp_path, capsys, monkeypatch):
    opened = []
    monkeypatch.setattr(webbrowser, "open", lambda uri, *a, **k: opened.append(uri) or True)
    rc = main(["view", "--statement", "sample-001", "--data", "sample", "-o", str(tmp_path / "p.html"), "--open"])
    assert rc == 0 and opened == [(tmp_path / "p.html").resolve().as_uri()] and capsys.readouterr().err == ""
