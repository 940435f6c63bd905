"""The `authors` prompt catalog: the prompts the ClimateCause authors sent, item by item.

``authors_prompts_sample.jsonl`` (in ``$CAUSALGRAPH_DATA/climatecause``) holds the first two prompts of each
of the 54 paper variants exactly as the authors sent them (their batch spreadsheets); every one is compared
byte for byte with ``causalgraph items`` and with the library calls.  The other items follow from the same
templates: tests/bench/test_tasks.py rebuilds all 34,164 prompts from the spreadsheet the way the
authors' create_batch_files.py did (pandas rows, networkx graphs) and compares them with the items.
"""

from __future__ import annotations

import json
import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from causalgraph.cli import main
from causalgraph.encodings import encode
from causalgraph.errors import ConfigError
from causalgraph.graph import compile_graph
from causalgraph.prompts import AUTHORS_TASKS, get_variant, list_variants, resolve_catalog, task_catalogs
from causalgraph.tasks import get_task
from causalgraph.tasks.climatecause import items


@pytest.fixture(scope="module")
def sample(climatecause_path):
    path = climatecause_path.parent / "authors_prompts_sample.jsonl"
    if not path.is_file():
        pytest.fail(f"{path} is missing (see ../shared/data/README.md)")
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def _placeholders(template):
    return {m.group("braced") or m.group("named") for m in string.Template.pattern.finditer(template)
            if m.group("braced") or m.group("named")}


def test_the_sample_holds_two_prompts_of_each_of_the_54_paper_variants(sample):
    keys = {(r["task"], r["variant"]) for r in sample}
    assert keys == {(t, v.id) for t in AUTHORS_TASKS for v in list_variants(t)}
    assert len(sample) == 108 and sorted({r["item_index"] for r in sample}) == [0, 1]


def test_items_cli_prints_every_sampled_prompt_byte_for_byte(sample, capsys):
    by_variant: dict[tuple[str, str], dict[int, str]] = {}
    for r in sample:
        by_variant.setdefault((r["task"], r["variant"]), {})[r["item_index"]] = r["prompt"]
    mismatches = []
    for (task, variant), want in by_variant.items():
        assert main(["items", "--task", task, "--variant", variant, "--format", "jsonl", "--limit", "2"]) == 0
        lines = capsys.readouterr().out.splitlines()
        got = {i: json.loads(line)["prompt"] for i, line in enumerate(lines)}
        for i, text in want.items():
            if got[i].encode("utf-8") != text.encode("utf-8"):
                mismatches.append((task, variant, i))
    assert mismatches == []


def test_library_calls_build_every_sampled_prompt(sample, climatecause):
    for r in sample:
        spec = get_task(r["task"])
        default = spec.items(climatecause, r["variant"])[r["item_index"]]
        explicit = items(climatecause, r["task"], r["variant"], prompts="authors")[r["item_index"]]
        assert default.prompt == explicit.prompt == r["prompt"], (r["task"], r["variant"], r["item_index"])
        assert default.meta["prompts"] == "authors"


@pytest.mark.parametrize("task", AUTHORS_TASKS)
def test_both_catalogs_give_the_same_items_but_the_prompt(task, climatecause):
    for v in list_variants(task):
        a = items(climatecause, task, v.id, prompts="authors")
        t = items(climatecause, task, v.id, prompts="tables")
        assert [(i.id, i.variant, i.gold) for i in a] == [(i.id, i.variant, i.gold) for i in t]
        assert all({**i.meta, "prompts": "authors"} == j.meta for j, i in zip(a, t))
        assert all("prompts" not in i.meta for i in t)


@pytest.mark.parametrize("task", AUTHORS_TASKS)
def test_the_authors_catalog_has_the_tables_variants_labels_and_placeholders(task):
    authors, tables = list_variants(task, "authors"), list_variants(task, "tables")
    assert [v.id for v in authors] == [v.id for v in tables]
    for a, t in zip(authors, tables):
        assert (a.paper_name, a.strategy, a.answer_labels, a.encoding) == (t.paper_name, t.strategy,
                                                                         t.answer_labels, t.encoding)
        assert _placeholders(a.template) == set(a.placeholders) == set(t.placeholders)
        assert (a.catalog, t.catalog) == ("authors", "tables")
        assert a.graph_text == ("encoded" if a.encoding else "prompt") and t.graph_text == "prompt"


def test_a_quoted_statement_ending_in_a_full_stop_keeps_both_marks(climatecause):
    # RC_F_1 writes Statement: "{s}". -- the statement's own full stop stays inside the quotes.
    its = items(climatecause, "corri-rc", "RC_F_1")
    st = {s.id: s for s in climatecause.statements}
    for it in its:
        text = st[it.meta["statement_id"]].text
        assert f'Statement: "{text}". The statement reports a [MASK]' in it.prompt
    ends = [st[it.meta["statement_id"]].text.endswith(".") for it in its]
    assert sum('.". The statement reports a [MASK]' in it.prompt for it in its) == sum(ends) > 0


def test_a_single_node_graph_is_followed_by_the_templates_own_full_stop(climatecause):
    # ccr-position SN_5 writes {G_SN}. Based on, and single-node text ends with a full stop already.
    it = items(climatecause, "ccr-position", "SN_5")[0]
    g = compile_graph(climatecause[it.meta["statement_id"]])
    assert encode(g, "single-node").endswith(".")
    assert f"are- {encode(g, 'single-node')}. Based on this graph" in it.prompt
    member = items(climatecause, "ccr-member", "SN_5")[0]
    assert f"are- {encode(g, 'single-node')} Based on this graph" in member.prompt


@pytest.mark.parametrize("options,variant", [({"encoding": "matrix"}, "MX_5"), ({"order": "data"}, "A_5"),
                                             ({"event_names": "letters"}, "A_5.letters")])
def test_other_axes_change_only_the_graph_inside_the_authors_template(options, variant, climatecause):
    from causalgraph.graph.naming import event_names, rename_graph

    its = items(climatecause, "ccr-position", "A_5", **options)
    v = get_variant("ccr-position", "A_5")
    assert its[0].variant == variant and its[0].meta["prompts"] == "authors"
    st = climatecause[its[0].meta["statement_id"]]
    g = compile_graph(st)
    names = event_names(g.nodes, options.get("event_names", "real"), key=st.id)
    shown = rename_graph(g, names) if "event_names" in options else g
    # The template writes the full stop after ${graph}; a multi-line encoding (matrix) stands on its own
    # lines before it, as everywhere else (encodings.prompt_graph, issue 35); adjacency goes in bare.
    from causalgraph.encodings import prompt_graph

    graph = prompt_graph(shown, options.get("encoding", "adjacency"), order=options.get("order", "paper"),
                         full_stop=False)
    if "encoding" not in options:
        assert graph == encode(shown, "adjacency", order=options.get("order", "paper"))
    assert its[0].prompt == string.Template(v.template).substitute(graph=graph, e_i=names[g.nodes[0]])


def test_catalogs_are_named_per_task():
    assert task_catalogs("ccr-eci-member") == ("authors", "tables")
    assert task_catalogs("corri-multihop") == ("tables",)
    assert resolve_catalog("ccr-member") == "authors"
    with pytest.raises(ConfigError, match="task corri-multihop has no 'authors' prompts"):
        resolve_catalog("corri-multihop", "authors")
    with pytest.raises(ConfigError, match="unknown prompt catalog 'printed'; expected one of authors, tables"):
        get_variant("corri", "0_1", "printed")


@pytest.mark.parametrize("task", ["corri-multihop", "sources", "pubmedcausal-detect", "annotate"])
def test_prompts_authors_on_a_task_without_released_prompts_is_one_line_naming_it(task, capsys):
    spec = get_task(task)
    variant = spec.list_variants()[0]
    assert main(["items", "--task", task, "--variant", variant, "--prompts", "authors", "--limit", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and task in err and "authors" in err, err


def test_prompts_tables_on_multihop_is_its_one_catalog(climatecause):
    spec = get_task("corri-multihop")
    assert spec.prompt_catalog() == "tables"
    assert [i.prompt for i in spec.items(climatecause, "0_2", prompts="tables")] == \
        [i.prompt for i in spec.items(climatecause, "0_2")]


def test_docs_reproduction_shows_the_departures_the_script_computes(climatecause, monkeypatch):
    import importlib.util
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("prompt_departures", root / "scripts" / "prompt_departures.py")
    mod = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "prompt_departures", mod)  # its dataclass looks its module up there
    spec.loader.exec_module(mod)
    page = {line.strip() for line in (root / "docs" / "reproduction.md").read_text(encoding="utf-8").splitlines()}
    lines = [line for line in mod.departures_markdown(climatecause).splitlines() if line.strip()]
    assert [line for line in lines if line not in page] == []
    # The counts the issue reported from the authors' spreadsheets: 20,790 of 34,164 prompts already agreed.
    assert "| all | 54 variants | 34,164 | 13,374 |" in lines
    assert sum(1 for line in lines[2:56] if not line.endswith("| 0 |")) == 24


_EVENTS = ["warming", "sea level", "heat-waves", "crop yields", "x", "risk of loss"]


@st.composite
def _statements(draw):
    """A causal statement of any text (quotes, $, braces, a final full stop or none) over a few events."""
    from causalgraph.model import Relation, Statement

    pool = draw(st.permutations(_EVENTS))
    pairs = [(pool[c], pool[c + d]) for c, d in draw(st.lists(st.tuples(st.integers(0, 3), st.integers(1, 2)),
                                                                    min_size=1, max_size=7))]
    text = draw(st.text(min_size=1, max_size=30).filter(lambda t: t.strip()))
    return Statement("h-001", text, True, tuple(Relation(c, e) for c, e in pairs))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_statements())
def test_any_statement_gets_the_prompt_the_authors_script_would_compose(statement):
    # The authors' create_batch_files.py: a networkx DiGraph with add_edge per row, its edges and nodes
    # joined as their helpers join them, each f-string filled in.
    import networkx as nx

    g = nx.DiGraph()
    for r in statement.relations:
        g.add_edge(r.cause, r.effect)
    texts = {"adjacency": " ".join(f"({u}, {v})" for u, v in g.edges()),
             "single-node": " ".join(f"{u} causes {v}." for u, v in g.edges())}
    event_list = "[" + ", ".join(g.nodes()) + "]"
    for task in ("ccr-member", "ccr-position", "ccr-eci-member", "ccr-eci-position"):
        for v in list_variants(task):
            if v.encoding == "graphml":
                continue  # GraphML bytes are compared with networkx's on the corpus (tests/bench/test_tasks.py)
            its = items([statement], task, v.id)
            assert [it.id for it in its] == [it.id for it in items([statement], task, v.id, prompts="tables")]
            values = {"s": statement.text, "event_list": event_list}
            if v.encoding:
                values["graph"] = texts[v.encoding]
            want = [string.Template(v.template).substitute(values, e_i=e) for e in g.nodes()]
            assert [it.prompt for it in its] == want, (task, v.id)


def test_the_authors_items_do_not_depend_on_the_hash_seed():
    import os
    import subprocess
    import sys

    code = ("from causalgraph.cli import main; "
            "main(['items','--task','ccr-eci-position','--variant','F_6','--limit','30']); "
            "main(['items','--task','ccr-position','--variant','SN_5','--limit','30'])")
    outs = {subprocess.run([sys.executable, "-c", code], env=dict(os.environ, PYTHONHASHSEED=seed),
                           capture_output=True, text=True, check=True).stdout for seed in ("0", "4242")}
    assert len(outs) == 1 and outs.pop().count("\n") == 60
