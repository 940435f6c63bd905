"""Prompt catalogs, stored as data files inside the package.

The paper's six ClimateCause tasks have two catalogs of the same variants:

``authors`` (default)
    ``prompts/climatecause/authors/*.json``: the text the ClimateCause
    authors sent, as their ``Code/create_batch_files.py`` composed it (its
    f-strings copied character for character; the graph placeholder takes
    the encoder's text as it is, as theirs took networkx's).
``tables``
    ``prompts/climatecause/*.json``: Tables 23–29 as printed, transcribed
    exactly (typographic quotes written as ASCII), plus the causalgraph
    multi-hop task; graphs are inserted with the authors' punctuation
    (:func:`causalgraph.encodings.prompt_graph`).

Both give the same variants, answer words and item ids; only the prompt
text differs (docs/reproduction.md lists every difference).  Templates use
``${name}`` placeholders (:class:`string.Template`), so the braces of answer
sets such as ``{Yes, No}`` stay literal.

Tasks and variant ids (the paper's own names in brackets):

============================  ==========================================
task                          variants
============================  ==========================================
``corri``                     ``0_1`` … ``F_2`` … ``CoT_3``  [CorrI_0_1 …]
``corri-rc``                  ``RC_0_1`` … ``RC_CoT_3``  [CorrI_RC_0_1 …]
``ccr-member``                ``A_4`` … ``SN_5`` … ``ML_6``  [CCR_member_A_4 …]
``ccr-position``              ``A_4`` … ``ML_6``  [CCR_position_A_4 …]
``ccr-eci-member``            ``0_4`` … ``F_5`` … ``CoT_6``  [CCR_ECI_member_0_4 …]
``ccr-eci-position``          ``0_4`` … ``CoT_6``  [CCR_ECI_position_0_4 …]
``corri-multihop``            ``0_1`` … ``CoT_3`` (causalgraph, not in the paper)
============================  ==========================================

:func:`get_variant` also accepts the paper's names (``CorrI_RC_F_1``,
``CCR_member_A_4``) and, for ``corri-rc``, ids without the ``RC_`` prefix
(as in the paper's Table 21).
"""

from __future__ import annotations

import string
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Optional, Sequence

from ..encodings import ENCODING_PREFIXES, encoding_for_prefix, get_encoding
from ..errors import ConfigError, SchemaError
from .catalog import catalog_path, load_catalog

__all__ = ["PromptVariant", "Exemplar", "TASKS", "ENCODING_PREFIXES", "CATALOGS", "DEFAULT_CATALOG", "AUTHORS_TASKS",
           "list_tasks", "list_variants", "get_variant", "task_catalogs", "resolve_catalog", "exemplars",
           "encoding_variant_id", "variant_encoding", "with_encoding", "catalog_variants", "find_variant",
           "encoded_ids_hint"]

#: ClimateCause tasks, in the paper's order, then the causalgraph extension.
TASKS = ("corri", "corri-rc", "ccr-member", "ccr-position", "ccr-eci-member", "ccr-eci-position",
         "corri-multihop")

_CATALOG = "climatecause"

#: The prompt catalogs of the paper's tasks: the authors' own text first (the default), then the tables.
CATALOGS = ("authors", "tables")
#: The catalog used when none is asked for (for tasks that have it).
DEFAULT_CATALOG = "authors"
#: The tasks whose prompts the ClimateCause authors released (the paper's six); multi-hop has ``tables`` only.
AUTHORS_TASKS = ("corri", "corri-rc", "ccr-member", "ccr-position", "ccr-eci-member", "ccr-eci-position")
# Where each catalog's file of a task lives under prompts/climatecause/.
_CATALOG_FILES = {"authors": "authors/{task}.json", "tables": "{task}.json"}

# ENCODING_PREFIXES (imported above, a live view of the encodings registry): the variant id prefix of
# each graph encoding, the paper's ``A``, ``SN`` and ``ML``, then causalgraph's.  A graph variant of
# another encoding is the same template with that prefix: ``A_5`` with a matrix is ``MX_5`` (see
# docs/prompts.md); each encoding's module in causalgraph/encodings/ declares its prefix.


@dataclass(frozen=True)
class PromptVariant:
    """One prompt variant of a task.

    Attributes
    ----------
    task, id
        Task name and variant id (``"ccr-member"``, ``"SN_5"``).
    paper_name
        The name the paper's result tables use (``CCR_member_SN_5``), or
        ``None`` for variants that are not in the paper.
    strategy
        ``zero-shot``, ``few-shot``, ``chain-of-thought`` (CorrI, CCR+ECI+RC,
        multi-hop) or the graph encoding (CCR: ``adjacency``,
        ``single-node``, ``graphml``).
    template
        The prompt with ``${…}`` placeholders.
    answer_labels
        Canonical gold label → the word the prompt asks for
        (``{"positive": "same", "negative": "opposite"}``).
    expected_output
        The answer set as the paper prints it (``{same, opposite}``).
    encoding
        The graph encoding inserted for ``${graph}`` (CCR only).
    fact_template
        How one chain edge is written (multi-hop only).
    placeholders
        Names the template needs.
    source
        Where the wording comes from.
    catalog
        The catalog the variant was read from (``authors`` or ``tables``;
        ``None`` for catalogs without a choice, such as the structure tasks').
    graph_text
        What ``${graph}`` takes: ``"prompt"`` (the graph text with the
        punctuation :func:`causalgraph.encodings.prompt_graph` adds, which the
        printed tables need) or ``"encoded"`` (the encoder's text as it is;
        the authors' templates carry their own punctuation).
    """

    task: str
    id: str
    paper_name: Optional[str]
    strategy: str
    template: str
    answer_labels: dict = field(hash=False, compare=True)
    expected_output: str = ""
    encoding: Optional[str] = None
    fact_template: Optional[str] = None
    placeholders: tuple[str, ...] = ()
    source: str = ""
    catalog: Optional[str] = None
    graph_text: str = "prompt"

    @property
    def labels(self) -> tuple[str, ...]:
        """Canonical labels, in the order of the answer set."""
        return tuple(self.answer_labels)

    @property
    def answer_words(self) -> tuple[str, ...]:
        """The words the model is asked to answer with."""
        return tuple(self.answer_labels.values())

    def label_for(self, word: str) -> Optional[str]:
        """The canonical label of an answer word (case-insensitive), or ``None``."""
        w = word.strip().lower()
        for label, answer in self.answer_labels.items():
            if answer.lower() == w:
                return label
        return None

    def render(self, **values: str) -> str:
        """Fill the template.

        Raises :class:`~causalgraph.errors.ConfigError` when a placeholder is
        missing or an unknown one is given.

        Examples
        --------
        >>> get_variant("corri", "0_1").render(e_i="emissions", e_j="warming")
        '[MASK] in {positive, negative}. There is a [MASK] correlation between emissions and warming.'
        """
        extra = sorted(set(values) - set(self.placeholders))
        missing = [p for p in self.placeholders if p not in values]
        if extra or missing:
            raise ConfigError(f"prompt {self.task}/{self.id} needs placeholders {list(self.placeholders)}; "
                              f"missing {missing}, unexpected {extra}")
        return string.Template(self.template).substitute(values)

    def render_fact(self, cause: str, effect: str, label: str) -> str:
        """One chain edge in this variant's wording (multi-hop variants only)."""
        if self.fact_template is None:
            raise ConfigError(f"prompt {self.task}/{self.id} has no fact template")
        if label not in self.answer_labels:
            raise ConfigError(f"edge label {label!r} is not one of {list(self.answer_labels)}")
        return string.Template(self.fact_template).substitute(
            cause=cause, effect=effect, label=self.answer_labels[label])


@dataclass(frozen=True)
class Exemplar:
    """A few-shot exemplar of the paper (Appendix G.5.1)."""

    name: str
    statement: str
    relation: Optional[tuple[str, str]] = None
    correlation: Optional[str] = None
    events: tuple[str, ...] = ()
    asked_event: Optional[str] = None
    membership: Optional[str] = None
    position: Optional[str] = None


# The fields of a catalog in the ClimateCause layout, checked on reading (prompts/catalog.py).
_TASK_FIELDS = {"placeholders": list, "source": str, "variants": list}
_TASK_OPTIONAL = {"graph_text": str}
_GRAPH_TEXTS = ("prompt", "encoded")
_VARIANT_FIELDS = {"id": str, "strategy": str, "template": str, "answer_labels": dict}
_VARIANT_OPTIONAL = {"paper_name": str, "expected_output": str, "encoding": str, "fact_template": str}
_EXEMPLAR_FIELDS = {"name": str, "statement": str}
_EXEMPLAR_OPTIONAL = {"relation": list, "correlation": str, "events": list, "asked_event": str, "membership": str,
                      "position": str}


def task_catalogs(task: str) -> tuple[str, ...]:
    """The prompt catalogs of a ClimateCause task, the default first.

    Examples
    --------
    >>> task_catalogs("ccr-member"), task_catalogs("corri-multihop")
    (('authors', 'tables'), ('tables',))
    """
    if task not in TASKS:
        raise ConfigError(f"unknown task {task!r}; expected one of {', '.join(TASKS)}")
    return CATALOGS if task in AUTHORS_TASKS else ("tables",)


def resolve_catalog(task: str, prompts: Optional[str] = None) -> str:
    """The catalog ``prompts`` names for ``task`` (``None``: the task's default).

    Raises :class:`~causalgraph.errors.ConfigError` for an unknown catalog, or
    ``authors`` for a task the authors released no prompts for.

    Examples
    --------
    >>> resolve_catalog("corri"), resolve_catalog("corri", "tables"), resolve_catalog("corri-multihop")
    ('authors', 'tables', 'tables')
    """
    have = task_catalogs(task)
    if prompts is None:
        return have[0]
    if prompts not in CATALOGS:
        raise ConfigError(f"unknown prompt catalog {prompts!r}; expected one of {', '.join(CATALOGS)}")
    if prompts not in have:
        raise ConfigError(f"task {task} has no {prompts!r} prompts: the ClimateCause authors released prompts for "
                          f"{', '.join(AUTHORS_TASKS)} only; {task} has one catalog, {', '.join(have)}")
    return prompts


@lru_cache(maxsize=None)
def _catalog(task: str, prompts: str) -> tuple[PromptVariant, ...]:
    name = _CATALOG_FILES[prompts].format(task=task)
    return _read_variants(_CATALOG, name, task, prompts)


@lru_cache(maxsize=None)
def catalog_variants(catalog: str, task: str) -> tuple[PromptVariant, ...]:
    """The variants stored in ``prompts/<catalog>/<task>.json`` (every catalog has the ClimateCause layout).

    Examples
    --------
    >>> [v.id for v in catalog_variants("climatecause", "ccr-member")][:2]
    ['A_4', 'A_5']
    """
    return _read_variants(catalog, f"{task}.json", task, "tables" if catalog == _CATALOG else None)


def _read_variants(folder: str, name: str, task: str, prompts: Optional[str]) -> tuple[PromptVariant, ...]:
    doc = load_catalog(folder, name, required=_TASK_FIELDS, optional=_TASK_OPTIONAL, entries="variants",
                       entry_required=_VARIANT_FIELDS, entry_optional=_VARIANT_OPTIONAL)
    graph_text = doc.get("graph_text") or "prompt"
    if graph_text not in _GRAPH_TEXTS:
        raise SchemaError(f"{catalog_path(folder, name)}: field 'graph_text' is {graph_text!r}; expected one of "
                          f"{', '.join(_GRAPH_TEXTS)}")
    return tuple(
        PromptVariant(task=task, id=v["id"], paper_name=v.get("paper_name"), strategy=v["strategy"],
                      template=v["template"], answer_labels=dict(v["answer_labels"]),
                      expected_output=v.get("expected_output", ""), encoding=v.get("encoding"),
                      fact_template=v.get("fact_template"), placeholders=tuple(doc["placeholders"]),
                      source=doc["source"], catalog=prompts, graph_text=graph_text)
        for v in doc["variants"]
    )


def list_tasks() -> list[str]:
    """Task names with a prompt catalog."""
    return list(TASKS)


def list_variants(task: str, prompts: Optional[str] = None) -> list[PromptVariant]:
    """Every variant of a task, in the paper's order, from catalog ``prompts`` (default: the task's default).

    Both catalogs hold the same variant ids, answer words and strategies.

    Examples
    --------
    >>> [v.id for v in list_variants("ccr-member")][:4]
    ['A_4', 'A_5', 'A_6', 'SN_4']
    """
    return list(_catalog(task, resolve_catalog(task, prompts)))


def get_variant(task: str, variant_id: str, prompts: Optional[str] = None) -> PromptVariant:
    """One variant by id (or by the paper's name), from catalog ``prompts`` (``authors`` or ``tables``).

    Examples
    --------
    >>> v = get_variant("corri-rc", "RC_F_2")
    >>> v.answer_labels, v.catalog
    ({'positive': 'same', 'negative': 'opposite'}, 'authors')
    >>> get_variant("corri-rc", "F_2") == v
    True
    >>> get_variant("ccr-member", "A_4", "tables").template == v.template
    False
    """
    variants = _catalog(task, resolve_catalog(task, prompts))
    for v in variants:
        if variant_id in (v.id, v.paper_name):
            return v
    if task == "corri-rc" and not variant_id.startswith("RC_"):
        for v in variants:
            if v.id == "RC_" + variant_id:
                return v
    derived = _derived(variants, variant_id)
    if derived is not None:
        return derived
    raise ConfigError(f"unknown variant {variant_id!r} for task {task}; expected one of "
                      f"{', '.join(v.id for v in variants)}")


def find_variant(variants: Sequence[PromptVariant], variant_id: str, task: str, expected: str) -> PromptVariant:
    """The variant of ``variants`` whose id is ``variant_id``; else a one-line error naming ``task`` and
    ``expected`` (what an id of this task looks like).

    The lookup of the tasks whose variants are stored templates times encodings (structure,
    identification, net effect).

    Examples
    --------
    >>> vs = [with_encoding(v, "adjacency") for v in catalog_variants("climatecause", "ccr-member")]
    >>> find_variant(vs, "A_5", "ccr-member", "A_<n>").id
    'A_5'
    >>> find_variant(vs, "Z_1", "ccr-member", "A_<n>")
    Traceback (most recent call last):
    ...
    causalgraph.errors.ConfigError: unknown variant 'Z_1' for task ccr-member; expected A_<n>
    """
    for v in variants:
        if v.id == variant_id:
            return v
    raise ConfigError(f"unknown variant {variant_id!r} for task {task}; expected {expected}")


def encoded_ids_hint() -> str:
    """How the id of a stored template in an encoding reads, with the registered prefixes (for error messages).

    Examples
    --------
    >>> encoded_ids_hint().startswith("<encoding prefix>_<n> with prefix A, SN")
    True
    """
    return f"<encoding prefix>_<n> with prefix {', '.join(ENCODING_PREFIXES.values())} and n 1 or 2 (A_1, MX_2 …)"


@lru_cache(maxsize=None)
def _exemplars() -> tuple[Exemplar, ...]:
    doc = load_catalog(_CATALOG, "exemplars.json", required={"exemplars": list}, entries="exemplars",
                       entry_required=_EXEMPLAR_FIELDS, entry_optional=_EXEMPLAR_OPTIONAL, entry_name="name")
    return tuple(
        Exemplar(name=e["name"], statement=e["statement"],
                 relation=tuple(e["relation"]) if e.get("relation") else None,
                 correlation=e.get("correlation"), events=tuple(e.get("events", ())),
                 asked_event=e.get("asked_event"), membership=e.get("membership"), position=e.get("position"))
        for e in doc["exemplars"]
    )


def exemplars() -> list[Exemplar]:
    """The paper's three few-shot exemplars (Appendix G.5.1)."""
    return list(_exemplars())


def _split_graph_id(variant_id: str) -> tuple[Optional[str], str]:
    prefix, sep, number = str(variant_id).partition("_")
    return (encoding_for_prefix(prefix) if sep else None), number


def variant_encoding(variant_id: str) -> Optional[str]:
    """The graph encoding a variant id names by its prefix (``MX_5`` → ``matrix``), or ``None``.

    Examples
    --------
    >>> variant_encoding("SN_4"), variant_encoding("DOT_1"), variant_encoding("0_4")
    ('single-node', 'dot', None)
    """
    return _split_graph_id(variant_id)[0]


def encoding_variant_id(variant_id: str, encoding: str, *, stored: Optional[Sequence[str]] = None) -> str:
    """The id of a graph variant with another encoding: ``("A_5", "matrix")`` → ``"MX_5"``.

    ``stored`` (the ids the task's catalog stores) makes the change an *option* of a stored
    variant only: a derived id (``MX_1``) already names its encoding, so asking another one
    (``dot``) contradicts it, as ``A_5.letters`` with other event names does.

    Raises :class:`~causalgraph.errors.ConfigError` for an unknown encoding, an id that names none,
    or (with ``stored``) a derived id whose encoding differs from ``encoding``.

    Examples
    --------
    >>> encoding_variant_id("A_5", "matrix"), encoding_variant_id("SN_4", "adjacency")
    ('MX_5', 'A_4')
    >>> encoding_variant_id("MX_5", "matrix", stored=["A_5"])
    'MX_5'
    """
    prefix = get_encoding(encoding).prefix  # an unknown encoding: ConfigError naming the known ones
    current, number = _split_graph_id(variant_id)
    if current is None:
        raise ConfigError(f"variant {variant_id!r} holds no graph, so it has no encoding to change; graph "
                          f"variants read <encoding prefix>_<n> ({', '.join(ENCODING_PREFIXES.values())})")
    new_id = f"{prefix}_{number}"
    if stored is not None and current != encoding and variant_id not in stored:
        raise ConfigError(f"variant {variant_id!r} names the encoding {current!r} but encoding {encoding!r} was "
                          f"asked; use --variant {new_id}, or a stored variant ({', '.join(stored)}) with "
                          f"--encoding {encoding}")
    return new_id


def with_encoding(base: PromptVariant, encoding: str) -> PromptVariant:
    """``base`` (a graph variant) with the graph written in ``encoding``: same template, id and strategy renamed."""
    from dataclasses import replace

    if base.encoding is None:
        raise ConfigError(f"prompt {base.task}/{base.id} holds no graph, so it has no encoding to change")
    new_id = encoding_variant_id(base.id, encoding)
    if new_id == base.id:
        return base
    return replace(base, id=new_id, paper_name=None, strategy=encoding, encoding=encoding)


def _derived(variants: Sequence[PromptVariant], variant_id: str) -> Optional[PromptVariant]:
    """A graph variant of an encoding the catalog does not store: the stored template of the same number."""
    encoding, number = _split_graph_id(variant_id)
    if encoding is None:
        return None
    for v in variants:
        if v.encoding is not None and _split_graph_id(v.id)[1] == number:
            return with_encoding(v, encoding)
    return None
