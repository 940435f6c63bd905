"""The Batch interface: what a provider's batch API must offer the run ledger (:mod:`causalgraph.bench.batch`).

A backend that can send requests as a batch job names its client class in
:attr:`~causalgraph.llm.base.Backend.batch_client`; the ledger in
``bench/batch.py`` (what was prepared, uploaded, submitted, collected) stays
provider-neutral and talks to the job only through this class.  OpenAI's
client is :class:`causalgraph.llm.openai_batch.OpenAIBatchClient`; another
provider implements the same methods.
"""

from __future__ import annotations

import abc
import importlib
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Optional

from ..errors import ConfigError
from .base import Backend, Completion, Request

__all__ = ["BatchClient", "BatchJob", "BatchResult", "batch_client_for", "batch_client_class"]


@dataclass
class BatchJob:
    """A batch job as the provider reports it."""

    id: str
    status: Optional[str] = None
    request_counts: Optional[dict[str, Any]] = None
    output_file_id: Optional[str] = None
    error_file_id: Optional[str] = None


@dataclass
class BatchResult:
    """One line of a job's output or error file, read: the answer or why there is none."""

    custom_id: Any
    completion: Optional[Completion] = None
    error: Optional[str] = None
    is_output: bool = True
    raw: dict[str, Any] = field(default_factory=dict)


class BatchClient(abc.ABC):
    """One provider's batch API, for one backend (its model, server and credentials)."""

    #: Limits on one input file.
    max_lines: int = 50_000
    max_bytes: int = 190 * 1024 * 1024
    #: Statuses after which a job changes no more.
    final_statuses: tuple[str, ...] = ("completed", "expired", "cancelled", "failed")

    def __init__(self, backend: Backend):
        self.backend = backend

    @classmethod
    def restore_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        """The backend options to collect with, from those a run's manifest stored (credentials left out)."""
        return dict(options)

    @abc.abstractmethod
    def request_line(self, custom_id: str, request: Request) -> dict[str, Any]:
        """One line of the input file for ``request``."""

    @abc.abstractmethod
    def upload(self, path: Path) -> str:
        """Upload an input file; its file id."""

    @abc.abstractmethod
    def create(self, input_file_id: str, metadata: dict[str, str]) -> BatchJob:
        """Start a job on an uploaded file."""

    @abc.abstractmethod
    def find(self, metadata: dict[str, str]) -> Optional[BatchJob]:
        """A job created earlier with this metadata (after a crash before the ledger recorded it)."""

    @abc.abstractmethod
    def retrieve(self, job_id: str) -> BatchJob:
        """The job's current state."""

    @abc.abstractmethod
    def download(self, file_id: str, path: Path) -> None:
        """Save a result file."""

    @abc.abstractmethod
    def read_result(self, obj: dict[str, Any], job_id: str) -> BatchResult:
        """Read one line of a result file."""

    @contextmanager
    def errors(self) -> Iterator[None]:
        """Turn the provider SDK's errors into :class:`~causalgraph.errors.BackendError` without credentials."""
        yield

    def close(self) -> None:
        """Release the connection."""


def batch_client_class(backend_cls: type[Backend], model: str) -> type[BatchClient]:
    """The batch client class a backend class declares, or a :class:`ConfigError` when it has none."""
    target = backend_cls.batch_client
    if not target:
        raise ConfigError(f"the Batch API needs a backend with batch support (openai/<model>); "
                          f"{backend_cls.provider}/{model} has none")
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


def batch_client_for(backend: Backend) -> BatchClient:
    """The batch client of a backend (see :attr:`~causalgraph.llm.base.Backend.batch_client`)."""
    return batch_client_class(type(backend), backend.model)(backend)
