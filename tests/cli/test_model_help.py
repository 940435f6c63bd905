"""The --model help of every command that asks a model lists every provider and every mock of the registry."""

from __future__ import annotations

import pytest

from causalgraph.cli import main
from causalgraph.llm import registry
from causalgraph.llm.mock import make_mock, mock_names


def _help(command, capsys) -> str:
    with pytest.raises(SystemExit):
        main(command + ["--help"])
    # argparse wraps help at hyphens too ("openai-" at a line's end, "compatible/<url>" on the next): join those back.
    return " ".join(capsys.readouterr().out.split()).replace("- ", "-")


@pytest.mark.parametrize("command", [["bench", "run"], ["bench", "batch", "submit"], ["extract"], ["annotate"]])
def test_model_help_names_every_provider_and_mock(command, capsys):
    text = _help(command, capsys)
    for provider in registry.list_providers():
        assert f"{provider}/" in text, provider
    assert "mock/" + "|".join(mock_names()) in text
    assert set(mock_names()) == {"oracle", "noisy", "constant", "flaky"}
    assert "vllm/<model folder>" in text


def test_a_provider_registered_later_appears_in_the_help(capsys):
    assert "mylab/<model>" not in _help(["bench", "run"], capsys)
    registry.register_provider(make_mock, name="mylab")
    try:
        # main builds the parser (and its help texts) on each call, after the registration.
        assert "mylab/<model>" in _help(["bench", "run"], capsys)
    finally:
        registry.PROVIDERS.unregister("mylab")
    assert "mylab/<model>" not in _help(["bench", "run"], capsys)
