"""Where the authors' prompts depart from the printed tables, and how many items each departure touches.

    python scripts/prompt_departures.py [--data NAME|PATH]

Prints the two Markdown tables of docs/reproduction.md ("The prompts the authors sent"): for each of
the 54 paper variants the items whose prompt differs between the catalogs ``authors`` and ``tables``,
and for each variant that differs every departure (a difference of the two templates) with the
items it changes.  tests/prompts/test_authors_catalog.py checks that the page shows this output.

A departure is one hunk of a token diff of the two templates, with the tables' ``${graph}`` written
as the text it inserts (``prompt_graph`` adds a full stop after adjacency and GraphML text, which the
authors' templates write themselves).  The items it touches are those whose prompt changes when only
that hunk of the tables' template is replaced by the authors' text.
"""

from __future__ import annotations

import argparse
import difflib
import re
import string
import sys
from dataclasses import dataclass

from causalgraph.datasets import load_corpus
from causalgraph.encodings import encode
from causalgraph.graph import compile_graph
from causalgraph.prompts import AUTHORS_TASKS, get_variant, list_variants
from causalgraph.tasks.climatecause import items

__all__ = ["Departure", "variant_departures", "departures_markdown", "main"]

# Placeholders, words, runs of spaces, single marks: a diff of these reads as the templates' own words.
_TOKEN = re.compile(r"\$\{\w+\}|\w+|\s+|[^\w\s]")


@dataclass(frozen=True)
class Departure:
    """One difference of the authors' template from the printed one, and the items whose prompt it changes."""

    task: str
    variant: str
    tables: str
    authors: str
    before: str
    after: str
    items: int


def _values(corpus, task: str, variant: str):
    """The placeholder values of every item, in item order, as the templates take them (graph: encoder text)."""
    v = get_variant(task, variant, "authors")
    statements = {st.id: st for st in corpus.statements}
    graphs: dict = {}
    out = []
    for it in items(corpus, task, variant, prompts="tables"):
        st = statements[it.meta["statement_id"]]
        if task.startswith("corri"):
            out.append({"e_i": it.meta["cause"], "e_j": it.meta["effect"], "s": st.text})
            continue
        g = graphs.setdefault(st.id, compile_graph(st))
        values = {"e_i": it.meta["event"], "s": st.text, "event_list": "[" + ", ".join(g.nodes) + "]"}
        if v.encoding:
            values["graph"] = encode(g, v.encoding, order="paper")
        out.append(values)
    return out


def _tables_tokens(task: str, variant: str) -> list[str]:
    t = get_variant(task, variant, "tables")
    template = t.template
    if t.encoding in ("adjacency", "graphml"):
        template = template.replace("${graph}", "${graph}.")
    return _TOKEN.findall(template)


def _render(tokens, values) -> str:
    return string.Template("".join(tokens)).substitute(values)


def variant_departures(corpus, task: str, variant: str) -> tuple[int, int, list[Departure]]:
    """``(items, items whose prompt differs, departures)`` of one paper variant."""
    ours_a = [it.prompt for it in items(corpus, task, variant, prompts="authors")]
    ours_t = [it.prompt for it in items(corpus, task, variant, prompts="tables")]
    changed = sum(a != t for a, t in zip(ours_a, ours_t))
    t_tok = _tables_tokens(task, variant)
    a_tok = _TOKEN.findall(get_variant(task, variant, "authors").template)
    values = _values(corpus, task, variant)
    base = [_render(t_tok, v) for v in values]
    assert base == ours_t, (task, variant)  # the tables' tokens render the tables' items
    out = []
    ops = [op for op in difflib.SequenceMatcher(None, t_tok, a_tok, autojunk=False).get_opcodes() if op[0] != "equal"]
    for _, i1, i2, j1, j2 in ops:
        hybrid = t_tok[:i1] + a_tok[j1:j2] + t_tok[i2:]
        touched = sum(_render(hybrid, v) != b for v, b in zip(values, base))
        before = "".join(t_tok[max(0, i1 - 3):i1])
        after = "".join(t_tok[i2:i2 + 3])
        out.append(Departure(task, variant, "".join(t_tok[i1:i2]), "".join(a_tok[j1:j2]), before, after, touched))
    return len(ours_a), changed, out


def _shown(text: str) -> str:
    # Spaces made visible: the departures are often a space more or less.
    return "`" + text.replace(" ", "␣").replace("\n", "\\n").replace("`", "'") + "`" if text else "(nothing)"


def _where(d: Departure) -> str:
    # The hunk's place in the printed template, marked ⟨⟩ between its neighbouring tokens.
    return _shown(d.before + "⟨" + d.tables + "⟩" + d.after)


def departures_markdown(corpus) -> str:
    """The two tables, as docs/reproduction.md shows them."""
    counts = ["| task | variant | items | prompts that differ |", "|---|---|---|---|"]
    rows = ["| task | variant | where (printed template) | printed | authors' | items |", "|---|---|---|---|---|---|"]
    total = total_changed = 0
    for task in AUTHORS_TASKS:
        for v in list_variants(task):
            n, changed, deps = variant_departures(corpus, task, v.id)
            total += n
            total_changed += changed
            counts.append(f"| {task} | {v.id} | {n:,} | {changed:,} |")
            for d in deps:
                rows.append(f"| {task} | {v.id} | {_where(d)} | {_shown(d.tables)} | {_shown(d.authors)} | "
                            f"{d.items:,} |")
    counts.append(f"| all | 54 variants | {total:,} | {total_changed:,} |")
    return "\n".join(counts) + "\n\n" + "\n".join(rows) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", default="climatecause", help="corpus (default: climatecause)")
    args = p.parse_args(argv)
    sys.stdout.write(departures_markdown(load_corpus(args.data)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
