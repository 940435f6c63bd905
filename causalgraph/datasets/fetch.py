"""Where the corpus files come from: explicit path, data folder, cache, download.

A dataset *name* resolves, in this order, to

1. an explicit path given by the caller;
2. ``$CAUSALGRAPH_DATA/<name>/<file>``;
3. the user cache, ``$CAUSALGRAPH_CACHE`` or ``~/.cache/causalgraph``, as
   ``<cache>/<name>/<file>``;
4. a download from the pinned upstream URL, verified against its sha256 and
   written atomically into the cache.

``CAUSALGRAPH_OFFLINE=1`` skips step 4.  With no data and no download the
caller gets :class:`~causalgraph.errors.DataNotFound`, whose message says which
variable or path to set.
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from ..errors import ChecksumError, DataNotFound

__all__ = [
    "DataFile",
    "DATASETS",
    "cache_dir",
    "data_dir",
    "resolve_file",
    "download",
    "sha256_file",
]

_CC_COMMIT = "489d5f07b29dd01f2c5985126503a0a93f27287b"
_PMC_COMMIT = "6d521c93843037dbe7ef7547ea64f62c01209aaa"
_RAW = "https://raw.githubusercontent.com"


@dataclass(frozen=True)
class DataFile:
    """One file of a dataset, pinned by URL and checksum."""

    dataset: str
    filename: str
    url: str
    sha256: str


DATASETS: dict[str, dict[str, DataFile]] = {
    "climatecause": {
        "full": DataFile(
            "climatecause",
            "Full_IPCC_DATASET.xlsx",
            f"{_RAW}/laallein/ClimateCause/{_CC_COMMIT}/Data/Full_IPCC_DATASET.xlsx",
            "f444850e51e22b1cc4f95e27f8a535a3cc8db70377f01cc5dd263740e5462f1b",
        ),
    },
    "pubmedcausal": {
        "train": DataFile(
            "pubmedcausal",
            "extraction_train.json",
            f"{_RAW}/josiahpaul07/PubMedCausal_Exp/{_PMC_COMMIT}/PUBMEDCAUSAL/data/prepared/extraction_combined/train.json",
            "6d88d9c7d216b0cb47090508b928b9cceb7cdf298aa81add5f1ea2a89c94bab8",
        ),
        "test": DataFile(
            "pubmedcausal",
            "extraction_test.json",
            f"{_RAW}/josiahpaul07/PubMedCausal_Exp/{_PMC_COMMIT}/PUBMEDCAUSAL/data/prepared/extraction_combined/test.json",
            "c0fc6c1f67774cc66b4a0b738980d6369a2aa3a8afaea89f40f66a059b1ae7bb",
        ),
    },
}


def cache_dir() -> Path:
    """The user cache folder (``$CAUSALGRAPH_CACHE`` or ``~/.cache/causalgraph``)."""
    env = os.environ.get("CAUSALGRAPH_CACHE")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "causalgraph"


def data_dir() -> Optional[Path]:
    """The data folder named by ``$CAUSALGRAPH_DATA``, or ``None``."""
    env = os.environ.get("CAUSALGRAPH_DATA")
    return Path(env).expanduser() if env else None


def sha256_file(path: str | os.PathLike) -> str:
    """The hex sha256 of a file, read in chunks."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _lookup(dataset: str, part: str) -> DataFile:
    try:
        return DATASETS[dataset][part]
    except KeyError:
        known = ", ".join(f"{d}/{p}" for d in DATASETS for p in DATASETS[d])
        raise DataNotFound(f"unknown dataset file {dataset}/{part}; known: {known}") from None


def resolve_file(dataset: str, part: str, *, download_missing: bool = True) -> Path:
    """The local path of one dataset file, downloading it into the cache if needed.

    Parameters
    ----------
    dataset, part
        A key of :data:`DATASETS`, e.g. ``("pubmedcausal", "test")``.
    download_missing
        Try the pinned URL when no local copy exists (unless
        ``CAUSALGRAPH_OFFLINE=1``).

    Examples
    --------
    >>> resolve_file("climatecause", "full").name  # doctest: +SKIP
    'Full_IPCC_DATASET.xlsx'
    """
    entry = _lookup(dataset, part)
    tried = []
    ddir = data_dir()
    if ddir is not None:
        p = ddir / dataset / entry.filename
        if p.is_file():
            return p
        tried.append(str(p))
    cached = cache_dir() / dataset / entry.filename
    if cached.is_file():
        return cached
    tried.append(str(cached))
    offline = os.environ.get("CAUSALGRAPH_OFFLINE", "").strip() not in ("", "0")
    if download_missing and not offline:
        try:
            return download(entry)
        except (urllib.error.URLError, OSError) as exc:
            raise DataNotFound(
                f"{dataset} file {entry.filename} not found (looked in {', '.join(tried)}) and the download "
                f"from {entry.url} failed ({exc}); set CAUSALGRAPH_DATA to a folder holding "
                f"{dataset}/{entry.filename}, or pass the file's path"
            ) from None
    why = "CAUSALGRAPH_OFFLINE is set" if offline else "downloads are disabled"
    raise DataNotFound(
        f"{dataset} file {entry.filename} not found (looked in {', '.join(tried)}) and {why}; "
        f"set CAUSALGRAPH_DATA to a folder holding {dataset}/{entry.filename}, or pass the file's path"
    )


def download(entry: DataFile, *, url: Optional[str] = None, dest_dir: Optional[Path] = None,
             progress: bool = True, timeout: float = 60.0) -> Path:
    """Download one file, verify its sha256 and move it atomically into the cache.

    The bytes go to a temporary file beside the destination; only a file
    whose checksum matches is renamed into place, so an interrupted or
    corrupted download never leaves a file in the cache.

    Raises
    ------
    ChecksumError
        The downloaded bytes do not match ``entry.sha256``.
    """
    url = url or entry.url
    dest_dir = Path(dest_dir) if dest_dir else cache_dir() / entry.dataset
    dest_dir.mkdir(parents=True, exist_ok=True)
    dest = dest_dir / entry.filename
    fd, tmp_name = tempfile.mkstemp(prefix=f".{entry.filename}.", suffix=".part", dir=dest_dir)
    tmp = Path(tmp_name)
    h = hashlib.sha256()
    try:
        with os.fdopen(fd, "wb") as out, urllib.request.urlopen(url, timeout=timeout) as resp:
            total = resp.headers.get("Content-Length")
            bar = None
            if progress:
                from tqdm import tqdm

                bar = tqdm(total=int(total) if total else None, unit="B", unit_scale=True,
                           desc=entry.filename, file=sys.stderr, leave=False)
            try:
                for chunk in iter(lambda: resp.read(1 << 16), b""):
                    out.write(chunk)
                    h.update(chunk)
                    if bar is not None:
                        bar.update(len(chunk))
            finally:
                if bar is not None:
                    bar.close()
        got = h.hexdigest()
        if got != entry.sha256:
            raise ChecksumError(
                f"download of {entry.filename} from {url} has sha256 {got}, expected {entry.sha256}; "
                "nothing was written to the cache"
            )
        os.replace(tmp, dest)
    finally:
        if tmp.exists():
            tmp.unlink()
    return dest
