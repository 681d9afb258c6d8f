"""Take the README's screenshots of the main screens, in English and Chinese.

Run under a virtual X server, from the project folder:

    xvfb-run -a -s "-screen 0 1600x1000x24" .venv/bin/python packaging/screenshots.py

It starts the real application with a fresh, temporary home (so it begins at the welcome
view), opens the bundled sample collection, checks a submission, opens the side-by-side view
and the settings, the common passages, and a ring in the clusters tab (a copy of the sample with
six light edits of one proposal), and saves each window with ``QWidget.grab()`` into
``docs/screenshots/``.
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


def light_edit(text: str, seed: int) -> str:
    """Two words changed: a variant of the same proposal, as a mill sends it to a call."""
    import random
    import re

    rng = random.Random(seed)
    sentences = re.split(r"(?<=[.!?])\s+", text)
    for _ in range(2):
        k = rng.randrange(len(sentences))
        words = sentences[k].split(" ")
        words[rng.randrange(len(words))] = f"variant{seed}"
        sentences[k] = " ".join(words)
    return " ".join(sentences)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    parser.add_argument("--languages", default="en,zh_CN")
    parser.add_argument("--themes", default="light,dark",
                        help="light (the platform palette) and/or dark (a dark Fusion palette, saved as LANG-dark-…)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    home = isolate_home()

    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication, QWidget

    from neardup_gui.app.appsettings import open_store
    from neardup_gui.app.i18n import Translations
    from neardup_gui.app import colours
    from neardup_gui.app.main import apply_style, create_application
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
    light_palette, light_style = app.palette(), app.style().name()
    runs = [(t, lang) for t in args.themes.split(",") for lang in args.languages.split(",")]
    for theme, language in runs:
        if theme == "dark":  # as a Breeze Dark user sees it
            app.setStyle("Fusion")
            app.setPalette(colours.dark_fusion_palette())
        else:
            app.setStyle(light_style)
            app.setPalette(light_palette)
        apply_style(app)
        name = language if theme == "light" else f"{language}-{theme}"
        translations.switch(language)
        window = MainWindow(translations, store)
        window.resize(1440, 880)
        window.show()
        settle(500)
        save(window, f"{name}-1-welcome")

        ready = window.duplicates_ready
        window.open_folder(str(collection))
        wait_for(ready)
        window.tabs.setCurrentWidget(window.documents_tab)
        save(window, f"{name}-2-documents")

        window.tabs.setCurrentWidget(window.pairs_tab)
        save(window, f"{name}-4-duplicates")
        window.tabs.setCurrentWidget(window.clusters_tab)
        save(window, f"{name}-5-clusters")

        source = collection / submissions[language]
        submission = home / "Downloads" / ("resubmitted-" + source.name)
        submission.parent.mkdir(exist_ok=True)
        shutil.copy(source, submission)
        window.check_files([str(submission)])
        wait_for(window.check_ready)
        save(window, f"{name}-3-check")

        window.tabs.setCurrentWidget(window.pairs_tab)
        prefix = "zh" if language.startswith("zh") else "en"
        pair = next((p for p in window.pairs if p.a.rel.startswith(prefix)), window.pairs[0])
        window.open_pair_diff(pair.a.doc_id, pair.b.doc_id)
        got = wait_for(window.diff_opened)
        if got:
            view = got[0]
            view.resize(1500, 900)
            view.go_to_match(min(1, max(0, len(view.spans) - 1)))
            save(view, f"{name}-6-side-by-side")
            view.close()

        window.open_settings()
        settle(300)
        save(window.settings_dialog, f"{name}-7-settings")
        window.settings_dialog.reject()

        # Common passages: the sample's two forms (each in 5 of 30 proposals) are listed, and
        # counted, since 5 of 30 is far below the automatic rule's half of the collection.
        window.tabs.setCurrentWidget(window.common_tab)
        page = window.common_tab
        form = next((r for r, p in enumerate(page.passages) if p.documents == 5 and len(p.text) > 500), 0)
        if page.passages:
            page.view.setCurrentIndex(page.model.index(form, 0))
        save(window, f"{language}-9-common-passages")

        # A ring: a proposal and six light edits of it, added to the collection (a mill's pattern).
        mill = home / "Documents" / "call-with-a-ring"
        shutil.copytree(collection, mill)
        original = (mill / "en-10-glacier-hydrology.txt").read_text(encoding="utf-8")
        for k in range(1, 7):
            (mill / f"en-10-glacier-hydrology-v{k}.txt").write_text(light_edit(original, k), encoding="utf-8")
        window.open_folder(str(mill))
        wait_for(window.duplicates_ready)
        window.tabs.setCurrentWidget(window.clusters_tab)
        save(window, f"{language}-10-ring")
        window.close()
        settle(200)

    shutil.rmtree(home, ignore_errors=True)
    QApplication.processEvents()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
