"""Dataset resolution and the download path, against a server on 127.0.0.1."""

from __future__ import annotations

import hashlib
import http.server
import threading

import pytest

from causalgraph import ChecksumError, DataNotFound
from causalgraph.datasets import fetch, load_corpus


@pytest.fixture()
def served(tmp_path):
    """A local HTTP server serving files from a folder; yields (folder, base URL)."""
    root = tmp_path / "www"
    root.mkdir()

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *a, **kw):
            super().__init__(*a, directory=str(root), **kw)

        def log_message(self, *a):
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    yield root, f"http://127.0.0.1:{srv.server_address[1]}"
    srv.shutdown()
    srv.server_close()


def _entry(tmp_path, content: bytes, name="file.json"):
    return fetch.DataFile("demo", name, "http://unused.invalid/x", hashlib.sha256(content).hexdigest())


def test_download_verifies_checksum_and_writes_atomically(served, tmp_path, monkeypatch):
    root, base = served
    content = b"[1, 2, 3]" * 1000
    (root / "file.json").write_bytes(content)
    monkeypatch.setenv("CAUSALGRAPH_CACHE", str(tmp_path / "cache"))
    out = fetch.download(_entry(tmp_path, content), url=f"{base}/file.json", progress=False)
    assert out == tmp_path / "cache" / "demo" / "file.json"
    assert out.read_bytes() == content
    assert [p.name for p in out.parent.iterdir()] == ["file.json"]


def test_download_corrupted_copy_raises_and_leaves_nothing_in_cache(served, tmp_path, monkeypatch):
    root, base = served
    good = b"the real bytes"
    (root / "file.json").write_bytes(b"the real bytez")
    monkeypatch.setenv("CAUSALGRAPH_CACHE", str(tmp_path / "cache"))
    with pytest.raises(ChecksumError, match="has sha256 .* expected " + hashlib.sha256(good).hexdigest()):
        fetch.download(_entry(tmp_path, good), url=f"{base}/file.json", progress=False)
    assert list((tmp_path / "cache" / "demo").iterdir()) == []


def test_resolve_file_downloads_real_copy_from_local_mirror(served, tmp_path, monkeypatch, climatecause_path):
    root, base = served
    (root / "Full_IPCC_DATASET.xlsx").write_bytes(climatecause_path.read_bytes())
    entry = fetch.DATASETS["climatecause"]["full"]
    mirrored = fetch.DataFile(entry.dataset, entry.filename, f"{base}/Full_IPCC_DATASET.xlsx", entry.sha256)
    monkeypatch.setitem(fetch.DATASETS["climatecause"], "full", mirrored)
    monkeypatch.delenv("CAUSALGRAPH_DATA", raising=False)
    monkeypatch.delenv("CAUSALGRAPH_OFFLINE", raising=False)
    monkeypatch.setenv("CAUSALGRAPH_CACHE", str(tmp_path / "cache"))
    p = fetch.resolve_file("climatecause", "full")
    assert p == tmp_path / "cache" / "climatecause" / "Full_IPCC_DATASET.xlsx"
    assert fetch.sha256_file(p) == entry.sha256
    # second call is served from the cache: the server may be gone
    (root / "Full_IPCC_DATASET.xlsx").unlink()
    assert fetch.resolve_file("climatecause", "full") == p
    assert len(load_corpus("climatecause")) == 75


def test_resolve_file_prefers_data_folder_over_cache(tmp_path, monkeypatch, climatecause_path):
    monkeypatch.setenv("CAUSALGRAPH_DATA", str(climatecause_path.parents[1]))
    assert fetch.resolve_file("climatecause", "full") == climatecause_path


def test_resolve_file_offline_without_data_says_what_to_set(tmp_path, monkeypatch):
    monkeypatch.delenv("CAUSALGRAPH_DATA", raising=False)
    monkeypatch.setenv("CAUSALGRAPH_OFFLINE", "1")
    monkeypatch.setenv("CAUSALGRAPH_CACHE", str(tmp_path / "empty"))
    with pytest.raises(DataNotFound, match="CAUSALGRAPH_OFFLINE is set; set CAUSALGRAPH_DATA to a folder holding "
                                           "pubmedcausal/extraction_test.json"):
        fetch.resolve_file("pubmedcausal", "test")


def test_resolve_file_failed_download_is_data_not_found(served, tmp_path, monkeypatch):
    root, base = served
    entry = fetch.DataFile("demo", "gone.json", f"{base}/gone.json", "0" * 64)
    monkeypatch.setitem(fetch.DATASETS, "demo", {"x": entry})
    monkeypatch.delenv("CAUSALGRAPH_DATA", raising=False)
    monkeypatch.delenv("CAUSALGRAPH_OFFLINE", raising=False)
    monkeypatch.setenv("CAUSALGRAPH_CACHE", str(tmp_path / "cache"))
    with pytest.raises(DataNotFound, match="the download from .*gone.json failed"):
        fetch.resolve_file("demo", "x")
    assert not (tmp_path / "cache" / "demo" / "gone.json").exists()


def test_load_corpus_accepts_name_file_and_folder(climatecause_path, pubmed_test_path):
    assert load_corpus("climatecause").name == "climatecause"
    assert load_corpus(str(climatecause_path)).name == "climatecause"
    assert load_corpus(climatecause_path.parent).name == "climatecause"
    assert load_corpus(pubmed_test_path.parent).report["split"] == "test"
    assert len(load_corpus("pubmedcausal:train")) == 1972


def test_load_corpus_unknown_name_is_data_not_found():
    with pytest.raises(DataNotFound, match="nosuch: no such dataset, file or folder"):
        load_corpus("nosuch")


def test_load_corpus_sample_needs_no_data_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("CAUSALGRAPH_DATA", raising=False)
    monkeypatch.setenv("CAUSALGRAPH_CACHE", str(tmp_path / "nothing"))
    c = load_corpus("sample")
    assert c.name == "sample"
    assert [s.causal for s in c] == [True, True, True, False]
    assert len(c.relations) == 8
    assert [s.id for s in c] == ["sample-001", "sample-002", "sample-003", "sample-004"]
    assert [r.nested for r in c["sample-003"].relations] == [True, True, None]


def test_load_corpus_split_on_a_dataset_without_splits_is_an_error():
    with pytest.raises(DataNotFound, match=r"climatecause:train: dataset climatecause has no split 'train'"):
        load_corpus("climatecause:train")
