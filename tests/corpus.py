"""Where the development corpus of real text lives (shared by the fixture and module helpers)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("NEARDUP_CORPUS", ROOT.parent / "shared" / "corpus"))


def corpus_dir() -> Path:
    """The corpus folder; the calling test is skipped when it is absent."""
    if not (CORPUS / "debian-reference-en").is_dir():
        pytest.skip(f"development corpus not found at {CORPUS} (set NEARDUP_CORPUS)")
    return CORPUS
