"""An independent log-likelihood reference for the loglik tests of hf/ and vllm/.

A plain transformers forward pass of context + continuation, one unpadded sequence per choice, no
key/value cache, no batching, float32 weights, log-softmax in float64: nothing of the backends'
code is used, so their scores are checked against it rather than against each other.
"""

from __future__ import annotations

import math
from pathlib import Path


def reference_logprobs(records, folder: Path | None = None) -> list[dict[str, float]]:
    """Summed log-probabilities of every record's continuations.

    ``records`` holds ``(messages, continuations)`` pairs (continuations: label -> text).  The model is
    the bundled SmolLM2-135M-Instruct GGUF dequantised to float32, or the float32 safetensors
    ``folder`` that vllm/ loads.
    """
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    if folder is None:
        from causalgraph.llm.local import smollm2_path

        path = smollm2_path()
        where, extra = str(path.parent), {"gguf_file": path.name}
    else:
        where, extra = str(folder), {}
    tok = AutoTokenizer.from_pretrained(where, local_files_only=True, **extra)
    model = AutoModelForCausalLM.from_pretrained(where, local_files_only=True, dtype=torch.float32, **extra)
    model.eval()
    out = []
    for messages, conts in records:
        text = tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        ctx = tok(text, add_special_tokens=False)["input_ids"]
        got = {}
        for label, cont in conts.items():
            c = tok(cont, add_special_tokens=False)["input_ids"]
            with torch.no_grad():
                logits = model(input_ids=torch.tensor([ctx + c])).logits[0].double()
            logp = torch.log_softmax(logits, dim=-1)
            # Token t of the continuation is predicted at position len(ctx) - 1 + t.
            got[label] = math.fsum(float(logp[len(ctx) - 1 + t, tid]) for t, tid in enumerate(c))
        out.append(got)
    return out
