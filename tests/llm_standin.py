"""A local stand-in for the OpenAI HTTP API, for tests only (binds 127.0.0.1 on a free port).

It serves ``/v1/chat/completions`` with scripted faults (HTTP 429 with
``Retry-After``, 500, slow answers, dropped connections, 401) and the Files
and Batches endpoints (``/v1/files``, ``/v1/files/{id}/content``,
``/v1/batches``) that the Batch API path uses.  The real ``openai`` client
talks to it through ``base_url``.  It is not OpenAI: it answers with a
function of the prompt that the test chooses.
"""

from __future__ import annotations

import hashlib
import email.parser
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable, Optional


def default_answer(body: dict) -> str:
    return "<Answer>Yes</Answer>"


class Standin:
    """The server state; ``faults(prompt, attempt)`` returns what to do with the n-th attempt (1-based)."""

    def __init__(self, *, answer: Callable[[dict], str] = default_answer,
                 faults: Optional[Callable[[str, int], str]] = None, slow_seconds: float = 2.0,
                 batch_polls: int = 2, batch_error_every: int = 0,
                 logprobs: Optional[Callable[[dict], Optional[list]]] = None):
        self.answer = answer
        #: ``logprobs(body)``: the generated tokens as ``[(token, logprob, [(alternative, logprob), …]), …]``,
        #: answered in OpenAI's exact chat format (``choices[0].logprobs.content``) when the request asks for
        #: ``logprobs``; ``None`` from it (or no function) answers ``"logprobs": null``, as a server that ignores
        #: the field does.  The answer's text is then the tokens joined.
        self.logprobs = logprobs
        #: The JSON body of every chat request, in arrival order.
        self.chat_bodies: list[dict] = []
        self.faults = faults or (lambda prompt, attempt: "ok")
        self.slow_seconds = slow_seconds
        self.batch_polls = batch_polls
        self.batch_error_every = batch_error_every
        self.lock = threading.Lock()
        self.attempts: dict[str, int] = {}
        #: Retry-After (seconds, as sent) of a 429 answer; arrival times of each prompt's attempts.
        self.retry_after = "0.05"
        #: When True, POST /v1/batches answers 401 repeating the key (as OpenAI's message does).
        self.refuse_batches = False
        self.arrivals: dict[str, list[float]] = {}
        self.chat_calls = 0
        self.auth_headers: list[str] = []
        #: (path with query, headers) of every request, for tests of what reached the server.
        self.requests: list[tuple[str, dict[str, str]]] = []
        #: When True, every route answers 200 with an HTML page (a proxy's login page, a wrong URL).
        self.html_everywhere = False
        self.files: dict[str, dict] = {}
        self.batches: dict[str, dict] = {}
        self.batch_polls_seen: dict[str, int] = {}
        self.batch_creates = 0
        self.file_uploads = 0
        self.server: Optional[ThreadingHTTPServer] = None
        self.thread: Optional[threading.Thread] = None

    # -- lifecycle ---------------------------------------------------------------------------
    def start(self) -> "Standin":
        state = self

        class Handler(_Handler):
            standin = state

        self.server = _Server(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.server = None

    @property
    def url(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    # -- chat --------------------------------------------------------------------------------
    def chat_body(self, body: dict) -> dict:
        tokens = self.logprobs(body) if self.logprobs is not None and body.get("logprobs") else None
        if tokens is not None:
            text = "".join(t for t, _, _ in tokens)
            # OpenAI's shape: every entry and alternative has token, logprob and bytes (UTF-8 byte values).
            lp = {"content": [{"token": t, "logprob": v, "bytes": list(t.encode("utf-8")),
                               "top_logprobs": [{"token": a, "logprob": av, "bytes": list(a.encode("utf-8"))}
                                                for a, av in top]} for t, v, top in tokens],
                  "refusal": None}
        else:
            text, lp = self.answer(body), None
        prompt = " ".join(m.get("content", "") for m in body.get("messages", []))
        return {"id": "chatcmpl-" + hashlib.sha256(prompt.encode()).hexdigest()[:8], "object": "chat.completion", "created": int(time.time()),
                "model": body.get("model", "standin"),
                "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "logprobs": lp,
                             "finish_reason": "stop"}],
                "usage": {"prompt_tokens": len(prompt.split()), "completion_tokens": len(text.split()),
                          "total_tokens": len(prompt.split()) + len(text.split())}}

    # -- batches -----------------------------------------------------------------------------
    def run_batch(self, batch: dict) -> None:
        lines = self.files[batch["input_file_id"]]["content"].decode().splitlines()
        out, err = [], []
        for n, line in enumerate(lines, start=1):
            req = json.loads(line)
            if self.batch_error_every and n % self.batch_error_every == 0:
                err.append({"id": f"req_{n}", "custom_id": req["custom_id"],
                            "response": {"status_code": 500, "request_id": f"r{n}",
                                         "body": {"error": {"message": "stand-in server error", "type": "server_error"}}},
                            "error": None})
                continue
            out.append({"id": f"req_{n}", "custom_id": req["custom_id"],
                        "response": {"status_code": 200, "request_id": f"r{n}", "body": self.chat_body(req["body"])},
                        "error": None})
        # OpenAI does not keep the input order in the output file: neither do we.
        out.reverse()
        for name, rows in (("output_file_id", out), ("error_file_id", err)):
            if rows:
                fid = f"file-{len(self.files) + 1}"
                self.files[fid] = {"content": ("\n".join(json.dumps(r) for r in rows) + "\n").encode(),
                                   "filename": f"{batch['id']}_{name}.jsonl", "purpose": "batch_output"}
                batch[name] = fid
        batch["status"] = "completed"
        batch["completed_at"] = int(time.time())
        batch["request_counts"] = {"total": len(lines), "completed": len(out), "failed": len(err)}


class _Server(ThreadingHTTPServer):
    request_queue_size = 128  # the default backlog of 5 refuses connections under concurrent clients
    def handle_error(self, request, client_address):
        # A client that gave up on a slow answer closes its end: expected here, not worth a traceback.
        import sys

        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return
        super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    standin: Standin
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):  # keep test output clean
        pass

    def _json(self, code: int, obj, headers: Optional[dict] = None) -> None:
        data = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def _html(self) -> None:
        data = b"<!DOCTYPE html><html><head><title>Sign in</title></head><body>Please sign in</body></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _body(self) -> bytes:
        n = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(n) if n else b""

    def do_POST(self):  # noqa: N802
        s = self.standin
        s.auth_headers.append(self.headers.get("Authorization", ""))
        s.requests.append((self.path, dict(self.headers.items())))
        raw = self._body()
        if s.html_everywhere:
            return self._html()
        route = self.path.split("?")[0]
        if route.endswith("/chat/completions"):
            body = json.loads(raw)
            prompt = " ".join(m.get("content", "") for m in body.get("messages", []))
            with s.lock:
                s.chat_bodies.append(body)
                s.chat_calls += 1
                s.attempts[prompt] = s.attempts.get(prompt, 0) + 1
                s.arrivals.setdefault(prompt, []).append(time.monotonic())
                attempt = s.attempts[prompt]
            action = s.faults(prompt, attempt)
            if action == "429":
                return self._json(429, {"error": {"message": "Rate limit reached", "type": "rate_limit"}},
                                  {"Retry-After": s.retry_after})
            if action == "500":
                return self._json(500, {"error": {"message": "stand-in internal error", "type": "server_error"}})
            if action == "401":
                key = self.headers.get("Authorization", "").replace("Bearer ", "")
                # Like OpenAI, the message repeats (most of) the key that was sent.
                return self._json(401, {"error": {"message": f"Incorrect API key provided: {key}",
                                                  "type": "invalid_request_error"}})
            if action == "html":
                return self._html()
            if action == "drop":
                self.close_connection = True
                self.connection.close()
                return
            if action == "slow":
                time.sleep(s.slow_seconds)
            return self._json(200, s.chat_body(body))
        if route.endswith("/files"):
            ctype = self.headers.get("Content-Type", "")
            msg = email.parser.BytesParser().parsebytes(b"Content-Type: " + ctype.encode() + b"\r\n\r\n" + raw)
            content, filename, purpose = b"", "upload.jsonl", ""
            for part in msg.get_payload():
                name = part.get_param("name", header="content-disposition")
                if name == "file":
                    content = part.get_payload(decode=True)
                    filename = part.get_filename() or filename
                elif name == "purpose":
                    purpose = part.get_payload(decode=True).decode()
            with s.lock:
                s.file_uploads += 1
                fid = f"file-{len(s.files) + 1}"
                s.files[fid] = {"content": content, "filename": filename, "purpose": purpose}
            return self._json(200, {"id": fid, "object": "file", "bytes": len(content), "created_at": int(time.time()),
                                    "filename": filename, "purpose": purpose, "status": "processed"})
        if route.endswith("/batches"):
            if s.refuse_batches:
                key = self.headers.get("Authorization", "").replace("Bearer ", "")
                return self._json(401, {"error": {"message": f"Incorrect API key provided: {key}",
                                                  "type": "invalid_request_error"}})
            body = json.loads(raw)
            with s.lock:
                s.batch_creates += 1
                bid = f"batch_{len(s.batches) + 1}"
                s.batches[bid] = {"id": bid, "object": "batch", "endpoint": body["endpoint"],
                                  "input_file_id": body["input_file_id"],
                                  "completion_window": body["completion_window"], "status": "validating",
                                  "created_at": int(time.time()), "metadata": body.get("metadata") or {},
                                  "output_file_id": None, "error_file_id": None,
                                  "request_counts": {"total": 0, "completed": 0, "failed": 0}}
            return self._json(200, s.batches[bid])
        return self._json(404, {"error": {"message": f"no route {self.path}"}})

    def do_GET(self):  # noqa: N802
        s = self.standin
        s.requests.append((self.path, dict(self.headers.items())))
        if s.html_everywhere:
            return self._html()
        path = self.path.split("?")[0]
        if path.endswith("/content") and "/files/" in path:
            fid = path.split("/files/")[1].split("/")[0]
            f = s.files.get(fid)
            if f is None:
                return self._json(404, {"error": {"message": f"no file {fid}"}})
            data = f["content"]
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        if path.endswith("/batches"):
            return self._json(200, {"object": "list", "data": list(s.batches.values()), "has_more": False})
        if "/batches/" in path:
            bid = path.split("/batches/")[1]
            b = s.batches.get(bid)
            if b is None:
                return self._json(404, {"error": {"message": f"no batch {bid}"}})
            with s.lock:
                s.batch_polls_seen[bid] = s.batch_polls_seen.get(bid, 0) + 1
                if b["status"] != "completed":
                    if s.batch_polls_seen[bid] >= s.batch_polls:
                        s.run_batch(b)
                    else:
                        b["status"] = "in_progress"
            return self._json(200, b)
        return self._json(404, {"error": {"message": f"no route {path}"}})


def main(argv=None) -> None:
    """Serve the stand-in in a process of its own: ``python llm_standin.py [--port P] [--die-after N]``.

    Prints its URL on the first line of stdout.  ``--die-after N`` kills the
    process (SIGKILL, no goodbye) when the N-th chat request arrives, before
    answering it: a server that dies mid-run, for the runner's tests.
    """
    import argparse
    import os
    import signal
    import sys

    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--die-after", type=int, default=0)
    args = ap.parse_args(argv)
    standin = Standin()

    def faults(prompt: str, attempt: int) -> str:
        if args.die_after and standin.chat_calls >= args.die_after:
            os.kill(os.getpid(), signal.SIGKILL)
        return "ok"

    standin.faults = faults
    state = standin

    class Handler(_Handler):
        standin = state

    server = _Server(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    standin.server = server
    print(standin.url, flush=True)
    sys.stdout.close()
    server.serve_forever(poll_interval=0.05)


if __name__ == "__main__":
    main()
