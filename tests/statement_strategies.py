"""Hypothesis strategies for statements as annotators write them (used by the metric property tests).

Relations draw their events and overarching events from a small pool of non-blank names (so that
events repeat, chains and cycles form, and an overarching event may also be a causal one), and every
label field from its values or None.  Relations may repeat, and a pair may carry both signs.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import strategies as st

from causalgraph.model import Correlation, Explicitness, Polarity, Relation, Statement, is_blank

__all__ = ["names", "statements", "renamings", "rename"]

#: Event names: any text that shows something (blank events are refused when a graph is compiled).
names = st.text(min_size=1, max_size=6).filter(lambda s: not is_blank(s))


def _maybe(values):
    return st.none() | st.sampled_from(list(values))


@st.composite
def statements(draw, max_relations: int = 10):
    pool = draw(st.lists(names, min_size=2, max_size=6, unique=True))
    # Indices into the pool (None: no belongs-to) and the labels, drawn as one tuple per relation:
    # far fewer draws than one strategy per field, for the same variety.
    slots = st.tuples(
        st.integers(0, len(pool) - 1), st.integers(0, len(pool) - 1),
        st.none() | st.integers(0, len(pool) - 1), st.none() | st.integers(0, len(pool) - 1),
        _maybe([True, False]), _maybe([True, False]), _maybe(Polarity), _maybe(Correlation),
        _maybe(Explicitness), _maybe(["raises", "lowers", "drives"]),
    )
    rels = [Relation(pool[c], pool[e], cause_belongs_to=None if cb is None else pool[cb],
                     effect_belongs_to=None if eb is None else pool[eb], combined=comb, nested=nest,
                     polarity=pol, correlation=corr, explicitness=expl, trigger=trig)
            for c, e, cb, eb, comb, nest, pol, corr, expl, trig in draw(st.lists(slots, min_size=1,
                                                                                max_size=max_relations))]
    if draw(st.booleans()):
        rels += draw(st.lists(st.sampled_from(rels), max_size=3))  # the same annotation written again
    return Statement("s-1", "A statement.", True, tuple(rels))


def _events(statement: Statement) -> list[str]:
    seen: dict[str, None] = {}
    for r in statement.relations:
        for v in (r.cause, r.effect, r.cause_belongs_to, r.effect_belongs_to):
            if v is not None:
                seen.setdefault(v, None)
    return list(seen)


@st.composite
def renamings(draw, statement: Statement) -> dict[str, str]:
    """A one-to-one renaming of every event and overarching event of the statement."""
    old = _events(statement)
    new = draw(st.lists(names, min_size=len(old), max_size=len(old), unique=True))
    return dict(zip(old, new))


def rename(statement: Statement, mapping: dict[str, str]) -> Statement:
    def one(r: Relation) -> Relation:
        return replace(r, cause=mapping[r.cause], effect=mapping[r.effect],
                       cause_belongs_to=mapping.get(r.cause_belongs_to) if r.cause_belongs_to else None,
                       effect_belongs_to=mapping.get(r.effect_belongs_to) if r.effect_belongs_to else None)

    return replace(statement, relations=tuple(one(r) for r in statement.relations))
