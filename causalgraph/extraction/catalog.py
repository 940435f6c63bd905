"""The PubMedCausal prompt catalog (paper App. E) and the items built from it.

The prompts are data files under ``causalgraph/prompts/pubmedcausal/``:
one system text per task (the paper's "System Role", shared by the six
strategies) and one user text per strategy, holding the paper's
``[Insert Text Here]`` marker where a row's text goes.

Two tasks:

* ``pubmedcausal-extract``: the model lists {Cause, Effect, Causality_Type,
  Sententiality} tuples; an item's gold is ``None`` and its ``meta["pairs"]``
  holds the row's gold pairs, so a run can be scored from its responses alone.
* ``pubmedcausal-detect``: the model answers 1 (the row holds at least one
  causal relation) or 0; gold ``"1"``/``"0"`` from the row's causal flag.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Optional

from ..taskkit.item import Item, item_id
from ..errors import ConfigError, SchemaError
from ..model import Corpus, Statement
from ..prompts.catalog import catalog_path, check_fields, load_catalog, read_text

__all__ = [
    "EXTRACT_TASK",
    "DETECT_TASK",
    "TASKS",
    "PromptStrategy",
    "strategies",
    "get_strategy",
    "render_prompt",
    "extraction_items",
    "detection_items",
]

EXTRACT_TASK = "pubmedcausal-extract"
DETECT_TASK = "pubmedcausal-detect"
TASKS = (EXTRACT_TASK, DETECT_TASK)


@dataclass(frozen=True)
class PromptStrategy:
    """One prompting strategy of one task, as transcribed from App. E.

    Attributes
    ----------
    task
        ``pubmedcausal-extract`` or ``pubmedcausal-detect``.
    id
        Strategy id: ``zero-shot``, ``few-shot``, ``cot``, ``cot-few-shot``,
        ``least-to-most`` or ``react``.
    strategy
        The same id (the attribute name the ClimateCause catalog uses).
    paper
        The paper's abbreviation (ZS, FS, CoT, CoT-FS, L2M, ReAct).
    name
        The paper's name for the strategy.
    system
        The task's system text.
    template
        The strategy's user text with the ``[Insert Text Here]`` marker.
    answer_labels
        For detection, canonical gold label -> the word the prompt asks for
        (``{"1": "1", "0": "0"}``); empty for extraction.
    """

    task: str
    id: str
    strategy: str
    paper: str
    name: str
    system: str
    template: str
    answer_labels: dict

    def render(self, text: str) -> str:
        """The user message for one row's text."""
        return self.template.replace(_catalog()["placeholder"], text.strip())


_FOLDER = "pubmedcausal"


@lru_cache(maxsize=1)
def _catalog() -> dict:
    cat = load_catalog(_FOLDER, "catalog.json", required={"placeholder": str, "tasks": dict, "strategies": list},
                       entries="strategies",
                       entry_required={"id": str, "paper": str, "name": str, "file": str, "aliases": list})
    for task in TASKS:
        where = f"{catalog_path(_FOLDER, 'catalog.json')}, tasks"
        check_fields(cat["tasks"], where, {task: dict})
        check_fields(cat["tasks"][task], f"{where}[{task!r}]", {"folder": str, "system": str})
    return cat


def _read(task: str, fname: str) -> str:
    return read_text(_FOLDER, f"{_catalog()['tasks'][task]['folder']}/{fname}").strip()


@lru_cache(maxsize=None)
def _load(task: str) -> tuple[PromptStrategy, ...]:
    cat = _catalog()
    system = _read(task, cat["tasks"][task]["system"])
    out = []
    for s in cat["strategies"]:
        template = _read(task, s["file"])
        if cat["placeholder"] not in template:
            path = catalog_path(_FOLDER, f"{cat['tasks'][task]['folder']}/{s['file']}")
            raise SchemaError(f"prompt file {path}: the marker {cat['placeholder']!r} is missing")
        out.append(PromptStrategy(task=task, id=s["id"], strategy=s["id"], paper=s["paper"], name=s["name"],
                                  system=system, template=template,
                                  answer_labels={"1": "1", "0": "0"} if task == DETECT_TASK else {}))
    return tuple(out)


def _check_task(task: str) -> str:
    t = {"extract": EXTRACT_TASK, "extraction": EXTRACT_TASK, "detect": DETECT_TASK,
         "detection": DETECT_TASK}.get(task, task)
    if t not in TASKS:
        raise ConfigError(f"unknown PubMedCausal task {task!r}; expected one of {', '.join(TASKS)}")
    return t


def strategies(task: str = EXTRACT_TASK) -> list[PromptStrategy]:
    """The six strategies of a task, in the paper's order.

    Examples
    --------
    >>> [s.paper for s in strategies("pubmedcausal-extract")]
    ['ZS', 'FS', 'CoT', 'CoT-FS', 'L2M', 'ReAct']
    """
    return list(_load(_check_task(task)))


def get_strategy(task: str, strategy: str) -> PromptStrategy:
    """One strategy by id, paper abbreviation or alias (case-insensitive).

    Examples
    --------
    >>> get_strategy("pubmedcausal-detect", "L2M").id
    'least-to-most'
    """
    task = _check_task(task)
    key = str(strategy).strip().lower()
    for spec, s in zip(_catalog()["strategies"], _load(task)):
        names = {spec["id"], spec["paper"].lower(), spec["name"].lower(), *spec["aliases"]}
        if key in names:
            return s
    ids = ", ".join(s["id"] for s in _catalog()["strategies"])
    raise ConfigError(f"unknown prompting strategy {strategy!r}; expected one of {ids}")


def render_prompt(task: str, strategy: str, text: str) -> tuple[str, str]:
    """``(system, user)`` messages for a text.

    Examples
    --------
    >>> system, user = render_prompt("pubmedcausal-extract", "zero-shot", "Smoking causes cancer.")
    >>> user.splitlines()[0]
    'Input Text: Smoking causes cancer.'
    """
    s = get_strategy(task, strategy)
    return s.system, s.render(text)


def _gold_pairs(st: Statement) -> list[dict]:
    return [{"cause": r.cause, "effect": r.effect,
             "causality": r.explicitness.value if r.explicitness else None,
             "sententiality": r.sententiality.value if r.sententiality else None} for r in st.relations]


def _rows(corpus: Corpus | Iterable[Statement], limit: Optional[int]) -> list[Statement]:
    rows = list(corpus)
    if limit is not None:
        if limit < 0:
            raise ConfigError(f"--limit must be zero or more, found {limit}")
        rows = rows[:limit]
    return rows


def extraction_items(corpus: Corpus | Iterable[Statement], strategy: str = "zero-shot", *,
                     limit: Optional[int] = None) -> list[Item]:
    """Extraction items, one per PubMedCausal row, in data order.

    Parameters
    ----------
    corpus
        PubMedCausal rows (``load_pubmedcausal(split="test")``).
    strategy
        One of the six strategies (see :func:`strategies`).
    limit
        Keep the first ``limit`` rows only.

    Examples
    --------
    >>> from causalgraph.model import Relation, Statement
    >>> row = Statement("pmc-1", "Smoking causes cancer.", True, (Relation("Smoking", "cancer"),), meta={"s/n": 1})
    >>> item = extraction_items([row], "few-shot")[0]
    >>> item.id, item.meta["pairs"][0]["cause"]
    ('pubmedcausal-extract/few-shot/pmc-1', 'Smoking')
    """
    s = get_strategy(EXTRACT_TASK, strategy)
    return [Item(id=item_id(EXTRACT_TASK, s.id, st.id), task=EXTRACT_TASK, variant=s.id, prompt=s.render(st.text),
                 gold=None, system=s.system,
                 meta={"statement_id": st.id, "s/n": st.meta.get("s/n"), "sentence": st.text,
                       "pairs": _gold_pairs(st)})
            for st in _rows(corpus, limit)]


def detection_items(corpus: Corpus | Iterable[Statement], strategy: str = "zero-shot", *,
                    limit: Optional[int] = None) -> list[Item]:
    """Detection items (gold ``"1"`` for a causal row, ``"0"`` otherwise).

    The prepared extraction split holds causal rows only, so its gold is all
    ``"1"``; the raw 30k hub files give both classes.

    Examples
    --------
    >>> from causalgraph.model import Statement
    >>> detection_items([Statement("pmc-2", "The sky is blue.", False, meta={"s/n": 2})])[0].gold
    '0'
    """
    s = get_strategy(DETECT_TASK, strategy)
    return [Item(id=item_id(DETECT_TASK, s.id, st.id), task=DETECT_TASK, variant=s.id, prompt=s.render(st.text),
                 gold="1" if st.causal else "0", system=s.system,
                 meta={"statement_id": st.id, "s/n": st.meta.get("s/n"), "n_pairs": len(st.relations)})
            for st in _rows(corpus, limit)]

