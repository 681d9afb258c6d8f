"""Quoted text and bibliography spans, on hand-written and real text."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import neardup_gui.core.exclusions as ex
from tests.corpus import corpus_dir
from neardup_gui.core.compare import compare_documents
from neardup_gui.core.exclusions import MAX_QUOTE_CHARS, bibliography_spans, quoted_spans




def texts_of(text: str, spans: tuple[tuple[int, int], ...]) -> list[str]:
    return [text[s:e] for s, e in spans]


def test_chinese_quotation_marks() -> None:
    text = "钱学森说：“科学的发展需要交叉。”随后他指出「所谓『系统工程』，就是组织管理的技术」。"
    assert texts_of(text, quoted_spans(text)) == [
        "“科学的发展需要交叉。”",
        "「所谓『系统工程』，就是组织管理的技术」",
    ]


def test_english_quotes_and_apostrophes() -> None:
    text = (
        'As Merton put it, "the Matthew effect" shapes careers. It\'s not the author\'s view; '
        "she calls it ‘cumulative advantage’ and doesn’t say more. A 5\" floppy disk is not a quote."
    )
    assert texts_of(text, quoted_spans(text)) == ['"the Matthew effect"', "‘cumulative advantage’"]


def test_nested_same_kind_quotes() -> None:
    text = "他写道：“老师常说“慢就是快”，我深以为然。”完。"
    assert texts_of(text, quoted_spans(text)) == ["“老师常说“慢就是快”，我深以为然。”"]


def test_unbalanced_quote_does_not_swallow_the_document() -> None:
    body = "本段开头有一个没有闭合的引号“从这里开始一直没有结束。\n" + "后面的段落是正文，不是引文。" * 50
    body += "\n最后一段里有“正常的引文”。"
    spans = quoted_spans(body)
    assert texts_of(body, spans) == ["“正常的引文”"]
    long_line = "“" + "长" * (MAX_QUOTE_CHARS + 10) + "”"
    assert quoted_spans(long_line) == ()  # longer than any quotation we accept


def test_real_text_quotes() -> None:
    text = (corpus_dir() / "debian-reference-zh-cn" / "ch01-019.txt").read_text(encoding="utf-8")
    found = texts_of(text, quoted_spans(text))
    assert found[:4] == ["“sudo vigr”", "“sudo vigr -s”", "“exec newgrp”", "“auth optional pam_group.so”"]
    assert all(len(q) < 200 and "\n" not in q for q in found)


def test_bibliography_chinese_numbered_heading() -> None:
    body = "一、立项依据\n" + "本项目研究城市热岛效应的形成机制与缓解策略。" * 20
    refs = "五、参考文献\n[1] 张三, 李四. 城市热岛研究进展[J]. 地理学报, 2020, 75(3): 1-10.\n[2] Oke T R. The energetic basis of the urban heat island[J]. 1982.\n"
    text = body + "\n" + refs
    (span,) = bibliography_spans(text)
    assert text[span[0] : span[1]] == refs.rstrip()


@pytest.mark.parametrize("heading", ["References", "REFERENCES:", "7. Bibliography", "Works Cited", "参 考 文 献", "主要参考文献"])
def test_bibliography_headings(heading: str) -> None:
    text = "Introduction\n" + "We study the thermal noise of mirror coatings. " * 20 + f"\n{heading}\n[1] A. Author, Title, 2020.\n"
    (span,) = bibliography_spans(text)
    assert text[span[0] :].startswith(heading)
    assert span[1] == len(text.rstrip())


def test_bibliography_only_in_the_latter_part() -> None:
    early = "References\nThis heading sits at the top, a table of contents entry.\n" + "Body text of the proposal. " * 20
    assert bibliography_spans(early) == ()
    inline = "We list the references below in the appendix. " * 10 + "\nSee the references in section 3 for more.\n"
    assert bibliography_spans(inline) == ()  # not a heading line


def test_excluding_a_shared_bibliography() -> None:
    refs = "\n参考文献\n[1] 王小明. 深度学习在医学影像中的应用[J]. 中国科学, 2021, 51(2): 100-120.\n[2] 李华. 卷积神经网络综述[J]. 计算机学报, 2019, 42(6): 1-30.\n"
    a = "本项目拟研究基于深度学习的肺结节自动检测方法，重点解决小样本条件下的泛化问题。" * 3 + refs
    b = "本课题关注农作物病害的早期识别，通过无人机遥感影像构建病害分布图谱。" * 3 + refs
    plain = compare_documents(a, b, min_run=8)
    assert plain.common_units > 0  # the shared reference list
    excluded = compare_documents(a, b, min_run=8, excluded_a=bibliography_spans(a), excluded_b=bibliography_spans(b))
    assert excluded.common_units == 0
    assert excluded.excluded_share_a == pytest.approx(1 - excluded.units_a / plain.units_a)


# --- the searching quoted_spans equals the plain character-by-character scan --------------------

def _quoted_spans_reference(text):
    """Spans of quoted passages, marks included; sorted, nested quotations inside the outer one.

    A quotation closes within its paragraph and ``ex.MAX_QUOTE_CHARS``; an opening mark without a
    closing one there is ignored.
    """
    spans = []
    i, n = 0, len(text)
    while i < n:
        mark = text[i]
        closing = ex._PAIRS.get(mark)
        if closing is None or not ex._can_open(text, i, mark):
            i += 1
            continue
        limit = min(n, i + 1 + ex.MAX_QUOTE_CHARS)
        newline = text.find("\n", i + 1, limit)
        if newline != -1:
            limit = newline
        depth, j, end = 0, i + 1, -1
        while j < limit:
            ch = text[j]
            if ch == closing and ex._can_close(text, j, ch):
                if depth == 0:
                    end = j + 1
                    break
                depth -= 1
            elif ch == mark and mark != closing and ex._can_open(text, j, ch):
                depth += 1  # the same kind nested: “ … “ … ” … ”
            j += 1
        if end == -1:
            i += 1
            continue
        if end - i > 2:  # something between the marks
            spans.append((i, end))
        i = end
    return tuple(spans)


@given(st.text(alphabet=st.sampled_from(list('ab c\n“”「」『』‘’"\'x1 ')), max_size=80))
def test_quoted_spans_equal_the_plain_scan(text):
    assert ex.quoted_spans(text) == _quoted_spans_reference(text)
