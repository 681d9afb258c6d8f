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


# Screening a call: an archive and a call made of the sample's proposals, and two mosaics whose
# sections come from three archive proposals each (plus a paragraph of their own).
ARCHIVE = ("zh-01", "zh-03", "en-01", "en-03", "zh-05", "zh-06", "zh-07", "zh-08", "zh-09", "en-05", "en-06",
           "en-07", "en-08", "en-09", "zh-13", "zh-14", "zh-15", "en-13", "en-14", "en-15")
MOSAICS = {
    "zh": ("社区内涝与滑坡的联合监测预警", [("研究背景", "zh-01", "研究背景"), ("研究内容", None,
            "本项目把城市社区和周边山地作为一个整体，研究降雨过程中积水与坡体失稳的共同前兆，并为基层应急管理提供一套统一的监测与预警流程。"),
           ("技术路线", "zh-03", "技术路线"), ("研究意义", "zh-13", "研究意义")]),
    "en": ("Drains, Shores and Batteries: A Joint Monitoring Programme", [("Background", "en-01", "Background"),
           ("Objectives", None, "We will bring three monitoring traditions together in one programme run by a "
            "single regional laboratory, and test whether a shared sampling calendar lowers the cost of each."),
           ("Methods", "en-03", "Methods"), ("Expected outcomes", "en-13", "Expected outcomes")]),
}


def _md_section(path: Path, heading: str) -> str:
    text = path.read_text(encoding="utf-8")
    part = text.split(f"## {heading}\n", 1)[1]
    return part.split("\n## ", 1)[0].strip()


def build_call(home: Path) -> tuple[Path, Path]:
    """(archive folder, call folder) in the temporary home, from the bundled sample."""
    from neardup_gui.app.paths import sample_folder

    sample = sample_folder()
    src = ROOT / "resources" / "sample_src"
    archive, call = home / "Documents" / "archive-2025", home / "Documents" / "call-2026"
    archive.mkdir(parents=True, exist_ok=True)
    call.mkdir(parents=True, exist_ok=True)
    for f in sample.iterdir():
        if f.suffix in (".docx", ".pdf", ".txt"):
            shutil.copy(f, (archive if f.name[:5] in ARCHIVE else call) / f.name)
    for lang, (title, parts) in MOSAICS.items():
        lines = [title, "项目名称" if lang == "zh" else "Title", title]
        for heading, stem, what in parts:
            lines.append(heading)
            if stem is None:
                lines.append(what)
            else:
                md = next(src.glob(f"{stem}-*.md"))
                lines.append(_md_section(md, what))
        name = "zh-16-社区联合监测.txt" if lang == "zh" else "en-16-joint-monitoring.txt"
        (call / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return archive, call


def screening_shots(language, translations, store, home: Path, out: Path, settle, wait_for, save) -> None:  # noqa: ANN001
    """The Screening tab, the coloured submission view, and the first and full-text pages of the PDF report."""
    import subprocess

    from neardup_gui.app.export import write_report_file
    from neardup_gui.app.mainwindow import MainWindow

    archive, call = build_call(home) if not (home / "Documents" / "call-2026").exists() else (
        home / "Documents" / "archive-2025", home / "Documents" / "call-2026")
    window = MainWindow(translations, store)
    window.resize(1440, 880)
    window.show()
    window.open_folder(str(archive))
    wait_for(window.duplicates_ready)
    window.screen_folder(str(call), "call-2026")
    wait_for(window.screening_ready)
    save(window, f"{language}-8-screening")
    mosaic = "zh-16-社区联合监测.txt" if language.startswith("zh") else "en-16-joint-monitoring.txt"
    window.open_submission("call-2026", mosaic)
    got = wait_for(window.submission_opened)
    if got:
        view = got[0]
        view.resize(1500, 900)
        save(view, f"{language}-9-submission")
        pdf = home / f"report-{language}.pdf"
        write_report_file(window.db_path, "submission", window.settings, str(pdf),
                          items={"screening": "call-2026", "rel": mosaic, "lang": language})
        for page, name in ((1, "10-report-first-page"), (2, "11-report-full-text")):
            subprocess.run(["pdftoppm", "-r", "80", "-png", "-singlefile", "-f", str(page), "-l", str(page),
                            str(pdf), str(out / f"{language}-{name}")], check=True)
            log.info("saved %s", out / f"{language}-{name}.png")
        view.close()
    window.close()
    settle(200)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    parser.add_argument("--languages", default="en,zh_CN")
    parser.add_argument("--themes", default="light,dark",
                        help="light (the platform palette) and/or dark (a dark Fusion palette, saved as LANG-dark-…)")
    parser.add_argument("--main-only", action="store_true",
                        help="the main screens only (1–7), without the common passages, the ring and the screening")
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
            for pane in (view.pane_a, view.pane_b):  # the selection's colour would hide the passages'
                cursor = pane.textCursor()
                cursor.clearSelection()
                pane.setTextCursor(cursor)
            save(view, f"{name}-6-side-by-side")
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
                save(view, f"{name}-8-edited-passage")
                view.close()

        window.open_settings()
        settle(300)
        save(window.settings_dialog, f"{name}-7-settings")
        window.settings_dialog.reject()
        if theme != "light" or args.main_only:  # the dark run shows the main screens only
            window.close()
            settle(200)
            continue

        if theme != "light":  # the tabs below are shown in the light theme only
            window.close()
            settle(200)
            continue

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
        shutil.copytree(collection, mill, dirs_exist_ok=True)
        original = (mill / "en-10-glacier-hydrology.txt").read_text(encoding="utf-8")
        for k in range(1, 7):
            (mill / f"en-10-glacier-hydrology-v{k}.txt").write_text(light_edit(original, k), encoding="utf-8")
        window.open_folder(str(mill))
        wait_for(window.duplicates_ready)
        window.tabs.setCurrentWidget(window.clusters_tab)
        save(window, f"{language}-10-ring")
        window.close()
        settle(200)

        screening_shots(language, translations, store, home, out, settle, wait_for, save)

    shutil.rmtree(home, ignore_errors=True)
    QApplication.processEvents()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
