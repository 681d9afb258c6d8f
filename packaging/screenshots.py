"""Take the README's screenshots of the main screens, in English and Chinese.

Run under a virtual X server, from the project folder:

    xvfb-run -a -s "-screen 0 1600x1000x24" .venv/bin/python packaging/screenshots.py

It starts the real application with a fresh, temporary home (so it begins at the welcome
view), opens the bundled sample collection, checks a submission, opens the side-by-side view
and the settings, and saves each window with ``QWidget.grab()`` into ``docs/screenshots/``.
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

log = logging.getLogger("screenshots")


def isolate_home() -> Path:
    """A temporary HOME and XDG folders: the run starts like a first start and leaves no trace."""
    home = Path(tempfile.mkdtemp(prefix="neardup-shots-"))
    os.environ["HOME"] = str(home)
    for var, sub in (("XDG_CONFIG_HOME", ".config"), ("XDG_DATA_HOME", ".local/share"),
                     ("XDG_CACHE_HOME", ".cache"), ("XDG_STATE_HOME", ".local/state")):
        (home / sub).mkdir(parents=True, exist_ok=True)
        os.environ[var] = str(home / sub)
    return home


def edited_copy(source: Path, words_from: Path, every: int = 7) -> str:
    """The text of ``source`` with about one word in ``every`` replaced by a word of another
    document (deterministic): what copying and then editing a proposal looks like."""
    import random
    import re

    from neardup_gui.core.collection import read_submission
    from neardup_gui.core.settings import Settings

    texts = [read_submission(str(p), Settings()).text for p in (source, words_from)]
    vocabulary = sorted(set(re.findall(r"[a-z]{4,}", texts[1])))
    rng = random.Random(8)
    return re.sub(r"[A-Za-z]{4,}", lambda m: rng.choice(vocabulary) if rng.random() < 1 / every else m.group(),
                  texts[0])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    parser.add_argument("--languages", default="en,zh_CN")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    home = isolate_home()

    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication, QWidget

    from neardup_gui.app.appsettings import open_store
    from neardup_gui.app.i18n import Translations
    from neardup_gui.app.main import create_application
    from neardup_gui.app.mainwindow import MainWindow
    from neardup_gui.app.paths import sample_folder

    app = create_application([sys.argv[0]])
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    translations = Translations(app)
    store = open_store()

    def settle(ms: int = 300) -> None:
        loop = QEventLoop()
        QTimer.singleShot(ms, loop.quit)
        loop.exec()

    def wait_for(signal, timeout_s: float = 180) -> list:
        got: list = []
        loop = QEventLoop()

        def done(*values) -> None:
            got.extend(values)
            loop.quit()

        signal.connect(done)
        QTimer.singleShot(int(timeout_s * 1000), loop.quit)
        loop.exec()
        signal.disconnect(done)
        if not got and signal is not None:
            log.debug("no values from signal")
        return got

    def save(widget: QWidget, name: str) -> None:
        settle()
        path = out / f"{name}.png"
        widget.grab().save(str(path))
        log.info("saved %s", path)

    # Work on a copy in the temporary home, so the window shows "~/Documents/…", not this machine.
    collection = home / "Documents" / "fund-proposals-2025"
    shutil.copytree(sample_folder(), collection)
    submissions = {"en": "en-01-coastal-erosion.docx", "zh_CN": "zh-01-水稻抗旱基因.docx"}
    for language in args.languages.split(","):
        translations.switch(language)
        window = MainWindow(translations, store)
        window.resize(1440, 880)
        window.show()
        settle(500)
        save(window, f"{language}-1-welcome")

        ready = window.duplicates_ready
        window.open_folder(str(collection))
        wait_for(ready)
        window.tabs.setCurrentWidget(window.documents_tab)
        save(window, f"{language}-2-documents")

        window.tabs.setCurrentWidget(window.pairs_tab)
        save(window, f"{language}-4-duplicates")
        window.tabs.setCurrentWidget(window.clusters_tab)
        save(window, f"{language}-5-clusters")

        source = collection / submissions[language]
        submission = home / "Downloads" / ("resubmitted-" + source.name)
        submission.parent.mkdir(exist_ok=True)
        shutil.copy(source, submission)
        window.check_files([str(submission)])
        wait_for(window.check_ready)
        save(window, f"{language}-3-check")

        window.tabs.setCurrentWidget(window.pairs_tab)
        prefix = "zh" if language.startswith("zh") else "en"
        pair = next((p for p in window.pairs if p.a.rel.startswith(prefix)), window.pairs[0])
        window.open_pair_diff(pair.a.doc_id, pair.b.doc_id)
        got = wait_for(window.diff_opened)
        if got:
            view = got[0]
            view.resize(1500, 900)
            view.go_to_match(min(1, max(0, len(view.spans) - 1)))
            save(view, f"{language}-6-side-by-side")
            view.close()

        if language == "en":
            # An edited copy: a proposal with one word in about seven replaced, checked, and its
            # source shown side by side (identical text and edited words in two shades).
            edited = home / "Downloads" / "edited-coastal-erosion.txt"
            edited.write_text(edited_copy(collection / "en-01-coastal-erosion.docx",
                                          collection / "en-10-glacier-hydrology.txt"), encoding="utf-8")
            window.check_files([str(edited)])
            wait_for(window.check_ready)
            result = window.check_results[0]
            original = next(m for m in result.matches if m.source.rel.startswith("en-01"))
            window.check_page.source_activated.emit(result, original)
            got = wait_for(window.diff_opened)
            if got:
                view = got[0]
                view.resize(1500, 900)
                view.go_to_match(0)
                for pane, start in ((view.pane_a, view.matches[0].a[0]), (view.pane_b, view.matches[0].b[0])):
                    cursor = pane.textCursor()
                    cursor.setPosition(start)  # no selection: it would hide the two shades
                    pane.setTextCursor(cursor)
                    pane.scroll_to_position(start, 0.1)
                save(view, f"{language}-8-edited-passage")
                view.close()

        window.open_settings()
        settle(300)
        save(window.settings_dialog, f"{language}-7-settings")
        window.settings_dialog.reject()
        window.close()
        settle(200)

    shutil.rmtree(home, ignore_errors=True)
    QApplication.processEvents()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
