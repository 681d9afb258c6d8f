"""The examiner's settings, the interface language and recent collections, kept with QSettings."""

from __future__ import annotations

import logging
import os
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QSettings

from neardup_gui.app.paths import config_file
from neardup_gui.core.settings import Settings

log = logging.getLogger(__name__)

MAX_RECENT = 8
LANGUAGES = ("", "en", "zh_CN")  # "" follows the system locale


def open_store() -> QSettings:
    """The settings store (an INI file in the user's config folder)."""
    path = config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    return QSettings(str(path), QSettings.Format.IniFormat)


def _float(store: QSettings, key: str, default: float) -> float:
    try:
        return float(store.value(key, default))
    except (TypeError, ValueError):
        return default


def _int(store: QSettings, key: str, default: int) -> int:
    try:
        return int(store.value(key, default))
    except (TypeError, ValueError):
        return default


def _bool(store: QSettings, key: str, default: bool) -> bool:
    value = store.value(key, default)
    if isinstance(value, str):
        return value.lower() in ("1", "true", "yes")
    return bool(value)


def load_settings(store: QSettings) -> Settings:
    """Read the settings, falling back to the defaults for anything missing or unreadable."""
    d = Settings()
    files = store.value("template/files", [])
    if isinstance(files, str):
        files = [files] if files else []
    fingerprints = replace(
        d.fingerprints,
        minhash_bits=_int(store, "fingerprints/minhash_bits", d.fingerprints.minhash_bits),
    )
    strategy = str(store.value("search/strategy", d.strategy))
    if strategy not in ("auto", "brute", "permuted", "grouped", "lsh"):
        strategy = d.strategy
    return d.with_(
        threshold=min(max(_float(store, "match/threshold", d.threshold), 0.0), 1.0),
        min_run=max(1, _int(store, "match/min_run", d.min_run)),
        strategy=strategy,
        template_min_docs=max(2, _int(store, "template/min_docs", d.template_min_docs)),
        # (issue 14: a new key, so a share of 0 saved under the old frequency-only rule is not kept)
        template_min_share=_float(store, "template/automatic_share", d.template_min_share),
        auto_template=_bool(store, "template/automatic", d.auto_template),
        template_files=tuple(str(f) for f in files),
        exclude_quotes=_bool(store, "exclude/quotes", d.exclude_quotes),
        exclude_bibliography=_bool(store, "exclude/bibliography", d.exclude_bibliography),
        workers=max(1, _int(store, "run/workers", d.workers)),
        fingerprints=fingerprints,
    )


def save_settings(store: QSettings, settings: Settings) -> None:
    store.setValue("match/threshold", settings.threshold)
    store.setValue("match/min_run", settings.min_run)
    store.setValue("search/strategy", settings.strategy)
    store.setValue("template/min_docs", settings.template_min_docs)
    store.setValue("template/automatic_share", settings.template_min_share)
    store.setValue("template/automatic", settings.auto_template)
    store.setValue("template/files", list(settings.template_files))
    store.setValue("exclude/quotes", settings.exclude_quotes)
    store.setValue("exclude/bibliography", settings.exclude_bibliography)
    store.setValue("run/workers", settings.workers)
    store.setValue("fingerprints/minhash_bits", settings.fingerprints.minhash_bits)
    store.sync()


def load_language(store: QSettings) -> str:
    value = str(store.value("ui/language", ""))
    return value if value in LANGUAGES else ""


def save_language(store: QSettings, language: str) -> None:
    store.setValue("ui/language", language)
    store.sync()


def load_recent(store: QSettings) -> list[str]:
    value = store.value("collections/recent", [])
    if isinstance(value, str):
        value = [value] if value else []
    return [str(v) for v in value]


def remember_recent(store: QSettings, folder: str) -> list[str]:
    """Put ``folder`` first in the recent list and return the list."""
    folder = os.path.normpath(str(Path(folder).expanduser().resolve()))
    recent = [folder] + [f for f in load_recent(store) if f != folder]
    recent = recent[:MAX_RECENT]
    store.setValue("collections/recent", recent)
    store.sync()
    return recent


def needs_refingerprint(old: Settings, new: Settings) -> bool:
    """True when the stored fingerprints no longer match the settings."""
    return old.fingerprints != new.fingerprints
