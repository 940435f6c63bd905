"""Command-line consistency (issue 35, item 23).

`bench run` takes `--encoding`/`--event-names` as `items` does; `info` takes `--format`; no help page
prints `%%`; every (sub)command has a description; the variant column is headed `variant`;
`export-dataset` shows progress; a corpus's repr is a summary.
"""

from __future__ import annotations

import argparse
import csv
import io
import json

import pytest

from causalgraph.bench.writer import prompt_sha256
from causalgraph.cli import build_parser, main
from causalgraph.datasets.describe import describe
from causalgraph.tasks import get_task


def _parsers(parser, path=()):
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, path + (name,))


PARSERS = list(_parsers(build_parser()))


def test_bench_run_takes_encoding_and_event_names_as_items_does(climatecause, climatecause_path, tmp_path,
                                                               isolated_cache, capsys):
    run = tmp_path / "r"
    rc = main(["bench", "run", "--task", "ccr-member", "--variant", "A_5", "--encoding", "matrix",
               "--event-names", "letters", "--model", "mock/oracle", "--limit", "3", "--no-progress",
               "--data", str(climatecause_path), "--out", str(run), "--format", "csv"])
    out = capsys.readouterr().out
    assert rc == 0
    assert [r["variant"] for r in csv.DictReader(io.StringIO(out))] == ["MX_5.letters"]
    # The very items `items --encoding matrix --event-names letters` builds: ids and prompts.
    want = get_task("ccr-member").items(climatecause, "A_5", encoding="matrix", event_names="letters")[:3]
    got = [json.loads(line) for line in (run / "responses.jsonl").read_text().splitlines()]
    assert sorted(r["item_id"] for r in got) == sorted(it.id for it in want)
    by_id = {it.id: it for it in want}
    assert all(r["prompt_sha256"] == prompt_sha256(by_id[r["item_id"]]) for r in got)
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["variants"] == ["MX_5.letters"]


@pytest.mark.parametrize("method", ["loglik", "choice-logprobs"])
def test_bench_run_variant_all_with_an_encoding_is_the_variants_the_method_can_read(method):
    # `--variant all` under a method that reads the choices' log-probabilities is the variants with
    # continuations (no 'step by step' prompt), with or without --encoding.
    from causalgraph.bench.prepare import loglik_choices
    from causalgraph.cli.bench import _config

    spec = get_task("ccr-member")
    args = build_parser().parse_args(["bench", "run", "--task", "ccr-member", "--variant", "all", "--encoding",
                                      "matrix", "--model", "openai/x", "--method", method])
    variants = _config(args).variants
    assert variants and all(v.startswith("MX_") for v in variants)
    assert loglik_choices(spec, variants).keys() == set(variants)  # every one has continuations


@pytest.mark.parametrize("argv,message", [
    (["--task", "corri", "--variant", "0_1", "--encoding", "matrix"],
     "variant '0_1' holds no graph, so it has no encoding to change"),
    (["--task", "ccr-member", "--variant", "A_5", "--encoding", "nosuch"], "nosuch"),
    (["--task", "ccr-member", "--variant", "A_5.integer", "--event-names", "letters"],
     "variant 'A_5.integer' names events 'integer' but --event-names letters was asked"),
    (["--task", "pubmedcausal-detect", "--variant", "zero-shot", "--event-names", "letters"],
     "task 'pubmedcausal-detect' takes no --event-names"),
])
def test_bench_run_refuses_item_options_that_do_not_apply_in_one_line(tmp_path, capsys, argv, message):
    rc = main(["bench", "run", *argv, "--model", "mock/oracle", "--limit", "1", "--out", str(tmp_path / "r")])
    err = capsys.readouterr().err
    assert rc == 2 and message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "r").exists()


def test_info_takes_format_table_csv_and_json(climatecause, climatecause_path, capsys):
    info = describe(climatecause)
    assert main(["info", "--data", str(climatecause_path), "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert list(rows[0]) == ["field", "label", "value"]
    flat = {(r["field"], r["label"]): r["value"] for r in rows}
    assert flat[("statements", "")] == str(info["statements"]) == "75"
    assert flat[("relations", "")] == "874"
    assert flat[("correlation", "positive")] == "587" and flat[("correlation", "negative")] == "287"
    assert sum(1 for r in rows if r["label"]) == sum(len(c) for c in info["labels"].values())
    assert main(["info", "--data", str(climatecause_path), "--format", "json"]) == 0
    as_json = json.loads(capsys.readouterr().out)
    assert main(["info", "--data", str(climatecause_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == as_json and as_json["relations"] == 874
    assert main(["info", "--data", str(climatecause_path), "--format", "table"]) == 0
    table = capsys.readouterr().out.splitlines()
    assert "statements         75" in table and "correlation        positive=587, negative=287" in table
    assert main(["info", "--data", str(climatecause_path), "--json", "--format", "csv"]) == 2
    assert "--json and --format csv ask for two formats" in capsys.readouterr().err


@pytest.mark.parametrize("path,parser", PARSERS, ids=lambda x: " ".join(x) if isinstance(x, tuple) else "")
def test_no_help_page_prints_a_doubled_percent_sign(path, parser):
    assert "%%" not in parser.format_help()


def test_the_stats_pages_say_95_percent_once():
    pages = {" ".join(path): p.format_help() for path, p in PARSERS}
    for name in ("stats compare", "stats difficulty", "stats irt"):
        assert "95%" in pages[name] and "95%%" not in pages[name]


@pytest.mark.parametrize("path,parser", PARSERS, ids=lambda x: " ".join(x) if isinstance(x, tuple) else "")
def test_every_command_has_a_description(path, parser):
    assert parser.description and len(parser.description) > 40, " ".join(path)


def test_the_variant_column_is_headed_variant(climatecause_path, tmp_path, isolated_cache, capsys):
    run = tmp_path / "r"
    assert main(["bench", "run", "--task", "corri", "--variant", "0_1,0_2", "--model", "mock/oracle", "--limit", "2",
                 "--no-progress", "--data", str(climatecause_path), "--out", str(run), "--format", "csv"]) == 0
    header = capsys.readouterr().out.splitlines()[0].split(",")
    assert header[0] == "variant" and "row" not in header
    assert main(["bench", "report", str(run), "--bootstrap", "20", "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert "row" not in rows[0] and [r["variant"] for r in rows][:2] == ["0_1", "0_2"]
    assert main(["bench", "report", str(run), "--bootstrap", "20"]) == 0
    assert capsys.readouterr().out.split()[:2] == ["task", "model"]
    assert main(["bench", "report", str(run), "--bootstrap", "20"]) == 0
    assert "variant" in capsys.readouterr().out.splitlines()[0].split()


class _Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def test_export_progress_lines_when_stderr_is_not_a_terminal():
    from causalgraph.interop.export import ExportProgress

    err, clock = io.StringIO(), _Clock()
    p = ExportProgress(5, "auto", stream=err, clock=clock, interval=10)
    for i in range(5):
        clock.t = 6.0 * (i + 1)  # 6, 12, 18, 24, 30 s
        p.step(f"corri 0_{i + 1}")
    p.close()
    # A line at most every 10 s (12 s, 24 s) and one where the export ended (30 s).
    assert err.getvalue().splitlines() == [
        "export-dataset: 2/5 variants (40.0 %), 12 s; corri 0_2",
        "export-dataset: 4/5 variants (80.0 %), 24 s; corri 0_4",
        "export-dataset: 5/5 variants (100.0 %), 30 s; corri 0_5",
    ]


def test_export_progress_is_silent_when_off_or_short():
    from causalgraph.interop.export import ExportProgress

    err, clock = io.StringIO(), _Clock()
    p = ExportProgress(3, False, stream=err, clock=clock, interval=0)
    for _ in range(3):
        p.step("x")
    p.close()
    quick = ExportProgress(3, "auto", stream=err, clock=clock, interval=10)  # shorter than the interval
    for _ in range(3):
        quick.step("x")
    quick.close()
    assert err.getvalue() == ""


def test_export_dataset_has_no_progress_flag_and_shows_progress(tmp_path, monkeypatch, capsys):
    args = build_parser().parse_args(["export-dataset", str(tmp_path / "d"), "--no-progress"])
    assert args.no_progress is True
    pytest.importorskip("pyarrow")
    monkeypatch.setenv("CAUSALGRAPH_PROGRESS_INTERVAL", "0")
    assert main(["export-dataset", str(tmp_path / "d"), "--task", "corri"]) == 0
    err = capsys.readouterr().err
    assert "export-dataset: 1/9 variants (11.1 %)" in err and "corri 0_1" in err
    assert main(["export-dataset", str(tmp_path / "e"), "--task", "corri", "--no-progress"]) == 0
    assert "variants (" not in capsys.readouterr().err


def test_export_dataset_reports_progress_through_the_command(tmp_path, monkeypatch, capsys):
    # Runs without pyarrow: the Parquet writer is replaced (what is written is tested in tests/test_export*.py);
    # the progress lines are the command's own.
    import causalgraph.interop.export as export

    monkeypatch.setattr(export, "_pa", lambda: (None, None))
    monkeypatch.setattr(export, "items_table", lambda items, strategy_of=None: list(items))
    monkeypatch.setattr(export, "_write_table", lambda table, where: open(where, "wb").close())
    monkeypatch.setenv("CAUSALGRAPH_PROGRESS_INTERVAL", "0")
    assert main(["export-dataset", str(tmp_path / "d"), "--task", "corri", "--format", "csv"]) == 0
    lines = [ln for ln in capsys.readouterr().err.splitlines() if ln.startswith("export-dataset: ")]
    variants = get_task("corri").list_variants()
    assert len(lines) == len(variants) == 9
    assert lines == [f"export-dataset: {i}/{len(variants)} variants ({100 * i / len(variants):.1f} %), "
                     f"{ln.split(', ')[1].split(';')[0].split()[0]} s; corri {v}"
                     for i, (v, ln) in enumerate(zip(variants, lines), start=1)]
    assert main(["export-dataset", str(tmp_path / "e"), "--task", "corri", "--no-progress"]) == 0
    assert "variants (" not in capsys.readouterr().err


def test_a_corpus_repr_is_a_summary(climatecause, pubmed_test_path):
    from causalgraph.datasets import load_corpus

    pubmed = load_corpus(str(pubmed_test_path))
    for corpus, n, rel in ((pubmed, "1,973 statements", "3,199 relations"), (climatecause, "75 statements",
                                                                           "874 relations")):
        text = repr(corpus)
        assert len(text) < 400 and "\n" not in text  # was 2.8 MB (PubMedCausal) and 0.65 MB (ClimateCause)
        assert text.startswith(f"<Corpus {corpus.name!r}: {n} (") and rel in text
        assert corpus.statements[0].text not in text
