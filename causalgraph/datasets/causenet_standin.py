"""A CauseNet-Full stand-in: release-shaped JSON Lines, multi-stream bz2, any size, one seed.

CauseNet-Full (Heindorf et al., CIKM 2020) is a bz2 download of several GB that a
test or a benchmark cannot fetch.  :func:`write_standin` writes a file that a
reader cannot tell from it by its form: one JSON object a line with the
release's fields (``causal_relation`` and ``sources``, each source a
``type`` and the ``payload`` fields the CauseNet README lists for its type:
ClueWeb12 sentences with page id, page reference and timestamp; Wikipedia
sentences, lists and infoboxes with page id, title, revision and section),
sentences with ``surface``, ``tokens``, ``dependencies`` and a
``path_pattern``, compressed as independent bz2 streams of 900,000
uncompressed bytes each — the layout ``pbzip2 -9`` writes, so a line may
start in one stream and end in the next (the cuts restart at every block of
10,000 relations, so that blocks are made and compressed by separate
processes: ``write_standin(..., workers=16)``).

Its proportions are the published ones (docs/data.md cites them):
:data:`PUBLISHED` holds the figures of CauseNet's statistics notebook
(``notebooks/03-graph-analysis/02-graph-statistics.ipynb`` of
causenet-org/CIKM-20): 11,609,890 relations over 12,186,310 concepts; the
relations per source type and the pairwise overlaps of source types
(Table 3 of the paper); the ten most frequent path patterns (Table 2).  What
the paper does not publish — how many sources a relation has within one
type, sentence lengths, page titles — is a stated assumption
(:data:`ASSUMED`), not a measurement.  The concepts, sentences and pages are
made up from a small vocabulary: the stand-in has the release's form and
proportions, not its content.

Deterministic: the same ``n``, ``seed`` and options give the same bytes,
whatever the number of worker processes (numpy's PCG64, one stream per
block, no hashing of strings).
"""

from __future__ import annotations

import bz2
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterator

import numpy as np

from ..errors import ConfigError

__all__ = ["PUBLISHED", "ASSUMED", "TYPE_COMBINATIONS", "StandinInfo", "standin_lines", "write_standin",
           "STREAM_BYTES"]

#: Figures published by the CauseNet authors (statistics notebook of causenet-org/CIKM-20, the paper's
#: Tables 2 and 3; the README of the release lists the payload fields used here).
PUBLISHED = {
    "relations": 11_609_890,
    "concepts": 12_186_310,
    # relations with at least one source of the type
    "relations_per_type": {"clueweb12_sentence": 10_872_313, "wikipedia_sentence": 793_593,
                           "wikipedia_list": 10_612, "wikipedia_infobox": 7_880},
    # relations with sources of both types
    "overlaps": {("clueweb12_sentence", "wikipedia_sentence"): 72_937,
                 ("clueweb12_sentence", "wikipedia_infobox"): 939,
                 ("clueweb12_sentence", "wikipedia_list"): 506,
                 ("wikipedia_sentence", "wikipedia_infobox"): 209,
                 ("wikipedia_sentence", "wikipedia_list"): 70,
                 ("wikipedia_list", "wikipedia_infobox"): 93},
    # distinct pages (ClueWeb12 references, Wikipedia page ids) per type
    "pages_per_type": {"clueweb12_sentence": 12_111_758, "wikipedia_sentence": 427_893,
                       "wikipedia_infobox": 2_725, "wikipedia_list": 1_194},
    # Table 2: the ten most frequent path patterns, with the relations each extracted
    "top_patterns": [("-nsubj", "cause/VB", "+dobj", 904_385), ("-nmod:with", "associated/VBN", "-acl", 892_908),
                     ("-nsubj", "lead/VB", "+nmod:to", 783_860), ("-nsubj", "led/VBD", "+nmod:to", 724_978),
                     ("-nsubjpass", "associated/VBN", "+nmod:with", 692_666),
                     ("-nmod:by", "caused/VBN", "-acl", 598_639), ("-nsubj", "result/VB", "+nmod:in", 552_352),
                     ("-nsubj", "causes/VBZ", "+dobj", 496_426), ("-nsubj", "leads/VBZ", "+nmod:to", 491_340),
                     ("-nsubj", "resulted/VBD", "+nmod:in", 473_298)],
}

#: What the stand-in assumes where nothing is published (change them with write_standin's options).
ASSUMED = {
    # sources of one type on one relation: 1 + Geometric; mean 1 + 1/p - 1 = 1/p
    "sources_per_type_mean": 1.6,
    # sentence length in tokens, uniform between these (both ends included)
    "sentence_tokens": (10, 40),
    # each relation end is a concept seen only once with this probability (else a popular one, Zipf)
    "p_new_concept": 0.517,
    "zipf_exponent": 1.05,
    # popular concepts per relation (400,000 at the full size, as the synthetic benchmark)
    "hubs_per_relation": 400_000 / 11_609_890,
}

#: Uncompressed bytes per bz2 stream (``pbzip2 -9``: one 900 kB block a stream, cut anywhere in a line).
STREAM_BYTES = 900_000

_TYPES = ("clueweb12_sentence", "wikipedia_sentence", "wikipedia_list", "wikipedia_infobox")


def _combinations() -> list[tuple[tuple[str, ...], int]]:
    """Relations per exact set of source types, from the per-type totals and the pairwise overlaps
    (three or more types on one relation are not published; the pairwise counts absorb them)."""
    per, ov = PUBLISHED["relations_per_type"], PUBLISHED["overlaps"]
    out = []
    for t in _TYPES:
        alone = per[t] - sum(v for pair, v in ov.items() if t in pair)
        out.append(((t,), alone))
    out.extend((pair, v) for pair, v in ov.items())
    return out


#: (source types, relations) for every combination the stand-in draws, in proportion to the counts.
TYPE_COMBINATIONS = _combinations()

_WORDS = ("acid", "air", "alcohol", "anxiety", "bacteria", "blood", "bone", "brain", "cancer", "carbon", "cell",
          "change", "climate", "cold", "cost", "damage", "debt", "diet", "disease", "drought", "dust", "energy",
          "erosion", "fat", "fatigue", "fever", "fire", "flood", "fuel", "gene", "growth", "heat", "immune",
          "income", "infection", "injury", "insulin", "iron", "lack", "lead", "light", "liver", "loss", "lung",
          "muscle", "noise", "obesity", "oil", "pain", "pollution", "poverty", "pressure", "rain", "salt",
          "sleep", "smoke", "soil", "stress", "sugar", "tax", "toxin", "virus", "water", "wind")
_FILLER = ("the", "of", "in", "a", "and", "that", "many", "often", "patients", "studies", "show", "recent",
           "high", "low", "levels", "some", "cases", "during", "this", "period", "with", "severe", "is", "known")
_HOSTS = ("sdbonline.org", "bionewsonline.com", "jci.org", "sec.gov", "plosone.org", "molvis.org",
          "neurotransmitter.net", "diseaseinformation.info", "example-health.net", "news-archive.com")
_HEADINGS = ("Causes", "Signs and symptoms", "Effects", "History", "Pathophysiology", "Risk factors")
_INFOBOX = ("Infobox medical condition (new)", "Infobox disease", "Infobox event")
_CRAWL_START = np.datetime64("2012-02-10T00:00:00")  # ClueWeb12 was crawled 2012-02-10 … 2012-05-10
_CRAWL_SECONDS = 90 * 86400
_REVISION_START = np.datetime64("2018-08-01T00:00:00")  # the release's Wikipedia revisions are of 2018


def _concept(i: int) -> str:
    """A unique concept name for id ``i``: ``i + 1`` in bijective base-len(_WORDS), a word a digit."""
    k = len(_WORDS)
    n = i + 1
    words = []
    while n:
        n, r = divmod(n - 1, k)
        words.append(_WORDS[r])
    return "_".join(reversed(words))


def _dependencies(tokens: list[str]) -> str:
    """A dependency graph in the release's dot layout (a chain: each token governs the next)."""
    nodes = "".join(f'  N_{i} [label="{t}/NN-{i}"];\n' for i, t in enumerate(tokens, start=1))
    edges = "".join(f'  N_{i} -> N_{i + 1} [label="dep"];\n' for i in range(1, len(tokens)))
    return "digraph  {\n" + nodes + edges + "}\n"


class _Draws:
    """The random choices of one block of relations, drawn at once (numpy), then written line by line."""

    def __init__(self, rng: np.random.Generator, m: int, next_id: int, hubs: int, weights: np.ndarray,
                 p_new: float, p_geom: float, tokens: tuple[int, int], dependencies: bool):
        ends = np.empty(2 * m, dtype=np.int64)
        fresh = rng.random(2 * m) < p_new
        k = int(fresh.sum())
        ends[fresh] = np.arange(next_id, next_id + k)
        ends[~fresh] = rng.choice(hubs, size=2 * m - k, p=weights)
        # a popular concept drawn as its own effect: the effect is a fresh concept instead (self-loops are
        # rare in CauseNet, but would not be here, where the top concepts are drawn often)
        loop = np.flatnonzero(ends[0::2] == ends[1::2])
        ends[2 * loop + 1] = np.arange(next_id + k, next_id + k + len(loop))
        self.ends, self.next_id = ends, next_id + k + len(loop)
        counts = np.array([c for _, c in TYPE_COMBINATIONS], dtype=np.float64)
        self.combo = rng.choice(len(TYPE_COMBINATIONS), size=m, p=counts / counts.sum())
        self.rng = rng
        self.p_geom, self.tokens, self.dependencies = p_geom, tokens, dependencies
        pat = np.array([c for *_, c in PUBLISHED["top_patterns"]], dtype=np.float64)
        self.pattern_p = pat / pat.sum()


def _source(rng: np.random.Generator, t: str, cause: str, effect: str, d: _Draws) -> dict:
    page = int(rng.integers(1, 60_000_000))
    if t.endswith("_sentence"):
        dep_c, verb, dep_e, _ = PUBLISHED["top_patterns"][int(rng.choice(len(d.pattern_p), p=d.pattern_p))]
        c, e = cause.split("_"), effect.split("_")
        n = int(rng.integers(d.tokens[0], d.tokens[1] + 1))
        filler = [_FILLER[j] for j in rng.integers(0, len(_FILLER), size=max(0, n - len(c) - len(e) - 2))]
        half = len(filler) // 2
        tokens = filler[:half] + c + [verb.split("/")[0]] + e + filler[half:] + ["."]
        tokens[0] = tokens[0].capitalize()
        surface = " ".join(tokens[:-1]) + "."
        payload: dict = {}
        if t == "clueweb12_sentence":
            uuid = "%08x-%04x-4%03x-%04x-%012x" % tuple(int(x) for x in (
                rng.integers(0, 1 << 32), rng.integers(0, 1 << 16), rng.integers(0, 1 << 12),
                rng.integers(0x8000, 0xC000), rng.integers(0, 1 << 48)))
            stamp = _CRAWL_START + np.timedelta64(int(rng.integers(0, _CRAWL_SECONDS)), "s")
            payload["clueweb12_page_id"] = f"urn:uuid:{uuid}"
            payload["clueweb12_page_reference"] = (f"http://{_HOSTS[int(rng.integers(0, len(_HOSTS)))]}"
                                                   f"/{cause}/{page}")
            payload["clueweb12_page_timestamp"] = f"{stamp}Z"
        else:
            payload.update(_wikipedia(rng, page, effect))
            payload["sentence_section_heading"] = _HEADINGS[int(rng.integers(0, len(_HEADINGS)))]
            payload["sentence_section_level"] = str(int(rng.integers(1, 4)))
        payload["sentence"] = {"surface": surface, "tokens": tokens}
        if d.dependencies:
            payload["sentence"]["dependencies"] = _dependencies(tokens)
        payload["path_pattern"] = f"[[cause]]/N\t{dep_c}\t{verb}\t{dep_e}\t[[effect]]/N"
        return {"type": t, "payload": payload}
    payload = _wikipedia(rng, page, effect)
    if t == "wikipedia_list":
        payload.update({"list_toc_parent_title": payload["wikipedia_page_title"],
                        "list_toc_section_heading": _HEADINGS[int(rng.integers(0, len(_HEADINGS)))],
                        "list_toc_section_level": str(int(rng.integers(1, 4)))})
    else:
        payload.update({"infobox_template": _INFOBOX[int(rng.integers(0, len(_INFOBOX)))],
                        "infobox_title": payload["wikipedia_page_title"], "infobox_argument": "causes"})
    return {"type": t, "payload": payload}


def _wikipedia(rng: np.random.Generator, page: int, effect: str) -> dict:
    stamp = _REVISION_START + np.timedelta64(int(rng.integers(0, 90 * 86400)), "s")
    return {"wikipedia_page_id": str(page), "wikipedia_page_title": effect.replace("_", " ").capitalize(),
            "wikipedia_revision_id": str(int(rng.integers(850_000_000, 870_000_000))),
            "wikipedia_revision_timestamp": f"{stamp}Z"}


def _check(n: int, seed: int, sources_per_type_mean: float) -> None:
    for name, v in (("n", n), ("seed", seed)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ConfigError(f"the stand-in's {name} must be a non-negative integer, got {v!r}")
    if n == 0:
        raise ConfigError("the stand-in needs at least 1 relation, got 0")
    m = sources_per_type_mean
    if isinstance(m, bool) or not isinstance(m, (int, float)) or not m >= 1:
        raise ConfigError(f"sources_per_type_mean must be a number ≥ 1, got {m!r}")


@lru_cache(maxsize=4)
def _zipf(hubs: int) -> np.ndarray:
    w = np.arange(1, hubs + 1, dtype=np.float64) ** -ASSUMED["zipf_exponent"]
    return w / w.sum()


def _hubs(n: int) -> int:
    return max(16, int(round(n * ASSUMED["hubs_per_relation"])))


def _block_lines(n: int, seed: int, b: int, block: int, sources_per_type_mean: float,
                 dependencies: bool) -> list[str]:
    """Lines ``b * block`` … of the stand-in: block ``b`` draws from its own stream ``PCG64([seed, b])`` and
    numbers its fresh concepts from its own range, so blocks can be written in any order, by any process."""
    rng = np.random.Generator(np.random.PCG64([seed, b]))
    hubs = _hubs(n)
    m = min(block, n - b * block)
    p_geom = 1.0 / float(sources_per_type_mean)
    # a block needs at most 3m fresh ids (two ends, and a replacement per self-loop)
    d = _Draws(rng, m, hubs + 3 * block * b, hubs, _zipf(hubs), ASSUMED["p_new_concept"], p_geom,
               ASSUMED["sentence_tokens"], dependencies)
    out = []
    for i in range(m):
        cause, effect = _concept(int(d.ends[2 * i])), _concept(int(d.ends[2 * i + 1]))
        sources = []
        for t in TYPE_COMBINATIONS[int(d.combo[i])][0]:
            for _ in range(int(rng.geometric(p_geom))):
                sources.append(_source(rng, t, cause, effect, d))
        obj = {"causal_relation": {"cause": {"concept": cause}, "effect": {"concept": effect}}, "sources": sources}
        out.append(json.dumps(obj, ensure_ascii=False) + "\n")
    return out


def standin_lines(n: int, *, seed: int = 41, sources_per_type_mean: float = ASSUMED["sources_per_type_mean"],
                  dependencies: bool = True, block: int = 10_000) -> Iterator[str]:
    """The stand-in's ``n`` lines (each ending in ``\\n``), in order.

    Examples
    --------
    >>> import json
    >>> first = json.loads(next(standin_lines(3, seed=1)))
    >>> sorted(first), {s["type"] for s in first["sources"]} <= set(PUBLISHED["relations_per_type"])
    (['causal_relation', 'sources'], True)
    """
    _check(n, seed, sources_per_type_mean)
    _check_block(block)
    for b in range(-(-n // block)):
        yield from _block_lines(n, seed, b, block, sources_per_type_mean, dependencies)


def _check_block(block: int) -> None:
    if isinstance(block, bool) or not isinstance(block, int) or block < 1:
        raise ConfigError(f"the stand-in's block must be a positive integer, got {block!r}")


def _block_streams(args: tuple) -> tuple[bytes, int, int]:
    """Block ``b`` compressed as bz2 streams of ``stream_bytes`` each (the last one shorter): (bytes, streams,
    uncompressed bytes).  Run in worker processes by :func:`write_standin`."""
    n, seed, b, block, mean, dependencies, stream_bytes, level = args
    data = "".join(_block_lines(n, seed, b, block, mean, dependencies)).encode("utf-8")
    parts = [bz2.compress(data[a:a + stream_bytes], level) for a in range(0, len(data), stream_bytes)]
    return b"".join(parts), len(parts), len(data)


@dataclass(frozen=True)
class StandinInfo:
    """What :func:`write_standin` wrote."""

    path: Path
    relations: int
    streams: int
    uncompressed_bytes: int
    compressed_bytes: int
    seed: int


def write_standin(path, n: int, *, seed: int = 41, stream_bytes: int = STREAM_BYTES,
                  sources_per_type_mean: float = ASSUMED["sources_per_type_mean"],
                  dependencies: bool = True, compresslevel: int = 9, block: int = 10_000,
                  workers: int = 1) -> StandinInfo:
    """Write ``n`` release-shaped relations to ``path`` as independent bz2 streams of ``stream_bytes`` each.

    The relations are made and compressed in blocks of ``block`` relations;
    each block is cut into streams of ``stream_bytes`` uncompressed bytes,
    in the middle of a line where the cut falls (as ``pbzip2`` cuts), its
    last stream shorter.  Blocks are independent, so ``workers`` processes
    write the same bytes as one.  The file is written to ``path.partial``
    and renamed when complete, so a stand-in that exists is a whole one.

    Parameters
    ----------
    path
        The ``.jsonl.bz2`` file to write.
    n
        Relations (lines); the release has 11,609,890.
    seed
        Seed of every draw: the same arguments give the same bytes.
    stream_bytes
        Uncompressed bytes per bz2 stream (900,000: ``pbzip2 -9``'s).
    sources_per_type_mean
        Mean number of sources of one type on one relation (not published;
        :data:`ASSUMED`).
    dependencies
        Write each sentence's ``dependencies`` graph (the release's field; about
        half a stand-in line's bytes).
    compresslevel
        bz2's level (9: 900 kB blocks, the release's).
    block
        Relations per block (part of what the bytes depend on).
    workers
        Processes making and compressing blocks (the bytes do not depend on it).

    Examples
    --------
    >>> import tempfile, os, bz2
    >>> d = tempfile.mkdtemp()
    >>> info = write_standin(os.path.join(d, "s.jsonl.bz2"), 20, seed=1, stream_bytes=4096)
    >>> info.relations, info.streams > 1
    (20, True)
    >>> len(bz2.open(info.path, "rt").read().splitlines())
    20
    """
    _check(n, seed, sources_per_type_mean)
    _check_block(block)
    for name, v in (("stream_bytes", stream_bytes), ("workers", workers)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise ConfigError(f"{name} must be a positive integer, got {v!r}")
    p = Path(path)
    tmp = p.with_name(p.name + ".partial")
    jobs = [(n, seed, b, block, sources_per_type_mean, dependencies, stream_bytes, compresslevel)
            for b in range(-(-n // block))]
    streams = raw = packed = 0
    with open(tmp, "wb") as out:
        if workers == 1 or len(jobs) == 1:
            results = map(_block_streams, jobs)
            pool = None
        else:
            import multiprocessing

            pool = multiprocessing.get_context("spawn").Pool(workers)
            results = pool.imap(_block_streams, jobs)  # in block order
        try:
            for data, k, size in results:
                out.write(data)
                streams += k
                raw += size
                packed += len(data)
        finally:
            if pool is not None:
                pool.close()
                pool.join()
    tmp.replace(p)
    return StandinInfo(p, n, streams, raw, packed, seed)
