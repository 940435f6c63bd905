"""Progress of a run on stderr: a tqdm bar with tokens and cost, or plain lines when stderr is a file."""

from __future__ import annotations

import os
import sys
import time
from typing import Any, Optional

from ..errors import ConfigError
from ..runlog.record import RunRecord

__all__ = ["Progress", "PROGRESS_INTERVAL", "progress_interval"]


#: Seconds between two progress lines when stderr is not a terminal (``progress="auto"``); the
#: environment variable ``CAUSALGRAPH_PROGRESS_INTERVAL`` overrides it (a batch job that wants fewer lines).
PROGRESS_INTERVAL = 10.0


def progress_interval() -> float:
    """Seconds between two progress lines: ``CAUSALGRAPH_PROGRESS_INTERVAL`` or :data:`PROGRESS_INTERVAL`.

    Raises :class:`~causalgraph.errors.ConfigError` for a value that is not a number of seconds, 0 or more.
    """
    raw = os.environ.get("CAUSALGRAPH_PROGRESS_INTERVAL")
    if raw is None:
        return PROGRESS_INTERVAL
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not value >= 0 or value == float("inf"):
        raise ConfigError(f"CAUSALGRAPH_PROGRESS_INTERVAL={raw!r}: expected a number of seconds, 0 or more")
    return value


class Progress:
    """Progress on stderr: a tqdm bar with tokens and cost, or one line at most every interval.

    ``enabled``: ``False`` (silent), ``True`` (the tqdm bar) or ``"auto"`` (what
    the commands pass): the bar on a terminal, else — stderr redirected to a
    file, as under a batch scheduler — plain lines (a bar's carriage returns
    make no lines a log can show): at most one every
    :data:`PROGRESS_INTERVAL` seconds, and one where the job ends if any was
    written (a job shorter than the interval prints none: its closing summary
    says it all).
    """

    def __init__(self, total: int, enabled: bool | str, desc: str, *, stream=None, clock=None,
                 interval: Optional[float] = None, unit: str = "item"):
        self.bar = None
        self.lines = False
        self.total, self.desc, self.done, self.errors = total, desc, 0, 0
        self.tok_in = self.tok_out = 0
        self.cost = 0.0
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock or time.monotonic
        if not (enabled and total):
            return
        if enabled == "auto" and not getattr(self.stream, "isatty", lambda: False)():
            self.lines = True
            self.interval = progress_interval() if interval is None else interval
            self.start = self.last = self.clock()
            self.shown = None
            return
        from tqdm import tqdm

        self.bar = tqdm(total=total, desc=desc, unit=unit, file=self.stream, dynamic_ncols=True, smoothing=0.1)

    def _line(self) -> None:
        elapsed = self.clock() - self.start
        self.stream.write(f"{self.desc}: {self.done:,}/{self.total:,} ({100 * self.done / self.total:.1f} %), "
                          f"{self.errors:,} failed, {elapsed:.0f} s; tokens in {self.tok_in:,} out {self.tok_out:,}, "
                          f"${self.cost:.4f}\n")
        self.stream.flush()
        self.shown = self.done

    def update(self, rec: RunRecord) -> None:
        u = rec.usage or {}
        self.tok_in += u.get("prompt_tokens") or 0
        self.tok_out += u.get("completion_tokens") or 0
        self.cost += rec.cost_usd or 0.0
        self.errors += bool(rec.error)
        self._advance(f"tok in {self.tok_in:,} out {self.tok_out:,} ${self.cost:.4f}")

    def _advance(self, postfix: str) -> None:
        """One more done: the bar moves (with ``postfix``), or a line if the interval has passed."""
        self.done += 1
        if self.bar is not None:
            self.bar.update(1)
            self.bar.set_postfix_str(postfix, refresh=False)
        elif self.lines and self.clock() - self.last >= self.interval:
            self.last = self.clock()
            self._line()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif self.lines and self.shown is not None and self.done != self.shown:
            self._line()  # where the job ended, after the periodic lines


#: The name the runner used before this module existed (tests and callers import it).
_Progress = Progress
