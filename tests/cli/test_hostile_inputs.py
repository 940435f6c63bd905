"""Hostile inputs to the commands: each error is one line on stderr with exit code 2, never a traceback."""

from __future__ import annotations

import shutil

import pytest

from causalgraph.cli import main


def _run(args, capsys):
    rc = main(args)
    out = capsys.readouterr()
    return rc, out.out, out.err


@pytest.fixture(scope="module")
def small_run(tmp_path_factory, climatecause_path):
    """A finished two-item ccr-member run of the oracle."""
    path = tmp_path_factory.mktemp("hostile") / "run"
    assert main(["bench", "run", "--task", "ccr-member", "--variant", "A_5", "--model", "mock/oracle", "--data",
                 str(climatecause_path), "--limit", "2", "--no-cache", "--out", str(path)]) == 0
    return path


def _one_error_line(err: str, *words: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and ": error: " in lines[0] and "Traceback" not in err, err
    for w in words:
        assert w in lines[0], lines[0]


@pytest.mark.parametrize("command", [["bench", "report"], ["bench", "batch", "status"],
                                     ["stats", "consistency", "--signs"], ["stats", "difficulty"]])
def test_a_run_whose_manifest_is_not_utf8_is_refused_in_one_line_naming_the_file(command, small_run, tmp_path,
                                                                                 capsys):
    run = tmp_path / "run"
    shutil.copytree(small_run, run)
    (run / "manifest.json").write_bytes(b"\xff\xfe\x80{}")
    rc, _, err = _run([*command, str(run)], capsys)
    assert rc == 2
    _one_error_line(err, "manifest.json", "UTF-8")


def test_a_run_whose_responses_hold_a_line_not_utf8_is_refused_in_one_line_naming_file_and_line(small_run, tmp_path,
                                                                                             capsys):
    run = tmp_path / "run"
    shutil.copytree(small_run, run)
    with open(run / "responses.jsonl", "ab") as fh:
        fh.write(b"\xff\xfe\x80\n")
    rc, _, err = _run(["bench", "report", str(run)], capsys)
    assert rc == 2
    _one_error_line(err, "responses.jsonl", "line 3", "UTF-8")


def test_a_price_table_not_utf8_is_refused_in_one_line_before_the_run_starts(tmp_path, capsys, climatecause_path):
    prices = tmp_path / "prices.json"
    prices.write_bytes(b'{"x": \xff\xfe}')
    out = tmp_path / "r"
    rc, _, err = _run(["bench", "run", "--task", "ccr-member", "--variant", "A_5", "--model", "mock/oracle",
                       "--data", str(climatecause_path), "--limit", "1", "--no-cache", "--prices", str(prices),
                       "--out", str(out)], capsys)
    assert rc == 2
    _one_error_line(err, str(prices))
    assert not out.exists()


@pytest.mark.parametrize("tail", [["bench", "report", "RUN", "--seed", "-1"],
                                  ["bench", "report", "RUN", "--bootstrap", "-1"],
                                  ["stats", "compare", "RUN", "RUN", "--by", "model", "--rank", "--seed", "-1"],
                                  ["stats", "power", "--statements", "10", "--items", "50", "--delta", "0.1",
                                   "--discordance", "0.2", "--icc", "0.1", "--mode", "simulation", "--seed", "-1"]])
def test_a_negative_seed_or_resample_count_is_refused_by_its_flag_in_one_line(tail, small_run, capsys):
    args = [str(small_run) if a == "RUN" else a for a in tail]
    with pytest.raises(SystemExit) as exc:
        main(args)
    assert exc.value.code == 2
    _one_error_line(capsys.readouterr().err, tail[-2], "expected an integer >= 0")


@pytest.mark.parametrize("args", [["export-graphs", ""], ["export-dataset", " ", "--task", "ccr-member"],
                                  ["items", "--task", "ccr-member", "--variant", "A_5", "-o", ""],
                                  ["bench", "run", "--task", "ccr-member", "--variant", "A_5", "--model", "mock/oracle",
                                   "--limit", "1", "--no-cache", "--out", ""]])
def test_an_empty_output_path_is_refused_instead_of_writing_into_the_current_folder(args, tmp_path, monkeypatch,
                                                                                   capsys):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exc:
        main(args)
    assert exc.value.code == 2
    _one_error_line(capsys.readouterr().err, "an empty path")
    assert list(tmp_path.iterdir()) == []
