"""Interface language: loads our Qt translations (and Qt's own) and switches them live."""

from __future__ import annotations

import logging

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator
from PySide6.QtGui import QFont, QFontDatabase, QFontInfo
from PySide6.QtWidgets import QApplication

from neardup_gui.app.paths import resources_dir

log = logging.getLogger(__name__)

CJK_FAMILIES = ("Noto Sans CJK SC", "Source Han Sans SC", "WenQuanYi Micro Hei", "Microsoft YaHei", "PingFang SC")
# Latin families tried, in order, when the desktop's own font is a CJK one.
LATIN_FAMILIES = ("Noto Sans", "DejaVu Sans", "Liberation Sans", "Cantarell", "Ubuntu", "Segoe UI", "Arial",
                  "Helvetica Neue", "Helvetica")


def resolve_language(setting: str, system: QLocale | None = None) -> str:
    """The language to show: the setting, or the system locale when the setting is empty."""
    if setting:
        return setting
    locale = system or QLocale.system()
    if locale.language() == QLocale.Language.Chinese:
        return "zh_CN"
    return "en"


class Translations:
    """The installed translators of one application; ``switch`` replaces them.

    Installing a translator makes Qt send a LanguageChange event to every widget, which our
    widgets answer by re-translating themselves, so the switch is live. English has a translator
    too: it holds only the plural forms of the counted messages ("%n source(s) found" → "1 source
    found", "3 sources found"), which Qt takes from a translation, never from the source text.
    """

    def __init__(self, app: QCoreApplication) -> None:
        self._app = app
        self._installed: list[QTranslator] = []
        self.language = "en"
        self._install("en")

    def _install(self, language: str) -> bool:
        ours = QTranslator(self._app)
        path = resources_dir() / "translations"
        if not ours.load(f"neardup_{language}", str(path)):
            log.warning("no translation for %s in %s", language, path)
            return False
        if language != "en":
            qt = QTranslator(self._app)
            if qt.load(f"qtbase_{language}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
                self._app.installTranslator(qt)
                self._installed.append(qt)
        self._app.installTranslator(ours)
        self._installed.append(ours)
        return True

    def switch(self, language: str) -> bool:
        """Show the interface in ``language`` ("en" or "zh_CN"); False if no translation was found."""
        for translator in self._installed:
            self._app.removeTranslator(translator)
        self._installed = []
        self.language = language
        if language == "en":
            QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
            self._install("en")
            return True
        if not self._install(language):
            self.language = "en"
            self._install("en")
            return False
        QLocale.setDefault(QLocale(language))
        return True


def is_cjk_family(family: str) -> bool:
    """True for a font family made for Chinese (its Latin quotation marks are full-width)."""
    return QFontDatabase.WritingSystem.SimplifiedChinese in QFontDatabase.writingSystems(family)


def interface_font(base: QFont) -> QFont:
    """``base`` with a Latin family first and a CJK family after it.

    Qt draws each character with the first family that has it. With a CJK family first (the
    desktop's font on a Chinese system, or a generic name such as "Sans Serif" that Qt skips)
    English is drawn with that font's full-width apostrophes and quotation marks ("it’ s"); with
    a Latin family first, English reads as English and Chinese still comes from the CJK family.
    """
    available = set(QFontDatabase.families())
    resolved = QFontInfo(base).family()
    cjk = resolved if resolved and is_cjk_family(resolved) else next((f for f in CJK_FAMILIES if f in available), "")
    if resolved and not is_cjk_family(resolved):
        latin = resolved
    else:
        latin = next((f for f in LATIN_FAMILIES if f in available and not is_cjk_family(f)), "")
    font = QFont(base)
    families = [f for f in (latin, cjk) if f]
    if families:
        font.setFamilies(families)
    return font


def install_cjk_font_fallback(app: QApplication) -> str:
    """Make English render with a Latin font and Chinese with a real CJK font (not boxes).

    Returns the CJK family used, or "" when none is installed.
    """
    font = interface_font(app.font())
    app.setFont(font)
    chosen = next((f for f in font.families() if is_cjk_family(f)), "")
    if not chosen:
        log.info("no CJK font found; Chinese text may not render")
    return chosen
