"""The run directory: ``manifest.json``, append-only ``responses.jsonl``, ``metrics.json``.

A run is a folder.  ``responses.jsonl`` gets one line per finished attempt
at an item, written with a single ``write`` on a file opened for appending
and flushed to disk, so a run killed at any moment (even with SIGKILL) loses
at most the requests that were in flight, and a torn last line is detected
and cut off (and reported) before the next append.  An item counts as
answered once it has a line without ``error``; answered items are never
written again, so resuming never doubles an item.  ``batches.json`` is the
ledger of OpenAI Batch jobs, replaced atomically.

Every response line carries what statistics need without the corpus:
``task``, ``variant``, ``item_id``, ``gold``, ``meta`` (statement id,
events), the prompt's sha256, the raw ``response``, the parsed ``label`` and
the parse ``rule``, ``usage``, ``latency_s``, ``error``.
"""

from __future__ import annotations

import errno
import json
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Optional

from ..errors import ConfigError, SchemaError
from .._core.outputs import named_os_error, output_dir, write_atomic
from .samples import majority_records, sample_key
from .record import OPTIONAL_FIELDS, RECORD_FIELDS, RunRecord, record_schema_of
from .files import Ledger, Manifest, Metrics
from .._core.display import html_for

__all__ = ["RunStore", "Run", "load_run", "MANIFEST", "RESPONSES", "METRICS", "LEDGER"]

#: Notes about a run folder (a torn line cut off or ignored, another process writing): log records, which the
#: command line shows on stderr as ``causalgraph: …``.
logger = logging.getLogger(__name__)

MANIFEST = "manifest.json"
RESPONSES = "responses.jsonl"
METRICS = "metrics.json"
LEDGER = "batches.json"
#: Held (flock) by the process writing into a run directory; the OS frees it when that process dies.
LOCK = ".lock"

# One encoder for every line: json.dumps with these options would build a new encoder per call.
_LINE_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False)

# The key orders of a line as RunRecord.to_dict writes it (every field, the optional ones only when set):
# such a line reads back as itself, so checked_lines can take it without building a RunRecord.
_WRITTEN_ORDERS = frozenset(
    tuple(f for f in RECORD_FIELDS if f not in OPTIONAL_FIELDS or f in present)
    for present in ((), ("epoch",), ("batch_id",), ("epoch", "batch_id")))


def _as_written(raw: dict[str, Any]) -> bool:
    """Whether ``RunRecord.from_dict(raw).to_dict()`` would be ``raw`` itself, unchanged (and accepted).

    True for a line in the order :meth:`RunRecord.to_dict` writes, with the
    types :meth:`RunRecord.from_dict` checks; anything else goes through
    ``from_dict`` (which fills, orders, or refuses it).
    """
    if tuple(raw) not in _WRITTEN_ORDERS:
        return False
    epoch = raw.get("epoch")
    return (type(raw["task"]) is str and type(raw["variant"]) is str and type(raw["item_id"]) is str
            and type(raw["meta"]) is dict and type(raw["usage"]) is dict
            and (epoch is None or (type(epoch) is int and epoch >= 1)) and raw.get("batch_id", "") is not None)


def _write_line(fd: int, line: bytes) -> int:
    """One ``write`` of one line (a function of its own so that tests can fill the disk)."""
    return os.write(fd, line)


def _plain(value: Any) -> bool:
    """Whether ``value`` reads back from its JSON as itself (str, int, bool, None, finite float, lists, str-keyed dicts)."""
    t = type(value)
    if t is str or t is int or t is bool or value is None:
        return True
    if t is float:
        return value - value == 0.0  # finite: NaN and infinities are refused when the line is written anyway
    if t is list:
        return all(_plain(v) for v in value)
    if t is dict:
        return all(type(k) is str and _plain(v) for k, v in value.items())
    return False  # a tuple reads back as a list, a numpy number as a float …


def _write_json_atomic(path: Path, obj: Any) -> None:
    write_atomic(path, (json.dumps(obj, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))


def _read_json(path: Path) -> Any:
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except json.JSONDecodeError as exc:
        raise SchemaError(f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    except UnicodeDecodeError as exc:
        # Not a JSONDecodeError (a ValueError of its own): without this it reached the user as a traceback.
        raise SchemaError(f"{path}: not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start}); "
                          "expected the JSON file a run writes") from None


def record_key(rec: RunRecord) -> tuple[str, str, str]:
    """The identity of an item in a run: (task, variant, item id)."""
    return (rec.task, rec.variant, rec.item_id)


@dataclass
class Run:
    """A run as read from disk.

    Attributes
    ----------
    path
        The run directory.
    manifest
        ``manifest.json`` (task, variants, model, parameters, versions,
        dataset sha256, start time) as a :class:`~causalgraph.runlog.files.Manifest`.
    responses
        One :class:`~causalgraph.runlog.record.RunRecord` per item, ordered by task, variant (as the manifest lists
        them) and item id, whatever the order of completion: the answered
        line when there is one, else the last failed attempt.  In a run with
        several epochs, the item's majority answer (the first sample, by
        epoch, that gave the most frequent label; see
        :mod:`causalgraph.bench.epochs`).
    metrics
        ``metrics.json`` as a :class:`~causalgraph.runlog.files.Metrics`
        (every field ``None`` before the first report).
    attempts
        Every line of ``responses.jsonl`` in file order (failed attempts too).
    ledger
        ``batches.json`` as a :class:`~causalgraph.runlog.files.Ledger`
        (no batches when the run used no Batch job).
    writer
        Another process that was writing into the folder when it was read.
    samples
        One record per item and epoch (ordered as ``responses``, then by
        epoch); the same as ``responses`` in a run without epochs.
    """

    path: Path
    manifest: Manifest
    responses: list[RunRecord]
    metrics: Metrics = field(default_factory=Metrics)
    attempts: list[RunRecord] = field(default_factory=list)
    ledger: Ledger = field(default_factory=Ledger)
    samples: list[RunRecord] = field(default_factory=list)
    #: Another process writing into the folder while it was read (``"pid N, live …"``), else ``None``.
    writer: Optional[str] = None

    def __post_init__(self):
        # A run built by hand (a test, a notebook) may give the files' dicts: readers get the objects.
        where = str(Path(self.path) / RESPONSES)
        for name in ("responses", "attempts", "samples"):
            recs = getattr(self, name)
            if any(not isinstance(r, RunRecord) for r in recs):
                setattr(self, name, [RunRecord.of(r, where) for r in recs])
        if not self.samples:
            self.samples = list(self.responses)
        if not isinstance(self.manifest, Manifest):
            self.manifest = Manifest.from_dict(self.manifest or {}, str(Path(self.path) / MANIFEST))
        if not isinstance(self.metrics, Metrics):
            self.metrics = Metrics.from_dict(self.metrics or {}, str(Path(self.path) / METRICS))
        if not isinstance(self.ledger, Ledger):
            self.ledger = Ledger.from_dict(self.ledger or {}, str(Path(self.path) / LEDGER))

    @property
    def epochs(self) -> int:
        """Samples asked per item: the manifest's ``epochs`` (1 for a run without; no line names a higher one)."""
        found = max((r.epoch or 1 for r in self.samples), default=1)
        return max(self.manifest.epochs or 1, found)

    @property
    def task(self) -> str:
        return self.manifest.task or ""

    @property
    def model(self) -> str:
        return self.manifest.model or ""

    @property
    def variants(self) -> list[str]:
        """Variants in manifest order, then any other found in the responses."""
        out = list(self.manifest.variants or [])
        for r in self.responses:
            if r.variant not in out:
                out.append(r.variant)
        return out

    def records(self, variant: Optional[str] = None) -> list[RunRecord]:
        """Responses of one variant (all when ``None``)."""
        if variant is None:
            return list(self.responses)
        return [r for r in self.responses if r.variant == variant]

    def sample_records(self, variant: Optional[str] = None, epoch: Optional[int] = None) -> list[RunRecord]:
        """Every sample of one variant (all when ``None``), of one epoch (all when ``None``).

        Examples
        --------
        >>> run = Run(path=Path("r"), manifest={"epochs": 2}, responses=[], samples=[
        ...     {"task": "t", "variant": "v", "item_id": "a", "epoch": 1},
        ...     {"task": "t", "variant": "v", "item_id": "a", "epoch": 2}])
        >>> run.epochs, [r.epoch for r in run.sample_records("v", epoch=2)]
        (2, [2])
        """
        return [r for r in self.samples if (variant is None or r.variant == variant)
                and (epoch is None or (r.epoch or 1) == epoch)]

    def to_frame(self, samples: bool = False):
        """The responses as a pandas DataFrame (``statement_id`` lifted out of ``meta``).

        ``samples=True`` gives every epoch's answer (:attr:`samples`); the
        ``epoch`` column is there only for runs with several epochs.
        """
        import pandas as pd

        rows = []
        skip = ("meta", "usage") if self.epochs > 1 else ("meta", "usage", "epoch")
        for r in (self.samples if samples else self.responses):
            row = {k: getattr(r, k) for k in RECORD_FIELDS if k not in skip}
            row["statement_id"] = r.meta.get("statement_id")
            usage = r.usage
            row["prompt_tokens"] = usage.get("prompt_tokens")
            row["completion_tokens"] = usage.get("completion_tokens")
            rows.append(row)
        return pd.DataFrame(rows)

    def _repr_html_(self):
        """Jupyter: the run page (``bench view``) in a sandboxed iframe (:mod:`causalgraph.viewer.notebook`, via :mod:`causalgraph._core.display`)."""
        return html_for("run", self)


class RunStore:
    """Reads and appends the files of one run directory.

    Examples
    --------
    >>> import tempfile
    >>> store = RunStore(tempfile.mkdtemp())
    >>> store.append([{"task": "t", "variant": "v", "item_id": "i1", "response": "yes", "error": None}])
    >>> sorted(store.answered())
    [('t', 'v', 'i1')]
    """

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self.manifest_path = self.path / MANIFEST
        self.responses_path = self.path / RESPONSES
        self.metrics_path = self.path / METRICS
        self.ledger_path = self.path / LEDGER
        #: Messages about repairs made to the files (a torn last line …).
        self.repairs: list[str] = []
        self._tail_checked = False
        self._torn_said = False
        self._lock_fd: Optional[int] = None
        # keep_lines: the checked lines read so far plus the lines appended since, and the file size they add up to.
        self._kept: Optional[list[RunRecord]] = None
        self._kept_new: list[Any] = []  # appended since: the record itself when plain JSON, else its line
        self._kept_size = 0

    # -- one writer at a time ----------------------------------------------------------------
    def acquire(self, what: str = "writing") -> None:
        """Hold the run directory for this process, or raise ConfigError naming the process that holds it.

        Two processes appending to one run would ask and write the same items
        twice (and ``bench parse`` rewriting the file would lose the lines a
        live run appends meanwhile).  The lock is an ``flock`` on ``.lock``:
        a process killed with SIGKILL releases it with its file descriptors.
        Where ``fcntl`` does not exist (Windows) nothing is locked.
        """
        if self._lock_fd is not None:
            return
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not on POSIX
            return
        output_dir(self.path, "run directory")
        fd = os.open(self.path / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.read(fd, 200).decode("utf-8", "replace").strip() or "unknown process"
            os.close(fd)
            raise ConfigError(f"{self.path} is in use by another causalgraph process ({holder}); wait for it to "
                              "finish, or choose another --out") from None
        os.ftruncate(fd, 0)
        os.write(fd, f"pid {os.getpid()}, {what}".encode("utf-8"))
        self._lock_fd = fd

    def writer(self) -> Optional[str]:
        """Who else is writing into the folder now (``"pid N, live …"``), or ``None``.

        A reader asks so that it can say its figures are of the lines written
        so far, and not advise a ``bench run`` the lock would refuse.  The
        process holding the folder through this store is not "else".
        """
        if self._lock_fd is not None or not (self.path / LOCK).is_file():
            return None
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not on POSIX
            return None
        try:
            fd = os.open(self.path / LOCK, os.O_RDONLY)
        except OSError:
            return None
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except OSError:
                return os.read(fd, 200).decode("utf-8", "replace").strip() or "another process"
            fcntl.flock(fd, fcntl.LOCK_UN)
            return None
        finally:
            os.close(fd)

    def release(self) -> None:
        """Let other processes write into the run directory again (idempotent)."""
        fd, self._lock_fd = self._lock_fd, None
        if fd is not None:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    # -- manifest ---------------------------------------------------------------------------
    def exists(self) -> bool:
        return self.manifest_path.is_file()

    def orphans(self) -> list[str]:
        """Names of run files in the folder when ``manifest.json`` is missing (``[]`` when it is there).

        Without the manifest nothing says which task, model, data and
        generation parameters those files belong to, so they can be neither
        scored nor resumed: a run writing into the folder would put its lines
        beside another task's.
        """
        if self.manifest_path.is_file() or not self.path.is_dir():
            return []
        return [name for name in (RESPONSES, METRICS, LEDGER) if (self.path / name).exists()]

    def _missing_manifest(self, action: str) -> ConfigError:
        found = self.orphans()
        if not found:
            return ConfigError(f"{self.path} is not a run directory (no {MANIFEST}); expected a folder written by "
                               "causalgraph bench run, annotate or extract")
        return ConfigError(
            f"{self.path} is not a complete run directory: it holds {', '.join(found)} but no {MANIFEST}, so "
            f"nothing says which task, model and data its lines belong to; {action}. To recover, put the "
            f"run's {MANIFEST} back (from a backup or the copy it came from), or move the folder away and choose "
            "another --out to start a new run")

    def check_resumable(self) -> None:
        """Raise ConfigError when the folder holds a run's files without its manifest.

        Called before the folder is locked or written, so a refused folder is
        left exactly as it was (no lock file, no new line, no manifest).
        """
        if self.orphans():
            raise self._missing_manifest("nothing in it was changed")

    def read_manifest(self) -> Manifest:
        """``manifest.json`` as a :class:`~causalgraph.runlog.files.Manifest` (an unknown field, a newer schema or
        a wrong type refused in one line naming the file)."""
        if not self.manifest_path.is_file():
            raise self._missing_manifest("it cannot be read as a run")
        return Manifest.from_dict(_read_json(self.manifest_path), str(self.manifest_path))

    def write_manifest(self, manifest: Manifest | dict[str, Any]) -> None:
        """Write ``manifest.json`` through :class:`~causalgraph.runlog.files.Manifest` (its written key order)."""
        output_dir(self.path, "run directory")
        _write_json_atomic(self.manifest_path, Manifest.from_dict(manifest, str(self.manifest_path)).to_dict())

    # -- responses --------------------------------------------------------------------------
    def repair_tail(self) -> None:
        """Cut a torn last line (a write interrupted by a kill), saying so; for the process holding the folder.

        :meth:`append` does it before its first write; a command that holds
        the folder and may write nothing calls it itself, so that what it says
        about the line is what happened to it.
        """
        if not self._tail_checked:
            self._repair_tail()
            self._tail_checked = True

    def _repair_tail(self) -> None:
        """Cut a torn last line (a write interrupted by a kill) before appending."""
        p = self.responses_path
        if not p.is_file():
            return
        size = p.stat().st_size
        if size == 0:
            return
        with open(p, "rb+") as fh:
            fh.seek(size - 1)
            if fh.read(1) == b"\n":
                return
            # Find the last complete line.
            chunk = min(size, 1 << 20)
            pos = size
            last_nl = -1
            while pos > 0 and last_nl < 0:
                start = max(0, pos - chunk)
                fh.seek(start)
                data = fh.read(pos - start)
                idx = data.rfind(b"\n")
                if idx >= 0:
                    last_nl = start + idx
                pos = start
            keep = last_nl + 1
            fh.truncate(keep)
            fh.flush()
            os.fsync(fh.fileno())
        msg = f"{p}: removed a torn last line ({size - keep} bytes, an interrupted write); its item will be asked again"
        self.repairs.append(msg)
        logger.warning(msg)

    def append(self, records: Iterable[RunRecord | dict[str, Any]], *, sync: bool = True) -> None:
        """Append records as JSON lines (:meth:`RunRecord.to_dict`), one ``write`` per line.

        A line given as a dict (a test, a hand-made run) is read through
        :meth:`RunRecord.from_dict` first, so what is written is a record.

        A line handed to ``write`` survives the process being killed (it is in
        the operating system's buffers); ``sync=True`` also flushes it to the
        disk, which only a power cut needs, so the runner syncs periodically
        rather than after every line.
        """
        output_dir(self.path, "run directory")
        self.repair_tail()
        fd = os.open(self.responses_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        encode = _LINE_ENCODER.encode
        size = None
        try:
            for rec in records:
                rec = RunRecord.of(rec, str(self.responses_path))
                data = rec.to_dict()
                line = (encode(data) + "\n").encode("utf-8")
                size = os.fstat(fd).st_size
                written = _write_line(fd, line)
                if written != len(line):  # a short write (disk full): say so rather than leave half a line
                    raise OSError(errno.ENOSPC, f"wrote {written} of {len(line)} bytes of a line (is the disk full?)",
                                  str(self.responses_path))
                size = None
                if self._kept is not None:
                    self._kept_new.append(rec if _plain(data) else line)
                    self._kept_size += written
            if sync:
                os.fsync(fd)
        except OSError as exc:
            self._kept = None  # the file may no longer hold exactly what was kept
            if size is not None:
                # Half a line would be cut off (and its item asked again) on the next run; cut it now.
                try:
                    os.ftruncate(fd, size)
                except OSError:
                    pass
            raise named_os_error(exc, self.responses_path) from None
        finally:
            os.close(fd)

    def keep_lines(self, lines: list[RunRecord]) -> None:
        """Remember ``lines`` (what :meth:`checked_lines` just read) and every line appended from now on.

        :meth:`load` then reads the run from memory instead of the file — the
        same records, in file order — as long as the file is exactly as long
        as those lines (a line written by anything but this store, a repair, a
        rewrite: the file is read again).  For the process holding the folder,
        which has just read and checked it.
        """
        self._kept = list(lines)
        self._kept_new = []
        try:
            self._kept_size = self.responses_path.stat().st_size
        except FileNotFoundError:
            self._kept_size = 0

    def _kept_lines(self, manifest: Manifest) -> Optional[list[RunRecord]]:
        """The kept lines when they are still the whole file, checked as :meth:`checked_lines` checks them."""
        if self._kept is None:
            return None
        try:
            size = self.responses_path.stat().st_size
        except FileNotFoundError:
            size = 0
        if size != self._kept_size:
            return None
        if self._kept_new:
            # A record of plain JSON values is what its line reads back as (kept as the object); the others are read from their
            # lines, in one parse, as the file would be.
            raw = [x for x in self._kept_new if type(x) is bytes]
            parsed = iter(json.loads(b"[" + b",".join(raw) + b"]")) if raw else iter(())
            new = [next(parsed) if type(x) is bytes else x for x in self._kept_new]
            self._kept.extend(self._checked(new, manifest, None, start=None))
            self._kept_new = []
        # Once: the records go to a reader that may change them; a second load reads the file.
        lines, self._kept = self._kept, None
        return lines

    def sync(self) -> None:
        """Flush ``responses.jsonl`` to the disk."""
        if self.responses_path.is_file():
            fd = os.open(self.responses_path, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)

    def iter_lines(self) -> list[dict[str, Any]]:
        """Every complete line of ``responses.jsonl``; a torn last line is reported, not returned."""
        return [rec for _, rec in self.iter_numbered_lines()]

    def iter_numbered_lines(self, quiet: bool = False) -> list[tuple[int, dict[str, Any]]]:
        """``(line number, record)`` of every complete line of ``responses.jsonl`` (see :meth:`iter_lines`).

        ``quiet``: record a torn last line in :attr:`repairs` without saying so
        on stderr (for the process holding the folder, which then cuts it off
        and says that instead).
        """
        p = self.responses_path
        if not p.is_file():
            return []
        out = []
        with open(p, "rb") as fh:
            data = fh.read()
        lines = data.split(b"\n")
        torn = lines[-1] != b""
        for n, raw in enumerate(lines[:-1], start=1):
            if not raw.strip():
                continue
            try:
                rec = json.loads(raw)
            except json.JSONDecodeError as exc:
                raise SchemaError(f"{p}, line {n}: not a JSON object ({exc.msg} at column {exc.colno})") from None
            except UnicodeDecodeError:
                # json.loads of bytes guesses UTF-8/16/32 (its reason may name UTF-16) and fails outside
                # JSONDecodeError; a run writes UTF-8.
                raise SchemaError(f"{p}, line {n}: not UTF-8 text; expected a JSON object (a run record)") from None
            if not isinstance(rec, dict):
                raise SchemaError(f"{p}, line {n}: expected a JSON object (a run record), found "
                                  f"{type(rec).__name__}")
            out.append((n, rec))
        if torn:
            msg = (f"{p}: ignoring a torn last line of {len(lines[-1])} bytes (an interrupted write, or a run "
                   "still writing); its item reads as not answered")
            self.repairs.append(msg)
            if not quiet and not self._torn_said:
                # Said once per reader, never silently.
                self._torn_said = True
                logger.warning(msg)
        return out

    def answered(self) -> set[tuple[str, str, str]]:
        """Keys ``(task, variant, item_id)`` of items that have an answer (a line without error)."""
        return {(str(r.get("task")), str(r.get("variant")), str(r.get("item_id")))
                for r in self.iter_lines() if not r.get("error")}

    def checked_lines(self, manifest: Manifest, epochs: Optional[int] = None, *,
                      quiet: bool = False) -> list[RunRecord]:
        """Every line of ``responses.jsonl`` read as a :class:`RunRecord`, checked against the manifest.

        Raises
        ------
        SchemaError
            For a line that is not a run record (naming file and line), that
            belongs to another task, or whose ``epoch`` is above the run's
            epochs (``epochs``, else the manifest's; 1 without).
        """
        return self._checked(self.iter_numbered_lines(quiet), manifest, epochs)

    def _checked(self, numbered, manifest: Manifest, epochs: Optional[int], *,
                 start: Optional[int] = 1) -> list[RunRecord]:
        """Records through the schema and the manifest's checks (``numbered``: (line, raw) pairs, or raws when
        ``start`` is None; a raw may be a record this store appended)."""
        manifest = Manifest.of(manifest)
        limit = epochs if epochs is not None else int(manifest.epochs or 1)
        task = manifest.task
        out = []
        if start is None:
            numbered = ((None, raw) for raw in numbered)
        for n, raw in numbered:
            # Every line through the one record schema: old lines get the fields they lack, in order. A line
            # as RunRecord writes it would come back unchanged, so it is taken as it is.
            if isinstance(raw, RunRecord):
                rec = raw
            elif type(raw) is dict and _as_written(raw):
                rec = RunRecord._written(raw)
            else:
                where = f"{self.responses_path}, line {n}" if n is not None else f"{self.responses_path}"
                rec = RunRecord.from_dict(raw, where)
            if task is not None and rec.task != task:
                # Lines of another task (a folder reused after its manifest was lost) would be scored
                # against this task's labels and fail deep inside the scorer.
                raise SchemaError(
                    f"{self.responses_path}: the line of item {rec.item_id!r} belongs to task {rec.task!r}; "
                    f"expected {task!r}, the task in {self.manifest_path.name}. The folder mixes two runs: move the "
                    "other task's lines to a run directory of their own")
            if (rec.epoch or 1) > limit:
                where = f"{self.responses_path}, line {n}" if n is not None else f"{self.responses_path}"
                raise SchemaError(f"{where}: epoch {rec.epoch} of item {rec.item_id!r} is above the "
                                  f"{limit} epoch(s) of the run ({self.manifest_path.name}); the line does not belong "
                                  "to this run")
            out.append(rec)
        return out

    # -- metrics and ledger -----------------------------------------------------------------
    def write_metrics(self, metrics: Metrics | dict[str, Any]) -> None:
        """Write ``metrics.json`` through :class:`~causalgraph.runlog.files.Metrics` (its written key order)."""
        _write_json_atomic(self.metrics_path, Metrics.from_dict(metrics, str(self.metrics_path)).to_dict())

    def read_metrics(self) -> dict[str, Any]:
        """``metrics.json`` (``{}`` before the first score), checked as :class:`~causalgraph.runlog.files.Metrics`."""
        metrics = _read_json(self.metrics_path) if self.metrics_path.is_file() else {}
        Metrics.from_dict(metrics, str(self.metrics_path))
        return metrics

    def read_ledger(self) -> dict[str, Any]:
        """``batches.json`` (``{"batches": []}`` without one), checked as :class:`~causalgraph.runlog.files.Ledger`.

        A dict, for :mod:`causalgraph.bench.batch`, which advances its entries in place.
        """
        if not self.ledger_path.is_file():
            return {"batches": []}
        ledger = _read_json(self.ledger_path)
        Ledger.from_dict(ledger, str(self.ledger_path))
        return ledger

    def write_ledger(self, ledger: Ledger | dict[str, Any]) -> None:
        """Write ``batches.json`` through :class:`~causalgraph.runlog.files.Ledger` (its written key order)."""
        output_dir(self.path, "run directory")
        _write_json_atomic(self.ledger_path, Ledger.from_dict(ledger, str(self.ledger_path)).to_dict())

    def load(self) -> Run:
        """The run as it is on disk (from the lines kept in memory where :meth:`keep_lines` kept them whole)."""
        manifest = self.read_manifest()
        record_schema_of(manifest, str(self.manifest_path))
        lines = self._kept_lines(manifest)
        if lines is None:
            lines = self.checked_lines(manifest)
        latest: dict[tuple, RunRecord] = {}
        order: list[tuple] = []
        for rec in lines:
            key = sample_key(rec)
            if key not in latest:
                order.append(key)
                latest[key] = rec
            elif latest[key].error or not rec.error:
                # An answer supersedes a failed attempt; a later failure never hides an answer.
                if latest[key].error:
                    latest[key] = rec
        # Lines are appended in completion order, which depends on timing; readers get a
        # stable order: variants as the manifest lists them, then item ids.
        vorder = {v: i for i, v in enumerate(manifest.variants or [])}
        order.sort(key=lambda k: (k[0], vorder.get(k[1], len(vorder)), k[1], k[2], k[3]))
        samples = [latest[k] for k in order]
        responses = samples
        if any(k[3] > 1 for k in order):
            # Several answers per item: readers that need one get the majority answer.
            responses = majority_records(samples)
        writer = self.writer()
        if writer is not None:
            logger.warning(f"note: {self.path} is being written by another process ({writer}); what follows reads "
                           "the lines written so far")
        return Run(path=self.path, manifest=manifest,
                   responses=responses, metrics=Metrics.from_dict(self.read_metrics(), str(self.metrics_path)),
                   attempts=lines, ledger=Ledger.from_dict(self.read_ledger(), str(self.ledger_path)),
                   samples=samples, writer=writer)


def load_run(path: str | os.PathLike) -> Run:
    """Read a run directory.

    Parameters
    ----------
    path
        A folder written by ``causalgraph bench run`` (or ``bench batch``).

    Returns
    -------
    Run
        With ``manifest``, ``responses`` (one :class:`RunRecord` per item), ``metrics``,
        ``attempts`` and ``ledger``.

    Examples
    --------
    >>> run = load_run("runs/demo-mock")          # doctest: +SKIP
    >>> run.manifest.model, len(run.responses)  # doctest: +SKIP
    ('mock/oracle', 874)
    """
    return RunStore(path).load()
