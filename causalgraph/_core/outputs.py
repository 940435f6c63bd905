"""Output locations: the folders and files a command writes, checked before anything is written.

Every writer (run directories, the corpus report, graph pages) asks here
first, so a path that cannot be used (a file where a folder is wanted, a
folder where a file is wanted, a parent that cannot be created or written)
is one :class:`~causalgraph.errors.ConfigError` naming the path, what was
found and what is expected, instead of an ``OSError`` traceback from
whichever write happened to come first.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import ConfigError

__all__ = ["output_dir", "output_file", "write_atomic", "named_os_error", "safe_name", "open_page", "NO_BROWSER"]


def _reason(exc: OSError) -> str:
    where = f" at {exc.filename}" if exc.filename else ""
    return f"{exc.strerror or type(exc).__name__}{where}"


def output_dir(path: str | os.PathLike, what: str = "output folder") -> Path:
    """Create the folder ``path`` (and its parents) for writing, or say why it cannot be.

    Parameters
    ----------
    path
        The folder; it may exist already (its content is left alone).
    what
        How messages name it (``run directory``, ``report folder`` …).

    Returns
    -------
    Path
        ``path``, now an existing folder this process can write into.

    Raises
    ------
    ConfigError
        When a file of that name exists, when a parent is a file or cannot
        be created, or when the folder is not writable.

    Examples
    --------
    >>> import tempfile
    >>> output_dir(Path(tempfile.mkdtemp()) / "a" / "b").is_dir()
    True
    """
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise ConfigError(f"{what} {p}: a file of that name exists; expected a folder or a path that does not "
                          "exist yet (choose another path, or move the file)")
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"{what} {p}: cannot be created ({_reason(exc)}); expected a path under a folder "
                          "you can write to") from None
    # mkdir succeeds on a folder that exists whatever its permissions: the first write would fail instead.
    if not os.access(p, os.W_OK | os.X_OK):
        raise ConfigError(f"{what} {p}: the folder is not writable; expected a folder you can write to")
    return p


def output_file(path: str | os.PathLike, what: str = "output file") -> Path:
    """Make sure the file ``path`` can be written: not a folder, its folder created and writable.

    The file itself is neither created nor truncated here, so a check made
    before a long computation (or a paid model call) leaves nothing behind
    when that computation fails.

    Raises
    ------
    ConfigError
        When a folder of that name exists, when the file exists and is not
        writable, or when its folder cannot be created or written.

    Examples
    --------
    >>> import tempfile
    >>> output_file(Path(tempfile.mkdtemp()) / "sub" / "page.html").parent.is_dir()
    True
    """
    p = Path(path)
    if p.is_dir():
        raise ConfigError(f"{what} {p}: a folder of that name exists; expected a file name")
    parent = p.parent
    if parent.exists() and not parent.is_dir():
        raise ConfigError(f"{what} {p}: {parent} is a file, not a folder; expected a path under a folder")
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"{what} {p}: its folder cannot be created ({_reason(exc)}); expected a path under "
                          "a folder you can write to") from None
    if not os.access(parent, os.W_OK | os.X_OK):
        raise ConfigError(f"{what} {p}: the folder {parent} is not writable; expected a folder you can write to")
    if p.exists() and not os.access(p, os.W_OK):
        raise ConfigError(f"{what} {p}: the file exists and is not writable; expected a file you can write")
    return p


def _write_all(fd: int, data: bytes) -> None:
    """``os.write`` until every byte is written (a short write is retried; a full disk raises)."""
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def named_os_error(exc: OSError, path: str | os.PathLike) -> OSError:
    """``exc`` with ``path`` as its file name when it has none (``[Errno 28] No space left on device`` names none).

    The command line prints an ``OSError`` as ``<file>: <reason>``; an error raised by ``os.write`` or
    a library (pyarrow) carries no file name, so the writer that knows the file adds it.

    Examples
    --------
    >>> str(named_os_error(OSError(28, "No space left on device"), "run/manifest.json"))
    "[Errno 28] No space left on device: 'run/manifest.json'"
    """
    if exc.filename is not None:
        return exc
    out = OSError(exc.errno, exc.strerror or " ".join(str(exc).split()), str(path))
    out.__cause__ = exc
    return out


def write_atomic(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` through a temporary file and rename, so readers never see half a file.

    When the write fails (a full disk), the temporary file is removed and the ``OSError`` names
    ``path``; the file at ``path`` is as it was.
    """
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass  # never created, or already renamed
        raise named_os_error(exc, path) from None


def safe_name(text: str, *, replace: str = "_", collapse: bool = False, max_len: int | None = None,
              default: str = "_") -> str:
    """A file or folder name made of ``text``: letters, digits, ``.``, ``_`` and ``-`` only.

    Every other character becomes ``replace`` (a run of them one ``replace``
    when ``collapse``); leading dots go (no hidden files, no ``..``), and with
    ``collapse`` leading and trailing ``replace`` too; the result is cut to
    ``max_len``.  Nothing left gives ``default``.  Graph pages use the
    defaults (``cc-007.html``), run folders ``replace="-", collapse=True``.

    Examples
    --------
    >>> safe_name("cc-007"), safe_name("../x y")
    ('cc-007', '_x_y')
    >>> safe_name("mock/oracle x", replace="-", collapse=True, default="run")
    'mock-oracle-x'
    """
    import re

    if collapse:
        out = re.sub(r"[^A-Za-z0-9._-]+", replace, str(text)).strip(replace).lstrip(".")
    else:
        out = re.sub(r"[^A-Za-z0-9._-]", replace, str(text)).lstrip(".")
    if max_len is not None:
        out = out[:max_len]
    return default if not out or set(out) <= {"."} else out


#: What :func:`open_page` says when no browser took the page (``{path}`` is filled in).
NO_BROWSER = "no web browser could be opened (none is installed, or there is no display); open the page yourself: {path}"


def open_page(path: str | os.PathLike) -> bool:
    """Open a written page in the default web browser; ``False`` when none could be opened.

    ``webbrowser.open`` returns ``False`` (or raises ``webbrowser.Error``)
    when it finds no browser to run, as on a server or in a container; the
    callers say so with :data:`NO_BROWSER` instead of staying silent.

    Examples
    --------
    >>> if not open_page("compare.html"):              # doctest: +SKIP
    ...     print(NO_BROWSER.format(path="compare.html"))
    """
    import webbrowser

    try:
        return bool(webbrowser.open(Path(path).resolve().as_uri()))
    except webbrowser.Error:
        return False
