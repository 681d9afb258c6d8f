"""extract/pdf/_lines.c: a page's visual lines cut in C, the same as lines.py's specification.

Both PDF readers give their glyphs to ``lines.page_rows``; the compiled kernel stands in for
``lines._glyph_rows`` (monospaced pages, baseline rows, cells, spaces, the first word, hidden
runs). Checked here line for line on random pages built where the two could part — glyphs on
one baseline and a hair apart, sub- and superscripts, a glyph drawn twice (fake bold), runs of
drawn spaces, CJK beside Latin, closing punctuation and quotes, several characters in one glyph,
sizes and widths on a rounding half, monospaced pages, hidden glyphs — and on the real pages of
the fixtures.
"""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from neardup_gui.core.extract.pdf import lines
from neardup_gui.core.extract.pdf.lines import Glyph, GlyphColumns

needs_kernel = pytest.mark.skipif(lines._compiled_lines is None, reason="the compiled kernel is not built here")
FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "ingest"

_TEXTS = ["a", "b", "x", "W", "i", "l", ".", ",", "fi", "ffl", " ", "\u3000", "\xa0", "中", "文", "。", "，", "」",
          "（", "”", '"', "'", "\"'", "%", ")", "1", "Ω", "\U00020000", "가", "ア", "-", "\u2010"]


def _random_page(rng: random.Random) -> list[Glyph]:
    glyphs: list[Glyph] = []
    mono = rng.random() < 0.15
    sizes = [rng.choice([10.0, 11.0, 10.05, 10.15, 12.25, 8.0, 0.1, 14.0]) for _ in range(3)]
    base = 700.0
    for _ in range(rng.randrange(1, 14)):  # lines
        size = rng.choice(sizes)
        x = rng.choice([50.0, 72.0, 300.0])
        for _ in range(rng.randrange(0, 30)):
            text = rng.choice(_TEXTS)
            width = 0.6 * size if mono else rng.choice([0.25, 0.5, 0.605, 0.335, 1.0, 0.3]) * size
            shift = rng.choice([0.0, 0.0, 0.0, 2.5, -3.0, 0.45 * size, 0.4 * size])  # sub-/superscripts
            glyphs.append(Glyph(text, x, x + width, base + shift - 0.2 * size, base + shift + 0.8 * size, base + shift,
                                rng.choice([size, size, 0.7 * size]), rng.random() < 0.1))
            if rng.random() < 0.05:  # drawn twice, a little offset
                g = glyphs[-1]
                glyphs.append(Glyph(g.text, g.x0 + 0.05 * size, g.x1, g.y0, g.y1, g.base, g.size, g.hidden))
            x += width + rng.choice([0.0, 0.0, 0.0, 0.05, 0.11, 0.3, 1.0, 1.3, 3.0, -0.5]) * size
        base -= rng.choice([size * 1.2, size * 1.5, size * 0.3, 0.0, 24.0])
    rng.shuffle(glyphs) if rng.random() < 0.3 else None
    return glyphs


def _both(glyphs: list[Glyph]) -> tuple[list, list]:
    columns = GlyphColumns.of(glyphs)
    return lines.page_rows(columns), lines.page_rows(columns, compiled=False)


@needs_kernel
@pytest.mark.parametrize("seed", range(4))
def test_random_pages_where_the_two_could_part(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(400):
        glyphs = _random_page(rng)
        got, want = _both(glyphs)
        assert got == want, glyphs


@needs_kernel
def test_a_monospaced_page_and_widths_on_a_rounding_half() -> None:
    """Forty glyphs of one width, 0.605 em (a half in the second decimal), narrow letters among
    them: a monospaced page read without cells, by both."""
    for width in (0.605, 0.6, 0.45, 0.755, 0.745):
        glyphs = [Glyph("il.x"[k % 4], 10 + 30 * k * width, 10 + 30 * k * width + 10 * width, 500, 510, 500, 10.0)
                  for k in range(45)]
        got, want = _both(glyphs)
        assert got == want and got


@needs_kernel
def test_real_pages_of_the_fixtures() -> None:
    from pdfminer.converter import PDFPageAggregator
    from pdfminer.pdfinterp import PDFPageInterpreter, PDFResourceManager
    from pdfminer.pdfpage import PDFPage

    from neardup_gui.core.extract.pdf.miner import page_glyphs

    pages = 0
    for path in sorted(FIXTURES.glob("*.pdf")):
        if path.name == "locked.pdf":
            continue
        manager = PDFResourceManager()
        device = PDFPageAggregator(manager, laparams=None)
        interpreter = PDFPageInterpreter(manager, device)
        for page in PDFPage.get_pages(io.BytesIO(path.read_bytes())):
            interpreter.process_page(page)
            glyphs: list[Glyph] = []
            page_glyphs(device.get_result(), glyphs, [], {"images": 0, "lost": 0, "kept": 0, "strict": set()})
            got, want = _both(glyphs)
            assert got == want, (path.name, pages)
            pages += 1
    assert pages >= 10


def test_hidden_glyphs_are_marked_in_the_line() -> None:
    """A hidden run inside a word and one at the line's end: marked, spaces outside the marks."""
    from neardup_gui.core.extract.pdf.lines import HIDDEN_END, HIDDEN_START

    glyphs = [Glyph(c, 10 + 6 * k, 16 + 6 * k, 500, 510, 500, 10.0, hidden=c in "xz") for k, c in enumerate("abxcd z")]
    for compiled in (True, False):
        rows = lines.page_rows(GlyphColumns.of(glyphs), compiled=compiled)
        assert [line.text for row in rows for line in row] == [f"ab{HIDDEN_START}x{HIDDEN_END}cd {HIDDEN_START}z{HIDDEN_END}"]


def test_glyphs_whose_numbers_are_not_finite_are_left_out() -> None:
    glyphs = [Glyph("a", 10, 16, 500, 510, 500, 10.0), Glyph("b", float("nan"), 22, 500, 510, 500, 10.0),
              Glyph("c", 22, 28, 500, 510, float("inf"), 10.0)]
    assert GlyphColumns.of(glyphs).glyphs() == glyphs[:1]
