"""The corpus report: files, reproduced paper figures, escaping, determinism, CLI."""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
import hostile  # noqa: E402

from causalgraph.cli import main
from causalgraph.errors import ConfigError
from causalgraph.model import Corpus, Relation, Statement
from causalgraph.viewer.report import write_report


@pytest.fixture(scope="module")
def cc_report(climatecause, tmp_path_factory):
    return write_report(climatecause, tmp_path_factory.mktemp("report"), max_graphs=4)


def test_write_report_writes_the_page_the_tables_and_graph_pages(cc_report, climatecause):
    names = {p.name for p in cc_report.directory.iterdir()}
    assert {"index.html", "corpus.csv", "labels.csv", "complexity.csv", "readability.csv",
            "readability_table17.csv", "chain_counts.csv", "chain_labels.csv", "graphs"} <= names
    causal = [s.id for s in climatecause if s.causal]
    assert len(causal) == 63
    assert list(cc_report.graphs) == causal[:4]
    assert cc_report.skipped_graphs == tuple(causal[4:])
    assert sorted(p.name for p in (cc_report.directory / "graphs").iterdir()) == [f"{i}.html" for i in causal[:4]]


def test_write_report_reproduces_the_papers_chain_counts(cc_report):
    counts = pd.read_csv(cc_report.tables["chain_counts"]).set_index("rule")
    # ClimateCause §6.1: start 32, middle 48, end 35, none 397 (yes 115, no 397).
    assert counts.loc["path", ["start", "middle", "end", "none", "members", "events"]].tolist() == \
        [32, 48, 35, 397, 115, 512]


def test_write_report_readability_follows_table_17_of_the_paper(cc_report):
    t17 = pd.read_csv(cc_report.tables["readability_table17"]).set_index("metric")
    # Table 17 row order and medians (ClimateCause rows); means are issue 3's to reproduce.
    paper_medians = {"FRE": 26.95, "FKG": 16.06, "CLI": 15.97, "ARI": 18.76, "DCRS": 13.21}
    assert list(t17.index) == list(paper_medians)
    for metric, median in paper_medians.items():
        assert t17.loc[metric, "median"] == pytest.approx(median, abs=0.011)
    assert t17["higher_is_more_readable"].tolist() == [True, False, False, False, False]
    page = cc_report.index.read_text(encoding="utf-8")
    table = re.search(r'<table class="" id="readability-table">(.*?)</table>', page).group(1)
    assert "<td>FRE (↑)</td><td data-sort=" in table and "<td>DCRS (↓), paper</td>" in table


def test_write_report_complexity_table_has_every_statement_at_full_precision(cc_report):
    t = pd.read_csv(cc_report.tables["complexity"])
    assert len(t) == 75 and t["statement_id"].tolist()[:2] == ["cc-001", "cc-002"]
    assert (t["c_norm"] > 0).sum() == 43                      # paper §5.2.2: 43 statements
    assert round(t["c_norm"].max(), 3) == 1.821                # paper: max C(s) = 1.821


def test_write_report_page_links_graphs_and_lists_what_was_left_out(cc_report, climatecause):
    page = cc_report.index.read_text(encoding="utf-8")
    assert list(cc_report.graphs) == ["cc-001", "cc-003", "cc-004", "cc-005"]
    for sid in cc_report.graphs:
        assert f'href="graphs/{sid}.html"' in page
    assert 'href="graphs/cc-006.html"' not in page            # the fifth causal statement, over the limit
    skipped = re.search(r'<p class="muted" id="skipped">(.*?)</p>', page).group(1)
    last_causal = [s.id for s in climatecause if s.causal][-1]
    assert "59 statement(s): cc-006, cc-007, cc-009" in skipped and skipped.endswith(last_causal)
    assert '<img id="hist"' in page and "data:image/png;base64," in page
    assert not re.search(r"<(script|link|img|iframe)[^>]*\s(src|href)\s*=\s*[\"']?(https?:|//)", page, re.I)
    graph_page = cc_report.graphs["cc-001"].read_text(encoding="utf-8")
    assert '<a href="../index.html">' in graph_page


def test_write_report_shows_paper_figures_only_for_the_released_spreadsheet(cc_report, climatecause, tmp_path):
    assert "paper (§6.1)" in cc_report.index.read_text(encoding="utf-8")
    copy = Corpus("climatecause", climatecause.statements[:10], source="edited.xlsx", sha256="0" * 64)
    page = write_report(copy, tmp_path, max_graphs=0).index.read_text(encoding="utf-8")
    assert "paper (§6.1)" not in page and ", paper</td>" not in page


def test_write_report_escapes_hostile_statements(tmp_path):
    corpus = Corpus('evil<script>alert(1)</script>', [hostile.hostile_statement(),
                                                      Statement("s2", "Nothing happens here.", False)])
    rep = write_report(corpus, tmp_path)
    page = rep.index.read_text(encoding="utf-8")
    # The only elements that may carry script or markup are the page's own: one sorting script,
    # one style block and the histogram image; nothing from the data becomes a tag.
    assert page.count("<script") == 1 and page.count("</script") == 1
    assert re.findall(r"<(img|svg|b|i|style|iframe)\b[^>]*>", page) == ["style", "img"]
    assert '<img id="hist"' in page and "onerror" not in page.replace("onerror=&quot;", "")
    assert "causalgraph report: evil&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&lt;script&gt;window.__pwned = &quot;text&quot;&lt;/script&gt;" in page
    # The hostile id becomes a safe file name; the link text keeps it, escaped.
    assert list(rep.graphs) == ["x<script>"]
    assert rep.graphs["x<script>"].name == "x_script_.html"
    assert '<a href="graphs/x_script_.html">x&lt;script&gt;</a>' in page


@pytest.mark.slow
def test_write_report_is_identical_whatever_the_hash_seed(tmp_path):
    # The same report written here and in a child with another hash seed must be byte-identical.
    code = ("import sys; sys.path.insert(0, 'tests/browser'); from hostile import hostile_statement; "
            "from causalgraph.model import Corpus, Statement; from causalgraph.viewer.report import write_report; "
            "c = Corpus('h', [hostile_statement(), Statement('s2', 'Rain falls. Rivers rise.', False)]); "
            "write_report(c, sys.argv[1])")
    root = Path(__file__).resolve().parents[2]
    seed = "1" if os.environ.get("PYTHONHASHSEED") == "2" else "2"
    subprocess.run([sys.executable, "-c", code, str(tmp_path / "child")], cwd=root, check=True,
                   env={**os.environ, "PYTHONHASHSEED": seed})
    write_report(Corpus("h", [hostile.hostile_statement(), Statement("s2", "Rain falls. Rivers rise.", False)]),
                 tmp_path / "here")

    def digest(d: Path) -> dict:
        return {p.relative_to(d).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
                for p in sorted(d.rglob("*")) if p.is_file()}

    here, child = digest(tmp_path / "here"), digest(tmp_path / "child")
    # 7 CSV tables, index.html, one graph page and the two shared vis-network files.
    assert len(here) == 11 and here == child


def test_write_report_rejects_bad_options(climatecause, tmp_path):
    with pytest.raises(ConfigError, match="max_graphs must be >= 0 or None, got -1"):
        write_report(climatecause, tmp_path, max_graphs=-1)
    with pytest.raises(ConfigError, match="unknown chain rule 'longest'"):
        write_report(climatecause, tmp_path, rule="longest")
    with pytest.raises(ConfigError, match="corpus 'empty' has no statement"):
        write_report(Corpus("empty", []), tmp_path)


def test_write_report_gives_unique_file_names_to_colliding_ids(tmp_path):
    st = [Statement(i, "A causes B.", True, (Relation("a", "b", trigger="causes"),)) for i in ("a/b", "a_b", "A_B")]
    rep = write_report(Corpus("c", st), tmp_path)
    assert [p.name for p in rep.graphs.values()] == ["a_b.html", "a_b-2.html", "A_B-3.html"]


def test_report_cli_prints_the_index_path(tmp_path, climatecause_path, capsys):
    out = tmp_path / "rep"
    assert main(["report", "--data", str(climatecause_path), "-o", str(out), "--max-graphs", "0"]) == 0
    assert capsys.readouterr().out.strip() == str(out / "index.html")
    assert not (out / "graphs").exists()
    assert "0 graph page(s) for 63 causal statement(s)" in (out / "index.html").read_text(encoding="utf-8")


def test_report_cli_rejects_a_bad_max_graphs_value(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["report", "--max-graphs", "many"])
    assert exc.value.code == 2
    assert "expected a number >= 0 or 'all', got 'many'" in capsys.readouterr().err


def test_write_report_writes_every_graph_page_by_default_and_stays_under_5_mb(climatecause, tmp_path):
    rep = write_report(climatecause, tmp_path / "rep")
    causal = [s.id for s in climatecause if s.causal]
    assert list(rep.graphs) == causal and rep.skipped_graphs == ()
    total = sum(p.stat().st_size for p in rep.directory.rglob("*") if p.is_file())
    assert total < 5_000_000
    # One copy of the library, byte for byte the file pyvis ships (less its source-map pointer).
    from causalgraph.html.kit import vis_assets

    js, css = vis_assets()
    assert rep.assets["js"].read_text(encoding="utf-8") == js and rep.assets["css"].read_text(encoding="utf-8") == css
    for page in rep.graphs.values():
        text = page.read_text(encoding="utf-8")
        assert js not in text and css not in text
        assert '<script src="../assets/vis-network.min.js"></script>' in text
        assert '<link rel="stylesheet" href="../assets/vis-network.css">' in text
        csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', text).group(1)
        assert "script-src 'self' 'sha256-" in csp and "unsafe-inline'; img-src" in csp
        assert "script-src 'self' 'unsafe-inline'" not in csp
        assert len(text) < 200_000


def _toy_run(root: Path, climatecause) -> Path:
    """A two-item run over ClimateCause relations, written with the store the runner uses."""
    from causalgraph.runlog.store import RunStore

    store = RunStore(root)
    store.write_manifest({"task": "corri", "variants": ["0_1"], "model": "hand/made",
                          "dataset": {"name": "climatecause", "source": climatecause.source,
                                      "sha256": climatecause.sha256}})
    store.append([
        {"task": "corri", "variant": "0_1", "item_id": "corri/0_1/cc-001/r000", "gold": "positive",
         "meta": {"statement_id": "cc-001"}, "response": "<Answer>positive</Answer>", "label": "positive",
         "rule": "tag", "error": None},
        {"task": "corri", "variant": "0_1", "item_id": "corri/0_1/cc-003/r000", "gold": "negative",
         "meta": {"statement_id": "cc-003"}, "response": "no idea", "label": None, "rule": None, "error": None},
    ])
    return root


def test_write_report_links_a_run_page_per_run(climatecause, tmp_path):
    run = _toy_run(tmp_path / "my-run", climatecause)
    rep = write_report(climatecause, tmp_path / "rep", max_graphs=1, runs=[run])
    assert list(rep.runs) == ["my-run"] and rep.runs["my-run"] == rep.directory / "runs" / "my-run.html"
    page = rep.index.read_text(encoding="utf-8")
    assert '<a href="runs/my-run.html">my-run</a>' in page and 'href="#runs"' in page
    run_page = rep.runs["my-run"].read_text(encoding="utf-8")
    assert '<script src="../assets/vis-network.min.js"></script>' in run_page
    assert re.search(r"<title>Run my-run</title>", run_page)


def test_report_cli_writes_run_pages_for_runs(climatecause, climatecause_path, tmp_path, capsys):
    run = _toy_run(tmp_path / "r1", climatecause)
    out = tmp_path / "rep"
    assert main(["report", "--data", str(climatecause_path), "-o", str(out), "--max-graphs", "0",
                 "--runs", str(run)]) == 0
    assert (out / "runs" / "r1.html").is_file() and (out / "assets" / "vis-network.min.js").is_file()
    assert not (out / "graphs").exists()


def test_report_runs_section_gives_calibration_and_a_reliability_diagram_for_loglik_runs(climatecause,
                                                                                          climatecause_path, tmp_path):
    import base64
    import math

    from causalgraph.bench.runner import run_benchmark
    from causalgraph.runlog.store import load_run

    ll = run_benchmark("ccr-member", ["A_5"], "mock/noisy", data=str(climatecause_path), limit=30, method="loglik",
                       model_options={"flip": 0.3}, out=tmp_path / "ll")
    gen = run_benchmark("ccr-member", ["A_5"], "mock/oracle", data=str(climatecause_path), limit=5,
                        out=tmp_path / "gen")
    rep = write_report(climatecause, tmp_path / "rep", max_graphs=0, runs=[ll.path, gen.path])
    page = rep.index.read_text(encoding="utf-8")
    # ECE over 15 equal-width bins and the two-label Brier score, computed here from the records.
    recs = load_run(ll.path).responses
    conf = [r.probs[r.label] for r in recs]
    ok = [r.label == r.gold for r in recs]
    bins: dict[int, list[int]] = {}
    for i, c in enumerate(conf):
        bins.setdefault(max(math.ceil(c * 15) - 1, 0), []).append(i)
    ece = sum(len(m) / len(recs) * abs(sum(ok[i] for i in m) / len(m) - sum(conf[i] for i in m) / len(m))
              for m in bins.values())
    brier = sum(sum((p - (lab == r.gold)) ** 2 for lab, p in r.probs.items()) for r in recs) / len(recs)
    table = re.search(r'<table class="" id="run-calibration">(.*?)</table>', page).group(1)
    cells = re.findall(r"<tr><td>(.*?)</td><td>(.*?)</td><td[^>]*>(\d+)</td><td[^>]*>([\d.]+)</td>"
                       r"<td[^>]*>([\d.]+)</td><td[^>]*>([\d.]+)</td><td[^>]*>([\d.]+)</td><td[^>]*>([\d.]+)</td>"
                       r"<td[^>]*>loglik</td><td[^>]*></td></tr>",
                       table)
    assert len(cells) == 1  # the generated run has no calibration
    name, variant, n, acc, _, got_ece, _, got_brier = cells[0]
    assert (name, variant, int(n)) == ("ll", "A_5", 30)
    assert float(acc) == pytest.approx(sum(ok) / len(ok), abs=5e-5)
    assert float(got_ece) == pytest.approx(ece, abs=5e-5) and float(got_brier) == pytest.approx(brier, abs=5e-5)
    images = re.findall(r'<img class="reliability" id="reliability-0" alt="Reliability diagram of ll A_5" '
                        r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page)
    assert len(images) == 1 and base64.b64decode(images[0]).startswith(b"\x89PNG\r\n\x1a\n")
    assert page.count('class="reliability"') == 1
    # The same runs give the same page (the PNG carries no timestamp).
    again = write_report(climatecause, tmp_path / "rep2", max_graphs=0, runs=[ll.path, gen.path])
    assert again.index.read_text(encoding="utf-8") == page
