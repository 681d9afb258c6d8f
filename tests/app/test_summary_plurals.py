"""Counted summaries read right for one: "1 pair", "1 passage found" (they said "1 pairs", and
"1 are left out" where a second count shared the first's form), from real results of a real index.
The forms are Qt's plural forms: English's come from its own translation file, as Chinese's do."""

from __future__ import annotations

import shutil
from pathlib import Path

from neardup_gui.app.commonview import CommonView
from neardup_gui.app.duplicatesview import DuplicatesView
from neardup_gui.app.i18n import Translations
from neardup_gui.core.collection import Collection
from neardup_gui.core.common_passages import common_passages, exclusion_rules
from neardup_gui.core.settings import Settings

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "sample"


def test_one_pair_and_one_common_passage_are_counted_in_the_singular(qtbot, qapp, tmp_path) -> None:
    Translations(qapp)  # (as the application does: English's plural forms installed)
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
    assert view.summary.text() == "1 pair with similarity r of at least 50.0%"
    view.set_pairs(pairs + pairs, 0.5)
    assert view.summary.text() == "2 pairs with similarity r of at least 50.0%"
    common = CommonView()
    qtbot.addWidget(common)
    common.set_passages(passages[:1], rules)
    assert common.summary.text().startswith("1 passage found in several documents; 0 of them left out as template.")
    common.set_passages(passages[:2], rules)
    left_out = sum(1 for p in passages[:2] if p.status != "counted")
    assert common.summary.text().startswith(
        f"2 passages found in several documents; {left_out} of them left out as template.")


def test_every_counted_message_has_english_forms_from_qt(qapp) -> None:
    """Each %n message of the source has an English singular and plural in neardup_en.qm (no
    "(s)" left), and the Chinese one form; a count of one in English reads singular."""
    import xml.etree.ElementTree as ET

    from PySide6.QtCore import QTranslator

    from neardup_gui.app.paths import resources_dir

    folder = resources_dir() / "translations"
    english = QTranslator()
    assert english.load("neardup_en", str(folder))
    counted = [(c.find("name").text, m.find("source").text)
               for c in ET.parse(folder / "neardup_zh_CN.ts").getroot().iter("context")
               for m in c.iter("message") if "%n" in m.find("source").text]
    assert len(counted) >= 15
    for context, source in counted:
        one, many = english.translate(context, source, None, 1), english.translate(context, source, None, 3)
        assert one and many and "(s)" not in one + many, (context, source)
        assert one.replace("%n", "1") != one  # (Qt fills %n; the form keeps it)
    assert english.translate("CheckView", "%n source(s) found", None, 1) == "%n source found"
