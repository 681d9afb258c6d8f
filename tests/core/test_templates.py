"""Template text: form sentences found by document frequency, user template files, furniture."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.corpus import corpus_dir
from neardup_gui.core.compare import compare_documents, merge_spans
from neardup_gui.core.settings import Settings
from neardup_gui.core.templates import MIN_SENTENCE_UNITS, sentence_keys, template_file_keys
from neardup_gui.core.verify import Verifier
from neardup_gui.core.units import cjk_share, paragraphs, tokenize

MIN_RUN = Settings().min_run

# The outline of a Chinese research-fund application form: headings and the instructions that
# every applicant leaves in place.
FORM_ZH = [
    "报告正文",
    "参照以下提纲撰写，要求内容翔实、清晰，层次分明，标题突出。请勿删除或改动下述提纲标题及括号中的文字。",
    "（一）立项依据与研究内容",
    "1．项目的立项依据（研究意义、国内外研究现状及发展动态分析，需结合科学研究发展趋势来论述科学意义；或结合国民经济和社会发展中迫切需要解决的关键科技问题来论述其应用前景。附主要参考文献目录）；",
    "2．项目的研究内容、研究目标，以及拟解决的关键科学问题（此部分为重点阐述内容）；",
    "3．拟采取的研究方案及可行性分析（包括研究方法、技术路线、实验手段、关键技术等说明）；",
    "4．本项目的特色与创新之处；",
    "5．年度研究计划及预期研究结果（包括拟组织的重要学术交流活动、国际合作与交流计划等）。",
    "（二）研究基础与工作条件",
    "1．研究基础（与本项目相关的研究工作积累和已取得的研究工作成绩）；",
    "2．工作条件（包括已具备的实验条件，尚缺少的实验条件和拟解决的途径）；",
]

FORM_EN = [
    "Project Description",
    "Describe the scientific merit of the proposed work in no more than fifteen pages. Do not remove or change the headings and instructions of this form.",
    "1. Objectives and significance",
    "State the objectives of the project and explain why they matter for the field and for society. Reviewers will judge whether the objectives are clear, specific and achievable within the funding period.",
    "2. Background and preliminary results",
    "Summarise the state of the art and the applicant's own results that the project builds on. Cite the most relevant publications, including those of competing groups, in the list of references.",
    "3. Methods and work plan",
    "Describe the methods, the work packages with their milestones, and the risks with a fallback for each. A Gantt chart may be attached as an appendix and does not count towards the page limit.",
    "4. Broader impacts",
    "Explain how the results will be disseminated and how the project trains early-career researchers. Describe any outreach activities and the plan for managing and sharing research data.",
    "5. Budget justification",
    "Justify every item of personnel, equipment and travel requested in the budget. Equipment above ten thousand euros requires a written quotation from the supplier.",
]




def content_paragraphs(lang: str, chinese_only: bool, lo: int = 20, hi: int = 50) -> list[str]:
    """Real prose paragraphs of the corpus, in order, to write the applicants' answers with."""
    out = []
    for path in sorted((corpus_dir() / f"debian-reference-{lang}").glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        for s, e in paragraphs(text):
            para = text[s:e]
            units = len(tokenize(para))
            if lo <= units <= hi and (not chinese_only or cjk_share(para) >= 0.9):
                out.append(para)
    return out


def proposal(form: list[str], answers: list[str]) -> str:
    """The form filled in: after every line of the form, the applicant's own paragraph."""
    lines = []
    for i, line in enumerate(form):
        lines.append(line)
        lines.append(answers[i % len(answers)])
    return "\n".join(lines)


def build_collection(form: list[str], paras: list[str], documents: int) -> list[str]:
    per_doc = len(form)
    assert len(paras) >= documents * per_doc
    return [proposal(form, paras[d * per_doc : (d + 1) * per_doc]) for d in range(documents)]


@pytest.mark.parametrize(
    ("form", "lang", "chinese_only", "answer_units"),
    [(FORM_ZH, "zh-cn", True, (20, 50)), (FORM_EN, "en", False, (10, 25))],
    ids=["zh", "en"],
)
def test_same_form_different_content_is_not_a_duplicate(
    form: list[str], lang: str, chinese_only: bool, answer_units: tuple[int, int]
) -> None:
    docs = build_collection(form, content_paragraphs(lang, chinese_only, *answer_units), documents=8)
    frequency = Counter(key for text in docs for key in {k for _, k in sentence_keys(text)})
    form_keys = {key for _, key in sentence_keys("\n".join(form))}
    assert len(form_keys) > len(form)  # some lines hold two sentences
    assert {k for k, n in frequency.items() if n >= 5} == form_keys  # every form sentence, no applicant's
    v = Verifier(Settings(), sorted(form_keys), ())

    a, b = docs[0], docs[1]
    plain = compare_documents(a, b, min_run=MIN_RUN)
    assert plain.similarity >= 0.3  # the form alone would make them look like duplicates

    tpl_a, tpl_b = v.mark(a).template, v.mark(b).template
    masked = compare_documents(a, b, min_run=MIN_RUN, template_a=tpl_a, template_b=tpl_b)
    assert masked.similarity < 0.3
    assert masked.similarity < 0.05
    assert masked.template_share_a > 0.3 and masked.template_share_b > 0.3
    # the template is exactly the form's sentences (of at least MIN_SENTENCE_UNITS units)
    expected, pos = [], 0
    for line in form:
        at = a.index(line, pos)
        expected += [(at + s, at + e) for (s, e), _ in sentence_keys(line)]
        pos = at + len(line)
    assert tpl_a == merge_spans(expected)
    assert all(len(tokenize(a[s:e])) >= MIN_SENTENCE_UNITS for s, e in tpl_a)


def test_user_template_file_marks_its_sentences_anywhere() -> None:
    paras = content_paragraphs("zh-cn", chinese_only=True)
    a = proposal(FORM_ZH, paras[:11])
    user_keys = template_file_keys(["\n".join(FORM_ZH)])
    v = Verifier(Settings(), (), user_keys)
    spans = v.mark(a).template
    assert [a[s:e] for s, e in spans] == FORM_ZH  # a line's sentences merge into one span
    # whitespace, full-width forms and punctuation do not hide a form sentence
    reworded = "报告 正文：\n参照以下提纲撰写,要求内容翔实、清晰,层次分明,标题突出!请勿删除或改动下述提纲标题及括号中的文字"
    assert [reworded[s:e] for s, e in v.mark(reworded).template] == [
        "报告 正文：",
        "参照以下提纲撰写,要求内容翔实、清晰,层次分明,标题突出!请勿删除或改动下述提纲标题及括号中的文字",
    ]


def test_furniture_spans_are_merged_in() -> None:
    text = "第 3 页 共 8 页\n本项目研究高温超导材料的电子结构与输运性质。\n国家自然科学基金申请书 2025 版"
    footer = (text.index("国家"), len(text))
    marked = Verifier(Settings(), (), ()).mark(text, furniture=[(0, 9), footer, (2, 5)])
    assert marked.template == ((0, 9), footer)


def test_sentence_keys_skip_short_sentences_and_normalise() -> None:
    keys = sentence_keys("注意。\nThe Quick  brown fox jumps.\n the quick, brown FOX jumps!")
    assert len(keys) == 2  # 注意 has two units only
    (span1, k1), (span2, k2) = keys
    assert k1 == k2
    assert span1 == (4, 31)
