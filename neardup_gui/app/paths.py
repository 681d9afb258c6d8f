"""Where the app finds its bundled resources and keeps its index files and settings."""

from __future__ import annotations

import hashlib
import logging
import os
import sys
from pathlib import Path
from typing import Sequence

from PySide6.QtCore import QStandardPaths, QUrl

log = logging.getLogger(__name__)

APP_DIR_NAME = "neardup"


def resources_dir() -> Path:
    """The bundled ``resources/`` folder (source tree, or the PyInstaller bundle)."""
    override = os.environ.get("NEARDUP_RESOURCES")
    if override:
        return Path(override)
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        return Path(bundle) / "resources"
    return Path(__file__).resolve().parent.parent.parent / "resources"


def sample_folder() -> Path:
    """The bundled sample collection."""
    return resources_dir() / "sample"


def config_file() -> Path:
    """The settings file.

    Built from the generic config location on every call (not QSettings' default path, which
    Qt caches for the whole process) so that a changed XDG_CONFIG_HOME is honoured.
    """
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.GenericConfigLocation)
    return Path(base) / APP_DIR_NAME / "neardup.ini"


def log_file() -> Path:
    """The application's log file (the user's state folder; shown in error dialogs)."""
    location = getattr(QStandardPaths.StandardLocation, "GenericStateLocation", None)  # Qt ≥ 6.7
    if location is None:
        location = QStandardPaths.StandardLocation.GenericCacheLocation
    return Path(QStandardPaths.writableLocation(location)) / APP_DIR_NAME / "neardup.log"


def data_dir() -> Path:
    """The application data folder that holds the index files."""
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.GenericDataLocation)
    return Path(base) / APP_DIR_NAME


def index_path_for(folder: str | Path) -> Path:
    """The index file of a collection folder: one per folder, named so a person can tell which.

    The collection folder itself may be read-only, so the index lives in the data folder.
    """
    resolved = str(Path(folder).expanduser().resolve())
    digest = hashlib.sha256(resolved.encode("utf-8")).hexdigest()[:12]
    name = "".join(c if c.isalnum() or c in "-_" else "_" for c in Path(resolved).name)[:40] or "root"
    return data_dir() / "collections" / f"{name}-{digest}.sqlite"


def display_path(path: str | Path) -> str:
    """A path as the examiner reads it: the home folder shortened to ``~``."""
    text = str(path)
    home = os.path.expanduser("~")
    if home and home != "/" and (text == home or text.startswith(home + os.sep)):
        return "~" + text[len(home):]
    return text


FILES_IN_TIP = 20  # the files a tooltip names (the rest are counted)


def files_tip(heading: str, paths: Sequence[str | tuple[str, str]], folder: str, more: str) -> str:
    """A tooltip naming files: ``heading``, the first FILES_IN_TIP ``paths`` relative to ``folder``,
    one a line, and ``more`` (a translated "…and {n} more") for the rest; "" without paths. A
    (path, note) item is shown as "path: note"."""
    if not paths:
        return ""

    def line(item: str | tuple[str, str]) -> str:
        path, note = (item, "") if isinstance(item, str) else item
        shown = os.path.relpath(path, folder) if folder else path
        return f"{shown}: {note}" if note else shown

    lines = [heading, *(line(p) for p in paths[:FILES_IN_TIP])]
    if len(paths) > FILES_IN_TIP:
        lines.append(more.format(n=len(paths) - FILES_IN_TIP))
    return "\n".join(lines)


def local_file(url: QUrl) -> str:
    """The local path a dropped ``file:`` URL names, as the system names it.

    Qt decodes a URL's path as UTF-8 and puts U+FFFD for bytes that are not: a file whose name
    is in GBK (unpacked from a Windows zip) dropped on the window was then "no such file". When
    that decoding names nothing, the path's own bytes are taken (Python's file-name decoding)."""
    path = url.toLocalFile()
    if "\ufffd" not in path or os.path.exists(path):
        return path
    from urllib.parse import unquote_to_bytes

    raw = os.fsdecode(unquote_to_bytes(url.path(QUrl.ComponentFormattingOption.FullyEncoded)))
    return raw if os.path.exists(raw) else path
