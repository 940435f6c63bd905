"""The reader shared by the adjacency and single-node decoders: dynamic programming over separators.

Adjacency and single-node text is ambiguous when events contain the separators (``", "``,
``" causes "``, ``") ("``, ``". "``); the decoder parses by dynamic programming over the
separator positions, keeps the parse with the most edges and raises
:class:`~causalgraph.errors.ParseError` if several parses remain.  Passing the known events
(``nodes=``) resolves such text exactly: every reading between them counts, whatever its number
of edges, and the text is decoded only when it has one.
"""

from __future__ import annotations

import bisect
import heapq
import math
from typing import Iterable, Optional

from ..errors import ParseError
from .base import SIGN_WORDS as _SIGN_WORDS

__all__ = ["decode_text"]

# -- decoding ----------------------------------------------------------------
#
# An edge of adjacency text is ``(`` cause ``, `` effect [``, `` sign] ``)``, one of single-node text
# cause `` causes `` effect [`` (`` sign `` correlation)``] ``.``; edges are separated by one space.
# Events may hold the separators themselves, so the text is read by dynamic programming over the
# positions where an edge can start (the beginning and every position after a space), from the end
# of the text back to its beginning: best[i] = (most edges that read text[i:], number of readings
# with that many edges, how the first edge of one of them ends).  A reading of one edge from i is a
# pair (k, m): a separator at k ends the cause, a closing mark at m ends the effect.

_FORMS = {"adjacency": ("(", ", ", ")"), "single-node": ("", " causes ", ".")}


def _sign_tail(fmt: str, word: str) -> str:
    return f", {word}" if fmt == "adjacency" else f" ({word} correlation)"


def _find_all(text: str, sub: str) -> list[int]:
    """Every start of ``sub`` in ``text``, overlapping ones included (" causes causes " holds two)."""
    out = []
    i = text.find(sub)
    while i != -1:
        out.append(i)
        i = text.find(sub, i + 1)
    return out


def _edge_ends(text: str, fmt: str, signs: bool) -> list[tuple[int, int, str, int]]:
    """Every closing mark that can end an edge: (position m, length of the sign tail before it, sign,
    where the next edge starts).  The mark must be followed by a space or the end of the text and,
    with ``signs``, preceded by a sign tail."""
    close = _FORMS[fmt][2]
    n = len(text)
    tails = [(w, _sign_tail(fmt, w)) for w in _SIGN_WORDS] if signs else [("unknown", "")]
    out = []
    for m in _find_all(text, close):
        after = m + len(close)
        if after != n and text[after] != " ":
            continue
        # No tail is a suffix of another, so at most one of them ends at m.
        found = next(((w, t) for w, t in tails if text.endswith(t, 0, m)), None)
        if found is not None:
            out.append((m, len(found[1]), found[0], after + 1 if after < n else n))
    return out


def _edge_starts(text: str) -> list[int]:
    """Positions where an edge may start, descending: the beginning and every position after a space."""
    n = len(text)
    return sorted({0} | {j + 1 for j in _find_all(text, " ") if j + 1 < n}, reverse=True)


def _best_without_nodes(text: str, fmt: str, signs: bool) -> tuple[dict, dict]:
    """best[i] for every edge start i when any text may be an event.

    Any non-empty text is a cause, so reading one edge from a start i
    (cause from s = i + len(prefix)) with its effect closed at m is possible
    once some separator k has s < k <= T(m), where T(m) = m - len(sign tail)
    - len(separator) - 1 leaves a non-empty effect; and then every such k
    gives a different reading.  The number of readings of text[i:] with the
    most edges is therefore Σ cnt(m)·(Q(T(m)) - Q(s)) over the ends m with
    the best tail, Q(x) being the number of separators at or before x.  Ends
    are kept in one running aggregate (best score, Σ cnt·Q(T), Σ cnt): the
    sweep runs from the end of the text, an end joins a heap once the start
    after it is solved, and joins the aggregate once the first separator
    after s, which only moves left, is at or before its T(m).  Each start
    and each end is handled once: O(n log n) steps for a text of n
    characters, on integers of at most n bits.
    """
    prefix, sep, _ = _FORMS[fmt]
    n = len(text)
    seps = _find_all(text, sep)
    by_next: dict[int, list[tuple[int, int, str]]] = {}
    for m, tail, sign, nxt in _edge_ends(text, fmt, signs):
        by_next.setdefault(nxt, []).append((m, tail, sign))
    best: dict[int, tuple] = {n: (0, 1, None)}
    waiting: list[tuple[int, int]] = []  # heap of (-T(m), m): ends whose tail is solved
    # m -> (T(m), edges read from m's start on, readings of its tail, next start, sign tail length, sign)
    info: dict[int, tuple[int, int, int, int, int, str]] = {}
    top = [0, 0, 0, None]  # best score among joined ends, Σ cnt·Q(T), Σ cnt over those ends, one of them

    def solved(p: int) -> None:
        for m, tail, sign in by_next.get(p, ()):
            t = m - tail - len(sep) - 1
            info[m] = (t, best[p][0] + 1, best[p][1], p, tail, sign)
            heapq.heappush(waiting, (-t, m))

    solved(n)
    for i in _edge_starts(text):
        if text.startswith(prefix, i):
            s = i + len(prefix)
            j = bisect.bisect_left(seps, s + 1)
            first = seps[j] if j < len(seps) else n
            while waiting and -waiting[0][0] >= first:
                _, m = heapq.heappop(waiting)
                t, score, cnt = info[m][:3]
                if score > top[0]:
                    top[:] = [score, cnt * bisect.bisect_right(seps, t), cnt, m]
                elif score == top[0]:
                    top[1] += cnt * bisect.bisect_right(seps, t)
                    top[2] += cnt
            if top[3] is not None:
                # every joined end m has T(m) >= first > s, so each adds cnt·(Q(T(m)) - Q(s)) >= cnt
                best[i] = (top[0], top[1] - bisect.bisect_right(seps, s) * top[2], (first, top[3]))
                solved(i)
    return best, info


def _edge_at(text: str, fmt: str, i: int, first: int, m: int, info: dict) -> tuple[tuple, int]:
    """The one reading of an edge from i when its count is 1: the first separator, the kept end."""
    prefix, sep, _ = _FORMS[fmt]
    _, _, _, nxt, tail, sign = info[m]
    return (text[i + len(prefix):first], text[first + len(sep):m - tail], sign), nxt


def _best_with_nodes(text: str, fmt: str, signs: bool, known: set) -> dict:
    """best[i] for every edge start i when only the given events may be read.

    Here every reading counts, whatever its number of edges: the events are
    known, so an event holding ``") ("`` is as likely as two edges, and the
    text's own reading (always one of them when the events are the graph's)
    is returned only when it is the only one.  A cause read from s ends at a
    separator at most ``L`` characters later (L = the longest event) and an
    effect ends within L plus a sign tail, so
    each start looks at separators and ends inside that window only, and
    the effects after each separator are found once: O(n · w · L) steps for
    a text of n characters with at most w separators or closing marks in a
    window of L characters.
    """
    prefix, sep, _ = _FORMS[fmt]
    n = len(text)
    known = {x for x in known if x}  # an empty cause or effect is never read
    longest = max(map(len, known), default=0)
    seps = _find_all(text, sep)
    ends = _edge_ends(text, fmt, signs)
    end_pos = [e[0] for e in ends]
    reach = longest + max((len(_sign_tail(fmt, w)) for w in _SIGN_WORDS), default=0)
    effects: dict[int, list[tuple[int, str, str]]] = {}

    def effects_from(e: int) -> list[tuple[int, str, str]]:
        if e not in effects:
            found = []
            for x in range(bisect.bisect_right(end_pos, e), bisect.bisect_right(end_pos, e + reach)):
                m, tail, sign, nxt = ends[x]
                if m - tail > e and text[e:m - tail] in known:
                    found.append((nxt, text[e:m - tail], sign))
            effects[e] = found
        return effects[e]

    best: dict[int, tuple] = {n: (0, 1, None)}
    for i in _edge_starts(text):
        if not text.startswith(prefix, i):
            continue
        s = i + len(prefix)
        cand = None
        for x in range(bisect.bisect_right(seps, s), bisect.bisect_right(seps, s + longest)):
            k = seps[x]
            cause = text[s:k]
            if cause not in known:
                continue
            for nxt, effect, sign in effects_from(k + len(sep)):
                tail = best.get(nxt)
                if tail is None:
                    continue
                if cand is None:
                    cand = (tail[0] + 1, tail[1], ((cause, effect, sign), nxt))
                else:
                    cand = (max(cand[0], tail[0] + 1), cand[1] + tail[1], cand[2])
        if cand is not None:
            best[i] = cand
    return best


def _how_many(count: int) -> str:
    """A count of readings for a message: its exact digits, or its order of magnitude where Python
    refuses to print them (integers of more than 4,300 digits by default)."""
    try:
        return str(count)
    except ValueError:
        shift = count.bit_length() - 60
        exponent = math.log10(count >> shift) + shift * math.log10(2)
        return f"about {10 ** (exponent % 1):.2f}e{int(exponent)}"


def _decode_text(text: str, fmt: str, signs: bool, nodes: Optional[Iterable[str]]) -> list[tuple]:
    if not text.strip():
        return []
    n = len(text)
    if nodes is None:
        best, info = _best_without_nodes(text, fmt, signs)
    else:
        best = _best_with_nodes(text, fmt, signs, set(nodes))
    if 0 not in best:
        where = "" if nodes is None else " between the given nodes"
        shown = text if len(text) <= 80 else text[:80] + "…"
        expected = "'(cause, effect)' groups" if fmt == "adjacency" else "'cause causes effect.' sentences"
        raise ParseError(f"cannot read {fmt} text as edges{where}: found {shown!r}, expected {expected} "
                         f"separated by single spaces")
    if best[0][1] > 1 and nodes is None:
        raise ParseError(f"{fmt} text can be read in {_how_many(best[0][1])} ways (events contain separators); "
                         f"pass nodes= with the known events to decode it exactly")
    if best[0][1] > 1:
        raise ParseError(f"{fmt} text can be read in {_how_many(best[0][1])} ways between the given nodes "
                         f"(their events contain separators); encode such graphs as GraphML, which keeps "
                         f"every event apart")
    # One reading in all: every start along it has exactly one reading too.
    out, i = [], 0
    while i < n:
        if nodes is None:
            edge, i = _edge_at(text, fmt, i, *best[i][2], info)
        else:
            edge, i = best[i][2]
        out.append(edge)
    return out



#: The name the adjacency and single-node decoders call the reader by.
decode_text = _decode_text
