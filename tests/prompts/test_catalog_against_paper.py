"""Every prompt of Tables 23-29 compared with the paper's own text.

The paper (ClimateCause, Allein et al. 2026) is read from
``$CAUSALGRAPH_PAPERS/002_4588404c1aef94a9.txt`` or, by default, from the
``seeds`` folder next to ``$CAUSALGRAPH_DATA`` (``../shared/seeds`` in CI).
Each table row is turned into a template by rules that only undo the
typesetting: the math placeholders become ``${name}``, the spaces the text
extraction puts around them are removed, curly quotes become ASCII, and
``$G_X$ .`` becomes ``${graph}`` (the item builder supplies the period after
an adjacency or GraphML encoding).  Everything else must match character by
character.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from causalgraph.prompts import exemplars
from causalgraph.prompts import get_variant as _get_variant, list_variants as _list_variants


# The printed tables are the `tables` catalog (the default, `authors`, is the text the authors' code sent).
def get_variant(task, variant_id):
    return _get_variant(task, variant_id, "tables")


def list_variants(task):
    return _list_variants(task, "tables")

PAPER = "002_4588404c1aef94a9.txt"

_PLACEHOLDERS = {
    "$e_{i}$": "${e_i}", "$e_{j}$": "${e_j}", "$s$": "${s}", "$event\\_list$": "${event_list}",
    "$G_{A}$": "${graph}", "$G_{SN}$": "${graph}", "$G_{ML}$": "${graph}",
}


def _paper_path() -> Path | None:
    cands = []
    if os.environ.get("CAUSALGRAPH_PAPERS"):
        cands.append(Path(os.environ["CAUSALGRAPH_PAPERS"]) / PAPER)
    if os.environ.get("CAUSALGRAPH_DATA"):
        cands.append(Path(os.environ["CAUSALGRAPH_DATA"]).resolve().parent / "seeds" / PAPER)
    return next((p for p in cands if p.is_file()), None)


@pytest.fixture(scope="module")
def paper_lines() -> list[str]:
    p = _paper_path()
    if p is None:
        pytest.skip("the ClimateCause paper text is not available (set CAUSALGRAPH_PAPERS)")
    return p.read_text(encoding="utf-8").splitlines()


def _ascii(text: str) -> str:
    return text.replace("\u201c", '"').replace("\u201d", '"').replace("\u2019", "'").replace("\u2018", "'")


def _template_from_paper(cell: str) -> str:
    assert cell[0] == "\u201c" and cell[-1] == "\u201d", cell[:40]
    t = cell[1:-1]
    for math, name in _PLACEHOLDERS.items():
        t = t.replace(math, name)
    assert "$" not in re.sub(r"\$\{\w+\}", "", t), f"unconverted math in {t!r}"
    t = re.sub(r"(\$\{\w+\}) ([.,?])", r"\1\2", t)     # "$e_{i}$ ." is typeset "e_i."
    t = t.replace("\u201c ${s}", "\u201c${s}").replace("${s} \u201d", "${s}\u201d")
    t = t.replace("${graph}. ", "${graph} ")
    return _ascii(t)


def _ident(name: str) -> tuple[str, str]:
    name = name.replace(" ", "")
    for pattern, task, fmt in (
        (r"CorrI\+RC-(\w+)-(\d)$", "corri-rc", "RC_{}_{}"),
        (r"CorrI-(\w+)-(\d)$", "corri", "{}_{}"),
        (r"CCR_ECI_member_(\w+)$", "ccr-eci-member", "{}"),
        (r"CCR_ECI_position_(\w+)$", "ccr-eci-position", "{}"),
        (r"CCR_member_(\w+)$", "ccr-member", "{}"),
        (r"CCR_position_(\w+)$", "ccr-position", "{}"),
    ):
        m = re.match(pattern, name)
        if m:
            return task, fmt.format(*m.groups())
    raise AssertionError(f"unrecognised variant name {name!r}")


def _paper_rows(lines: list[str]) -> list[tuple[str, str, str, str]]:
    start = next(i for i, line in enumerate(lines) if line.startswith("CorrI-0-1\t"))
    rows = []
    for line in lines[start:]:
        if "\t\u201c" in line:
            name, prompt, expected = line.split("\t")
            task, vid = _ident(name)
            rows.append((task, vid, prompt, expected))
    return rows


def test_catalog_holds_exactly_the_54_variants_of_tables_23_to_29(paper_lines):
    rows = _paper_rows(paper_lines)
    from_paper = sorted((t, v) for t, v, _, _ in rows)
    in_catalog = sorted((t, v.id) for t in ("corri", "corri-rc", "ccr-member", "ccr-position",
                                              "ccr-eci-member", "ccr-eci-position") for v in list_variants(t))
    assert len(rows) == 54
    assert in_catalog == from_paper


def test_every_template_matches_the_paper_character_by_character(paper_lines):
    mismatches = []
    for task, vid, prompt, _ in _paper_rows(paper_lines):
        want = _template_from_paper(prompt)
        got = get_variant(task, vid).template
        if got != want:
            i = next((k for k, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
            mismatches.append(f"{task}/{vid} at {i}: catalog {got[i - 30:i + 30]!r} paper {want[i - 30:i + 30]!r}")
    assert mismatches == []


def test_every_expected_output_matches_the_paper(paper_lines):
    for task, vid, _, expected in _paper_rows(paper_lines):
        words = re.findall(r"\\text\{(\w+)\}", expected)
        want = "{" + ", ".join(words) + "}" if words else expected
        assert get_variant(task, vid).expected_output == want, (task, vid)


def test_exemplar_statements_and_event_lists_match_appendix_g51(paper_lines):
    text = _ascii("\n".join(paper_lines))
    for ex in exemplars():
        assert f'Statement: "{ex.statement}"' in text, ex.name
        if ex.relation:
            cause, effect = ex.relation
            assert f"Causal relation: {cause} $\\rightarrow$ {effect}. Correlation: {ex.correlation}" in text
        if ex.events:
            assert "List of events: [" + ", ".join(ex.events) + "]" in text, ex.name


def test_every_paper_name_is_a_name_the_papers_result_tables_use(paper_lines):
    text = "\n".join(paper_lines)
    for task in ("corri", "corri-rc", "ccr-member", "ccr-position", "ccr-eci-member", "ccr-eci-position"):
        for v in list_variants(task):
            assert re.search(rf"(?<![\w+]){re.escape(v.paper_name)}(?!\w)", text), (task, v.id, v.paper_name)
