"""A run's variant ids with the graph encoding and event names of ``items --encoding/--event-names``.

``items --task ccr-member --variant A_5 --encoding matrix --event-names letters`` builds the items of
variant ``MX_5.letters``; ``bench run`` with the same options asks the same items, by asking that
variant id.  The run directory, its manifest and every later command (report, stats, view) then see
the variant as if it had been named directly.
"""

from __future__ import annotations

from typing import Optional, Sequence

from ..errors import ConfigError
from ..graph.edits import join_edit, split_edit
from ..graph.naming import check_scheme, join_variant, split_variant
from ..prompts import encoding_variant_id
from ..tasks import Task

__all__ = ["with_item_options"]


def with_item_options(spec: Task, variants: Sequence[str], *, encoding: Optional[str] = None,
                      event_names: Optional[str] = None, every: Optional[Sequence[str]] = None) -> list[str]:
    """``variants`` with the graph written in ``encoding`` and the events named by ``event_names``.

    Parameters
    ----------
    spec
        The task.
    variants
        Variant ids, or ``["all"]`` for ``every`` (default: the task's variants).
    encoding, event_names
        As ``items --encoding`` / ``--event-names``; ``None`` leaves the ids as they are.
    every
        What ``all`` stands for (``bench run --method loglik``: the variants it can score).

    Returns
    -------
    list of str
        The ids, each once, in the order given (``all`` spelled out when an option is given).

    Raises
    ------
    ConfigError
        For a task whose items take no such option (its prompts hold no graph), a graph-first id
        (``GF_A_4``: the model writes the graph itself), an id without a graph,
        an unknown encoding or name scheme, or an id that already names other event names.

    Examples
    --------
    >>> from causalgraph.tasks import get_task
    >>> with_item_options(get_task("ccr-member"), ["A_5", "SN_4.reverse"], encoding="matrix", event_names="letters")
    ['MX_5.letters', 'MX_4.letters.reverse']
    """
    if encoding is None and event_names is None:
        return list(variants)
    for option, value, flag in (("encoding", encoding, "--encoding"), ("event_names", event_names, "--event-names")):
        if value is not None and option not in spec.item_options:
            raise ConfigError(f"task {spec.name!r} takes no {flag} (its items take: "
                              f"{', '.join(spec.item_options) or 'no option'})")
    if event_names is not None:
        check_scheme(event_names)
    expanded = list(variants) == ["all"]
    given = list(every if every is not None else spec.list_variants()) if expanded else list(variants)
    # A named variant that already names another encoding is refused, as `items` refuses it; `all`
    # lists derived variants too (MX_1 of the structure tasks), and each becomes the one encoding.
    stored = None if expanded else list(spec.list_variants())
    out: list[str] = []
    for v in given:
        rest, edit = split_edit(v)
        base, scheme = split_variant(rest)
        # the variant's own refusal (a graph-first one), before a rewrite finds no graph
        spec.check_item_options(v, encoding=encoding, event_names=event_names)
        if encoding is not None:
            base = encoding_variant_id(base, encoding, stored=stored)
        if event_names is not None:
            if scheme not in ("real", event_names):
                raise ConfigError(f"variant {v!r} names events {scheme!r} but --event-names {event_names} was asked")
            scheme = event_names
        new = join_edit(join_variant(base, scheme), edit)
        if new not in out:
            out.append(new)
    return out
