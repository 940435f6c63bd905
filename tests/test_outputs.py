"""causalgraph.outputs: output folders and files are checked before anything is written."""

from __future__ import annotations

import os

import pytest

from causalgraph.errors import ConfigError
from causalgraph.outputs import output_dir, output_file


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
