"""Sections of a submission (the form's headings) and the copied share of each.

A committee asks *which part* was copied: the research plan or the literature review (CNKI's
分段检测). A submission is cut at its headings; a paragraph is a heading when it is short, does
not end like a sentence, and

1. is template text (a heading of the application form: the call's form is found as template by
   the collection's sentence frequencies, the examiner's template files and marked passages), or
2. names a usual part of a proposal (立项依据, 研究内容, 研究基础, 参考文献, …; Background, Aims,
   Methods, References, …), with or without a number in front (一、 / （二） / 1. / 2.3 / III.), or
3. is numbered like a heading of a chapter or section (第一章, 一、, （一）, 1.2 Title) — a short
   line with a number alone ("1. Collect samples.") ends like a sentence and is not one.

The text before the first heading is its own section (the title page). Every figure is exact:
the share of a section's countable units (template and excluded text left out) covered by the
verified passages of the counted sources.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

from neardup_gui.core.compare import units_in_spans
from neardup_gui.core.document import CharSpan
from neardup_gui.core.units import Units, cjk_share

log = logging.getLogger(__name__)

# A heading is at most this long (characters of a mostly Chinese line / words of another).
MAX_HEADING_CJK_CHARS = 30
MAX_HEADING_WORDS = 12
# A form's template paragraph this short is one of its headings (longer ones are instructions).
MAX_TEMPLATE_HEADING_CHARS = 40
SENTENCE_END = tuple("。！？；.!?;，,")  # (a heading may end with a colon)

# The usual parts of a research proposal (NSFC-style Chinese forms; English grant forms).
KNOWN_HEADINGS_ZH = (
    "项目摘要", "摘要", "立项依据", "研究意义", "研究背景", "国内外研究现状", "研究现状", "研究内容", "研究目标",
    "研究方案", "技术路线", "研究方法", "拟解决的关键问题", "关键科学问题", "可行性分析", "特色与创新之处", "创新点",
    "年度研究计划", "研究计划", "预期研究结果", "预期成果", "研究基础", "工作基础", "工作条件", "研究基础与工作条件",
    "经费预算", "预算说明", "参考文献", "主要参考文献", "项目组成员", "申请人简介", "伦理声明", "承诺书",
)
KNOWN_HEADINGS_EN = (
    "abstract", "summary", "lay summary", "background", "introduction", "rationale", "state of the art",
    "literature review", "aims", "objectives", "aims and objectives", "research questions", "hypotheses",
    "methods", "methodology", "approach", "research plan", "research design", "work plan", "workplan",
    "preliminary results", "preliminary work", "feasibility", "risks", "timeline", "milestones",
    "expected outcomes", "expected results", "outcomes", "impact", "dissemination", "data management",
    "ethics", "ethical considerations", "budget", "budget justification", "resources", "team",
    "patient and public involvement", "references", "bibliography", "appendix",
)

_NUMBER = (r"(?:第[一二三四五六七八九十百0-9]+[章节部分篇]|[（(][一二三四五六七八九十0-9]+[)）]|"
           r"[一二三四五六七八九十]+[、.．]|[0-9]+(?:\.[0-9]+)*[.．、)]?|[IVXLC]+[.)]|[A-H][.)])")
_NUMBERED_RE = re.compile(rf"^\s*{_NUMBER}\s*(?P<rest>.*)$")
# A heading names something: a word of three letters or two CJK characters ("V:0, I:10", a
# table's repeated cell, is no heading even when it recurs like the form's text).
_WORDY_RE = re.compile(r"[^\W\d_]{3,}|[\u4e00-\u9fff]{2,}")
_ZH_RE = re.compile("|".join(sorted(map(re.escape, KNOWN_HEADINGS_ZH), key=len, reverse=True)))


@dataclass(frozen=True)
class Section:
    """A part of the submission: its heading (empty for the text before the first) and its span."""

    title: str
    span: CharSpan  # from the heading's start to the next heading's start
    how: str = ""  # "template" | "known" | "numbered" | "" (the beginning)


@dataclass(frozen=True)
class SectionFigures:
    """The copied share of one section, as CNKI's 分段检测 table gives it."""

    section: Section
    units: int  # all units of the section
    countable: int  # without template and excluded text
    copied: int  # countable units covered by a counted source
    largest_source: str = ""  # the source covering most of this section ("" when none)

    @property
    def share(self) -> float:
        return self.copied / self.countable if self.countable else 0.0


def _paragraphs(text: str) -> list[CharSpan]:
    out, pos = [], 0
    for line in text.split("\n"):
        out.append((pos, pos + len(line)))
        pos += len(line) + 1
    return out


def _strip_number(line: str) -> tuple[str, bool]:
    m = _NUMBERED_RE.match(line)
    if m and m.group("rest").strip() and m.group(0) != m.group("rest"):
        return m.group("rest").strip(), True
    return line.strip(), False


def _short(line: str) -> bool:
    if cjk_share(line) > 0.3:
        return len(line) <= MAX_HEADING_CJK_CHARS
    return len(line.split()) <= MAX_HEADING_WORDS


def heading_kind(line: str, *, is_template: bool = False) -> str:
    """How ``line`` (one paragraph) is recognised as a heading: template, known, numbered, or ""."""
    line = line.strip()
    if not line or line.endswith(SENTENCE_END) or not _short(line) or not _WORDY_RE.search(line):
        return ""
    if is_template and len(line) <= MAX_TEMPLATE_HEADING_CHARS:
        return "template"
    rest, numbered = _strip_number(line)
    rest = rest.rstrip("：:").strip()
    low = re.sub(r"\s+", " ", rest.lower())
    if low in KNOWN_HEADINGS_EN or (_ZH_RE.fullmatch(rest) is not None) or (
            cjk_share(rest) > 0.5 and _ZH_RE.match(rest) is not None and len(rest) <= 12):
        return "known"
    if numbered and (cjk_share(line) > 0.3 or re.match(r"^\s*(?:第|[0-9]+\.[0-9]|[IVXLC]+[.)])", line)
                     or rest[:1].isupper()):
        return "numbered"
    return ""


def find_sections(text: str, template: Sequence[CharSpan] = ()) -> tuple[Section, ...]:
    """Cut ``text`` at its headings (see the module's docstring); template spans mark the form's."""
    template = sorted(template)
    starts = [s for s, _ in template]
    import bisect

    def in_template(start: int, end: int) -> bool:
        i = bisect.bisect_right(starts, start) - 1
        return i >= 0 and template[i][0] <= start and template[i][1] >= end

    heads: list[tuple[int, str, str]] = []
    for start, end in _paragraphs(text):
        line = text[start:end]
        stripped = line.strip()
        if not stripped:
            continue
        lead = start + (len(line) - len(line.lstrip()))
        kind = heading_kind(stripped, is_template=in_template(lead, lead + len(stripped)))
        if kind:
            heads.append((start, stripped, kind))
    sections: list[Section] = []
    first = heads[0][0] if heads else len(text)
    if text[:first].strip():
        sections.append(Section("", (0, first), ""))
    for i, (start, title, kind) in enumerate(heads):
        end = heads[i + 1][0] if i + 1 < len(heads) else len(text)
        sections.append(Section(title, (start, end), kind))
    return tuple(_merge_empty(sections, text))


def _merge_empty(sections: list[Section], text: str) -> Iterable[Section]:
    """A heading directly followed by another (a form's label and its sub-heading) has no body:
    it joins the next section, whose title keeps both."""
    out: list[Section] = []
    pending: Section | None = None
    for s in sections:
        if pending is not None:
            s = Section(f"{pending.title} / {s.title}" if s.title else pending.title, (pending.span[0], s.span[1]), s.how or pending.how)
            pending = None
        body = text[s.span[0]:s.span[1]]
        first_line_end = body.find("\n")
        rest = body[first_line_end + 1:] if (first_line_end >= 0 and s.title) else ("" if s.title else body)
        if s.title and not rest.strip():
            pending = s
            continue
        out.append(s)
    if pending is not None:
        out.append(pending)
    return out


def section_figures(units: Units, sections: Sequence[Section], sources: Sequence[tuple[str, Sequence[CharSpan]]],
                    template: Sequence[CharSpan] = (), excluded: Sequence[CharSpan] = ()) -> list[SectionFigures]:
    """Each section's copied share: ``sources`` as (name, the submission's spans matched in it)."""
    n = len(units)
    countable = ~(units_in_spans(units, template) | units_in_spans(units, excluded))
    per_source = [(name, units_in_spans(units, spans) & countable) for name, spans in sources]
    covered = np.zeros(n, dtype=bool)
    for _, m in per_source:
        covered |= m
    out = []
    for s in sections:
        inside = (units.starts >= s.span[0]) & (units.starts < s.span[1])
        best, best_n = "", 0
        for name, m in per_source:
            k = int((m & inside).sum())
            if k > best_n:
                best, best_n = name, k
        out.append(SectionFigures(s, units=int(inside.sum()), countable=int((inside & countable).sum()),
                                  copied=int((inside & covered).sum()), largest_source=best))
    return out
