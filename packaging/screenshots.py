"""Take the screenshots of every screen, at two window sizes, in English and Chinese, light and dark.

Run under a virtual X server, from the project folder (``make screenshots``):

    xvfb-run -a -s "-screen 0 1600x1000x24" .venv/bin/python packaging/screenshots.py

It starts the real application with a fresh, temporary home, copies the bundled sample there as a
collection and builds an archive and a call from it (the window shows "~/Documents/…", never this
machine), and drives the window as an examiner does: the welcome view, the sample's tabs
(documents, check, duplicates, clusters, common passages), a resubmission side by side with its
source, the call screened against the archive, a mosaic's submission view, settings and help. Each screen is saved at each size into ``docs/screenshots/<W>x<H>/``, named
``<language>-<theme>-<NN>-<screen>.png``; with ``--extras`` (the default for a full run) also an
edited copy and a reordered copy side by side, a ring of light edits in the Clusters tab and the first two pages of a
committee report (``pdftoppm``). ``--text-scale 2`` doubles the interface's text size (for
looking at layouts; the README's pictures are at 1).
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

log = logging.getLogger("screenshots")

SCREENS = ("01-welcome", "02-documents", "03-check", "04-duplicates", "05-clusters", "06-common-passages",
           "07-screening", "08-side-by-side", "09-submission", "10-settings", "11-help")


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


def reordered_copy(source: Path) -> str:
    """The text of ``source`` with its second half of paragraphs put before its first."""
    from neardup_gui.core.collection import read_submission
    from neardup_gui.core.settings import Settings

    paragraphs = [p for p in read_submission(str(source), Settings()).text.split("\n") if p.strip()]
    half = len(paragraphs) // 2
    return "\n".join(paragraphs[half:] + paragraphs[:half])


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
MOSAIC_NAMES = {"zh": "zh-16-社区联合监测.txt", "en": "en-16-joint-monitoring.txt"}


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
    if call.exists():
        return archive, call
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
        (call / MOSAIC_NAMES[lang]).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return archive, call


class Shooter:
    """Saves a widget at every size asked for, into ``out/<W>x<H>/<name>.png``."""

    def __init__(self, app, out: Path, sizes: list[tuple[int, int]]) -> None:  # noqa: ANN001
        self.app = app
        self.out = out
        self.sizes = sizes
        self.saved: list[Path] = []

    def settle(self, ms: int = 250) -> None:
        from PySide6.QtCore import QEventLoop, QTimer

        loop = QEventLoop()
        QTimer.singleShot(ms, loop.quit)
        loop.exec()

    def wait_for(self, signal, timeout_s: float = 240) -> list:  # noqa: ANN001
        """The values ``signal`` carries once it is emitted (the loop is entered again when
        something else ends it first)."""
        import time

        from PySide6.QtCore import QEventLoop, QTimer

        got: list = []
        loop = QEventLoop()

        def done(*values) -> None:  # noqa: ANN002
            got.append(values)
            loop.quit()

        signal.connect(done)
        deadline = time.monotonic() + timeout_s
        timer = QTimer()
        timer.setSingleShot(True)
        timer.timeout.connect(loop.quit)
        while not got and time.monotonic() < deadline:
            timer.start(int(max(1.0, deadline - time.monotonic()) * 1000))
            loop.exec()
        timer.stop()
        signal.disconnect(done)
        if not got:
            raise RuntimeError(f"no {signal} within {timeout_s} s")
        return list(got[0])

    def save(self, widget, name: str, sizes: list[tuple[int, int]] | None = None, before=None) -> None:  # noqa: ANN001
        """``before(widget)``: called after each resize (to scroll back to what is shown)."""
        for w, h in sizes or self.sizes:
            widget.resize(w, h)
            self.settle()
            if before is not None:
                before(widget)
                self.settle(150)
            folder = self.out / f"{w}x{h}"
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"{name}.png"
            widget.grab().save(str(path))
            self.saved.append(path)
            log.info("saved %s", path)


def shoot_language(shoot: Shooter, translations, store, home: Path, language: str, theme: str,  # noqa: ANN001
                   extras: bool) -> None:
    from neardup_gui.app.mainwindow import MainWindow

    prefix = f"{language}-{theme}"
    lang = "zh" if language.startswith("zh") else "en"
    archive, call = build_call(home)
    # the sample as a collection: its planted resubmissions, section copies and forms
    collection = home / "Documents" / "fund-proposals-2025"
    if not collection.exists():
        from neardup_gui.app.paths import sample_folder

        shutil.copytree(sample_folder(), collection)
    translations.switch(language)
    window = MainWindow(translations, store)
    window.show()
    shoot.settle(400)
    shoot.save(window, f"{prefix}-01-welcome")

    window.open_folder(str(collection))
    shoot.wait_for(window.duplicates_ready)
    shoot.settle(300)
    for tab, name in ((window.documents_tab, "02-documents"), (window.pairs_tab, "04-duplicates"),
                      (window.clusters_tab, "05-clusters")):
        window.tabs.setCurrentWidget(tab)
        shoot.save(window, f"{prefix}-{name}")
    window.tabs.setCurrentWidget(window.common_tab)
    page = window.common_tab
    if page.passages:
        form = next((r for r, p in enumerate(page.passages) if len(p.text) > 300), 0)
        page.view.setCurrentIndex(page.model.index(form, 0))
    shoot.save(window, f"{prefix}-06-common-passages")

    # a proposal of the collection resubmitted under another name, checked against it
    source = collection / ("zh-01-水稻抗旱基因.docx" if lang == "zh" else "en-01-coastal-erosion.docx")
    submission = home / "Downloads" / ("resubmitted-" + source.name)
    submission.parent.mkdir(exist_ok=True)
    shutil.copy(source, submission)
    window.check_files([str(submission)])
    shoot.wait_for(window.check_ready)
    shoot.save(window, f"{prefix}-03-check")

    # a light edit of a proposal beside it (a pair of the Duplicates tab): passages, edited words,
    # the bar beside the passage shown
    pair = next(p for p in window.pairs if {p.a.rel[:5], p.b.rel[:5]} == {f"{lang}-01", f"{lang}-02"})
    window.open_pair_diff(pair.a.doc_id, pair.b.doc_id)
    view = shoot.wait_for(window.diff_opened)[0]
    shoot.save(view, f"{prefix}-08-side-by-side", before=lambda v: v.go_to_match(0))
    view.close()

    # a call screened against an archive, and a mosaic of three archive proposals coloured by source
    window.open_folder(str(archive))
    shoot.wait_for(window.duplicates_ready)
    window.screen_folder(str(call), "call-2026")
    shoot.wait_for(window.screening_ready)
    shoot.save(window, f"{prefix}-07-screening")
    window.open_submission("call-2026", MOSAIC_NAMES[lang])
    view = shoot.wait_for(window.submission_opened)[0]
    shoot.save(view, f"{prefix}-09-submission")
    if extras and theme == "light":
        pdf = home / f"report-{language}.pdf"
        from neardup_gui.app.export import write_report_file

        write_report_file(window.db_path, "submission", window.settings, str(pdf),
                          items={"screening": "call-2026", "rel": MOSAIC_NAMES[lang], "lang": language})
        for page_no, name in ((1, "13-report-first-page"), (2, "14-report-full-text")):
            folder = shoot.out / "report"
            folder.mkdir(parents=True, exist_ok=True)
            subprocess.run(["pdftoppm", "-r", "80", "-png", "-singlefile", "-f", str(page_no), "-l", str(page_no),
                            str(pdf), str(folder / f"{language}-{name}")], check=True)
            shoot.saved.append(folder / f"{language}-{name}.png")
    view.close()

    window.tabs.setCurrentWidget(window.screening_tab)
    window.open_settings()
    shoot.settle(300)
    shoot.save(window.settings_dialog, f"{prefix}-10-settings")
    window.settings_dialog.reject()
    window.show_help()
    shoot.save(window.help_dialog, f"{prefix}-11-help")
    window.help_dialog.close()

    if extras and theme == "light":
        extra_shots(shoot, window, home, collection, language, lang)
    window.close()
    shoot.settle(200)


def extra_shots(shoot: Shooter, window, home: Path, archive: Path, language: str, lang: str) -> None:  # noqa: ANN001
    """An edited copy and a reordered copy beside their source (English), and a ring of light edits in the Clusters tab
    (``archive``: the sample collection, open again first)."""
    window.open_folder(str(archive))
    shoot.wait_for(window.duplicates_ready)
    size = [shoot.sizes[0]]
    if lang == "en":
        source = archive / "en-01-coastal-erosion.docx"

        def beside_source(name: str, text: str):  # noqa: ANN202 - the side-by-side view
            copy = home / "Downloads" / name
            copy.write_text(text, encoding="utf-8")
            window.check_files([str(copy)])
            shoot.wait_for(window.check_ready)
            result = window.check_results[0]
            window.check_page.source_activated.emit(
                result, next(m for m in result.matches if m.source.rel.startswith("en-01")))
            return shoot.wait_for(window.diff_opened)[0]

        view = beside_source("edited-coastal-erosion.txt", edited_copy(source, archive / "en-05-dementia-speech.txt"))
        shoot.save(view, f"{language}-light-12-edited-passage", size, before=lambda v: v.go_to_match(0))
        view.close()
        # the same proposal with its second half put first: passages found in another order
        view = beside_source("reordered-coastal-erosion.txt", reordered_copy(source))
        first_moved = next((i for i, p in enumerate(view.matches) if p.moved), 0)
        shoot.save(view, f"{language}-light-12-moved-passage", size, before=lambda v: v.go_to_match(first_moved))
        view.close()
    mill = home / "Documents" / "call-with-a-ring"
    if not mill.exists():
        shutil.copytree(archive, mill)
        original = (archive / "en-15-coral-acoustics.txt").read_text(encoding="utf-8")
        for k in range(1, 7):
            (mill / f"en-15-coral-acoustics-v{k}.txt").write_text(light_edit(original, k), encoding="utf-8")
    window.open_folder(str(mill))
    shoot.wait_for(window.duplicates_ready)
    window.tabs.setCurrentWidget(window.clusters_tab)
    shoot.save(window, f"{language}-light-12-ring", size)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    parser.add_argument("--languages", default="en,zh_CN")
    parser.add_argument("--themes", default="light,dark",
                        help="light (the platform palette) and/or dark (a dark Fusion palette)")
    parser.add_argument("--sizes", default="1600x1000,1024x700", help="window sizes, WxH, comma-separated")
    parser.add_argument("--main-only", action="store_true",
                        help="without the extras (edited passage, ring, report pages)")
    parser.add_argument("--text-scale", type=float, default=1.0, help="the interface's text size, times")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    home = isolate_home()

    from PySide6.QtWidgets import QApplication

    from neardup_gui.app import colours
    from neardup_gui.app.appsettings import open_store
    from neardup_gui.app.i18n import Translations
    from neardup_gui.app.main import apply_style, create_application

    app = create_application([sys.argv[0]])
    if args.text_scale != 1.0:
        font = app.font()
        font.setPointSizeF(font.pointSizeF() * args.text_scale)
        app.setFont(font)
    sizes = [tuple(int(v) for v in s.split("x")) for s in args.sizes.split(",")]
    shoot = Shooter(app, Path(args.out), sizes)  # type: ignore[arg-type]
    translations = Translations(app)
    store = open_store()
    light_palette, light_style = app.palette(), app.style().name()
    try:
        for theme in args.themes.split(","):
            if theme == "dark":  # as a Breeze Dark user sees it
                app.setStyle("Fusion")
                app.setPalette(colours.dark_fusion_palette())
            else:
                app.setStyle(light_style)
                app.setPalette(light_palette)
            apply_style(app)
            for language in args.languages.split(","):
                shoot_language(shoot, translations, store, home, language, theme, not args.main_only)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    QApplication.processEvents()
    log.info("%d screenshots in %s", len(shoot.saved), args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
