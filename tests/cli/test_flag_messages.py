"""Command-line messages name the flags the user typed and count in words (issue 35, item 13).

Each message is checked through ``causalgraph.cli.main`` as a user meets it: one line on stderr,
exit code 2 for errors, the flag (``--max-nodes``), never the Python parameter (``max_nodes``).
"""

from __future__ import annotations

import re

import pytest

from causalgraph.cli import main


def _fail(argv, capsys):
    try:
        code = main(argv)
    except SystemExit as exc:  # option errors exit from the parser
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    return err


@pytest.mark.parametrize("argv,message", [
    (["--random", "2", "--hops", "0"], "--hops must be an integer >= 1, got 0"),
    (["--random", "2", "--max-nodes", "1"], "--max-nodes must be an integer from 2 to "),
    (["--random", "2", "--seed", "-1"], "--seed must be an integer >= 0, got -1"),
    (["--random", "0"], "name the centres (--around) or ask for random ones (--random N, N > 0)"),
])
def test_sample_subgraphs_names_its_flags(tmp_path, capsys, argv, message):
    never_read = tmp_path / "c.jsonl"
    never_read.write_text("{broken\n")  # the options are checked before the graph is read
    err = _fail(["sample-subgraphs", "--data", f"causenet:{never_read}", *argv, "-o", str(tmp_path / "s.csv")], capsys)
    assert message in err
    assert not re.search(r"\b(max_nodes|n_random)\b|(?<!-)\bhops must", err)


def test_an_item_option_the_task_lacks_is_named_as_a_flag(capsys):
    err = _fail(["items", "--task", "pubmedcausal-extract", "--variant", "zero-shot", "--graph-edit", "reverse"],
                capsys)
    assert "takes no item option graph_edit (--graph-edit) (it takes: none)" in err
    err = _fail(["items", "--task", "parents", "--variant", "A_1", "--rule", "path"], capsys)
    assert "takes no item option rule (--rule) (it takes: order (--order), encoding (--encoding), " in err


def test_bench_run_names_max_attempts_as_its_flag(capsys, tmp_path):
    err = _fail(["bench", "run", "--task", "corri", "--variant", "0_1", "--model", "mock/oracle", "--limit", "1",
                 "--max-attempts", "0", "--out", str(tmp_path / "r")], capsys)
    assert "--max-attempts 0: expected an integer >= 1" in err


def test_one_answered_item_is_counted_in_words(climatecause_path, tmp_path, isolated_cache, capsys):
    run = tmp_path / "r"
    assert main(["bench", "run", "--task", "corri", "--variant", "0_1", "--model", "mock/oracle", "--limit", "1",
                 "--data", str(climatecause_path), "--out", str(run)]) == 0
    capsys.readouterr()
    err = _fail(["stats", "difficulty", str(run), "--data", str(climatecause_path)], capsys)
    assert "only 1 answered item " in err or "only 1 answered item;" in err
    assert "1 answered items" not in err


def _relations(path, rows):
    path.write_text("statement_id,text,cause,effect\n" + "".join(f"{s},t,{c},{e}\n" for s, c, e in rows))
    return path


def test_compare_graphs_counts_statements_in_words(tmp_path, capsys):
    gold = _relations(tmp_path / "gold.csv", [("s1", "a", "b"), ("s2", "a", "b")])
    pred = _relations(tmp_path / "pred.csv", [("s1", "a", "b"), ("s3", "a", "b")])
    assert main(["compare-graphs", str(gold), str(pred), "--format", "csv"]) == 0
    err = capsys.readouterr().err
    assert "1 gold statement has no predicted graph and is scored against an empty one: s2" in err
    assert "1 predicted statement has no gold graph and is left out: s3" in err
    assert "(s)" not in err


def test_complexity_cycle_limit_is_named_as_its_flag(capsys):
    # Before: "cycle_limit must be a positive integer, got 0" (the library's parameter).
    err = _fail(["complexity", "--cycle-limit", "0"], capsys)
    assert "argument --cycle-limit: expected an integer >= 1, got '0'" in err and "cycle_limit" not in err


def _items_flags() -> set:
    from causalgraph.cli import build_parser

    sub = next(a for a in build_parser()._actions if a.choices and "items" in a.choices).choices["items"]
    return {s for a in sub._actions for s in a.option_strings}


def test_an_item_option_is_named_as_a_flag_only_where_items_has_that_flag(capsys):
    # Before: "it takes: …, cycle_limit (--cycle-limit)" and "max_chains (--max-chains)", flags no command has.
    from causalgraph.tasks import builtin_tasks, get_task

    flags = _items_flags()
    for name in builtin_tasks():
        for option in get_task(name).item_options:
            flag = "--" + option.replace("_", "-")
            try:
                get_task(name).items([], "x", no_such_option=1)
            except Exception as exc:  # noqa: BLE001 - only the message matters
                message = str(exc)
            assert f"{option} ({flag})" in message if flag in flags else (
                option in message and f"({flag})" not in message), (name, option, message)
    err = _fail(["items", "--data", "sample", "--task", "net-effect", "--variant", "A_1", "--rule", "path"], capsys)
    assert "graph_edit (--graph-edit), cycle_limit)" in err


def test_the_item_option_flags_are_those_of_items():
    from causalgraph.tasks import builtin_tasks, get_task
    from causalgraph.tasks.base import ITEM_OPTION_FLAGS

    flags = _items_flags()
    options = {o for name in builtin_tasks() for o in get_task(name).item_options}
    assert {o for o in options if "--" + o.replace("_", "-") in flags} == set(ITEM_OPTION_FLAGS)
