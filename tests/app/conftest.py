"""App test fixtures: no dialog blocks; a real text pair for the side-by-side view."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

# The offscreen platform plugin says this on every top-level window it shows; it is about the
# plugin, not about our code.
OFFSCREEN_NOISE = r"This plugin does not support propagateSizeHints\(\)"


def pytest_collection_modifyitems(items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.qt_log_ignore(OFFSCREEN_NOISE))


@pytest.fixture(autouse=True)
def no_blocking_dialogs(monkeypatch):
    """Every message box answers at once (as novelWriter's conftest does); record what was asked."""
    asked: list[tuple[str, str]] = []

    def answer(kind, default):
        def fake(parent, title, text, *args, **kwargs):
            asked.append((kind, text))
            return default
        return staticmethod(fake)

    monkeypatch.setattr(QMessageBox, "question", answer("question", QMessageBox.StandardButton.Yes))
    monkeypatch.setattr(QMessageBox, "information", answer("information", QMessageBox.StandardButton.Ok))
    monkeypatch.setattr(QMessageBox, "warning", answer("warning", QMessageBox.StandardButton.Ok))
    monkeypatch.setattr(QMessageBox, "critical", answer("critical", QMessageBox.StandardButton.Ok))
    monkeypatch.setattr(QMessageBox, "exec", lambda self: QMessageBox.StandardButton.Ok)
    yield asked


@pytest.fixture
def text_pair(corpus_dir: Path) -> tuple[str, str]:
    """A long English text and an edited copy: a paragraph dropped, others inserted, lines changed."""
    original = (corpus_dir / "debian-reference-en" / "ch06-007.txt").read_text(encoding="utf-8")
    other = (corpus_dir / "debian-reference-en" / "ch02-004.txt").read_text(encoding="utf-8")
    paras = original.split("\n")
    third = len(paras) // 3
    edited = (
        "\n".join(paras[:third])
        + "\n" + "\n".join(other.split("\n")[:15]) + "\n"
        + "\n".join(paras[third + 10 : 2 * third])
        + "\nAn inserted sentence that the source does not have, written by the resubmitter.\n"
        + "\n".join(paras[2 * third + 5 :])
    )
    return original, edited


@pytest.fixture
def answer_boxes(monkeypatch):
    """Answer the next QMessageBox built by hand (``box.exec()``) by clicking the button with the
    given text; push the texts in order. The boxes asked are recorded as (title, text)."""
    answers: list[str] = []
    asked: list[tuple[str, str]] = []

    def exec_(box):
        asked.append((box.windowTitle(), box.text()))
        if answers:
            wanted = answers.pop(0)
            button = next(b for b in box.buttons() if b.text() == wanted)
            button.click()
        return 0

    monkeypatch.setattr(QMessageBox, "exec", exec_)
    answers_asked = type("Answers", (), {"push": answers.append, "asked": asked, "pending": answers})
    return answers_asked


@pytest.fixture
def window(qtbot):
    """A real main window, shown; closed (its tasks cancelled and waited for) after the test."""
    from neardup_gui.app.mainwindow import MainWindow

    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    yield w
    w.close()


@pytest.fixture(autouse=True)
def collection_given_back():
    """Every task runner a test starts is shut down by its end, giving Python's cyclic collection
    back (app/collector.py): a runner left holding it would leave the rest of the session without
    automatic collection."""
    yield
    from neardup_gui.app import collector

    assert collector.holds() == 0, "a task runner was not shut down (its window not closed)"


# The sample without three proposals (the call a screening checks) and its index, for the tests
# that drive every screen of a window with results (tests/app/uiwalk.py).
SCREENS_CALL = ("zh-04-山区滑坡监测.txt", "en-04-hospital-surfaces.docx", "zh-12-桥梁健康监测.txt")
SCREENS_FORMS = tuple(str(Path(__file__).resolve().parents[2] / "resources" / "sample_src" / f"_form-{lang}.md")
                      for lang in ("zh", "en"))


@pytest.fixture(scope="session")
def screens_collection(tmp_path_factory) -> tuple[Path, Path]:
    """(the collection's folder, its index); the call's folder ``call`` beside it."""
    import shutil

    from neardup_gui.core.collection import Collection
    from neardup_gui.core.settings import Settings
    from tests.conftest import SAMPLE

    base = tmp_path_factory.mktemp("screens")
    collection, call = base / "基金申请-2025", base / "call"
    shutil.copytree(SAMPLE, collection)
    call.mkdir()
    for name in SCREENS_CALL:
        shutil.move(str(collection / name), call / name)
    db = base / "index.sqlite"
    with Collection.open(db) as coll:
        coll.index_folder(str(collection), Settings(template_files=SCREENS_FORMS))
        coll.pairs(Settings(template_files=SCREENS_FORMS))
    return collection, db
