"""The README's inspect_ai line: what it offers to run offline must run offline (issue 23, item 22)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _inspect_row() -> str:
    rows = [line for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
            if line.startswith("| run the tasks in inspect_ai |")]
    assert len(rows) == 1
    return rows[0]


def test_the_readme_gives_no_bare_mockllm_command_that_needs_a_download():
    row = _inspect_row()
    # A bare `inspect eval … --model mockllm/model` counts tokens with tiktoken, which downloads its encoding.
    commands = re.findall(r"`(inspect eval [^`]*)`", row)
    assert commands and not any("mockllm" in c for c in commands)


def test_the_offline_way_the_readme_names_is_an_example_the_tests_run():
    row = _inspect_row()
    (script,) = re.findall(r"`python (examples/[\w.]+\.py)`", row)
    path = ROOT / script
    text = path.read_text(encoding="utf-8")
    # The example gives mockllm outputs that carry their usage, so nothing is downloaded (docs/benchmarks.md).
    assert "mockllm/model" in text and "ModelUsage(" in text and "out.usage = " in text
    # tests/test_examples.py runs every examples/*.py, this one included.
    assert path.is_file() and path.parent == ROOT / "examples"
    anchor = re.search(r"docs/benchmarks\.md#([\w-]+)", row).group(1)
    headings = [re.sub(r"[^\w\- ]", "", h[3:].strip().lower()).replace(" ", "-")
                for h in (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8").splitlines()
                if h.startswith("## ")]
    assert anchor in headings
