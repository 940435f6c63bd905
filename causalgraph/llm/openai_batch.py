"""OpenAI's Batch API behind :class:`~causalgraph.llm.batch.BatchClient` (Files + Batches endpoints)."""

from __future__ import annotations

import json
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Optional

from ..errors import BackendError, ConfigError
from .._core.outputs import write_atomic
from .base import Request, public_url, redact
from .batch import BatchClient, BatchJob, BatchResult
from .openai import completion_from_body, protocol_reply

__all__ = ["OpenAIBatchClient", "ENDPOINT", "request_line"]

#: The endpoint every line of a chat-completions batch posts to.
ENDPOINT = "/v1/chat/completions"


def request_line(custom_id: str, body: dict[str, Any]) -> dict[str, Any]:
    """One line of an OpenAI Batch input file.

    Examples
    --------
    >>> request_line("q1", {"model": "gpt-5.1", "messages": []})["url"]
    '/v1/chat/completions'
    """
    return {"custom_id": custom_id, "method": "POST", "url": ENDPOINT, "body": body}


class OpenAIBatchClient(BatchClient):
    """The Batch API of an :class:`~causalgraph.llm.openai.OpenAIBackend`'s server (api.openai.com or compatible)."""

    # OpenAI's limits on one batch input file: 50,000 requests and 200 MB (a margin kept).
    max_lines = 50_000
    max_bytes = 190 * 1024 * 1024

    def __init__(self, backend):
        super().__init__(backend)
        self._client = backend.new_client(sync=True)

    @classmethod
    def restore_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        """``base_url`` becomes ``$OPENAI_BASE_URL`` when that is the stored URL plus a login.

        The manifest keeps the URL without user info; a server that needs the
        login it carried gets it back from the environment, never from a file.
        """
        out = dict(options)
        hidden = [k for k, v in (out.get("extra_headers") or {}).items() if v == "[redacted]"] \
            if isinstance(out.get("extra_headers"), dict) else []
        if hidden:
            # The manifest never holds a credential header, so it cannot be sent again from there.
            raise ConfigError(f"the run was submitted with the credential header(s) {', '.join(hidden)} in "
                              "extra_headers, which are never stored; this command cannot send them again: give the "
                              "key through OPENAI_API_KEY (or a login in OPENAI_BASE_URL)")
        stored = out.get("base_url")
        env = os.environ.get("OPENAI_BASE_URL")
        if stored and env and public_url(env).rstrip("/") == str(stored).rstrip("/"):
            out["base_url"] = env
        return out

    def request_line(self, custom_id: str, request: Request) -> dict[str, Any]:
        return request_line(custom_id, self.backend.body(request))

    def upload(self, path: Path) -> str:
        with open(path, "rb") as fh:
            return self._reply(self._client.files.with_raw_response.create(file=fh, purpose="batch"), "file upload").id

    def _reply(self, raw, what: str):
        # A server answering 200 with an HTML page gives the SDK a plain string: named as such, never
        # an AttributeError on the string.
        return protocol_reply(raw, self.backend.endpoint, what, scrub=lambda text: redact(text, self.backend.secrets()))

    @staticmethod
    def _job(b) -> BatchJob:
        counts = getattr(b, "request_counts", None)
        if counts is not None:
            counts = counts.model_dump() if hasattr(counts, "model_dump") else dict(counts)
        return BatchJob(id=b.id, status=getattr(b, "status", None), request_counts=counts,
                        output_file_id=getattr(b, "output_file_id", None),
                        error_file_id=getattr(b, "error_file_id", None))

    def create(self, input_file_id: str, metadata: dict[str, str]) -> BatchJob:
        return self._job(self._reply(self._client.batches.with_raw_response.create(
            input_file_id=input_file_id, endpoint=ENDPOINT, completion_window="24h", metadata=metadata), "batch create"))

    def find(self, metadata: dict[str, str]) -> Optional[BatchJob]:
        try:
            page = self._client.batches.list(limit=100)
        except Exception:  # listing is a convenience; the caller creates the batch when it fails
            return None
        for b in getattr(page, "data", []) or []:
            meta = getattr(b, "metadata", None) or {}
            if all(meta.get(k) == v for k, v in metadata.items()):
                return self._job(b)
        return None

    def retrieve(self, job_id: str) -> BatchJob:
        return self._job(self._reply(self._client.batches.with_raw_response.retrieve(job_id), "batch status"))

    def download(self, file_id: str, path: Path) -> None:
        resp = self._client.files.content(file_id)
        data = resp.read() if hasattr(resp, "read") else (resp.content if hasattr(resp, "content") else bytes(resp))
        write_atomic(path, data)

    def read_result(self, obj: dict[str, Any], job_id: str) -> BatchResult:
        resp = obj.get("response") or {}
        if obj.get("error") or resp.get("status_code") != 200:
            err = obj.get("error") or (resp.get("body") or {}).get("error") or resp
            return BatchResult(obj.get("custom_id"), None,
                               f"batch {job_id}: HTTP {resp.get('status_code')}: {json.dumps(err)[:300]}", raw=obj)
        try:
            return BatchResult(obj.get("custom_id"), completion_from_body(resp.get("body") or {}), raw=obj)
        except BackendError as exc:
            return BatchResult(obj.get("custom_id"), None, str(exc), raw=obj)

    @contextmanager
    def errors(self) -> Iterator[None]:
        """An openai SDK error becomes a BackendError whose message carries no credential.

        The server's message may repeat the key that was sent (a 401 does); the
        ledger keeps what was done so far, so the same command can be run again.
        """
        import openai  # the backend was built, so the SDK is there

        try:
            yield
        except openai.APIConnectionError as exc:
            # (APITimeoutError included) Nothing answered: name the server, as a live run does.
            what = "timed out" if isinstance(exc, openai.APITimeoutError) else "failed"
            raise BackendError(redact(f"Batch API: connection to {self.backend.endpoint} {what} ({exc}); the ledger "
                                      "keeps what was done, run the same command again once the server is reachable",
                                      self.backend.secrets())) from None
        except openai.OpenAIError as exc:
            status = getattr(exc, "status_code", None)
            msg = f"{'HTTP ' + str(status) + ': ' if status else ''}{getattr(exc, 'message', None) or exc}"
            raise BackendError(redact(f"Batch API: {msg}; the ledger keeps what was done, run the same command "
                                      "again", self.backend.secrets())) from None

    def close(self) -> None:
        self._client.close()
