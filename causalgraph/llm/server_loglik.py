"""``openai-compatible/<model>``: an OpenAI-compatible server that returns prompt log-probabilities.

Chat requests (``--method generate``) go to ``/chat/completions`` exactly as
``openai/`` sends them.  Scoring (``--method loglik``) uses the completions
endpoint the way lm-evaluation-harness's ``local-completions`` model does:
for each continuation, ``POST /completions`` with the prompt text followed
by the continuation, ``echo: true``, ``logprobs: 1``, ``max_tokens: 1`` and
temperature 0; the server returns the log-probability of every prompt token
it was sent, and the continuation's are summed.

Servers known to answer that way: ``vllm serve`` (any model) and the
llama.cpp server of llama-cpp-python (``python -m llama_cpp.server --model
M.gguf --logits_all true``; without ``logits_all`` it refuses ``logprobs``).
OpenAI's own API does not (its completions endpoint takes no ``echo`` with
log-probabilities for current models), so its URL is refused.

The completions endpoint takes text, not chat messages, so the chat
template is applied here, from the option ``tokenizer``: the model's folder
(``config.json`` and tokenizer files), a ``.gguf`` file, or ``smollm2`` for
the bundled SmolLM2 (read with transformers, local files only).  The
continuation's tokens are found at the end of the echoed prompt: the last
tokens whose texts join to exactly the continuation (a token that would
straddle the end of the context and the continuation is an error naming
both, never a silent misalignment).

Options: those of ``openai/`` (``base_url`` required, ``api_key``,
``timeout``, ``max_tokens_param``) plus ``tokenizer``.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from ..errors import BackendError, ConfigError
from .loglik import ChoiceScores, LoglikRequest
from .base import public_url
from .openai import OPENAI_URL, OpenAIBackend
from .local import HF_INSTALL, gguf_reader_needs, require_packages, resolve_model_file

__all__ = ["PromptLogprobsBackend", "continuation_logprob"]


def continuation_logprob(tokens: list[str], logprobs: list, n_prompt: int, continuation: str,
                         n_generated: int = 0) -> tuple[float, int]:
    """Sum of the log-probabilities of the echoed prompt's last tokens that spell ``continuation``.

    Parameters
    ----------
    tokens, logprobs
        The server's ``logprobs.tokens`` and ``logprobs.token_logprobs``.
    n_prompt
        How many prompt tokens the server counted (``usage.prompt_tokens``).
    continuation
        The text the prompt ends with.
    n_generated
        Tokens the server generated (``usage.completion_tokens``).

    Servers differ in what the echoed list holds: vLLM lists every prompt token and then the generated
    ones; the llama.cpp server lists the prompt tokens only and leaves out special tokens whose text is
    empty.  So the prompt's end is looked for at ``n_prompt``, at ``len(tokens) - n_generated`` and at
    ``len(tokens)``, and the first place where the last tokens spell exactly the continuation is taken.

    Returns
    -------
    (summed log-probability, number of tokens)

    Examples
    --------
    >>> continuation_logprob(["<s>", "Is", " it", "?", " Yes", "!"], [None, -1.0, -2.0, -0.5, -0.25, -3.0], 5, " Yes", 1)
    (-0.25, 1)
    """
    seen = []
    for end in (n_prompt, len(tokens) - n_generated, len(tokens)):
        if end in seen or not 0 < end <= min(len(tokens), len(logprobs)):
            continue
        seen.append(end)
        text, k = "", 0
        while len(text) < len(continuation) and k < end:
            k += 1
            text = str(tokens[end - k]) + text
        if text == continuation:
            lps = logprobs[end - k:end]
            if any(x is None for x in lps):
                raise BackendError("the server returned no log-probability for a continuation token")
            return float(sum(float(x) for x in lps)), k
    tail = "".join(str(t) for t in tokens[-8:])
    raise BackendError(f"the echoed prompt (ending {tail!r}) does not end with the continuation {continuation!r} "
                       "token by token: the server merged the continuation with the end of the context, or echoed "
                       "something else")


class PromptLogprobsBackend(OpenAIBackend):
    """An OpenAI-compatible server (``vllm serve``, the llama.cpp server) scoring continuations by log-likelihood.

    Examples
    --------
    >>> from causalgraph.llm import get_backend
    >>> b = get_backend("openai-compatible/smollm2", base_url="http://127.0.0.1:8080/v1",
    ...                 tokenizer="smollm2")   # doctest: +SKIP
    """

    provider = "openai-compatible"
    loglik = True
    batch_client = None  # the Batch API is OpenAI's
    _CLIENT_OPTIONS = OpenAIBackend._CLIENT_OPTIONS + ("tokenizer",)

    def __init__(self, model: str, **options: Any):
        import os

        url = options.get("base_url") or os.environ.get("OPENAI_BASE_URL")
        if not url:
            # Checked first: without a server there is nothing to ask, whatever the key.
            raise ConfigError(f"openai-compatible/{model} needs --base-url http://HOST:PORT/v1 (a server that "
                              "returns prompt log-probabilities: vllm serve, the llama.cpp server); for OpenAI's "
                              "own API use openai/")
        if public_url(str(url)).rstrip("/") == OPENAI_URL:
            raise ConfigError(f"openai-compatible/{model}: the OpenAI API returns no log-probabilities of given "
                              "text; give the base URL of a server that does (vllm serve, the llama.cpp server), "
                              "or use openai/ with --method generate")
        if not options.get("tokenizer"):
            raise ConfigError(f"openai-compatible/{model}: option tokenizer=PATH is required (the model's folder, a "
                              ".gguf file or smollm2): the completions endpoint takes text, so the chat template is "
                              "applied here")
        tokenizer = str(options["tokenizer"])
        # Every package the run will need, the client's and the chat template's, checked before the first item
        # (else each item fails alike), in one line naming each install command.
        require_packages(f"openai-compatible/{model} (tokenizer={tokenizer})",
                         [("openai", "openai", "pip install 'causalgraph[openai]'"),
                          ("transformers", "transformers", HF_INSTALL), *gguf_reader_needs(tokenizer)])
        super().__init__(model, **options)
        resolve_model_file(tokenizer)  # a tokenizer path that does not exist: one line now
        self._tokenizer = None

    def identity(self) -> dict[str, Any]:
        ident = super().identity()
        ident["tokenizer"] = str(self.options.get("tokenizer"))
        return ident

    def _template(self):
        if self._tokenizer is None:
            from transformers import AutoTokenizer

            path = resolve_model_file(str(self.options["tokenizer"]))
            try:
                if path.is_file():
                    tok = AutoTokenizer.from_pretrained(str(path.parent), gguf_file=path.name, local_files_only=True)
                else:
                    tok = AutoTokenizer.from_pretrained(str(path), local_files_only=True)
            except (OSError, ValueError) as exc:
                raise BackendError(f"could not read a tokenizer from {path}: {exc}") from None
            if not getattr(tok, "chat_template", None):
                raise BackendError(f"{path}: the tokenizer has no chat template")
            self._tokenizer = tok
        return self._tokenizer

    def context_text(self, request) -> str:
        """The messages through the chat template with the assistant turn opened (what the server continues)."""
        return self._template().apply_chat_template([dict(m) for m in request.messages], tokenize=False,
                                                    add_generation_prompt=True)

    async def score(self, request: LoglikRequest) -> ChoiceScores:
        client = self._get_client()
        ctx = await asyncio.to_thread(self.context_text, request.request)
        t0 = time.perf_counter()
        bodies = [{"model": self.model, "prompt": ctx + c, "echo": True, "logprobs": 1, "max_tokens": 1,
                   "temperature": 0.0} for c in request.continuations]
        resps = await asyncio.gather(*[self._send(client.completions.create, b) for b in bodies])
        lps, counts, prompt_tokens = [], [], None
        for cont, resp in zip(request.continuations, resps):
            body = resp.model_dump(mode="json")
            choice = (body.get("choices") or [{}])[0]
            lp = choice.get("logprobs") or {}
            tokens, token_lps = lp.get("tokens") or [], lp.get("token_logprobs") or []
            n_prompt = (body.get("usage") or {}).get("prompt_tokens")
            if not tokens or n_prompt is None:
                raise BackendError(f"{self.endpoint} returned no prompt log-probabilities (echo with logprobs); "
                                   "the llama.cpp server needs --logits_all true")
            n_gen = int((body.get("usage") or {}).get("completion_tokens") or 0)
            total, k = continuation_logprob(tokens, token_lps, int(n_prompt), cont, n_gen)
            lps.append(total)
            counts.append(k)
            prompt_tokens = int(n_prompt) - k
        return ChoiceScores(logprobs=tuple(lps), token_counts=tuple(counts), prompt_tokens=prompt_tokens,
                            latency_s=time.perf_counter() - t0, model=self.model)
