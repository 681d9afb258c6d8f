"""Text files that keep a terminal's formatting: man pages rendered by groff with overstrikes
(``N\\bN`` bold, ``_\\bN`` underline, a long header printed over itself) or with escape sequences
(``ESC[1m``), as ``nroff``, ``groff -Tutf8`` and ``MAN_KEEP_FORMATTING=1 man`` write them.

Before: the overstruck page was skipped as "binary data, not text", and the page with escape
sequences matched its plain rendering at similarity 0.30 (``[1mNAME`` is not ``NAME``). Now each
reads as ``col -b`` shows it. The pages are rendered here by the real groff (``groff-base``,
installed by scripts/install-deps.sh) from a man page in English and Chinese.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from neardup_gui.core.collection import Collection
from neardup_gui.core.document import Document
from neardup_gui.core.extract import extract_file
from neardup_gui.core.extract.common import looks_binary
from neardup_gui.core.extract.text import undo_terminal_formatting
from neardup_gui.core.settings import ExtractLimits, Settings

PAGE = r""".TH GRANT_PROPOSAL_REVIEW_COMMITTEE_SUBMISSION_CHECKER_TOOL 1 "November 2026" "neardup 0.1" "Examiner Commands"
.SH NAME
grant-check \- compare a proposal with the fund's archive of earlier submissions
.SH SYNOPSIS
.B grant-check
[\fIOPTION\fR]... \fIPROPOSAL\fR...
.SH DESCRIPTION
The examiner points the tool at a folder of earlier proposals and drops a new one on it.
Every passage the new proposal shares with an earlier one is listed with its source,
its length and the share of the proposal it covers, so that a committee can see at once
whether a resubmission was \fBlightly edited\fR or \fIwritten anew\fR.
.TP
.BR \-t ", " \-\-threshold =\fIVALUE\fR
report pairs whose similarity is at least \fIVALUE\fR (default 0.8).
.SH 说明
评审人员把工具指向往年申请书的文件夹，再把新的申请书拖进窗口。新申请书与旧申请书共有的每一段文字都会列出来源、长度和所占比例，委员会可以一眼看出这份申请是\fB稍加修改\fR后重新提交的，还是\fI重新撰写\fR的。
.SH SEE ALSO
.UR https://example.org/neardup
the project's pages
.UE
"""


def render(tmp: Path, pipe: str, sgr: bool = False) -> bytes:
    env = {**os.environ, "GROFF_SGR": "1"} if sgr else {k: v for k, v in os.environ.items() if k != "GROFF_SGR"}
    page = tmp / "page.1"
    page.write_text(PAGE, encoding="utf-8")
    return subprocess.run(f"groff -k -man -Tutf8 '{page}' 2>/dev/null {pipe}", shell=True, env=env,
                          capture_output=True, check=True).stdout


@pytest.fixture(scope="module")
def renderings(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The page as a terminal shows it (``col -bx``: spaces; ``col -b``: runs of spaces as tabs),
    with overstrikes, and with escape sequences."""
    tmp = tmp_path_factory.mktemp("man")
    forms = {"plain": render(tmp, "| col -bx"), "tabs": render(tmp, "| col -b"), "overstruck": render(tmp, ""),
             "escapes": render(tmp, "", sgr=True)}
    assert b"\x08" in forms["overstruck"] and b"N\x08NA\x08AM\x08ME\x08E" in forms["overstruck"]
    assert b"\x08\x08" not in forms["overstruck"] and b"W\x08G" in forms["overstruck"]  # the header over itself
    assert b"\x1b[1m" in forms["escapes"] and b"\t" in forms["tabs"]
    out = {}
    for name, data in forms.items():
        out[name] = tmp / f"{name}.txt"
        out[name].write_bytes(data)
    return out


def text_of(path: Path) -> str:
    doc = extract_file(str(path), ExtractLimits())
    assert isinstance(doc, Document), doc
    return doc.text


def test_a_formatted_man_page_reads_as_its_plain_rendering(renderings: dict[str, Path]) -> None:
    plain = text_of(renderings["plain"])
    assert "NAME\ngrant-check - compare a proposal" in plain
    assert "稍加修改后重新提交的" in plain
    for form in ("overstruck", "escapes", "tabs"):
        assert text_of(renderings[form]) == plain, form
    assert "[1m" not in text_of(renderings["escapes"]) and "\x08" not in text_of(renderings["overstruck"])


def test_formatted_copies_are_found_as_the_same_document(renderings: dict[str, Path], tmp_path: Path) -> None:
    folder = tmp_path / "pages"
    folder.mkdir()
    for form, path in renderings.items():
        (folder / path.name).write_bytes(path.read_bytes())
    with Collection.open(str(tmp_path / "i.db")) as coll:
        report = coll.index_folder(str(folder), Settings(workers=1))
        assert report.skipped == ()
        pairs = list(coll.pairs(Settings(threshold=0.8, auto_template=False, workers=1)))
    assert len(pairs) == 6  # every two of the four renderings
    assert all(p.similarity == pytest.approx(1.0) for p in pairs)


def test_escape_sequences_of_every_kind_are_removed() -> None:
    link = "\x1b]8;;https://example.org/a\x1b\\the project's pages\x1b]8;;\x1b\\"
    assert undo_terminal_formatting(link) == "the project's pages"
    assert undo_terminal_formatting("\x1b]8;;https://example.org\x07link\x1b]8;;\x07") == "link"
    assert undo_terminal_formatting("\x1b[1;31mred\x1b[0m \x1b[38;5;208mamber\x1b[m") == "red amber"
    assert undo_terminal_formatting("\x1b(Bplain\x1b=") == "plain"
    # an escape left open removes itself, never the text after it
    assert undo_terminal_formatting("a stray \x1b]8;;file:///x\nthe rest of the page") == "a stray 8;;file:///x\nthe rest of the page"


def test_overstrikes_read_as_col_b_shows_them() -> None:
    assert undo_terminal_formatting("B\bBo\bol\bld _\bu_\bn_\bd_\be_\br") == "Bold under"
    assert undo_terminal_formatting("_\bb\bb_\bo\bo") == "bo"  # bold underlined
    assert undo_terminal_formatting("稍\b稍加\b加 _\b重") == "稍加 重"  # wide characters: one backspace
    assert undo_terminal_formatting("abcdef\b\b\bXYZ tail") == "abcXYZ tail"  # a line over itself
    # a backspace moves back, it does not erase; none crosses a line (as `col -b` shows them)
    assert undo_terminal_formatting("\bstart\b\none\b\ntwo") == "start\none\ntwo"


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x08\x1b")))
def test_a_text_without_formatting_is_left_as_it_is(text: str) -> None:
    assert undo_terminal_formatting(text) is text


def test_an_overstruck_page_is_text_and_binary_data_still_is_not(renderings: dict[str, Path]) -> None:
    assert not looks_binary(renderings["overstruck"].read_bytes()[:8192])
    assert looks_binary(bytes(range(0, 32)) * 64)
    assert looks_binary(b"\x08\x01\x02\x03" * 512)  # backspaces among controls overstrike nothing


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab_中 \n\x08\x1b[]();m1\x07\\")))
def test_any_mix_of_backspaces_and_escapes_reads_without_a_backspace(text: str) -> None:
    out = undo_terminal_formatting(text)
    assert "\x08" not in out
    assert out.count("\n") == text.count("\n")  # no escape sequence or overstrike crosses a line


def _spaces_for_tabs(line: str) -> str:
    """The reference: each tab to the next multiple of 8 columns of what precedes it, East Asian
    wide characters two columns (measured again from the start at every tab)."""
    import unicodedata

    def columns(s: str) -> int:
        return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)

    out = ""
    for c in line:
        out += " " * (8 - columns(out) % 8) if c == "\t" else c
    return out


def test_tabs_after_wide_characters_are_measured_as_a_terminal_shows_them() -> None:
    """`col -b` writes runs of spaces as tabs; after Chinese characters (two columns each) a tab
    reaches fewer characters further: hard-wrapped lines are recognised as with the spaces."""
    from neardup_gui.core.extract.text import split_paragraphs

    wide = "评审人员把工具指向往年申请书的文件夹再把新的申请书拖进窗口新申请书与旧申请书共有的每一段文字都会列出来源"
    wrapped = ["\t在当前版本里，如果服务器要求口令认证，psql\t自动提出一个口令提示符。因为",
               "\t目前这个特性是以一个“hack”为基础，自动识别\t可能失败，所以可以用一个",
               "\t选项强制提示输入口令。参阅下文关于这个选项的说明，以及客户端\t认证", "\t一章。"]
    # the second line is 55 columns on a terminal, under 70 % of the first's 80: not wrapping
    # (tabs expanded one column a character, it measured 56)
    ragged = ["        " + wide[:34] + " end", "\t" + wide[:9] + "\t" + "x" * 23, "\t" + wide[:34] + " x", "\t" + wide[:3]]
    for lines, paragraphs in ((wrapped, 1), (ragged, 4)):
        spaced = "\n".join(map(_spaces_for_tabs, lines))
        assert len(split_paragraphs(spaced)) == paragraphs
        assert [" ".join(p.split()) for p in split_paragraphs("\n".join(lines))] == [
            " ".join(p.split()) for p in split_paragraphs(spaced)]
