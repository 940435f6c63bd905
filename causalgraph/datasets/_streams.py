"""Reading a compressed CauseNet file stream by stream: the one reader of the loader and of the seek index.

A CauseNet download is a concatenation of independent streams (bz2 streams as ``pbzip2`` writes them, or gzip
members); :func:`streams` walks them in order, each with its compressed byte offset, and :class:`StreamReader`
is the decompressed bytes as one binary file. The loader reads a bz2 file through :class:`StreamReader`; the
seek index (:mod:`causalgraph.datasets.causenet_sources`) through a subclass that notes where each stream and
each line start. So both read the same bytes and fail alike: bytes after a stream that start a stream's magic
but form none are a :class:`~causalgraph.errors.SchemaError` naming the file, the stream and its byte offset
(``bz2.open`` drops them silently, and with them whatever a damaged stream held); other bytes after the last
stream (padding) are ignored, as by ``bz2.open``; a stream cut before its end marker is refused.
"""

from __future__ import annotations

import bz2
import io
import zlib
from pathlib import Path
from typing import Iterator, Optional

from ..errors import SchemaError

__all__ = ["CHUNK", "file_kind", "streams", "StreamReader"]

#: Compressed bytes read at a time, and the buffer of the readers built on :class:`StreamReader`.
CHUNK = 1 << 20
#: A plain (uncompressed) file is walked in pieces of this many bytes, one "stream" each.
_PLAIN_PIECE = 1 << 20


def file_kind(path: Path) -> str:
    """``"gzip"``, ``"bz2"`` or ``"plain"``, from the file's first bytes."""
    with open(path, "rb") as f:
        magic = f.read(3)
    if magic[:2] == b"\x1f\x8b":
        return "gzip"
    if magic == b"BZh":
        return "bz2"
    return "plain"


def _decompressor(kind: str):
    return bz2.BZ2Decompressor() if kind == "bz2" else zlib.decompressobj(wbits=31)


def streams(path: Path, kind: str) -> Iterator[tuple[int, int, Iterator[bytes]]]:
    """(compressed start, index, pieces of decompressed bytes) of each stream, in order; the pieces of a
    stream must be consumed before the next stream is asked for."""
    size = path.stat().st_size
    with open(path, "rb") as f:
        if kind == "plain":
            k = 0
            while True:
                start = f.tell()
                data = f.read(_PLAIN_PIECE)
                if not data:
                    return
                yield start, k, iter((data,))
                k += 1
        pending = b""
        pos = 0  # compressed offset of pending[0]
        k = 0
        while True:
            if not pending:
                pending = f.read(CHUNK)
                if not pending:
                    return
            if k and len(pending) < 3:
                pending += f.read(CHUNK)
            if k and not pending.startswith(b"BZh" if kind == "bz2" else b"\x1f\x8b"):
                return  # bytes after the last stream that start no other (padding): ignored, as bz2.open does
            start = pos
            d = _decompressor(kind)
            box: list = [pending, pos]

            def pieces(d=d, box=box, k=k, start=start):
                data, at = box
                while True:
                    try:
                        out = d.decompress(data)
                    except (OSError, EOFError, ValueError, zlib.error) as exc:
                        raise SchemaError(f"{path}: stream {k} at byte {start:,} cannot be decompressed "
                                          f"({exc}); the file is damaged") from None
                    if out:
                        yield out
                    if d.eof:
                        rest = d.unused_data
                        box[0], box[1] = rest, at + len(data) - len(rest)
                        return
                    at += len(data)
                    data = f.read(CHUNK)
                    if not data:
                        raise SchemaError(f"{path}: stream {k} at byte {start:,} ends before its end marker "
                                          f"(file of {size:,} bytes); the file is truncated or damaged")

            yield start, k, pieces()
            pending, pos = box
            k += 1


class StreamReader(io.RawIOBase):
    """The decompressed bytes of every stream of a file (:func:`streams`), in order, as a raw binary file.

    Subclasses hear of each stream's compressed start (:meth:`_stream_started`) and of each decompressed piece
    (:meth:`_piece`) as it is read; both do nothing here.

    Examples
    --------
    >>> import bz2, tempfile, os
    >>> f = tempfile.NamedTemporaryFile(suffix=".bz2", delete=False)
    >>> _ = f.write(bz2.compress(b"a\\n") + bz2.compress(b"b\\n")); f.close()
    >>> with io.BufferedReader(StreamReader(Path(f.name))) as r:
    ...     r.read()
    b'a\\nb\\n'
    >>> os.unlink(f.name)
    """

    def __init__(self, path: Path, kind: Optional[str] = None):
        self.path = path
        self.kind = kind or file_kind(path)
        self._it = streams(path, self.kind)
        self._pieces: Optional[Iterator[bytes]] = None
        self._out = memoryview(b"")
        self._done = False

    def readable(self) -> bool:
        return True

    def close(self) -> None:
        if not self.closed:
            self._it.close()  # closes the file the streams are read from
        super().close()

    def readinto(self, b) -> int:
        while not self._out and not self._done:
            self._out = memoryview(self._next())
        n = min(len(b), len(self._out))
        b[:n] = self._out[:n]
        self._out = self._out[n:]
        return n

    def _stream_started(self, start: int) -> None:
        """A stream starting at compressed byte ``start`` is about to be read."""

    def _piece(self, data: bytes) -> None:
        """``data``, the next decompressed piece, is about to be returned."""

    def _next(self) -> bytes:
        while True:
            if self._pieces is not None:
                data = next(self._pieces, None)
                if data is not None:
                    self._piece(data)
                    return data
                self._pieces = None
            nxt = next(self._it, None)
            if nxt is None:
                self._done = True
                return b""
            start, _, self._pieces = nxt
            self._stream_started(start)
