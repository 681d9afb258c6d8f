"""Test-wide fixtures: no test touches the real home, and paths to shared test data."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.corpus import ROOT
from tests.corpus import corpus_dir as _corpus_dir

SAMPLE = ROOT / "resources" / "sample"


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory, monkeypatch):
    """Point HOME and every XDG folder at a temporary folder for each test.

    QStandardPaths, QSettings, jieba's cache and our index location all follow these, so a
    test that writes to the real home fails to find its file rather than silently succeeding.
    """
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    for var, sub in (
        ("XDG_CONFIG_HOME", ".config"),
        ("XDG_DATA_HOME", ".local/share"),
        ("XDG_CACHE_HOME", ".cache"),
        ("XDG_STATE_HOME", ".local/state"),
    ):
        (home / sub).mkdir(parents=True, exist_ok=True)
        monkeypatch.setenv(var, str(home / sub))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(home / "run"))
    (home / "run").mkdir(mode=0o700, exist_ok=True)
    yield home


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    """The shared development corpus of real Chinese and English text."""
    return _corpus_dir()


@pytest.fixture(scope="session")
def sample_dir() -> Path:
    return SAMPLE
