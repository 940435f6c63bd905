"""Choice probabilities from a chat model's answer (``--method choice-logprobs``), against a real chat server.

A chat endpoint returns no log-probability of given text, but it returns
``top_logprobs`` for the tokens it writes.  This script starts
``python -m llama_cpp.server`` with the bundled SmolLM2 model on a free local
port, asks five ccr-member A_5 items through the ``openai/`` backend with
``--method choice-logprobs``, prints each item's choice probabilities and how
it was scored, and stops the server.  The same flag reaches OpenAI itself
(``--model openai/gpt-4.1-mini``, no ``--base-url``) or ``vllm serve``.  Then
it asks the same items of the same GGUF in process, without a server
(``llamacpp/smollm2``; ``vllm/`` works alike), and prints the largest
difference between the two runs' probabilities.  The command lines are

    causalgraph bench run --task ccr-member --variant A_5 --model openai/smollm2 \\
        --base-url http://127.0.0.1:PORT/v1 --method choice-logprobs --limit 5
    causalgraph bench run --task ccr-member --variant A_5 --model llamacpp/smollm2 \\
        --method choice-logprobs --limit 5

    python examples/choice_logprobs.py [OUT_DIR]
"""

import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import causalgraph as cg
from causalgraph.llm.local import smollm2_path

out = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="cg-choice-")
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
    res = cg.run_benchmark("ccr-member", ["A_5"], "openai/smollm2", method="choice-logprobs", limit=5,
                           model_options={"base_url": url}, out=f"{out}/ccr-member")
    for r in cg.load_run(res.path).responses:
        probs = ", ".join(f"{k} {v:.3f}" for k, v in (r.probs or {}).items())
        print(f"{r.item_id}: gold={r.gold} label={r.label} scored by {r.scoring} "
              f"({probs or (r.choice_read or {}).get('note')}); answer {r.response!r}")
    m = res.metrics.variants["A_5"]
    ch, cal = m["choice_logprobs"], m["calibration"]
    # With no item read, ECE and Brier are undefined (None, with a note), not 0.
    figures = (f"ECE {cal['ece']:.4f}, Brier {cal['brier']:.4f} over the items read" if cal and cal["n"]
               else f"ECE and Brier {(cal or {}).get('note') or 'undefined: no item was answered'}")
    print(f"acc {ch['acc']:.3f}; read at the answer position {ch['read']} of {m['items']}; {figures}; "
          f"run directory {res.path}")
finally:
    server.terminate()
    server.wait(timeout=15)

# In process: create_chat_completion returns the same logprobs/top_logprobs, read by the same reader.
local = cg.run_benchmark("ccr-member", ["A_5"], "llamacpp/smollm2", method="choice-logprobs", limit=5,
                         model_options={"n_ctx": 2048}, out=f"{out}/ccr-member-inprocess")
served = {r.item_id: r for r in cg.load_run(res.path).responses}
both = [(r, served[r.item_id]) for r in cg.load_run(local.path).responses
        if r.probs and r.item_id in served and served[r.item_id].probs]
gap = max((abs(a.probs[k] - b.probs[k]) for a, b in both for k in a.probs), default=None)
print(f"in process (llamacpp/smollm2): {len(both)} items read both ways; largest |probability difference| "
      f"from the server: {'undefined (none read both ways)' if gap is None else f'{gap:.2e}'}")
