"""Integrity flags in the interface's words (the same wording as the reports, translated by Qt)."""

from __future__ import annotations

from typing import Sequence

from PySide6.QtCore import QCoreApplication, QLocale, QObject

from neardup_gui.core.flags import HIDDEN, INVISIBLE, REPLACED, TRADITIONAL, Flag


class Flags(QObject):
    """The flags' counted phrases: Qt's plural forms are found by a QObject's tr (this context is
    the one of the other flag strings)."""

    def hidden(self, n: int) -> str:
        return self.tr("Hidden text: %n character(s)", "", n)


def _n(value: int) -> str:
    return QLocale().toString(value)


def flag_phrase(flag: Flag) -> str:
    """"Replaced characters: 212 in 118 words", "Hidden text: 1,030 characters", …"""
    n, count = flag.count, _n(flag.count)
    if flag.kind == REPLACED:
        return QCoreApplication.translate("Flags", "Replaced characters: {n} in {w} words").format(
            n=count, w=_n(flag.words))
    if flag.kind == HIDDEN:  # (%n is written without digit grouping: the grouped count replaces it)
        return Flags().hidden(n).replace(str(n), count)
    if flag.kind == INVISIBLE:
        return QCoreApplication.translate("Flags", "Invisible characters: {n}").format(n=count)
    if flag.kind == TRADITIONAL:
        return QCoreApplication.translate("Flags", "Traditional characters folded for comparison: {n}").format(n=count)
    return f"{flag.kind}: {count}"


def flag_name(kind: str) -> str:
    """A flag's short name, for a table cell."""
    if kind == REPLACED:
        return QCoreApplication.translate("Flags", "replaced characters")
    if kind == HIDDEN:
        return QCoreApplication.translate("Flags", "hidden text")
    if kind == INVISIBLE:
        return QCoreApplication.translate("Flags", "invisible characters")
    if kind == TRADITIONAL:
        return QCoreApplication.translate("Flags", "traditional characters")
    return kind


def flags_cell(flags: Sequence[Flag]) -> str:
    """The flags in a table cell: "hidden text 325, replaced characters 277"."""
    # (the separator of a short list: a translation gives its own punctuation)
    return QCoreApplication.translate("Flags", ", ").join(f"{flag_name(f.kind)} {_n(f.count)}" for f in flags)


def flags_line(flags: Sequence[Flag]) -> str:
    """Each flag in full, one after another: "Replaced characters: 212 in 118 words; Hidden text: …"."""
    return QCoreApplication.translate("Warnings", "; ").join(map(flag_phrase, flags))


def flags_tooltip(flags: Sequence[Flag]) -> str:
    """Each flag in full, and what comparison did about it."""
    if not flags:
        return ""
    return "\n".join([*map(flag_phrase, flags), QCoreApplication.translate(
        "Flags", "Compared as a reader sees the text: look-alike letters and traditional characters folded, "
            "invisible characters and hidden text left out of every figure.")])
