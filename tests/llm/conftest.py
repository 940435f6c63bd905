from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


@pytest.fixture
def standin():
    from llm_standin import Standin

    s = Standin().start()
    try:
        yield s
    finally:
        s.stop()
