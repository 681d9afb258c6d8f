"""Counted summaries read right for one: "1 pair", "1 passage recurs" (they said "1 pairs" and
"1 passages recur"), from real results of a real index; Chinese has one form."""

from __future__ import annotations

import shutil
from pathlib import Path

from neardup_gui.app.commonview import CommonView
from neardup_gui.app.duplicatesview import DuplicatesView
from neardup_gui.core.collection import Collection
from neardup_gui.core.common import common_passages, exclusion_rules
from neardup_gui.core.settings import Settings

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "sample"


def test_one_pair_and_one_common_passage_are_counted_in_the_singular(qtbot, tmp_path) -> None:
    folder = tmp_path / "sample"
    shutil.copytree(SAMPLE, folder)
    settings = Settings(threshold=0.5, workers=1, auto_template=False)
    with Collection.open(str(tmp_path / "i.db")) as coll:
        coll.index_folder(str(folder), settings)
        pairs = [p for p in coll.pairs(settings) if {p.a.rel, p.b.rel} == {
            "en-01-coastal-erosion.docx", "en-02-shoreline-retreat.pdf"}]  # a resubmission
        passages = tuple(common_passages(coll, settings))  # (the calls' forms, among others)
        rules = exclusion_rules(coll, settings)
    assert len(pairs) == 1 and len(passages) >= 2
    view = DuplicatesView()
    qtbot.addWidget(view)
    view.set_pairs(pairs, 0.5)
    assert view.summary.text() == "1 pair with similarity of at least 50.0%"
    view.set_pairs(pairs + pairs, 0.5)
    assert view.summary.text() == "2 pairs with similarity of at least 50.0%"
    common = CommonView()
    qtbot.addWidget(common)
    common.set_passages(passages[:1], rules)
    assert common.summary.text().startswith("1 passage recurs in several documents; 0 left out.")
    common.set_passages(passages[:1] * 2, rules)
    assert common.summary.text().startswith("2 passages recur in several documents; 0 are left out.")
