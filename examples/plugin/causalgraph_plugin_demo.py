"""An example plugin for causalgraph: one of each extension point, registered through entry points.

Installed (``pip install ./examples/plugin``), it adds, with no file of causalgraph edited:

* the task ``plugin-even`` ("Is N an even number?", gold yes/no; ``causalgraph bench tasks``,
  ``bench run --task plugin-even``);
* the backend ``plugin/<model>``: ``plugin/fours`` answers Yes exactly for multiples of four,
  so it is right on three items of four (``--model plugin/fours``);
* the encoding ``plugin-arrows`` (``cause => effect`` joined by `` ; ``, variant prefix ``PA``:
  ``encode --encoding plugin-arrows``, ``items --encoding plugin-arrows``, the structure tasks'
  ``PA_1`` variants);
* the metric ``events`` (the number of events of a statement's graph): a column ``c_events`` of
  ``causalgraph complexity``, of the corpus ``report`` and of ``evaluate-annotation`` (an extra
  column: C(s) and ``c_raw`` stay the paper's five unless ``complexity --metrics …,events`` asks);
* the reducer ``half~k`` (the chance that at least half of ``k`` samples drawn from an item's
  answers are right): ``bench report RUN --reducer half~3`` on a run with ``--epochs``;
* the graph file format ``arrows`` (``.arrows`` files: one ``cause -> effect`` line per edge):
  ``export-graphs DIR --format arrows`` writes it and ``--data FILE.arrows`` reads it back;
* the scoring metric ``youden_j`` (Youden's J: recall of the positive class plus recall of the
  negative class, minus 1) of binary runs: ``bench report RUN --scoring-metric youden_j``,
  ``stats compare … --scoring-metric youden_j``, ``bench view RUN --scoring-metric youden_j``.

``causalgraph plugins`` lists them with their distribution, version and status.

Examples
--------
>>> ENCODING.encoder(["a", "b", "c"], [("a", "b", "unknown"), ("b", "c", "unknown")], False)
'a => b ; b => c'
"""

from __future__ import annotations

import math
import re

from causalgraph.extend import (Backend, Binary, ComplexityMetric, Completion, Encoding, GraphFormat, Item, ReducerKind,
                                Request, ScoringMetric, Task)

__all__ = ["TASK", "FoursBackend", "ENCODING", "METRIC", "REDUCER", "FORMAT", "SCORING_METRIC", "even_items", "arrows",
           "count_events", "at_least_half", "youden_j"]

_VARIANTS = ("v_1",)
_NUMBER = re.compile(r"Is (\d+) an even number")


def even_items(corpus, variant: str) -> list:
    """Twelve questions "Is N an even number?" (N = 0 … 11), gold ``yes`` for the even ones."""
    return [Item(id=f"plugin-even/{variant}/q{i:02d}", task="plugin-even", variant=variant,
                 prompt=f"Is {i} an even number? Answer Yes or No.", gold="yes" if i % 2 == 0 else "no",
                 meta={"statement_id": f"n{i}"})
            for i in range(12)]


#: The task: entry point ``plugin-even = "causalgraph_plugin_demo:TASK"`` in ``causalgraph.tasks``.
#: Its answers are one of two labels (``Binary``); its questions read no corpus, so it names the small
#: packaged ``sample`` as the data a run records when ``--data`` is not given.
TASK = Task(name="plugin-even", build_items=even_items, list_variants=lambda: list(_VARIANTS),
            answers=Binary(labels=("yes", "no"), positive="yes", answer_words=lambda variant: {"yes": "Yes", "no": "No"}),
            default_data="sample", description="plugin example: is N an even number?")


class FoursBackend(Backend):
    """``plugin/fours``: answers Yes to "Is N an even number?" when N is a multiple of four, else No."""

    provider = "plugin"

    async def complete(self, request: Request) -> Completion:
        prompt = " ".join(m.get("content", "") for m in request.messages)
        found = _NUMBER.search(prompt)
        text = "Yes" if found and int(found.group(1)) % 4 == 0 else "No"
        return Completion(text=text, finish_reason="stop", model=self.name)


def arrows(nodes: list, edges: list, signs: bool) -> str:
    """Every edge as ``cause => effect`` (``cause => effect (sign)`` with signs), joined by `` ; ``."""
    return " ; ".join(f"{c} => {e}" + (f" ({s})" if signs else "") for c, e, s in edges)


#: The encoding: entry point ``plugin-arrows = "causalgraph_plugin_demo:ENCODING"`` in ``causalgraph.encodings``.
ENCODING = Encoding("plugin-arrows", arrows, prefix="PA")


def count_events(graph, options) -> int:
    """The number of events (nodes) of the statement's causal graph."""
    return len(graph.nodes)


#: The metric: entry point ``events = "causalgraph_plugin_demo:METRIC"`` in ``causalgraph.metrics``.
METRIC = ComplexityMetric("events", count_events, "number of events of the causal graph", "C^events")


def at_least_half(n: int, c: int, k: int) -> float:
    """The chance that at least half of ``k`` answers drawn (without replacement) from ``n``, ``c`` right, are right.

    >>> at_least_half(4, 2, 2), at_least_half(2, 2, 2), at_least_half(3, 0, 1)
    (0.8333333333333334, 1.0, 0.0)
    """
    need = math.ceil(k / 2)
    return sum(math.comb(c, j) * math.comb(n - c, k - j) for j in range(need, min(c, k) + 1)) / math.comb(n, k)


#: The reducer: entry point ``"half~k" = "causalgraph_plugin_demo:REDUCER"`` in ``causalgraph.reducers``.
REDUCER = ReducerKind("half~k", "chance that at least half of k samples are right", at_least_half)


def write_arrows(graph) -> str:
    """One ``cause -> effect`` line per edge, its correlation after a tab when the edge has one."""
    lines = []
    for e in graph.edges:
        sign = e.correlation.value if e.correlation is not None else ""
        lines.append(f"{e.cause} -> {e.effect}" + (f"\t{sign}" if sign else ""))
    return "\n".join(lines) + "\n"


def read_arrows(path):
    """An ``.arrows`` file as a networkx ``MultiDiGraph`` (the reader :func:`write_arrows` is undone by)."""
    import networkx as nx

    g = nx.MultiDiGraph()
    for line in open(path, encoding="utf-8").read().splitlines():
        if line.strip():
            pair, _, sign = line.partition("\t")
            cause, _, effect = pair.partition(" -> ")
            g.add_edge(cause, effect, **({"correlation": sign} if sign else {}))
    return g


#: The file format: entry point ``arrows = "causalgraph_plugin_demo:FORMAT"`` in ``causalgraph.formats``.
FORMAT = GraphFormat("arrows", ".arrows", write_arrows, read_arrows, description="one cause -> effect line per edge")


def youden_j(matrix, labels, positive):
    """Recall of the positive class + recall of the negative class − 1 (an unparsed answer is wrong).

    ``matrix``: gold rows × answer columns (the labels, then unparsed); ``None`` when a class has no item.
    """
    pos = labels.index(positive)
    neg = 1 - pos
    if not matrix[pos].sum() or not matrix[neg].sum():
        return None
    return matrix[pos, pos] / matrix[pos].sum() + matrix[neg, neg] / matrix[neg].sum() - 1


#: The scoring metric: entry point ``youden_j = "causalgraph_plugin_demo:SCORING_METRIC"`` in
#: ``causalgraph.scoring_metrics``.
SCORING_METRIC = ScoringMetric("youden_j", youden_j, "Youden's J: recall of both classes minus 1",
                               bounds=(-1.0, 1.0), undefined="gold has one class only")
