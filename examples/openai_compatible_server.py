"""Point the openai/ backend at an OpenAI-compatible server (here llama-cpp-python's, on 127.0.0.1).

The same ``--base-url`` reaches vLLM, Ollama or a llama.cpp server.  This
script starts ``python -m llama_cpp.server`` with the bundled SmolLM2 model
on a free local port, runs a few items through it, and stops it.  The
equivalent command line is

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

import causalgraph as cg
from causalgraph.llm.local import smollm2_path

out = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="cg-server-")
with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
server = subprocess.Popen([sys.executable, "-m", "llama_cpp.server", "--model", str(smollm2_path()),
                           "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "2048", "--model_alias", "smollm2"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
url = f"http://127.0.0.1:{port}/v1"
try:
    for _ in range(240):
        try:
            urllib.request.urlopen(url + "/models", timeout=1)
            break
        except OSError:
            time.sleep(0.5)
    res = cg.run_benchmark("corri", ["0_2"], "openai/smollm2", limit=3, max_tokens=16,
                           model_options={"base_url": url}, out=f"{out}/corri")
    for r in cg.load_run(res.path).responses:
        print(f"{r['item_id']}: gold={r['gold']} label={r['label']} ({r['rule']}) answer={r['response'][:50]!r}")
    print(f"{res.requests_sent} requests to {url}; run directory {res.path}")
finally:
    server.terminate()
    server.wait(timeout=15)
