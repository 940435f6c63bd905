"""Every command that writes an output path: a path that cannot be used is one stderr line, exit 2.

Issue #13: ``bench run`` and ``report`` raised FileExistsError / FileNotFoundError tracebacks for an
``--out`` / ``-o`` that was an existing file or lay under a folder that cannot be written.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from causalgraph.cli import main

# (command line with OUT for the output path, how the message names that path)
WRITERS = [
    (["bench", "run", "--task", "corri", "--variant", "0_1", "--model", "mock/oracle", "--limit", "2",
      "--out", "OUT"], "run directory OUT"),
    (["bench", "batch", "submit", "--task", "corri", "--variant", "0_1", "--model", "openai/x",
      "--base-url", "http://127.0.0.1:9/v1", "--limit", "1", "--out", "OUT"], "run directory OUT"),
    (["annotate", "--text", "Warming reduces sea ice.", "--model", "mock/oracle", "--no-cache", "--out", "OUT"],
     "run directory OUT"),
    (["extract", "--model", "mock/oracle", "--limit", "1", "--no-cache", "--out", "OUT"], "run directory OUT"),
    (["report", "--data", "sample", "-o", "OUT"], "report folder OUT"),
    (["view", "--data", "sample", "--statement", "sample-001", "-o", "OUT/page.html"], "graph page OUT/page.html"),
    (["score", "Warming reduces sea ice.", "--model", "mock/oracle", "--no-cache", "--view", "OUT/page.html"],
     "--view page OUT/page.html"),
]
IDS = ["bench-run", "batch-submit", "annotate", "extract", "report", "view", "score-view"]


def _unwritable_parent(tmp_path: Path) -> Path:
    """A folder in which nothing can be created, for this user."""
    if os.name == "posix" and os.geteuid() != 0:
        ro = tmp_path / "read-only"
        ro.mkdir()
        ro.chmod(0o500)
        return ro
    # root may write anywhere a permission bit guards; sysfs refuses new entries even to root.
    if Path("/sys").is_dir():
        try:
            os.mkdir("/sys/causalgraph-probe")
        except OSError:
            return Path("/sys")
        os.rmdir("/sys/causalgraph-probe")
    pytest.skip("no folder this user cannot write to")


def _run(argv, out, capsys):
    rc = main([a.replace("OUT", str(out)) for a in argv])
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


@pytest.mark.parametrize("argv, named", WRITERS, ids=IDS)
def test_an_existing_file_as_output_is_one_line_naming_it(argv, named, tmp_path, isolated_cache, capsys,
                                                          monkeypatch):
    monkeypatch.chdir(tmp_path)
    taken = tmp_path / "taken"
    taken.write_bytes(b"keep me")
    rc, out, err = _run(argv, taken, capsys)
    assert rc == 2 and out == "" and len(err.splitlines()) == 1, err
    assert named.replace("OUT", str(taken)) in err
    assert "a file of that name exists" in err or f"{taken} is a file, not a folder" in err
    assert taken.read_bytes() == b"keep me"


@pytest.mark.parametrize("argv, named", WRITERS, ids=IDS)
def test_an_output_under_a_folder_that_cannot_be_written_is_one_line_naming_it(argv, named, tmp_path,
                                                                              isolated_cache, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    target = _unwritable_parent(tmp_path) / "causalgraph-out"
    rc, out, err = _run(argv, target, capsys)
    assert rc == 2 and out == "" and len(err.splitlines()) == 1, err
    assert named.replace("OUT", str(target)) in err and "cannot be created" in err
    assert "expected a path under a folder you can write to" in err


def test_a_folder_as_the_graph_page_is_one_line(tmp_path, capsys):
    page = tmp_path / "page.html"
    page.mkdir()
    rc, out, err = _run(["view", "--data", "sample", "--statement", "sample-001", "-o", "OUT"], page, capsys)
    assert rc == 2 and out == ""
    assert err == f"causalgraph view: error: graph page {page}: a folder of that name exists; expected a file name\n"


def test_an_os_error_the_library_did_not_foresee_is_still_one_line(tmp_path, capsys, monkeypatch):
    # The last guard in cli.main: whatever the file system raises mid-command is one line naming the file.
    import causalgraph.cli.info as info_cmd

    def fail(args):
        raise OSError(28, "No space left on device", str(tmp_path / "x.csv"))

    monkeypatch.setattr(info_cmd, "run", fail)
    rc, _, err = _run(["info"], tmp_path, capsys)
    assert rc == 2 and err == f"causalgraph info: error: {tmp_path / 'x.csv'}: No space left on device\n"
