"""The side-by-side view: highlighted passages, next/previous in both panes, scrolling in step."""

from __future__ import annotations

from PySide6.QtCore import Qt

from neardup_gui.app.diffview import Alignment, DiffInput, DiffView, passage_shades
from neardup_gui.core.document import CharSpan
from neardup_gui.core.results import MatchSpan
from tests.app.records import exact_comparison


def _view(qtbot, text_a: str, text_b: str, **extra) -> DiffView:
    comparison = exact_comparison(text_a, text_b)
    if extra:
        from dataclasses import replace
        comparison = replace(comparison, **extra)
    view = DiffView(DiffInput(text_a, text_b, comparison, "original.txt", "edited.txt"))
    qtbot.addWidget(view)
    view.resize(1200, 700)
    view.show()
    qtbot.waitExposed(view)
    return view


def test_every_span_is_highlighted_in_both_panes(qtbot, text_pair):
    original, edited = text_pair
    view = _view(qtbot, original, edited)
    spans = view.diff.comparison.spans
    assert len(spans) >= 3
    assert view.highlight_counts() == (len(spans), len(spans))
    assert view.passages.count() == len(spans)
    assert view.overview_a.mark_count() == len(spans) == view.overview_b.mark_count()
    # the highlighted text is the same passage on both sides (same units)
    for span in spans:
        assert original[span.a[0]:span.a[1]].split() == edited[span.b[0]:span.b[1]].split()


def test_next_and_previous_move_both_panes(qtbot, text_pair):
    original, edited = text_pair
    view = _view(qtbot, original, edited)
    spans = view.spans
    assert view.current_match == -1
    qtbot.mouseClick(view.next_button, Qt.MouseButton.LeftButton)
    assert view.current_match == 0
    assert view.pane_a.current_span == spans[0].a and view.pane_b.current_span == spans[0].b
    # shown beside a bar, not selected: a selection's colour would cover the passage's colours
    assert not view.pane_a.textCursor().hasSelection() and not view.pane_b.textCursor().hasSelection()
    assert view.pane_a.textCursor().position() == spans[0].a[0]
    last = len(spans) - 1
    qtbot.mouseClick(view.previous_button, Qt.MouseButton.LeftButton)  # wraps to the last
    assert view.current_match == last
    a_bar, b_bar = view.pane_a.verticalScrollBar().value(), view.pane_b.verticalScrollBar().value()
    assert a_bar > 0 and b_bar > 0  # the last passage is far down in both texts
    assert view.pane_a.current_span == spans[last].a and view.pane_b.current_span == spans[last].b
    # the passage is visible in both panes
    for pane, pos in ((view.pane_a, spans[last].a[0]), (view.pane_b, spans[last].b[0])):
        cursor = pane.textCursor()
        cursor.setPosition(pos)
        assert 0 <= pane.cursorRect(cursor).top() <= pane.viewport().height() // 2
    # keyboard: Ctrl+Up goes back one, F3 forward
    view.activateWindow()
    qtbot.waitUntil(view.isActiveWindow, timeout=60_000)  # a guard against a hang, not a speed test
    qtbot.keyClick(view, Qt.Key.Key_Up, Qt.KeyboardModifier.ControlModifier)
    assert view.current_match == last - 1
    qtbot.keyClick(view, Qt.Key.Key_F3)
    assert view.current_match == last
    assert view.position_label.text() == f"Passage {last + 1} of {len(spans)}"
    # choosing a passage in the list shows it in both panes
    view.passages.setCurrentRow(1)
    assert view.current_match == 1
    assert view.pane_b.current_span == spans[1].b


def _share_of(image, rect, colour) -> float:
    """The share of ``rect``'s pixels in ``image`` that are ``colour`` (a QColor)."""
    want = colour.rgb() & 0xFFFFFF
    pixels = [(image.pixel(x, y) & 0xFFFFFF) == want
              for x in range(rect.left(), rect.right(), 2) for y in range(rect.top(), rect.bottom(), 2)]
    return sum(pixels) / max(1, len(pixels))


def test_the_passage_shown_keeps_its_colours_uncovered(qtbot, qapp, text_pair):
    """Next/previous and the list choose a passage without selecting it: the pane shows the
    passage's colour (a bar beside it), the list its item's colour with a frame. The examiner's own
    selection is a translucent wash over the colours."""
    from neardup_gui.app import colours
    from neardup_gui.app.main import apply_style

    original, edited = text_pair
    apply_style(qapp)
    try:
        view = _view(qtbot, original, edited)
        view.go_to_match(1)
        qapp.processEvents()
        colour = colours.match_colour(1, view.palette())
        highlight = view.palette().color(view.palette().ColorRole.Highlight)
        item_rect = view.passages.visualItemRect(view.passages.item(1))
        listed = view.passages.viewport().grab().toImage()
        assert _share_of(listed, item_rect, colour) > 0.4
        assert _share_of(listed, item_rect, highlight) < 0.3  # (the frame)
        pane = view.pane_a.viewport().grab().toImage()
        assert _share_of(pane, pane.rect(), colour) > 0.05
        assert _share_of(pane, pane.rect(), highlight) == 0
        # the examiner's own selection lets the colours through
        selection = view.pane_a.palette().color(view.pane_a.palette().ColorRole.Highlight)
        assert selection.alpha() < 128
    finally:
        qapp.setStyleSheet("")


def test_scrolling_one_pane_keeps_the_other_in_step(qtbot, text_pair):
    original, edited = text_pair
    view = _view(qtbot, original, edited)
    bar = view.pane_a.verticalScrollBar()
    bar.setValue(bar.maximum() // 2)
    mapped = view.alignment.a_to_b(view.pane_a.centre_position())
    centre_b = view.pane_b.centre_position()
    block_a = view.pane_b.document().findBlock(mapped).blockNumber()
    block_b = view.pane_b.document().findBlock(centre_b).blockNumber()
    assert view.pane_b.verticalScrollBar().value() > 0
    assert abs(block_a - block_b) <= 3
    view.sync_box.setChecked(False)
    before = view.pane_b.verticalScrollBar().value()
    bar.setValue(0)
    assert view.pane_b.verticalScrollBar().value() == before


def test_template_text_is_muted_not_counted_as_a_match(qtbot, text_pair):
    original, edited = text_pair
    template: tuple[CharSpan, ...] = ((0, 40),)
    view = _view(qtbot, original, edited, template_a=template, template_b=template)
    selections = view.pane_a.extraSelections()
    assert len(selections) == len(view.spans) + 1
    muted = selections[0]
    assert (muted.cursor.selectionStart(), muted.cursor.selectionEnd()) == (0, 40)
    assert muted.format.fontItalic()
    assert view.highlight_counts() == (len(view.spans), len(view.spans))


def test_alignment_maps_span_ends_and_interpolates_between():
    spans = [MatchSpan(a=(10, 20), b=(110, 120), units=3), MatchSpan(a=(50, 60), b=(130, 140), units=3)]
    al = Alignment(spans, 100, 200)
    assert al.a_to_b(10) == 110 and al.a_to_b(15) == 115 and al.a_to_b(60) == 140
    assert al.a_to_b(35) == 125  # halfway between the two spans
    assert al.a_to_b(100) == 200 and al.b_to_a(200) == 100 and al.b_to_a(0) == 0
    assert al.b_to_a(135) == 55


def test_no_matches_shows_plain_texts(qtbot):
    view = _view(qtbot, "one text about apples", "另一个关于梨的文本")
    assert view.highlight_counts() == (0, 0)
    view.next_match()
    assert view.current_match == -1
    assert view.position_label.text() == "No matched passages"


# --- edited passages (issue 15) -----------------------------------------------------------------


def _edited_copy_view(qtbot, corpus_dir):
    """A Chinese host with two sections of a source copied into it, 20 % of their words
    substituted with words of other sections; compared with the real exact comparison."""
    import random
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    import obfuscate as ob

    from neardup_gui.core.compare import compare_documents

    folder = corpus_dir / "debian-reference-zh-cn"
    files = sorted(folder.glob("*.txt"))
    host, source = files[10].read_text(encoding="utf-8"), files[30].read_text(encoding="utf-8")
    vocab = ob.chinese_vocab([f.read_text(encoding="utf-8") for f in files[60:70]])
    paras = [p for p in source.split("\n\n") if p.strip()]
    half = len(paras) // 2
    first = ob.obfuscate("\n\n".join(paras[:half]), "zh", 0.2, vocab, random.Random(1))
    second = ob.obfuscate("\n\n".join(paras[half:]), "zh", 0.2, vocab, random.Random(2))
    host_paras = host.split("\n\n")
    cut = len(host_paras) // 2
    suspicious = "\n\n".join(host_paras[:cut] + [first] + host_paras[cut:] + [second])
    sections = [(suspicious.index(first), suspicious.index(first) + len(first)),
                (suspicious.index(second), suspicious.index(second) + len(second))]
    comparison = compare_documents(suspicious, source, min_run=8)
    view = DiffView(DiffInput(suspicious, source, comparison, "suspicious.txt", "source.txt"))
    qtbot.addWidget(view)
    view.resize(1200, 700)
    view.show()
    qtbot.waitExposed(view)
    return view, sections


def test_an_edited_copy_shows_one_passage_per_copied_section(qtbot, corpus_dir):
    view, sections = _edited_copy_view(qtbot, corpus_dir)
    comparison = view.diff.comparison
    assert len(comparison.spans) > 2 * len(sections)  # the exact runs alone are confetti
    assert len(view.matches) == len(sections) == view.passages.count()
    assert view.highlight_counts() == (2, 2)
    assert view.overview_a.mark_count() == 2
    for passage, (start, end) in zip(view.matches, sections):
        inside = min(passage.a[1], end) - max(passage.a[0], start)
        assert inside >= 0.9 * (end - start) and inside >= 0.98 * (passage.a[1] - passage.a[0])
    # next / previous go passage by passage, and select the whole passage in both panes
    view.next_match()
    view.next_match()
    second = view.matches[1]
    assert view.current_match == 1 and view.position_label.text() == "Passage 2 of 2"
    assert view.pane_a.current_span == second.a and view.pane_b.current_span == second.b
    # the list says how much each side covers and how much of it is identical
    first = view.matches[0]
    assert view.passages.item(0).text().startswith(
        f"1. A {first.units_a} units, B {first.units_b}; {first.matched_units} identical: ")


def test_edited_words_are_a_lighter_shade_inside_the_passage(qtbot, corpus_dir):

    view, _sections = _edited_copy_view(qtbot, corpus_dir)
    first = view.matches[0]
    exact, edited = passage_shades(0)
    base = view.pane_a.palette().color(view.pane_a.palette().ColorRole.Base)
    assert edited != exact and edited.lightness() > exact.lightness()  # lighter on this (light) theme
    assert abs(edited.lightness() - base.lightness()) > 5  # yet visibly not the background
    shaded = {}
    for sel in view.pane_a.extraSelections():
        span = (sel.cursor.selectionStart(), sel.cursor.selectionEnd())
        if first.a[0] <= span[0] and span[1] <= first.a[1]:
            shaded.setdefault(sel.format.background().color().name(), []).append(span)
    assert set(shaded) == {exact.name(), edited.name()}
    # every identical run has the passage colour; the text between two runs the lighter shade
    runs = sorted(r.a for r in first.runs)
    assert sorted(shaded[exact.name()]) == runs
    gaps = [(x[1], y[0]) for x, y in zip(runs, runs[1:]) if y[0] > x[1]]
    assert sorted(shaded[edited.name()]) == gaps
    # a substituted word lies in a gap: the text there differs from the source
    text_a, text_b = view.diff.text_a, view.diff.text_b
    assert any(text_a[g0:g1].strip() and text_a[g0:g1] not in text_b[first.b[0]:first.b[1]] for g0, g1 in gaps)


def test_the_two_shades_follow_the_theme(qapp):
    """On a light and on a dark palette the edited shade lies between the passage colour and the
    background (fainter), and the theme's text stays readable on both shades."""
    from PySide6.QtGui import QPalette

    from neardup_gui.app import colours

    for palette in (QPalette(colours.current()), colours.dark_fusion_palette()):
        base = palette.color(QPalette.ColorRole.Base)
        text = palette.color(QPalette.ColorRole.Text)
        for i in range(8):
            exact, edited = passage_shades(i, palette)
            assert edited != exact
            assert abs(edited.lightness() - base.lightness()) < abs(exact.lightness() - base.lightness())
            assert colours.contrast(text, edited) >= 4.5 and colours.contrast(text, exact) >= 4.5


def test_a_passage_moved_in_b_is_numbered_and_walked_on_both_sides(qtbot):
    """A's first paragraph is B's second: the list stays in A's order and says where each passage
    is in B, both panes number every passage (a moved one keeps its number in B), and next and
    previous walk them all, each shown on both sides."""
    from neardup_gui.core.results import Passage
    from neardup_gui.core.units import tokenize

    first = ("Coastal managers must decide where to place sand nourishment and when to close exposed "
             "roads along the regional coastline during the storm season.")
    second = ("The coupled model will be run in ensemble mode with members drawn from the posterior "
              "distribution of calibrated parameters and forced with national wave forecasts.")
    text_a, text_b = first + "\n" + second, second + "\n" + first

    def passage(paragraph: str) -> Passage:
        a0, b0 = text_a.index(paragraph), text_b.index(paragraph)
        units = len(tokenize(paragraph))
        run = MatchSpan(a=(a0, a0 + len(paragraph)), b=(b0, b0 + len(paragraph)), units=units)
        return Passage(a=run.a, b=run.b, units_a=units, units_b=units, matched_units=units, runs=(run,))

    from dataclasses import replace

    passages = (passage(first), passage(second))
    comparison = replace(exact_comparison(text_a, text_b), passages=passages)
    view = DiffView(DiffInput(text_a, text_b, comparison, "submission.txt", "source.txt"))
    qtbot.addWidget(view)
    view.resize(1000, 600)
    view.show()
    qtbot.waitExposed(view)
    assert [p.a for p in view.matches] == [passages[0].a, passages[1].a]  # A's order
    assert view.passages.item(0).text().endswith(f"(in B at {round(100 * text_b.index(first) / len(text_b))}%)")
    assert [(start, number) for start, number, _ in view.pane_b._numbers] == [(0, 2), (text_b.index(first), 1)]
    assert [(start, number) for start, number, _ in view.pane_a._numbers] == [(0, 1), (text_a.index(second), 2)]
    assert view.overview_b.mark_count() == 2
    # the numbers are drawn in the margin on their passages' shades, both in B's view
    image = view.pane_b.margin_area.grab().toImage()
    drawn = {image.pixelColor(x, y).name() for x in range(image.width()) for y in range(image.height())}
    assert {passage_shades(0)[0].name(), passage_shades(1)[0].name()} <= drawn
    # larger text: the margin widens with it, beside the pane, and still draws the numbers
    width = view.pane_b.margin_area.width()
    view.zoom_by(6)
    assert view.pane_b.margin_area.width() == view.pane_b.margin() > width
    view.next_match()
    assert view.pane_a.current_span == passages[0].a and view.pane_b.current_span == passages[0].b
    view.next_match()
    assert view.pane_b.current_span == passages[1].b
    view.previous_match()
    assert view.pane_b.current_span == passages[0].b
