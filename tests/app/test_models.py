"""Table models: sorting in the source model, filtering by text and by score in the proxy."""

from __future__ import annotations

from PySide6.QtCore import Qt

from neardup_gui.app.models import DocumentsModel, FilterProxy, SourcesModel, source_score
from neardup_gui.core.results import DocumentInfo, SourceMatch
from tests.app.records import exact_comparison


def docs(n: int) -> list[DocumentInfo]:
    return [
        DocumentInfo(i, f"/c/{i:04d}-{'申请书' if i % 2 else 'proposal'}.docx", f"{i:04d}-{'申请书' if i % 2 else 'proposal'}.docx",
                     100, "x", "skipped" if i % 10 == 0 else "indexed", "scanned PDF: no text layer" if i % 10 == 0 else "",
                     (i * 37) % 1000, 0.0, "docx")
        for i in range(n)
    ]


def rows(proxy: FilterProxy) -> list:
    return [proxy.record_at(proxy.index(r, 0)) for r in range(proxy.rowCount())]


def test_sorting_and_text_filter(qapp):
    model = DocumentsModel()
    proxy = FilterProxy()
    proxy.setSourceModel(model)
    records = docs(500)
    model.set_records(records)
    proxy.sort(4, Qt.SortOrder.DescendingOrder)  # units
    units = [d.units for d in rows(proxy)]
    assert units == sorted((d.units for d in records), reverse=True)
    proxy.set_text("申请书")
    assert {d.doc_id for d in rows(proxy)} == {d.doc_id for d in records if d.doc_id % 2}
    proxy.set_text("SCANNED pdf")  # case-insensitive, any column (here: the reason)
    assert {d.doc_id for d in rows(proxy)} == {d.doc_id for d in records if d.doc_id % 10 == 0}
    # new records keep the chosen order
    model.set_records(list(reversed(records)))
    proxy.set_text("")
    assert [d.units for d in rows(proxy)] == sorted((d.units for d in records), reverse=True)
    assert model.headerData(4, Qt.Orientation.Horizontal) == "Units"


def test_score_filter_of_sources(qapp):
    text = "Sandy beaches protect coastal towns, roads and wetlands from storm waves, yet many are retreating. " * 2
    partial = text[:90] + " and then something entirely different about glaciers and melt water in spring."
    info = [DocumentInfo(i, f"/c/{i}.txt", f"{i}.txt", 1, "x", "indexed") for i in range(2)]
    matches = [SourceMatch(info[0], exact_comparison(text, text)), SourceMatch(info[1], exact_comparison(text, partial))]
    model = SourcesModel()
    proxy = FilterProxy(score=source_score)
    proxy.setSourceModel(model)
    model.set_records(matches)
    assert len(rows(proxy)) == 2
    cut = (source_score(matches[1]) + 1.0) / 2
    proxy.set_minimum(cut)
    assert rows(proxy) == [matches[0]]
    proxy.set_minimum(0.0)
    assert len(rows(proxy)) == 2


def test_a_view_sorts_its_rows_once(qtbot):
    """A view's sortByColumn asks the model twice (itself, then through its header's indicator):
    each sorted and reset every row (63,503 pairs: 0.2 s of the GUI thread each); the second,
    already so sorted, is nothing now. Still sorted either way, and again on a new order."""
    from neardup_gui.app.widgets import make_table

    model = DocumentsModel()
    proxy = FilterProxy()
    proxy.setSourceModel(model)
    view = make_table(proxy, "docs")
    qtbot.addWidget(view)
    records = docs(300)
    model.set_records(records)
    resets: list[int] = []
    model.modelReset.connect(lambda: resets.append(1))
    view.sortByColumn(4, Qt.SortOrder.DescendingOrder)
    assert len(resets) == 1
    assert [d.units for d in rows(proxy)] == sorted((d.units for d in records), reverse=True)
    view.sortByColumn(4, Qt.SortOrder.AscendingOrder)
    assert len(resets) == 2
    assert [d.units for d in rows(proxy)] == sorted(d.units for d in records)
