"""Every multi-valued flag of every command takes repetition and comma lists alike (issue 35, item 9).

The flags are found in the parsers themselves (``build_parser``), so a new command or a new list
flag is covered without editing this file: a flag that looks multi-valued (several values after it,
an append action, a metavar or help that speaks of a list) must use the shared
:class:`causalgraph.cli._common.MultiValue` action, and each such action must give the same list for
``--flag a --flag b``, ``--flag a,b`` (where values are split) and ``--flag a b`` (``nargs="+"``).
"""

from __future__ import annotations

import argparse
import re

import pytest
from hypothesis import given, settings, strategies as st

from causalgraph.cli import build_parser, main
from causalgraph.cli._common import MultiValue

# Flags that take one fixed-length vector, not a list of items: the library reads them whole
# (normalize_weights names the position of a bad weight), so repeating them is not "more values".
VECTORS = {("complexity", "--weights"): "one weight per metric of C(s), read by normalize_weights",
           ("score", "--weights"): "one weight per metric of C(s), read by normalize_weights"}


def _walk(parser: argparse.ArgumentParser, path: tuple = ()):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            seen = set()
            for name, sub in action.choices.items():
                if id(sub) not in seen:  # aliases name the same parser
                    seen.add(id(sub))
                    yield from _walk(sub, path + (name,))
        elif action.option_strings:
            yield path, action


def _looks_multi_valued(action: argparse.Action) -> bool:
    if isinstance(action, MultiValue):
        return True
    if isinstance(action, (argparse._AppendAction, argparse._ExtendAction)):
        return True
    if action.nargs in ("+", "*") or (isinstance(action.nargs, int) and action.nargs > 1):
        return True
    if "," in str(action.metavar or ""):  # V[,V…], W1,…,W5
        return True
    return bool(re.search(r"\bcomma\b|\brepeatable\b|\brepeat the flag\b", str(action.help or "").lower()))


ALL_FLAGS = [(" ".join(path), action) for path, action in _walk(build_parser())]
MULTI = [(cmd, a) for cmd, a in ALL_FLAGS if isinstance(a, MultiValue)]


def test_the_walk_finds_the_known_list_flags():
    # The walk itself can fail: these flags of issue 35 must be among those it finds.
    found = {(cmd, a.option_strings[-1]) for cmd, a in MULTI}
    for flag in [("export-graphs", "--statement"), ("export-dataset", "--task"), ("bench run", "--variant"),
                 ("bench plan", "--task"), ("bench plan", "--variant"), ("stats difficulty", "--features"),
                 ("annotate", "--text"), ("annotate", "--file"), ("stats mcnemar", "--pair"),
                 ("stats consistency", "--pair"), ("extract", "--strategy"), ("sample-subgraphs", "--around"),
                 ("report", "--runs"), ("bench run", "--model-option")]:
        assert flag in found, flag


@pytest.mark.parametrize("cmd,action", [(c, a) for c, a in ALL_FLAGS if _looks_multi_valued(a)],
                         ids=lambda x: x if isinstance(x, str) else "/".join(x.option_strings))
def test_every_multi_valued_flag_uses_the_shared_action(cmd, action):
    if (cmd, action.option_strings[-1]) in VECTORS:
        assert not isinstance(action, MultiValue)
        return
    assert isinstance(action, MultiValue), (
        f"causalgraph {cmd} {'/'.join(action.option_strings)} takes several values but not through "
        "causalgraph.cli._common.add_list_option: a repeated flag would keep only its last value")


def test_the_vector_exemptions_still_exist():
    flags = {(cmd, a.option_strings[-1]) for cmd, a in ALL_FLAGS}
    assert set(VECTORS) <= flags


# A value never starts with "-": argparse reads that as a flag (`--variant=-x` passes one).
_word = st.builds(str.__add__, st.sampled_from("abcxyzABC0189"), st.text(alphabet="abcxyzABC0189_-.", max_size=5))
# A value as a command line gives it: a name, or two names around a colon (pairs); free-text
# values may hold commas and spaces, which must come through whole.
_value = st.one_of(_word, st.tuples(_word, _word).map(":".join))
_free = st.text(alphabet="ab ,:=x{}\"0", min_size=1, max_size=8)


def _parser_with(action: MultiValue) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(add_help=False, exit_on_error=False)
    p._add_action(action)
    return p


def _valid(action: MultiValue, value: str) -> bool:
    try:
        action.values_of(value)
    except argparse.ArgumentError:
        return False
    return True


@pytest.mark.parametrize("cmd,action", MULTI, ids=lambda x: x if isinstance(x, str) else "/".join(x.option_strings))
@settings(max_examples=40)
@given(data=st.data())
def test_repeated_comma_and_spaced_values_give_one_list(cmd, action, data):
    flag = action.option_strings[-1]
    values = data.draw(st.lists(_value if action.split else _free, min_size=1, max_size=4)
                       .filter(lambda vs: all(_valid(action, v) for v in vs)))
    expected = [x for v in values for x in action.values_of(v)]
    p = _parser_with(action)
    repeated = getattr(p.parse_args([t for v in values for t in (flag, v)]), action.dest)
    assert repeated == expected
    if action.split:
        sep = data.draw(st.sampled_from([",", ", "]))
        assert getattr(p.parse_args([flag, sep.join(values)]), action.dest) == expected
    else:
        # A value holding a comma is one value.
        assert len(expected) == len(values)
    if action.nargs == "+":
        assert getattr(p.parse_args([flag, *values]), action.dest) == expected
        half = len(values) // 2
        mixed = [flag, *values[:half]] * bool(half) + [flag, *values[half:]]
        assert getattr(p.parse_args(mixed), action.dest) == expected


@pytest.mark.parametrize("cmd,action", [(c, a) for c, a in MULTI if a.split],
                         ids=lambda x: x if isinstance(x, str) else "/".join(x.option_strings))
def test_an_empty_value_is_refused(cmd, action):
    p = _parser_with(action)
    with pytest.raises(argparse.ArgumentError, match="'a:b,': an empty value in the comma-separated list"):
        p.parse_args([action.option_strings[-1], "a:b,"])
    with pytest.raises(argparse.ArgumentError, match="'': an empty value; expected "):
        p.parse_args([action.option_strings[-1], ""])


def test_export_graphs_writes_every_repeated_statement(climatecause_path, tmp_path, capsys):
    # Before: --statement cc-007 --statement cc-047 wrote cc-047 only.
    rc = main(["export-graphs", str(tmp_path / "a"), "--data", str(climatecause_path),
               "--statement", "cc-007", "--statement", "cc-047"])
    out = capsys.readouterr().out
    assert rc == 0
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == ["cc-007.graphml", "cc-047.graphml"]
    assert out.split() == [str(tmp_path / "a" / "cc-007.graphml"), str(tmp_path / "a" / "cc-047.graphml")]
    rc = main(["export-graphs", str(tmp_path / "b"), "--data", str(climatecause_path), "--statement", "cc-007,cc-047"])
    assert rc == 0 and sorted(p.name for p in (tmp_path / "b").iterdir()) == ["cc-007.graphml", "cc-047.graphml"]


def test_bench_plan_takes_repeated_tasks(climatecause_path, capsys):
    # Before: --task was one comma-separated string; repeating it kept the last task.
    rc = main(["bench", "plan", "--task", "ccr-member", "--task", "ccr-position", "--variant", "A_5",
               "--data", str(climatecause_path), "--format", "csv"])
    lines = capsys.readouterr().out.splitlines()
    assert rc == 0
    assert [ln.split(",")[:2] for ln in lines[1:]] == [["ccr-member", "A_5"], ["ccr-position", "A_5"], ["total", ""]]


def test_an_empty_list_item_is_one_line_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["export-dataset", "/nonexistent/x", "--task", "corri,"])
    rc = exc.value.code
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1
    assert "argument --task: 'corri,': an empty value in the comma-separated list" in err


def test_every_one_value_flag_refuses_two_different_values():
    """argparse's plain store keeps the last of two values silently; every command's one-value flags refuse them."""
    from causalgraph.cli import _StoreOnce

    plain = [(cmd, a.option_strings) for cmd, a in _walk(build_parser())
             if type(a) is argparse._StoreAction]  # noqa: E721 - exactly argparse's own, not a subclass
    assert plain == []
    assert sum(isinstance(a, _StoreOnce) for _, a in _walk(build_parser())) > 50


@pytest.mark.parametrize("argv", [["encode", "--statement", "cc-007", "--statement", "cc-047"],
                                  ["view", "--statement", "cc-007", "--statement=cc-047", "-o", "x.html"],
                                  ["complexity", "--format", "csv", "--format", "json"]])
def test_a_one_value_flag_given_twice_is_one_line_exit_2(argv, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # were the flag's last value kept, view would write x.html here
    flag = argv[1]
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert f"{flag} given twice" in err and "expected one value" in err, err


def test_a_one_value_flag_given_twice_alike_is_accepted(climatecause_path, capsys):
    argv = ["encode", "--data", str(climatecause_path), "--statement", "cc-007"]
    assert main(argv) == 0
    once = capsys.readouterr().out
    assert main(argv + ["--statement", "cc-007"]) == 0
    assert capsys.readouterr().out == once
