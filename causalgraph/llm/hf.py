"""``hf/<local dir or file.gguf>``: transformers + torch, greedy and batched.

Models are read from local files only (``local_files_only=True``;
``HF_HUB_OFFLINE`` is honoured and set while loading).  A ``.gguf`` path (or
the ``gguf_file`` option with a folder) is loaded through transformers' GGUF
support (needs the ``gguf`` package); ``hf/smollm2`` is the bundled
SmolLM2-135M-Instruct.  Prompts are formatted with the tokenizer's chat
template.  Decoding is greedy (``do_sample=False``): the backend refuses a
temperature above 0 rather than silently ignore it.

Concurrent requests are gathered into batches of up to ``batch_size``
(default 8) and generated together with left padding; one worker thread
runs the model.

Log-likelihood scoring (``--method loglik``, :meth:`HFBackend.score`):
items are gathered into batches like generation requests.  Within a batch,
contexts that share a long token prefix (items built from one statement
share the graph part of the prompt, a real token prefix through the chat
template) are grouped (:func:`group_by_prefix`); each group's prefix is
computed once, as one unpadded row, and its key/value cache is repeated for
the group's members, whose remaining tokens go through one forward pass
(left padded up to the prefix, position ids counted over each row's real
tokens, logits kept for the last position only).  The prefix of the batch's
last item is kept for the next batch, which usually holds the same
statement's next items.  That key/value cache is then repeated for each of
an item's choices, and a second pass over the continuations (right padded)
gives the log-probabilities of their remaining tokens; single-token
continuations (``Yes``/``No``) need only the first pass.  Models whose cache
cannot be cut back to a prefix (sliding-window layers) score each batch
from the start, left padded.  Generation is unchanged (``generate`` computes
each prompt in full).

Options: ``gguf_file``, ``batch_size``, ``batch_wait`` (seconds to wait for
a batch to fill, default 0.02), ``dtype`` (``float32`` default, or
``bfloat16``/``float16``), ``device`` (``cpu`` default), ``default_max_tokens``
(default 512), ``threads`` (torch threads).  Any other option, and any
request parameter (:attr:`Request.params`, stop sequences: the batch is
decoded greedily and together), is refused with a
:class:`~causalgraph.errors.ConfigError` rather than dropped.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any, Optional, Sequence

from ..errors import BackendError, ConfigError
from .base import Backend, Completion, Request
from .batching import MicroBatcher
from .local import gguf_reader_needs, require_packages, resolve_model_file
from .loglik import ChoiceScores, LoglikRequest

__all__ = ["HFBackend", "HF_OPTIONS", "group_by_prefix", "common_prefix_length", "MIN_SHARED_PREFIX"]

#: The options the hf backend understands.
HF_OPTIONS = ("gguf_file", "batch_size", "batch_wait", "dtype", "device", "default_max_tokens", "threads")
#: The fewest tokens two contexts must share for their key/value cache to be computed once.
MIN_SHARED_PREFIX = 16


def common_prefix_length(a: Sequence[int], b: Sequence[int]) -> int:
    """How many leading tokens ``a`` and ``b`` share.

    Examples
    --------
    >>> common_prefix_length([1, 2, 3, 4], [1, 2, 5])
    2
    """
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def group_by_prefix(contexts: Sequence[Sequence[int]],
                    min_shared: int = MIN_SHARED_PREFIX) -> list[tuple[int, list[int]]]:
    """Split a batch's contexts into groups whose shared token prefix is computed once.

    Each group is ``(prefix_len, member indices)``: its members' first
    ``prefix_len`` tokens are equal, and every member keeps at least one token
    after the prefix (its last token's logits predict the continuation).
    Items are taken in order; an item joins the first group where that saves
    work, counted in tokens through the model: a group costs its prefix once
    plus, per member, the longest suffix (the suffixes are padded to it).
    A group of one has no prefix (``prefix_len`` 0) unless the previous
    batch's prefix serves it (:meth:`HFBackend._prefix_cache`).

    Examples
    --------
    >>> a, b, c = [1] * 20 + [2, 3], [1] * 20 + [4], [9, 9, 9]
    >>> group_by_prefix([a, b, c])
    [(20, [0, 1]), (0, [2])]
    """
    groups: list[tuple[list[int], list[int]]] = []  # (prefix tokens, members)

    def cost(prefix: Sequence[int], members: list[int]) -> int:
        return len(prefix) + len(members) * max(len(contexts[m]) - len(prefix) for m in members)

    for i, c in enumerate(contexts):
        best, best_gain = None, 0
        for g, (prefix, members) in enumerate(groups):
            shared = min(common_prefix_length(prefix, c), len(c) - 1)
            if shared < min_shared:
                continue
            # Tokens saved by joining rather than opening a group of one (which computes all of c).
            gain = cost(prefix, members) + len(c) - cost(prefix[:shared], members + [i])
            if gain > best_gain:
                best, best_gain = g, gain
        if best is None:
            groups.append((list(c[:-1]), [i]))
        else:
            prefix, members = groups[best]
            shared = min(common_prefix_length(prefix, c), len(c) - 1)
            groups[best] = (prefix[:shared], members + [i])
    return [(len(p) if len(m) > 1 else 0, m) for p, m in groups]


class HFBackend(Backend):
    """A local transformers model.

    Examples
    --------
    >>> from causalgraph.llm import get_backend
    >>> b = get_backend("hf/smollm2", batch_size=4)   # doctest: +SKIP
    """

    provider = "hf"
    #: The runner refuses a temperature above 0 for this backend before sending anything.
    greedy_only = True
    accepted_options = HF_OPTIONS
    loglik = True

    def __init__(self, model: str, **options: Any):
        import torch  # noqa: F401  (fail early with the install hint)
        import transformers  # noqa: F401

        self.check_options(model, options)
        super().__init__(model, **options)
        path = resolve_model_file(model)
        gguf = options.get("gguf_file")
        if path.is_file():
            if gguf:
                raise ConfigError(f"hf/{model}: give either a .gguf file or a folder with gguf_file, not both")
            self.folder, self.gguf_file = path.parent, path.name
        else:
            self.folder, self.gguf_file = path, (str(gguf) if gguf else None)
        if self.gguf_file:  # transformers reads a .gguf file through the gguf package, imported on loading
            require_packages(f"hf/{model}", gguf_reader_needs(self.gguf_file))
        self.batch_size = int(options.get("batch_size", 8))
        self.batch_wait = float(options.get("batch_wait", 0.02))
        if self.batch_size < 1:
            raise ConfigError(f"hf option batch_size={self.batch_size}: expected an integer >= 1")
        self._model = None
        self._tok = None
        self._batcher = MicroBatcher(self._generate_batch, max_size=self.batch_size, wait=self.batch_wait)
        self._scorer = MicroBatcher(self._score_batch, max_size=self.batch_size, wait=self.batch_wait)
        # Generation and scoring run in their batchers' worker threads; the model serves one at a time.
        self._model_lock = threading.Lock()
        self._shares_prefix: Optional[bool] = None  # known once the model is loaded (_prefix_sharing)
        # (token ids, key/value cache) of the last batch's shared prefix, for the next batch.
        self._last_prefix: Optional[tuple[tuple[int, ...], Any]] = None

    def identity(self) -> dict[str, Any]:
        # The weights, not the way they were named (file, or folder + gguf_file), identify the model.
        if self.gguf_file:
            f = self.folder / self.gguf_file
            model = {"file": self.gguf_file, "size": f.stat().st_size if f.is_file() else None}
        else:
            model = {"folder": str(self.folder)}
        return {"provider": self.provider, "model": model, "base_url": None, "decoding": "greedy",
                "dtype": str(self.options.get("dtype", "float32")),
                # decides the length of an answer whenever a request sets no max_tokens
                "default_max_tokens": int(self.options.get("default_max_tokens", 512))}

    def default_concurrency(self) -> int:
        return self.batch_size

    def _load(self):
        if self._model is not None:
            return self._tok, self._model
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        if self.options.get("threads"):
            torch.set_num_threads(int(self.options["threads"]))
        kw: dict[str, Any] = {"local_files_only": True}
        if self.gguf_file:
            kw["gguf_file"] = self.gguf_file
        dtype = str(self.options.get("dtype", "float32"))
        try:
            torch_dtype = getattr(torch, dtype)
        except AttributeError:
            raise ConfigError(f"hf option dtype={dtype!r}: expected float32, bfloat16 or float16") from None
        try:
            tok = AutoTokenizer.from_pretrained(str(self.folder), **kw)
            model = AutoModelForCausalLM.from_pretrained(str(self.folder), dtype=torch_dtype, **kw)
        except (OSError, ValueError) as exc:
            raise BackendError(f"transformers could not load {self.folder}"
                               f"{'/' + self.gguf_file if self.gguf_file else ''} from local files: {exc}") from None
        model.to(str(self.options.get("device", "cpu")))
        model.eval()
        tok.padding_side = "left"  # decoder-only models continue from the right end
        if tok.pad_token is None:
            tok.pad_token = tok.eos_token
        if not getattr(tok, "chat_template", None):
            raise BackendError(f"{self.folder}: the tokenizer has no chat template; hf/ backends need an "
                               "instruction-tuned model with one")
        self._tok, self._model = tok, model
        return tok, model

    def _generate_batch(self, requests: list[Request]) -> list[Completion]:
        with self._model_lock:
            return self._generate_locked(requests)

    def context_ids(self, request: Request) -> list[int]:
        """Token ids of the prompt through the chat template with the assistant turn opened, tokenized alone."""
        tok, _ = self._load()
        text = tok.apply_chat_template([dict(m) for m in request.messages], tokenize=False, add_generation_prompt=True)
        return list(tok(text, add_special_tokens=False)["input_ids"])

    def continuation_ids(self, text: str) -> list[int]:
        """Token ids of a continuation, tokenized alone without special tokens."""
        tok, _ = self._load()
        ids = list(tok(text, add_special_tokens=False)["input_ids"])
        if not ids:
            raise BackendError(f"continuation {text!r} has no tokens for {self.folder.name}")
        return ids

    def _score_batch(self, requests: list[LoglikRequest]) -> list[ChoiceScores]:
        with self._model_lock:
            return self._score_locked(requests)

    def _prefix_sharing(self) -> bool:
        """Whether the model's key/value cache can be cut back and copied (every layer a plain, full-attention one).

        Sliding-window or linear-attention layers keep a state that cannot be cropped to a prefix; for those
        models each batch is scored from the start.
        """
        if self._shares_prefix is None:
            import torch
            from transformers.cache_utils import DynamicLayer

            _, model = self._load()
            with torch.no_grad():
                out = model(input_ids=torch.tensor([[0]], device=model.device), use_cache=True, logits_to_keep=1)
            layers = getattr(out.past_key_values, "layers", None)
            self._shares_prefix = bool(layers) and all(type(layer) is DynamicLayer for layer in layers)
        return self._shares_prefix

    def _score_locked(self, requests: list[LoglikRequest]) -> list[ChoiceScores]:
        tok, model = self._load()
        ctx = [self.context_ids(r.request) for r in requests]
        conts = [[self.continuation_ids(c) for c in r.continuations] for r in requests]
        t0 = time.perf_counter()
        if self._prefix_sharing():
            groups = group_by_prefix(ctx)
            if self._last_prefix is not None:
                # An item alone in its group may still share the previous batch's prefix.
                old = self._last_prefix[0]
                for g, (prefix_len, members) in enumerate(groups):
                    shared = common_prefix_length(old, ctx[members[0]][:-1])
                    if len(members) == 1 and shared >= MIN_SHARED_PREFIX:
                        groups[g] = (shared, members)
        else:
            groups = [(0, list(range(len(ctx))))]
        scored: dict[int, list[list[float]]] = {}
        for prefix_len, members in groups:
            cache = self._prefix_cache(ctx[members[0]][:prefix_len]) if prefix_len else None
            got = self._score_group(prefix_len, cache, [ctx[b] for b in members], [conts[b] for b in members])
            scored.update(zip(members, got))
            if cache is not None and len(ctx) - 1 in members:
                # The batch's last item's prefix serves the next batch (the same statement's next items).
                self._last_prefix = (tuple(ctx[members[0]][:prefix_len]), cache)
        latency = time.perf_counter() - t0
        results = []
        for b, cs in enumerate(conts):
            per_token = scored[b]
            results.append(ChoiceScores(logprobs=tuple(float(sum(t)) for t in per_token),
                                        token_counts=tuple(len(c) for c in cs), prompt_tokens=len(ctx[b]),
                                        latency_s=latency, model=self.gguf_file or self.folder.name,
                                        raw={"batch_size": len(requests), "token_logprobs": per_token,
                                             "shared_prefix_tokens": next(p for p, m in groups if b in m)}))
        return results

    def _prefix_cache(self, prefix: list[int]):
        """The key/value cache of ``prefix`` (one row), from the previous batch's prefix where they share tokens."""
        import copy

        import torch

        _, model = self._load()
        dev = model.device
        cache, done = None, 0
        if self._last_prefix is not None:
            old, old_cache = self._last_prefix
            done = common_prefix_length(old, prefix)
            if done >= MIN_SHARED_PREFIX:
                cache = copy.deepcopy(old_cache)  # the stored cache stays as it is for the next batch
                if len(old) > done:
                    cache.crop(-(len(old) - done))
            else:
                done = 0
        if done < len(prefix):
            with torch.no_grad():
                out = model(input_ids=torch.tensor([prefix[done:]], device=dev),
                            position_ids=torch.arange(done, len(prefix), device=dev)[None, :],
                            past_key_values=cache, use_cache=True, logits_to_keep=1)
            cache = out.past_key_values
        return cache

    def _score_group(self, prefix_len: int, cache, ctx: list[list[int]], conts: list[list[list[int]]]):
        """Per-token log-probabilities of each item's continuations; the items share ``prefix_len`` tokens in ``cache``.

        The suffixes (each context after the shared prefix) are left padded up to the prefix, so every row's
        last position is its context's last token; position ids count each row's real tokens.
        """
        import copy

        import torch

        tok, model = self._load()
        dev = model.device
        pad = tok.pad_token_id
        n = len(ctx)
        suffix = [c[prefix_len:] for c in ctx]
        width = max(len(c) for c in suffix)
        ids = torch.tensor([[pad] * (width - len(c)) + c for c in suffix], device=dev)
        smask = torch.tensor([[0] * (width - len(c)) + [1] * len(c) for c in suffix], device=dev)
        mask = torch.cat([torch.ones((n, prefix_len), dtype=smask.dtype, device=dev), smask], dim=-1)
        pos = prefix_len + (smask.cumsum(-1) - 1).clamp(min=0)
        past = None
        if cache is not None:
            past = copy.deepcopy(cache)  # the forward pass appends to the cache it is given
            past.batch_repeat_interleave(n)
        # Rows of the second pass: one per (item, choice) whose continuation has more than one token.
        rows = [(b, j) for b, cs in enumerate(conts) for j, c in enumerate(cs) if len(c) > 1]
        with torch.no_grad():
            # (log_softmax in float64: over ~50k logits float32 rounding alone reaches 1e-5 per token.)
            # logits_to_keep=1: only the last position's logits (a full [batch, length, vocab] tensor is GBs).
            out = model(input_ids=ids, attention_mask=mask, position_ids=pos, past_key_values=past,
                        use_cache=bool(rows), logits_to_keep=1)
            first = torch.log_softmax(out.logits[:, -1, :].double(), dim=-1)  # predicts each first continuation token
            rest: dict[tuple[int, int], list[float]] = {}
            if rows:
                index = torch.tensor([b for b, _ in rows], device=dev)
                full = out.past_key_values
                full.reorder_cache(index)  # the item's prompt, once per choice, without recomputing it
                tails = [conts[b][j] for b, j in rows]
                t_width = max(len(t) - 1 for t in tails)
                t_ids = torch.tensor([t[:-1] + [pad] * (t_width - len(t) + 1) for t in tails], device=dev)
                t_mask = torch.tensor([[1] * (len(t) - 1) + [0] * (t_width - len(t) + 1) for t in tails], device=dev)
                start = mask.sum(-1)[index]
                t_pos = start[:, None] + torch.arange(t_width, device=dev)[None, :]
                out2 = model(input_ids=t_ids, attention_mask=torch.cat([mask[index], t_mask], dim=-1),
                             position_ids=t_pos, past_key_values=full, use_cache=False)
                lp2 = torch.log_softmax(out2.logits.double(), dim=-1)
                for r, ((b, j), t) in enumerate(zip(rows, tails)):
                    rest[(b, j)] = [float(lp2[r, k, t[k + 1]]) for k in range(len(t) - 1)]
        return [[[float(first[b, c[0]])] + rest.get((b, j), []) for j, c in enumerate(cs)]
                for b, cs in enumerate(conts)]

    def _generate_locked(self, requests: list[Request]) -> list[Completion]:
        import torch

        tok, model = self._load()
        max_new = max(int(r.max_tokens or self.options.get("default_max_tokens", 512)) for r in requests)
        texts = [tok.apply_chat_template([dict(m) for m in r.messages], tokenize=False, add_generation_prompt=True)
                 for r in requests]
        enc = tok(texts, return_tensors="pt", padding=True, add_special_tokens=False)
        enc = {k: v.to(model.device) for k, v in enc.items()}
        t0 = time.perf_counter()
        with torch.no_grad():
            out = model.generate(**enc, do_sample=False, max_new_tokens=max_new, pad_token_id=tok.pad_token_id,
                                 temperature=None, top_p=None, top_k=None)
        latency = time.perf_counter() - t0
        width = enc["input_ids"].shape[1]
        eos = tok.eos_token_id
        eos_ids = set(eos) if isinstance(eos, (list, tuple)) else {eos}
        results = []
        for i, r in enumerate(requests):
            new = out[i, width:].tolist()
            limit = int(r.max_tokens or self.options.get("default_max_tokens", 512))
            n, finish = 0, "length"
            for tid in new[:limit]:
                if tid in eos_ids:
                    finish = "stop"
                    break
                n += 1
            text = tok.decode(new[:n], skip_special_tokens=True)
            results.append(Completion(text=text, prompt_tokens=int(enc["attention_mask"][i].sum()),
                                      completion_tokens=n, latency_s=latency, finish_reason=finish,
                                      model=self.gguf_file or self.folder.name,
                                      raw={"batch_size": len(requests), "generated_token_ids": new[:n]}))
        return results

    def check_request(self, request: Request) -> None:
        if request.temperature not in (None, 0, 0.0):
            raise ConfigError(f"hf backend decodes greedily; temperature {request.temperature} was asked "
                              "(use --temperature 0)")
        if request.params:
            raise ConfigError(f"hf backend cannot honour request parameter {', '.join(sorted(request.params))}; "
                              "it decodes greedily without further parameters")
        if request.stop:
            raise ConfigError(f"hf backend cannot honour stop sequences {list(request.stop)!r}; it stops at the "
                              "end-of-turn token or max_tokens")

    async def complete(self, request: Request) -> Completion:
        self.check_request(request)
        return await self._batcher.submit(request)

    async def score(self, request: LoglikRequest) -> ChoiceScores:
        self.check_request(request.request)
        return await self._scorer.submit(request)

    async def aclose(self) -> None:
        await self._batcher.aclose()  # a batch still running finishes before the model goes
        await self._scorer.aclose()
        self._model = None
        self._tok = None
        self._last_prefix = None  # a key/value cache of the model just freed
