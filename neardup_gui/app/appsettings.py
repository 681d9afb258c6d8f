"""The examiner's settings, the interface language and recent collections, kept with QSettings.

Every value is read back through the same checks (:mod:`neardup_gui.core.settings`): a value
that cannot be used — an empty list QSettings wrote as ``@Invalid()``, a word where a number
belongs, a foreign ``@Variant`` — keeps its default with a logged warning. Reading never raises:
an application that cannot start because of its settings file is worse than a lost setting.
These are the global values; a collection's own values live in its index.
"""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings

from neardup_gui.app.paths import config_file
from neardup_gui.core.settings import Settings, read_setting, with_values

log = logging.getLogger(__name__)

MAX_RECENT = 8
LANGUAGES = ("", "en", "zh_CN")  # "" follows the system locale


def open_store() -> QSettings:
    """The settings store (an INI file in the user's config folder)."""
    path = config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    store = QSettings(str(path), QSettings.Format.IniFormat)
    if store.status() != QSettings.Status.NoError:
        log.warning("the settings file %s could not be read whole (%s); unreadable values use the defaults",
                    path, store.status().name)
    return store


# Where each setting lives in the INI file (names of core.settings.Settings → keys).
KEYS = {
    "threshold": "match/threshold",
    "min_run": "match/min_run",
    "strategy": "search/strategy",
    "template_min_docs": "template/min_docs",
    # (a key of its own, so a share of 0 saved under the former frequency-only rule is not kept)
    "template_min_share": "template/automatic_share",
    "auto_template": "template/automatic",
    "template_files": "template/files",
    "exclude_quotes": "exclude/quotes",
    "exclude_bibliography": "exclude/bibliography",
    "workers": "run/workers",
    "dask_address": "run/dask_address",
    "dask_ca": "run/dask_ca",
    "dask_cert": "run/dask_cert",
    "dask_key": "run/dask_key",
    "dask_insecure": "run/dask_insecure",
    "minhash_bits": "fingerprints/minhash_bits",
}

_MISSING = object()


def _raw(store: QSettings, key: str) -> Any:
    """The stored value of ``key`` as QSettings gives it, or ``_MISSING``; never raises.

    (A value the binding cannot convert — an ``@Variant(…)`` of some foreign type — raises
    inside ``value()``: it counts as unreadable, not as a reason to stop the application.)
    """
    try:
        if not store.contains(key):
            return _MISSING
        return store.value(key)
    except Exception as exc:  # noqa: BLE001 - any conversion failure means "unreadable"
        log.warning("setting %s in %s cannot be read (%s); using the default", key, store.fileName(), exc)
        return _MISSING


def load_settings(store: QSettings, base: Settings | None = None) -> Settings:
    """Read the settings; anything missing keeps ``base``'s value (the defaults), anything
    unreadable too, with a logged warning. Never raises."""
    raw = {name: _raw(store, key) for name, key in KEYS.items()}
    return with_values(base or Settings(), {k: v for k, v in raw.items() if v is not _MISSING},
                       where=store.fileName())


def save_settings(store: QSettings, settings: Settings) -> None:
    values = {name: getattr(settings, name) for name in KEYS if name != "minhash_bits"}
    values["minhash_bits"] = settings.fingerprints.minhash_bits
    values["template_files"] = list(settings.template_files)  # (an empty list is read back as None)
    for name, key in KEYS.items():
        store.setValue(key, values[name])
    store.sync()


def load_language(store: QSettings) -> str:
    value = _raw(store, "ui/language")
    if value is _MISSING or value is None:
        return ""
    if value not in LANGUAGES:
        log.warning("setting ui/language: %r is not a language of the interface; following the system", value)
        return ""
    return str(value)


def save_language(store: QSettings, language: str) -> None:
    store.setValue("ui/language", language)
    store.sync()


def _path_list(store: QSettings, key: str) -> list[str]:
    value = _raw(store, key)
    if value is _MISSING:
        return []
    try:
        return list(read_setting("template_files", value))
    except (TypeError, ValueError) as exc:
        log.warning("setting %s: %r cannot be used (%s); starting it empty", key, value, exc)
        return []


def load_recent(store: QSettings) -> list[str]:
    return _path_list(store, "collections/recent")[:MAX_RECENT]


def remember_recent(store: QSettings, folder: str) -> list[str]:
    """Put ``folder`` first in the recent list and return the list."""
    folder = os.path.normpath(str(Path(folder).expanduser().resolve()))
    recent = [folder] + [f for f in load_recent(store) if f != folder]
    recent = recent[:MAX_RECENT]
    store.setValue("collections/recent", recent)
    store.sync()
    return recent


def welcomed(store: QSettings) -> bool:
    """True once a start has shown this user the welcome view."""
    return _raw(store, "ui/welcomed") in (True, "true", "1", 1)


def mark_welcomed(store: QSettings) -> None:
    store.setValue("ui/welcomed", True)
    store.sync()


def load_check_minimum(store: QSettings, default: int = 10) -> tuple[bool, int]:
    """The Check tab's option to hide weak sources: (on, below this percentage, 1–100). Off unless
    the examiner turned it on: every source holding a passage of the minimum run is listed."""
    hide = _raw(store, "check/hide_below")
    on = hide in (True, "true", "1", 1)
    value = _raw(store, "check/minimum")
    if value is _MISSING:
        return on, default
    try:
        number = float(value)
        if number.is_integer() and 1 <= number <= 100:
            return on, int(number)
        raise ValueError(f"{number} is not a whole percentage from 1 to 100")
    except (TypeError, ValueError) as exc:
        log.warning("setting check/minimum: %r cannot be used (%s); using %d %%", value, exc, default)
        return on, default


def save_check_minimum(store: QSettings, hide: bool, value: int) -> None:
    store.setValue("check/hide_below", bool(hide))
    store.setValue("check/minimum", int(value))


def last_folder(store: QSettings, kind: str, fallback: str = "") -> str:
    """The folder a file dialog of ``kind`` ("check", "template", "collection", "report") last
    used, when it still exists; else ``fallback`` (e.g. the collection's folder)."""
    value = _raw(store, f"dialogs/{kind}")
    if isinstance(value, str) and value and os.path.isdir(value):
        return value
    return fallback if fallback and os.path.isdir(fallback) else ""


def remember_folder(store: QSettings, kind: str, path: str) -> None:
    """Remember the folder of ``path`` (a file or a folder) for the next dialog of ``kind``."""
    if not path:
        return
    folder = path if os.path.isdir(path) else os.path.dirname(path)
    store.setValue(f"dialogs/{kind}", folder)


def reset_settings(path: Path | None = None) -> Path | None:
    """Set the settings file aside (``….ini.reset-<time>``) so the next start uses the defaults;
    returns where it went, or None when there was none."""
    path = path or config_file()
    if not path.exists():
        return None
    aside = path.with_name(f"{path.name}.reset-{time.strftime('%Y%m%d-%H%M%S')}")
    path.rename(aside)
    log.warning("settings file %s set aside as %s", path, aside)
    return aside


def needs_refingerprint(old: Settings, new: Settings) -> bool:
    """True when the stored fingerprints no longer match the settings."""
    return old.fingerprints != new.fingerprints
