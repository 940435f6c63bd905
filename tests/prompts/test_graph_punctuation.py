"""One rule for the graph text a prompt inserts, whatever the task family (issue 35, item 21).

The same encoding text was inserted as ``are- \\n<matrix>\\n Based`` by ``parents`` but as
``are- <matrix>. Based`` by ``ccr-member`` (the authors' catalog took the encoder's text bare).  The
rule now (docs/prompts.md, "Graph text in a prompt"): the encoding's punctuation decides the line
breaks in every task and catalog; the full stop after the graph is the template's where the template
has one (the authors' ``${graph}. Based``), else the encoding's.  The authors' prompts of the paper's
variants stay byte-identical (tests/prompts/test_authors_catalog.py compares them with the authors'
own batch files).
"""

from __future__ import annotations

import pytest

from causalgraph.encodings import encode, encoding_names, get_encoding, prompt_graph
from causalgraph.graph import compile_graph
from causalgraph.model import Corpus
from causalgraph.prompts import get_variant
from causalgraph.tasks import get_task

# (task, variant, prompt catalog)
FAMILIES = [("ccr-member", "A_5", "authors"), ("ccr-position", "A_4", "authors"), ("ccr-member", "SN_5", "authors"),
            ("ccr-member", "A_5", "tables"), ("ccr-position", "A_4", "tables"),
            ("parents", "A_1", None), ("reachability", "A_1", None)]


@pytest.fixture(scope="module")
def one_statement(climatecause):
    return Corpus("one", [climatecause["cc-007"]])


def _graph_segment(prompt: str) -> str:
    assert prompt.count("are- ") == 1, prompt[:200]
    return prompt.split("are- ", 1)[1]


@pytest.mark.parametrize("encoding", list(encoding_names()))
@pytest.mark.parametrize("task,variant,catalog", FAMILIES)
def test_every_family_inserts_an_encoding_with_the_same_line_breaks(one_statement, encoding, task, variant, catalog):
    g = compile_graph(one_statement["cc-007"])
    before, after = get_encoding(encoding).punctuation
    stop = after.endswith(".")
    core = before + encode(g, encoding) + (after[:-1] if stop else after)
    options = {"encoding": encoding, **({"prompts": catalog} if catalog else {})}
    it = get_task(task).items(one_statement, variant, **options)[0]
    # Whether the template writes the full stop after ${graph} (the authors' A_n, ML_n and position SN_n).
    template_stop = catalog is not None and "${graph}." in get_variant(task, it.variant, catalog).template
    segment = _graph_segment(it.prompt)
    assert segment.startswith(core), (task, catalog, encoding, segment[:80])
    rest = segment[len(core):]
    # The full stop: the template's where it writes one, else the encoding's (adjacency, GraphML).
    assert rest.startswith(". " if template_stop or stop else " "), (task, catalog, encoding, rest[:20])


def test_the_issue_example_matrix_stands_on_its_own_lines_in_ccr_member_as_in_parents(one_statement):
    g = compile_graph(one_statement["cc-007"])
    matrix = encode(g, "matrix")
    member = get_task("ccr-member").items(one_statement, "A_5", encoding="matrix")[0].prompt
    parents = get_task("parents").items(one_statement, "A_1", encoding="matrix")[0].prompt
    assert f"are- \n{matrix}\n. Based on this graph" in member  # before: "are- Events:…0. Based"
    assert f"are- \n{matrix}\n Based on this graph only" in parents


def test_the_paper_encodings_in_the_authors_templates_are_the_encoders_text_bare(one_statement):
    # What keeps the authors' prompts byte-identical: adjacency, single-node and GraphML go in as
    # their create_batch_files.py put networkx's text, the template's ". " after them.
    g = compile_graph(one_statement["cc-007"])
    for variant, encoding in (("A_5", "adjacency"), ("SN_5", "single-node"), ("ML_5", "graphml")):
        assert prompt_graph(g, encoding, full_stop=False) == encode(g, encoding)
        prompt = get_task("ccr-position").items(one_statement, variant)[0].prompt
        assert f"are- {encode(g, encoding)}. Based on this graph" in prompt
