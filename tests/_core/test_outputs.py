"""causalgraph._core.outputs: output folders and files are checked before anything is written."""

from __future__ import annotations

import os

import pytest

from causalgraph.errors import ConfigError
from causalgraph._core.outputs import output_dir, output_file


def test_output_dir_creates_missing_parents_and_keeps_an_existing_folder(tmp_path):
    (tmp_path / "keep").mkdir()
    (tmp_path / "keep" / "old.txt").write_text("old")
    assert output_dir(tmp_path / "a" / "b") == tmp_path / "a" / "b" and (tmp_path / "a" / "b").is_dir()
    assert output_dir(tmp_path / "keep") == tmp_path / "keep"
    assert (tmp_path / "keep" / "old.txt").read_text() == "old"


def test_output_dir_refuses_an_existing_file_and_leaves_it_alone(tmp_path):
    f = tmp_path / "taken"
    f.write_text("data")
    with pytest.raises(ConfigError, match=rf"^run directory {f}: a file of that name exists; expected a folder"):
        output_dir(f, "run directory")
    assert f.read_text() == "data"


def test_output_dir_under_a_file_names_the_part_that_is_not_a_folder(tmp_path):
    (tmp_path / "taken").write_text("")
    with pytest.raises(ConfigError, match=r"output folder .*taken/sub: cannot be created \(Not a directory at "
                                          r".*taken/sub\); expected a path under a folder you can write to"):
        output_dir(tmp_path / "taken" / "sub")


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="needs a non-root POSIX user to deny writes")
def test_output_dir_refuses_an_existing_folder_that_is_not_writable(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        with pytest.raises(ConfigError, match="the folder is not writable"):
            output_dir(ro)
        with pytest.raises(ConfigError, match=r"cannot be created \(Permission denied"):
            output_dir(ro / "sub")
    finally:
        ro.chmod(0o700)


def test_output_file_refuses_a_folder_and_a_path_under_a_file(tmp_path):
    (tmp_path / "page.html").mkdir()
    with pytest.raises(ConfigError, match=r"graph page .*page\.html: a folder of that name exists; expected a file"):
        output_file(tmp_path / "page.html", "graph page")
    (tmp_path / "taken").write_text("")
    with pytest.raises(ConfigError, match=r"output file .*taken/x\.html: .*taken is a file, not a folder"):
        output_file(tmp_path / "taken" / "x.html")


def test_output_file_creates_the_folder_but_not_the_file(tmp_path):
    p = output_file(tmp_path / "new" / "page.html")
    assert p.parent.is_dir() and not p.exists()


def _full_disk(monkeypatch, module, name, after=0):
    """``module.name`` (a write helper) writes ``after`` bytes and then fails as a full disk does (ENOSPC, no file)."""
    def write(fd, data):
        if after:
            os.write(fd, bytes(data)[:after])
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(module, name, write)


def test_write_atomic_on_a_full_disk_names_the_file_removes_its_temporary_and_keeps_the_old_file(
        tmp_path, monkeypatch):
    import causalgraph._core.outputs as outputs
    from causalgraph._core.outputs import write_atomic

    target = tmp_path / "manifest.json"
    target.write_text("old")
    _full_disk(monkeypatch, outputs, "_write_all", after=3)
    with pytest.raises(OSError) as info:
        write_atomic(target, b"new contents")
    assert (info.value.errno, info.value.filename) == (28, str(target))
    assert target.read_text() == "old" and sorted(p.name for p in tmp_path.iterdir()) == ["manifest.json"]


def test_a_full_disk_during_a_run_is_one_line_naming_the_file_and_leaves_no_temporary_or_half_line(
        tmp_path, monkeypatch, capsys):
    import causalgraph.runlog.store as store
    import causalgraph._core.outputs as outputs
    from causalgraph.cli import main

    args = ["bench", "run", "--data", "sample", "--task", "corri", "--variant", "0_1", "--model", "mock/oracle",
            "--no-progress", "--no-cache"]
    # The manifest, first written before anything is asked.
    with monkeypatch.context() as m:
        _full_disk(m, outputs, "_write_all")
        assert main(args + ["--out", str(tmp_path / "a")]) == 2
    err = capsys.readouterr().err
    assert err == f"causalgraph bench: error: {tmp_path / 'a' / 'manifest.json'}: No space left on device\n"
    # no manifest, no .manifest.json.<pid>.tmp (the .lock of the folder stays, as after any run)
    assert [p.name for p in (tmp_path / "a").iterdir() if p.name != ".lock"] == []
    # A response line, half written.
    with monkeypatch.context() as m:
        _full_disk(m, store, "_write_line", after=10)
        assert main(args + ["--out", str(tmp_path / "b")]) == 2
    err = capsys.readouterr().err
    assert err == f"causalgraph bench: error: {tmp_path / 'b' / 'responses.jsonl'}: No space left on device\n"
    assert (tmp_path / "b" / "responses.jsonl").read_bytes() == b""
    assert not [p for p in (tmp_path / "b").iterdir() if p.name.endswith(".tmp")]
    # With room again, the same command completes the run.
    assert main(args + ["--out", str(tmp_path / "b"), "--format", "json"]) == 0
