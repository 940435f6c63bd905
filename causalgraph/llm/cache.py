"""The response cache: SQLite in the user cache directory, keyed by the canonical request.

The key is :func:`~causalgraph.llm.base.request_key`: sha256 of provider,
model, base URL, output-changing backend options, every generation parameter
and the messages.  Two different models (or the same model behind two
servers) never share an entry, and no credential is part of the key or the
stored value.  The file is ``$CAUSALGRAPH_CACHE/responses.sqlite`` (default
``~/.cache/causalgraph/responses.sqlite``); ``CAUSALGRAPH_NO_CACHE=1`` or
``--no-cache`` turns it off.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Optional

from .base import Completion
from ..datasets.fetch import cache_dir

__all__ = ["ResponseCache", "default_cache_path"]


def default_cache_path() -> Path:
    """``<user cache>/responses.sqlite`` (``$CAUSALGRAPH_CACHE`` or ``~/.cache/causalgraph``)."""
    return Path(cache_dir()) / "responses.sqlite"


class ResponseCache:
    """A key → :class:`Completion` store in one SQLite file.

    Examples
    --------
    >>> import tempfile, os
    >>> cache = ResponseCache(os.path.join(tempfile.mkdtemp(), "r.sqlite"))
    >>> cache.put("k" * 64, Completion(text="yes"), backend="mock/oracle")
    >>> cache.get("k" * 64).text
    'yes'
    """

    def __init__(self, path: Optional[str | os.PathLike] = None):
        self.path = Path(path) if path is not None else default_cache_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # One connection guarded by a lock: the runner calls from one event loop,
        # the batch collector and tests may call from threads.
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(str(self.path), timeout=30, check_same_thread=False, isolation_level=None)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._conn.execute(
            "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, backend TEXT NOT NULL, "
            "completion TEXT NOT NULL, created REAL NOT NULL)")

    def get(self, key: str) -> Optional[Completion]:
        """The cached completion for ``key``, or ``None``."""
        with self._lock:
            row = self._conn.execute("SELECT completion FROM responses WHERE key = ?", (key,)).fetchone()
        return Completion.from_dict(json.loads(row[0])) if row else None

    def get_many(self, keys) -> dict[str, Completion]:
        """The cached completions of ``keys`` (those that have one), asked in a few queries rather than one per key.

        Examples
        --------
        >>> import tempfile, os
        >>> cache = ResponseCache(os.path.join(tempfile.mkdtemp(), "r.sqlite"))
        >>> cache.put("a" * 64, Completion(text="yes"))
        >>> {k[:1]: c.text for k, c in cache.get_many(["a" * 64, "b" * 64]).items()}
        {'a': 'yes'}
        """
        keys = list(dict.fromkeys(keys))
        found: dict[str, Completion] = {}
        loads, from_dict = json.loads, Completion.from_dict
        # SQLite allows 999 parameters per statement in its oldest builds still in use.
        for i in range(0, len(keys), 900):
            chunk = keys[i:i + 900]
            sql = f"SELECT key, completion FROM responses WHERE key IN ({','.join('?' * len(chunk))})"
            with self._lock:
                rows = self._conn.execute(sql, chunk).fetchall()
            for key, blob in rows:
                found[key] = from_dict(loads(blob))
        return found

    def put(self, key: str, completion: Completion, *, backend: str = "") -> None:
        """Store ``completion`` under ``key`` (replacing an older entry)."""
        blob = json.dumps(completion.to_dict(), ensure_ascii=False, sort_keys=True)
        with self._lock:
            self._conn.execute("INSERT OR REPLACE INTO responses (key, backend, completion, created) VALUES (?,?,?,?)",
                               (key, backend, blob, time.time()))

    def __len__(self) -> int:
        with self._lock:
            return int(self._conn.execute("SELECT COUNT(*) FROM responses").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> "ResponseCache":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
