"""Help texts that list what a registry holds derive the list from it, and read no plugin (issue 35, items 1, 19)."""

from __future__ import annotations

import argparse
import importlib.metadata

import pytest

from causalgraph.bench.epochs import REDUCERS
from causalgraph.cli import build_parser, main
from causalgraph.encodings import encoding_names
from causalgraph.stats.difficulty import STATEMENT_FEATURES

#: The encodings causalgraph ships (docs/prompts.md), written out: the help must name all eight.
SHIPPED_ENCODINGS = ("adjacency", "single-node", "graphml", "json", "multinode", "matrix", "dot", "incident")


def _help(argv, capsys) -> str:
    with pytest.raises(SystemExit) as info:
        main([*argv, "--help"])
    assert info.value.code == 0
    # argparse wraps lines (at hyphens too): read the text as one line of words.
    return " ".join(capsys.readouterr().out.split()).replace("- ", "-")


def _subcommands(parser: argparse.ArgumentParser) -> dict:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_building_the_parser_reads_no_entry_point(monkeypatch):
    """A broken plugin cannot stop `--help`: the parser lists causalgraph's own names, reading no plugin."""
    def refuse(*args, **kwargs):
        raise AssertionError("an entry point was read while the parser was built")

    monkeypatch.setattr(importlib.metadata, "entry_points", refuse)
    monkeypatch.setattr(importlib.metadata, "distributions", refuse)
    parser = build_parser()
    assert "plugins" in _subcommands(parser)


def test_the_top_help_names_every_stats_analysis(capsys):
    analyses = list(_subcommands(_subcommands(build_parser())["stats"]))
    assert {"mcnemar", "kruskal", "consistency", "compare", "agreement", "difficulty", "irt"} <= set(analyses)
    text = _help([], capsys)
    line = text[text.index(" stats "):text.index(" chains ")]
    assert all(a in line for a in analyses), line
    assert all(a in _help(["stats"], capsys) for a in analyses)


def test_encode_and_items_name_every_encoding(capsys):
    assert encoding_names(plugins=False) == SHIPPED_ENCODINGS
    text = _help([], capsys)
    line = text[text.index(" encode "):text.index(" items ")]
    assert all(e in line for e in SHIPPED_ENCODINGS), line
    for argv in (["encode"], ["items"]):
        option = _help(argv, capsys).rsplit("--encoding NAME", 1)[1]
        assert all(e in option[:400] for e in SHIPPED_ENCODINGS), (argv, option[:400])


def test_an_encoding_is_checked_when_the_command_runs(capsys):
    assert main(["encode", "--statement", "cc-007", "--encoding", "graphxml"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == ("causalgraph encode: error: unknown encoding 'graphxml'; expected one of "
                                 f"{', '.join(SHIPPED_ENCODINGS)}; did you mean 'graphml'?\n")


def test_bench_view_and_report_name_what_they_take(capsys):
    view = _help(["bench", "view"], capsys)
    assert all(f in view for f in STATEMENT_FEATURES) and "depth" in STATEMENT_FEATURES
    report = _help(["bench", "report"], capsys)
    assert all(r in report for r in REDUCERS.names(plugins=False))
    assert {"majority", "mean", "pass@k", "pass^k"} <= set(REDUCERS.names(plugins=False))
