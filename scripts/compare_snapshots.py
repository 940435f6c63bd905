"""Compare two folders written by scripts/snapshot_outputs.sh, byte for byte, payloads decompressed.

    python scripts/compare_snapshots.py BEFORE AFTER

Every file must exist in both and hold the same bytes, with one exception:
the run pages (``bench view``, ``report --runs``) carry their item details
as gzipped JSON in base64 (causalgraph.viewer.payload), whose records hold
times and latencies that differ from run to run.  For an HTML file whose
bytes differ, the JSON block of the page is read, every gzip chunk in it
decompressed, times and latencies masked as the snapshot script masks them
in files, and the page compared again outside that block and inside it.

Prints one line per file that differs and a summary; exits 1 if any does.
"""

from __future__ import annotations

import base64
import binascii
import gzip
import json
import re
import sys
from pathlib import Path

_BLOCK = re.compile(r'(<script type="application/json" id="[\w-]+">)(.*?)(</script>)', re.S)
_TIME_KEYS = re.compile(r"^(started|finished|created|updated|written)(_at)?$|^(elapsed|duration|wall|latency)"
                        r"(_s|_ms)?$|^time$")


def _inflate(value):
    """The JSON value with every gzip+base64 string decoded and times masked."""
    if isinstance(value, str) and len(value) > 20 and value.startswith("H4sI"):
        try:
            return _inflate(json.loads(gzip.decompress(base64.b64decode(value)).decode("utf-8")))
        except (binascii.Error, OSError, ValueError):
            return value
    if isinstance(value, list):
        return [_inflate(v) for v in value]
    if isinstance(value, dict):
        return {k: ("T" if _TIME_KEYS.match(k) else _inflate(v)) for k, v in value.items()}
    return value


def _page_parts(text: str):
    blocks = [_inflate(json.loads(m.group(2))) for m in _BLOCK.finditer(text)]
    return _BLOCK.sub(r"\1\3", text), blocks


def same(a: Path, b: Path) -> bool:
    x, y = a.read_bytes(), b.read_bytes()
    if x == y:
        return True
    if a.suffix.lower() not in (".html", ".htm"):
        return False
    try:
        return _page_parts(x.decode("utf-8")) == _page_parts(y.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return False


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: compare_snapshots.py BEFORE AFTER", file=sys.stderr)
        return 2
    before, after = (Path(p) for p in argv)
    files_a = {p.relative_to(before) for p in before.rglob("*") if p.is_file()}
    files_b = {p.relative_to(after) for p in after.rglob("*") if p.is_file()}
    bad = [f"only in {before}: {p}" for p in sorted(files_a - files_b)]
    bad += [f"only in {after}: {p}" for p in sorted(files_b - files_a)]
    bad += [f"differs: {p}" for p in sorted(files_a & files_b) if not same(before / p, after / p)]
    for line in bad:
        print(line)
    print(f"{len(files_a & files_b) - sum(1 for b in bad if b.startswith('differs'))} of {len(files_a | files_b)} "
          f"files identical")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
