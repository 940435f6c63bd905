"""Structure tasks: golds against networkx built from the spreadsheet rows (all 63 graphs) and the PubMedCausal
JSON, item counts, ids, renamed events, determinism under any hash seed, and a run through the oracle."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from causalgraph.errors import ConfigError, SchemaError
from causalgraph.model import Relation, Statement, is_blank
from causalgraph.tasks import get_task
from causalgraph.tasks.structure import SET_TASKS, STRUCTURE_TASKS, items, list_structure_variants

from conftest import ROOT


def _sheet_graphs(path):
    """statement text -> DiGraph built from the Cause/Effect_no_quantifier columns of the causal rows, as the
    ClimateCause authors built theirs (no causalgraph code)."""
    import networkx as nx
    import pandas as pd

    df = pd.read_excel(path)
    df = df[df["Causal?"].astype(str).str.strip() == "Yes"]
    out: dict[str, nx.DiGraph] = {}
    for _, row in df.iterrows():
        out.setdefault(row["ipccText"].strip(), nx.DiGraph()).add_edge(row["Cause_no_quantifier"],
                                                                        row["Effect_no_quantifier"])
    return list(out.values())


def _expected(g, task):
    """(key, gold) of every item of ``task`` for one networkx graph, keys in node order."""
    import networkx as nx

    nodes = list(g.nodes())
    order = {n: i for i, n in enumerate(nodes)}
    srt = lambda s: sorted(s, key=order.get)  # noqa: E731
    if task == "parents":
        return [(f"e{i:03d}", srt(g.predecessors(x))) for i, x in enumerate(nodes)]
    if task == "children":
        return [(f"e{i:03d}", srt(g.successors(x))) for i, x in enumerate(nodes)]
    if task == "sources":
        return [("g", [n for n in nodes if g.in_degree(n) == 0])]
    if task == "sinks":
        return [("g", [n for n in nodes if g.out_degree(n) == 0])]
    out = []
    for i, a in enumerate(nodes):
        for j, b in enumerate(nodes):
            if i == j:
                continue
            if task == "mediators":
                gold = srt((nx.descendants(g, a) & nx.ancestors(g, b)) - {a, b})
            elif task == "common-cause":
                if j < i:
                    continue
                gold = srt((nx.ancestors(g, a) & nx.ancestors(g, b)) - {a, b})
            else:
                gold = "yes" if nx.has_path(g, a, b) else "no"
            if gold:
                out.append((f"e{i:03d}-e{j:03d}", gold))
    return out


@pytest.mark.parametrize("task", SET_TASKS)
def test_set_golds_equal_networkx_on_the_spreadsheets_63_causal_graphs(task, climatecause, climatecause_path):
    graphs = _sheet_graphs(climatecause_path)
    assert len(graphs) == 63
    ours = items(climatecause, task, "A_1")
    sids = list(dict.fromkeys(it.meta["statement_id"] for it in ours))
    expected = {}
    for sid, g in zip([s.id for s in climatecause if s.causal and s.relations], graphs):
        for key, gold in _expected(g, task):
            expected[f"{task}/A_1/{sid}/{key}"] = gold
    assert {it.id: it.gold for it in ours} == expected
    assert len(sids) <= 63


def test_reachability_asks_every_reachable_pair_and_as_many_unreachable_per_statement(climatecause,
                                                                                        climatecause_path):
    graphs = _sheet_graphs(climatecause_path)
    sids = [s.id for s in climatecause if s.causal and s.relations]
    truth = {}
    for sid, g in zip(sids, graphs):
        for key, gold in _expected(g, "reachability"):
            truth[f"reachability/A_1/{sid}/{key}"] = gold
    its = items(climatecause, "reachability", "A_1")
    assert all(truth[it.id] == it.gold for it in its)
    per = Counter((it.meta["statement_id"], it.gold) for it in its)
    for sid in sids:
        reachable = sum(1 for k, v in truth.items() if f"/{sid}/" in k and v == "yes")
        assert per[(sid, "yes")] == reachable == per[(sid, "no")]
    assert len(its) == 1440


def test_counts_on_climatecause(climatecause):
    counts = {t: len(items(climatecause, t, "A_1")) for t in STRUCTURE_TASKS}
    assert counts == {"parents": 512, "children": 512, "sources": 63, "sinks": 63, "mediators": 70,
                      "common-cause": 529, "reachability": 1440}


def test_pubmedcausal_golds_equal_networkx_built_from_the_json_pairs(pubmed_test_path):
    import networkx as nx

    from causalgraph.extraction.producer import corpus_from_extraction

    rows = json.loads(pubmed_test_path.read_text(encoding="utf-8"))
    graphs = {}
    for row in rows:
        if row["pairs"]:
            g = graphs.setdefault(f"pmc-{row['s/n']}", nx.DiGraph())
            for p in row["pairs"]:
                g.add_edge(p["cause"].strip(), p["effect"].strip())
    corpus = corpus_from_extraction("pubmedcausal:test", merge="exact")
    for task in ("parents", "sinks", "common-cause"):
        ours = {it.id: it.gold for it in items(corpus, task, "SN_2")}
        expected = {f"{task}/SN_2/{sid}/{k}": gold for sid, g in graphs.items() for k, gold in _expected(g, task)}
        assert ours == expected, task


def test_renamed_events_map_the_gold_and_keep_the_real_ones_in_meta():
    st = Statement("s1", "A and B raise C.", True, (Relation("rain", "floods"), Relation("heat", "floods")))
    plain = items([st], "parents", "A_1")[1]
    named = items([st], "parents", "A_1", event_names="letters")[1]
    assert plain.gold == ["rain", "heat"] and named.variant == "A_1.letters"
    names = dict(zip(named.meta["real_events"], named.meta["events"]))
    assert named.gold == [names["rain"], names["heat"]] and sorted(names.values()) == ["A", "B", "C"]
    assert "rain" not in named.prompt and f"({names['rain']}, {names['floods']})" in named.prompt
    assert named.id == "parents/A_1.letters/s1/e001"


def test_variants_cover_every_encoding_and_options_name_the_variant():
    ids = [v.id for v in list_structure_variants("sinks")]
    assert ids[:4] == ["A_1", "A_2", "SN_1", "SN_2"] and "INC_2" in ids and len(ids) == 16
    st = Statement("s1", "x", True, (Relation("a", "b"),))
    assert items([st], "sinks", "A_2", encoding="dot")[0].variant == "DOT_2"
    assert get_task("sinks").variant_id("MX_1.nonsense") == "MX_1.nonsense"
    with pytest.raises(ConfigError, match="unknown variant 'Q_1'"):
        items([st], "sinks", "Q_1")
    with pytest.raises(ConfigError, match="unknown event-name scheme 'greek'"):
        items([st], "sinks", "A_1.greek")


_DUMP = """
import hashlib, json
from causalgraph.datasets import load_corpus
from causalgraph.tasks import get_task
c = load_corpus("climatecause")
h = hashlib.sha256()
for task, variant in [("parents", "A_1.nonsense"), ("mediators", "MX_2.letters"), ("reachability", "INC_1.integer"),
                      ("common-cause", "DOT_1"), ("ccr-member", "MX_5.nonsense"), ("sources", "J_2")]:
    for it in get_task(task).items(c, variant):
        h.update(json.dumps(it.to_dict(), sort_keys=True).encode())
print(h.hexdigest())
"""


def test_item_builders_give_the_same_items_under_any_hash_seed(climatecause_path):
    digests = set()
    for seed in ("0", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=str(ROOT))
        out = subprocess.run([sys.executable, "-c", _DUMP], env=env, capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        digests.add(out.stdout.strip())
    assert len(digests) == 1


def test_parents_and_reachability_run_through_the_oracle_and_score_perfectly(climatecause_path, tmp_path,
                                                                               isolated_cache):
    from causalgraph.bench.runner import run_benchmark

    res = run_benchmark("parents", ["A_1", "INC_2.nonsense"], "mock/oracle", data=str(climatecause_path),
                        out=str(tmp_path / "p"))
    for v in ("A_1", "INC_2.nonsense"):
        s = res.metrics.variants[v]
        assert s["items"] == 512 and s["f1"] == 1.0 and s["exact_match"] == 1.0 and s["macro"]["f1"] == 1.0
        assert s["parse_failures"] == 0 and s["unknown_answers"] == 0
    res = run_benchmark("reachability", ["MX_1"], "mock/oracle", data=str(climatecause_path), out=str(tmp_path / "r"))
    assert res.metrics.variants["MX_1"]["f1"] == 1.0


@pytest.mark.parametrize("task", ["parents", "sinks"])
def test_an_encoding_that_contradicts_a_derived_variant_is_an_error(task):
    # Issue 23 item 11: `items --task parents --variant MX_1 --encoding dot` built DOT_1 items silently.
    # Every (variant, encoding) pair: a stored variant (A_1, A_2) takes any encoding; a derived id names its
    # own encoding, so only that one is accepted.
    from causalgraph.prompts import ENCODING_PREFIXES

    st = Statement("s1", "x", True, (Relation("a", "b"), Relation("b", "c")))
    for v in list_structure_variants(task):
        prefix, number = v.id.split("_")
        for encoding, want_prefix in ENCODING_PREFIXES.items():
            if prefix == "A" or prefix == want_prefix:
                assert items([st], task, v.id, encoding=encoding)[0].variant == f"{want_prefix}_{number}"
            else:
                with pytest.raises(ConfigError, match=rf"^variant '{v.id}' names the encoding '.+' but encoding "
                                                      rf"'{encoding}' was asked; use --variant {want_prefix}_"
                                                      rf"{number}, or a stored variant \(A_1, A_2\)"):
                    items([st], task, v.id, encoding=encoding)


def test_items_cli_refuses_mx_with_dot_in_one_line(capsys):
    from causalgraph.cli import main

    assert main(["items", "--data", "sample", "--task", "parents", "--variant", "MX_1", "--encoding", "dot"]) == 2
    err = capsys.readouterr().err
    assert err == ("causalgraph items: error: variant 'MX_1' names the encoding 'matrix' but encoding 'dot' was "
                   "asked; use --variant DOT_1, or a stored variant (A_1, A_2) with --encoding dot\n")


@settings(max_examples=120, deadline=None)
@given(name=st.one_of(st.text(min_size=1, max_size=10).filter(lambda s: not is_blank(s)),  # compile_graph refuses blanks
                      st.sampled_from(["none", "NONE", "nothing", "x\ny", "x\r\ny", "a</Answer>", "<Answer>b", "n/a"])),
       task=st.sampled_from(SET_TASKS))
def test_a_statement_with_an_event_no_list_answer_can_name_is_refused_naming_it(name, task):
    # Issue 23 item 12. The oracle's own answer (the gold one per line) must be read back as the gold for every
    # statement items are built for; any other statement is refused, naming the event.
    from causalgraph.scoring.event_lists import format_event_list, parse_event_list, set_outcome
    from causalgraph.scoring.event_lists import normalize_event as norm

    assume(norm(name) not in ("rain", "floods"))
    st_ = Statement("s1", "x", True, (Relation("rain", name), Relation(name, "floods")), source_file="f.csv",
                    source_rows=(2, 3))
    try:
        its = items([st_], task, "A_1")
    except SchemaError as exc:
        assert str(exc).startswith(f"f.csv: rows 2, 3 (statement s1): event {name!r} ")
        assert f"set-valued task ({task} A_1) cannot ask" in str(exc)
        # renamed events are always readable, so the same statement builds under --event-names integer
        assert items([st_], task, "A_1", event_names="integer")
        return
    for it in its:
        frags, _ = parse_event_list(f"<Answer>{format_event_list(it.gold)}</Answer>")
        assert set_outcome(frags, it.gold, it.meta["events"]).exact, (it.id, it.gold)


def test_reachability_keeps_events_named_none_since_its_answer_is_yes_or_no():
    st_ = Statement("s1", "x", True, (Relation("rain", "none"),))
    assert [i.gold for i in items([st_], "reachability", "A_1")] == ["yes", "no"]
