"""The documents list shows documents indexed with warnings: a warning icon, the warnings as
tooltip, a filter for them; the Reason column's tooltip is the reason; counted messages are
worded in the singular and plural, in English and Chinese."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, Qt, QTranslator
from PySide6.QtGui import QIcon

from neardup_gui.app.documentsview import DocumentsView
from neardup_gui.app.models import localise_warning, warnings_text
from neardup_gui.app.i18n import Translations
from neardup_gui.app.widgets import localise_progress
from neardup_gui.core.collection import Collection
from neardup_gui.core.settings import Settings

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "ingest"
ROOT = Path(__file__).resolve().parents[2]
ZH = "这是一段完整的中文文本，用来检查截断的文件。第二句话也在这里。\n" * 40


@pytest.fixture
def documents(tmp_path):
    """The documents of a real index: one clean, one cut in a character, one cut docx, one skipped."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "clean.txt").write_text("Clean English text that nothing is wrong with.\n" * 20, encoding="utf-8")
    (folder / "cut.txt").write_bytes(ZH.encode("utf-8").rstrip()[:-1])
    docx = (FIXTURES / "en.docx").read_bytes()
    (folder / "cut.docx").write_bytes(docx[: len(docx) * 2 // 3])
    (folder / "scan.pdf").write_bytes(b"%PDF-1.4\n%broken beyond repair\n")
    with Collection.open(tmp_path / "c.ndx") as collection:
        collection.index_folder(str(folder), Settings(workers=1))
        return collection.documents()


def _row(view: DocumentsView, rel: str) -> int:
    proxy = view.proxy
    return next(r for r in range(proxy.rowCount()) if proxy.record_at(proxy.index(r, 0)).rel == rel)


DAMAGED_ACCOUNTS = [
    ("recovered from a damaged file: the end of the file (cross-reference table and trailer) is lost, with its "
     "catalog and 5 pages (rebuilt from their contents); 5 pages read from the objects that survive",
     "从损坏的文件中恢复：文件末尾（交叉引用表和文件尾）已丢失，文档目录和 5 个页面对象一并丢失（已按页面内容重建）"
     "；从保留下来的对象中读取了 5 页"),
    ("recovered from a damaged file: the cross-reference table or trailer is damaged, with its catalog; "
     "1 page read from the objects that survive",
     "从损坏的文件中恢复：交叉引用表或文件尾已损坏，文档目录一并丢失；从保留下来的对象中读取了 1 页"),
    ("recovered from a damaged file: its compound file cannot be read (OLE directory index out of range); "
     "the text was read from the Word stream that survives",
     "从损坏的文件中恢复：其复合文件无法读取（OLE directory index out of range）；正文取自保留下来的 Word 数据流"),
    ("recovered from a damaged file: the PDF is damaged after page 3 (Unexpected EOF); the pages after it are lost",
     "从损坏的文件中恢复：PDF 在第 3 页之后损坏（Unexpected EOF）；其后的页面已丢失"),
    ("recovered from a damaged file: the zip archive's directory is unreadable; 9 parts read up to the damage "
     "(word/document.xml, word/styles.xml, …); its directory, from byte 3828, is cut short or damaged",
     "从损坏的文件中恢复：zip 压缩包的目录无法读取；读取了损坏处之前的 9 个部件（word/document.xml, "
     "word/styles.xml, …）；其目录（从第 3828 字节起）不完整或已损坏"),
    ("recovered from a damaged file: the zip archive's directory is unreadable; 1 part read up to the damage "
     "(word/document.xml); word/styles.xml is cut short",
     "从损坏的文件中恢复：zip 压缩包的目录无法读取；读取了损坏处之前的 1 个部件（word/document.xml）"
     "；word/styles.xml 不完整"),
    ("recovered from a damaged file: its end is lost (3 groups left open); 2 closing braces too many; 1 damaged "
     "character left out; 22 entries of its font, colour, style or list tables found outside them and left out; "
     "the text that survives was read",
     "从损坏的文件中恢复：文件末尾已丢失（3 个组未闭合）；多出 2 个右花括号；已略去 1 个损坏的字符；"
     "已略去 22 个出现在字体表、颜色表、样式表或列表表之外的表项；已读取保留下来的正文"),
    ("recovered from a damaged file: 1 entry of its font, colour, style or list tables found outside them and left "
     "out; the text that survives was read",
     "从损坏的文件中恢复：已略去 1 个出现在字体表、颜色表、样式表或列表表之外的表项；已读取保留下来的正文"),
    ("recovered from a damaged file: the file is cut short inside a tag; 3 damaged tags left out; the text that "
     "survives was read",
     "从损坏的文件中恢复：文件在某个标签中间被截断；已略去 3 个损坏的标签；已读取保留下来的正文"),
    ("recovered from a damaged file: the zip archive's directory is damaged; 9 parts read up to the damage "
     "(word/document.xml, …); its directory, from byte 3828, is cut short or damaged",
     "从损坏的文件中恢复：zip 压缩包的目录已损坏；读取了损坏处之前的 9 个部件（word/document.xml, …）"
     "；其目录（从第 3828 字节起）不完整或已损坏"),
    ("recovered from a damaged file: damaged Word document: word/document.xml: Bad CRC-32; 9 parts read up to the "
     "damage (word/document.xml, …); word/document.xml: checksum mismatch, its text read up to the damage; "
     "word/styles.xml: damaged compressed data, some of its characters may be read wrongly",
     "从损坏的文件中恢复：damaged Word document: word/document.xml: Bad CRC-32；读取了损坏处之前的 9 个部件"
     "（word/document.xml, …）；word/document.xml：校验和不符，其正文读取到损坏处为止；word/styles.xml："
     "压缩数据已损坏，其中部分字符可能读错"),
    ("recovered from a damaged file: the contents of pages 2 (damaged compressed data), 4 (TypeError) are damaged; "
     "their text after the damage is lost or read wrongly",
     "从损坏的文件中恢复：第 2 (damaged compressed data), 4 (TypeError) 页的内容已损坏；损坏处之后的正文已丢失或可能读错"),
    ("recovered from a damaged file: the page tree is damaged (AttributeError); 1 page found among its objects",
     "从损坏的文件中恢复：页面树已损坏 (AttributeError)；在其对象中找到 1 页"),
    ("recovered from a damaged file: the zip archive's directory is unreadable; 9 parts read up to the damage "
     "(word/document.xml, …); no part at byte 1204, the next one at byte 1244; the file ends there",
     "从损坏的文件中恢复：zip 压缩包的目录无法读取；读取了损坏处之前的 9 个部件（word/document.xml, …）"
     "；第 1204 字节处没有部件，下一个部件从第 1244 字节开始；文件到此结束"),
    ("recovered from a damaged file: headers and footers left out (damaged Word document: bad XML)",
     "从损坏的文件中恢复：已略去页眉页脚（damaged Word document: bad XML）"),
    # (found by benchmarks/stress/fuzz.py: pages a damaged PDF lost or whose contents were found again)
    ("recovered from a damaged file: its cross-reference table is damaged; 1 object found by reading the whole file",
     "从损坏的文件中恢复：其交叉引用表已损坏；通读整个文件找到 1 个对象"),
    ("recovered from a damaged file: the page tree counts 8 pages; 1 of them is lost",
     "从损坏的文件中恢复：页面树记有 8 页；其中 1 页已丢失"),
    ("recovered from a damaged file: the name of the contents of page 4 is damaged; read from the stream it names",
     "从损坏的文件中恢复：第 4 页内容的名称已损坏；已从其所指的数据流读取"),
    ("recovered from a damaged file: the contents of pages 2, 3 lost their description and were read as the "
     "compressed data they hold",
     "从损坏的文件中恢复：第 2, 3 页的内容丢失了其描述，已按其中保存的压缩数据读取"),
]


def test_warned_documents_have_an_icon_a_tooltip_and_a_filter(qtbot, documents):
    view = DocumentsView()
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    view.set_documents(documents)
    proxy = view.proxy
    status, reason = 2, 3
    for rel in ("cut.txt", "cut.docx"):
        row = _row(view, rel)
        record = proxy.record_at(proxy.index(row, 0))
        assert record.status == "indexed" and record.warnings
        assert proxy.index(row, status).data() == "indexed with warnings"
        icon = proxy.index(row, status).data(Qt.ItemDataRole.DecorationRole)
        assert isinstance(icon, QIcon) and not icon.isNull()
        assert proxy.index(row, status).data(Qt.ItemDataRole.ToolTipRole) == "\n".join(record.warnings)
        assert proxy.index(row, reason).data() == "; ".join(record.warnings)
    clean = _row(view, "clean.txt")
    assert proxy.index(clean, status).data() == "indexed"
    assert proxy.index(clean, status).data(Qt.ItemDataRole.DecorationRole) is None
    skipped = _row(view, "scan.pdf")
    record = proxy.record_at(proxy.index(skipped, 0))
    assert record.status == "skipped"
    # the Reason column's tooltip is the reason (it used to be the path); the file's is the path
    assert proxy.index(skipped, reason).data(Qt.ItemDataRole.ToolTipRole) == record.reason
    assert proxy.index(skipped, 0).data(Qt.ItemDataRole.ToolTipRole) == record.path

    assert proxy.rowCount() == 4
    qtbot.mouseClick(view.with_warnings, Qt.MouseButton.LeftButton)
    assert view.with_warnings.isChecked()
    assert sorted(proxy.record_at(proxy.index(r, 0)).rel for r in range(proxy.rowCount())) == ["cut.docx", "cut.txt"]
    view.filter.setText("docx")  # both filters at once
    assert [proxy.record_at(proxy.index(r, 0)).rel for r in range(proxy.rowCount())] == ["cut.docx"]
    view.reset()  # another collection: no filter left over
    assert not view.with_warnings.isChecked() and view.filter.text() == ""


def test_counted_messages_in_english_and_chinese(qapp):
    Translations(qapp)  # (as the application does: English's plural forms installed)
    assert localise_progress("found 1 document") == "Found 1 document"
    assert localise_progress("found 12 documents") == "Found 12 documents"
    assert localise_progress("Indexed 1 document (1 with warnings, 0 skipped)") == \
        "Indexed 1 document (1 with warnings, 0 skipped)"
    assert localise_progress("Indexed 512 documents (3 with warnings, 2 skipped)") == \
        "Indexed 512 documents (3 with warnings, 2 skipped)"
    for english, _ in DAMAGED_ACCOUNTS:  # (in English the core's words, singular and plural, stay)
        assert localise_warning(english) == english
    translator = QTranslator()
    assert translator.load(str(ROOT / "resources" / "translations" / "neardup_zh_CN.qm"))
    QCoreApplication.installTranslator(translator)
    try:
        assert localise_progress("Indexed 512 documents (3 with warnings, 2 skipped)") == \
            "已索引 512 个文档（有警告 3，跳过 2）"
        assert localise_progress("found 1 document") == "找到 1 个文档"
        assert QCoreApplication.translate("DocumentsModel", "indexed with warnings") == "已索引（有警告）"
        assert localise_warning("2 of 5080 bytes are not valid UTF-8 and were replaced by \ufffd (at byte 5078); "
                                "the rest was read normally") == \
            "5080 字节中有 2 字节不是有效的 UTF-8 编码，已替换为 \ufffd（at byte 5078）；其余内容正常读取"
        assert localise_warning("recovered from a damaged file: word/header1.xml left out (CRC)") == \
            "从损坏的文件中恢复：已略去 word/header1.xml（CRC）"
        # what a damaged file lost and what was read, phrase by phrase (the details stay)
        for english, chinese in DAMAGED_ACCOUNTS:
            assert localise_warning(english) == chinese, english
        # a damaged PDF's lost fonts and a cut .doc's missing text (each with its count)
        assert localise_warning("7575 characters whose font is lost are left out") == "7575 个字符的字体已丢失，未读入"
        # warnings one after another, with the language's own separator
        assert warnings_text(["7575 characters whose font is lost are left out",
                              "the file is cut short: 4651 characters of its text are missing"]) == \
            "7575 个字符的字体已丢失，未读入；文件不完整：正文缺少 4651 个字符"
        assert localise_warning("the character map of 1 font is damaged: some characters may be read wrongly") == \
            "1 个字体的字符映射表已损坏：部分字符可能读错"
        assert localise_warning("the glyph widths of 2 fonts are damaged: characters may be read in another order or "
                                "left out") == "2 个字体的字形宽度已损坏：字符可能顺序错乱或遗漏"
        assert localise_warning("the file is cut short: 4651 characters of its text are missing") == \
            "文件不完整：正文缺少 4651 个字符"
    finally:
        QCoreApplication.removeTranslator(translator)


def test_a_submission_read_with_warnings_says_so_under_its_figures(qtbot, documents, tmp_path):
    from PySide6.QtCore import QSettings

    from neardup_gui.app.checkview import CheckView

    folder = Path(documents[0].path).parent
    with Collection.open(tmp_path / "c.ndx", create=False) as collection:
        [result] = collection.check([str(folder / "cut.docx")], Settings(workers=1))
    assert result.warnings
    view = CheckView(QSettings(str(tmp_path / "ui.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(view)
    view.set_results([result])
    assert "Read with warnings: recovered from a damaged file" in view.summary_label.text()
