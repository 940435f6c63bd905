"""Benchmark: runner throughput against concurrency, and a fully cached re-run of 34,303 items.

1. Throughput.  A local OpenAI-compatible server (stdlib, 127.0.0.1) answers
   every chat completion after an artificial latency (``--latency``, default
   50 ms), as a remote API would.  The runner sends ``--items`` requests
   through the real ``openai`` client at concurrency 1, 4, 16 and 64;
   figures are items per second and the ratio to concurrency 1 (ideal:
   the concurrency itself, until the client or the machine saturates).
2. Cache.  34,303 items (the size of the paper's whole GPT-5.1 run) are
   answered once by ``mock/oracle`` (filling the response cache), then the
   same items are run into a new directory (every answer from the cache,
   zero requests) and the finished run is resumed (every item skipped).
   Figures are seconds and the ratio to the first run.

Every number comes from one process on this machine; caches live in a
temporary folder.  Run::

    CAUSALGRAPH_DATA=../shared/data python benchmarks/bench_runner.py
    python benchmarks/bench_runner.py --quick
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from causalgraph.bench import Item
from causalgraph.tasks import Binary, Task, register_task
from causalgraph.bench.runner import run_benchmark

TASK = "bench-yn"
register_task(Task(name=TASK, build_items=lambda c, v: [],
                   answers=Binary(labels=("yes", "no"), positive="yes", answer_words=lambda v: {"yes": "Yes", "no": "No"}),
                   list_variants=lambda: ["v"], default_data="climatecause"), replace=True)


def items(n: int, tag: str = "") -> list[Item]:
    return [Item(id=f"{TASK}/v/{i:06d}", task=TASK, variant="v", prompt=f"{tag}Is {i} even? Answer Yes or No.",
                 gold="yes" if i % 2 == 0 else "no", meta={"statement_id": f"s{i // 7}"}) for i in range(n)]


def serve(latency: float):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *a):
            pass

        def do_POST(self):  # noqa: N802
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            time.sleep(latency)
            data = json.dumps({"id": "x", "object": "chat.completion", "created": 0, "model": body["model"],
                               "choices": [{"index": 0, "finish_reason": "stop",
                                            "message": {"role": "assistant", "content": "Yes"}}],
                               "usage": {"prompt_tokens": 9, "completion_tokens": 1, "total_tokens": 10}}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    class Server(ThreadingHTTPServer):
        request_queue_size = 256  # the default backlog of 5 refuses connections at high concurrency
        daemon_threads = True

    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def throughput(n_items: int, latency: float, levels: list[int], tmp: str, rounds: int = 1) -> list[dict]:
    """Seconds for ``n_items`` requests at each concurrency level, ``rounds`` rounds (the levels in turn,
    forwards in odd rounds and backwards in even ones): min / median / max per level; the ratio to
    concurrency 1 from the medians."""
    server = serve(latency)
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    times: dict[int, list[float]] = {c: [] for c in levels}
    try:
        for k in range(rounds):
            for c in (levels if k % 2 == 0 else list(reversed(levels))):
                t0 = time.perf_counter()
                res = run_benchmark(TASK, ["v"], "openai/bench", items=items(n_items, tag=f"c{c} "),
                                    out=f"{tmp}/tp{c}-{k}", concurrency=c, cache=False,
                                    model_options={"base_url": url})
                times[c].append(time.perf_counter() - t0)
                assert res.errors == 0, f"concurrency {c}: {res.errors} errors"
                assert res.requests_sent == n_items, f"concurrency {c}: {res.requests_sent} requests for {n_items} items"
    finally:
        server.shutdown()
    rows = []
    for c in levels:
        t = sorted(times[c])
        med = statistics.median(t)
        rows.append({"concurrency": c, "items": n_items, "seconds_min": t[0], "seconds_median": med,
                     "seconds_max": t[-1], "items_per_s": n_items / med})
    base = rows[0]["items_per_s"]
    for r in rows:
        r["ratio_to_c1"] = r["items_per_s"] / base
    return rows


def cached_rerun(n_items: int, tmp: str) -> list[dict]:
    its = items(n_items)
    t0 = time.perf_counter()
    first = run_benchmark(TASK, ["v"], "mock/oracle", items=its, out=f"{tmp}/first", concurrency=64)
    t_first = time.perf_counter() - t0
    t0 = time.perf_counter()
    cached = run_benchmark(TASK, ["v"], "mock/oracle", items=its, out=f"{tmp}/cached", concurrency=64)
    t_cached = time.perf_counter() - t0
    t0 = time.perf_counter()
    resumed = run_benchmark(TASK, ["v"], "mock/oracle", items=its, out=f"{tmp}/first", concurrency=64)
    t_resumed = time.perf_counter() - t0
    assert first.requests_sent == n_items and cached.requests_sent == 0 and cached.cache_hits == n_items
    assert resumed.requests_sent == 0 and resumed.skipped == n_items
    return [
        {"run": "first (mock/oracle, latency 0)", "items": n_items, "requests": first.requests_sent,
         "seconds": t_first, "ratio_to_first": 1.0},
        {"run": "new directory, all cached", "items": n_items, "requests": 0, "seconds": t_cached,
         "ratio_to_first": t_cached / t_first},
        {"run": "same directory, all answered", "items": n_items, "requests": 0, "seconds": t_resumed,
         "ratio_to_first": t_resumed / t_first},
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--items", type=int, default=200, help="items per concurrency level (default 200)")
    ap.add_argument("--latency", type=float, default=0.05, help="server latency in seconds (default 0.05)")
    ap.add_argument("--cached-items", type=int, default=34_303, help="items of the cache test (default 34,303)")
    ap.add_argument("--quick", action="store_true", help="100 items per level, 5,000 cached items")
    ap.add_argument("--cache-only", action="store_true", help="only the fully cached re-run (no throughput levels)")
    ap.add_argument("--throughput-only", action="store_true", help="only the throughput levels (no cached re-run)")
    ap.add_argument("--rounds", type=int, default=1, help="rounds of the throughput levels (default 1)")
    args = ap.parse_args()
    if args.quick:
        args.items, args.cached_items = 100, 5_000
    from causalgraph.cli._common import emit_table

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["CAUSALGRAPH_CACHE"] = os.path.join(tmp, "cache")
        if not args.cache_only:
            print(f"Throughput against concurrency ({args.items} items, server latency {args.latency * 1000:.0f} ms):")
            emit_table(throughput(args.items, args.latency, [1, 4, 16, 64], tmp, args.rounds), "table",
                       columns=["concurrency", "items", "seconds_min", "seconds_median", "seconds_max", "items_per_s",
                                "ratio_to_c1"])
        if not args.throughput_only:
            print(f"\nFully cached re-run ({args.cached_items:,} items):")
            emit_table(cached_rerun(args.cached_items, tmp), "table",
                       columns=["run", "items", "requests", "seconds", "ratio_to_first"])
        try:
            load = os.getloadavg()
            print(f"\nload average while it ran: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
        except OSError:  # pragma: no cover - not on POSIX
            pass


if __name__ == "__main__":
    main()
