"""Every command of the extraction, annotation and viewer jobs that prints a table takes --format table|csv|json."""

import pytest

from causalgraph.cli import main

TABLE_COMMANDS = ["extract", "evaluate-extraction", "extraction-chains", "annotate", "score", "evaluate-annotation"]


@pytest.mark.parametrize("command", TABLE_COMMANDS)
def test_table_commands_offer_table_csv_and_json(command, capsys):
    with pytest.raises(SystemExit) as exc:
        main([command, "--help"])
    assert exc.value.code == 0
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--format {table,csv,json}" in help_text


@pytest.mark.parametrize("command", TABLE_COMMANDS)
def test_table_commands_refuse_an_unknown_format_with_exit_2(command, capsys):
    with pytest.raises(SystemExit) as exc:
        main([command, "--format", "xml"])
    assert exc.value.code == 2
    assert "invalid choice: 'xml'" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["view", "report"])
def test_page_writing_commands_print_only_a_path_and_take_data(command, capsys):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--data NAME|PATH" in help_text and "--format" not in help_text
