"""One vLLM engine for a whole test session, driven through JSON lines (run in the vLLM environment).

vLLM lives in its own virtual environment (.venv-vllm, see scripts/install-vllm.sh), so the tests in
tests/llm/test_vllm.py start this script there once per session and send it commands on stdin, one JSON
object a line; each answer is one JSON line on the file descriptor named by ``--reply-fd`` (stdout and
stderr carry vLLM's logs).  Every backend this process creates with the same folder and engine options
shares the one engine (causalgraph.llm.vllm keeps engines per process), so the CLI commands run here
in process cost no second engine start.

Commands: ``complete`` (requests sent concurrently to the session backend), ``run`` (run_benchmark with
the session backend), ``cli`` (causalgraph's command line, in process), ``annotate`` (annotate_texts),
``quit``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import os
import sys
import traceback


def _completion(c) -> dict:
    return {"text": c.text, "prompt_tokens": c.prompt_tokens, "completion_tokens": c.completion_tokens,
            "finish_reason": c.finish_reason, "batch_size": c.raw.get("batch_size"),
            "token_ids": c.raw.get("generated_token_ids")}


def _request(d: dict):
    from causalgraph.llm import Request

    return Request(messages=tuple(d["messages"]), temperature=d.get("temperature"), max_tokens=d.get("max_tokens"),
                   seed=d.get("seed"), stop=tuple(d["stop"]) if d.get("stop") else None,
                   params=d.get("params") or {})


def _handle(cmd: dict, backend) -> dict:
    op = cmd["op"]
    if op == "complete":
        async def go():
            return await asyncio.gather(*[backend.complete(_request(r)) for r in cmd["requests"]],
                                        return_exceptions=True)

        out = asyncio.run(go())
        return {"results": [{"error": f"{type(c).__name__}: {c}"} if isinstance(c, BaseException) else _completion(c)
                            for c in out]}
    if op == "run":
        from causalgraph.bench.runner import run_benchmark

        kw = dict(cmd["kwargs"])
        res = run_benchmark(kw.pop("task"), kw.pop("variants"), kw.pop("model"), backend=backend, progress=False, **kw)
        return {"path": str(res.path), "requests_sent": res.requests_sent, "cache_hits": res.cache_hits,
                "skipped": res.skipped, "written": res.written, "errors": res.errors}
    if op == "cli":
        from causalgraph.cli import main

        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main(cmd["argv"])
        return {"rc": rc, "stdout": out.getvalue(), "stderr": err.getvalue()}
    if op == "annotate":
        from causalgraph.apps import annotate_texts
        from causalgraph.runlog.store import load_run

        res = annotate_texts(cmd["texts"], cmd["model"], model_options=cmd.get("model_options"), out=cmd["out"],
                             max_tokens=cmd["max_tokens"], structured=cmd.get("structured", True))
        records = load_run(res.path).responses
        return {"responses": [r.response for r in records], "finish": [r.finish_reason for r in records],
                "requests_sent": res.requests_sent}
    raise ValueError(f"unknown op {op!r}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True)
    ap.add_argument("--options", default="{}", help="backend options, a JSON object")
    ap.add_argument("--reply-fd", type=int, required=True)
    args = ap.parse_args()
    reply = os.fdopen(args.reply_fd, "w", buffering=1)

    from causalgraph.llm import get_backend
    from causalgraph.llm.vllm import cpu_env

    for k, v in cpu_env().items():
        os.environ.setdefault(k, v)
    backend = get_backend(args.model, **json.loads(args.options))
    reply.write(json.dumps({"ready": True, "folder": str(backend.folder)}) + "\n")
    for line in sys.stdin:
        cmd = json.loads(line)
        if cmd["op"] == "quit":
            break
        try:
            ans = _handle(cmd, backend)
        except Exception as exc:  # the test reads the failure; the engine stays up for the next command
            ans = {"exception": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc()}
        reply.write(json.dumps(ans) + "\n")
    asyncio.run(backend.aclose())
    reply.write(json.dumps({"closed": True}) + "\n")


if __name__ == "__main__":  # vLLM starts its engine in a new process, which imports this module again
    main()
