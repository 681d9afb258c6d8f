"""The committee reports' words in the interface's languages (core cannot use Qt's translations).

A small catalog: each key has its English and Simplified-Chinese text; the Chinese first page uses
CNKI's terms (送检文档, 检测时间, 总文字复制比, 去除引用文献复制比, 单篇最大文字复制比, 重复字数,
相似文献列表) because that is what a Chinese committee reads, the English one Turnitin's.
The language is passed in (the app gives its interface language, the CLI ``--lang``).
"""

from __future__ import annotations

from typing import Callable

LANGUAGES = ("en", "zh_CN")

_CATALOG: dict[str, tuple[str, str]] = {
    # first page
    "submission_title": ("Similarity report", "文本复制检测报告单"),
    "screening_title": ("Screening report: {name}", "批量检测报告：{name}"),
    "document": ("Submission", "送检文档"),
    "checked_at": ("Checked", "检测时间"),
    "call": ("Call (screening)", "检测批次"),
    "against": ("Compared with", "比对范围"),
    "against_value": ("{n} documents of the collection and the {m} other submissions of this call",
                      "文献库 {n} 篇文档及本批次其他 {m} 份申请书"),
    "against_collection": ("{n} documents of the collection", "文献库 {n} 篇文档"),
    "copied": ("Overall similarity", "总文字复制比"),
    "copied_note": ("share of the text found in the sources; the application form's own text is not counted",
                    "送检文档中与来源重复的文字所占比例；申请书模板文字不计入"),
    "without_quotes": ("Similarity without quotations", "去除引用文献复制比"),
    "largest": ("Largest single source", "单篇最大文字复制比"),
    "copied_units": ("Matched units", "重复字数"),
    "total_units": ("Units in the submission", "总字数"),
    "template": ("Form (template) text, not counted", "模板文字（不计入）"),
    "sources_count": ("Sources", "相似文献数"),
    "flag": ("Flag", "标记"),
    "flagged": ("flagged: at or above {line}", "已标记：达到或超过 {line}"),
    "not_flagged": ("below the flag line {line}", "低于标记线 {line}"),
    "units_note": ("A unit is one Chinese character or one word of another script.",
                   "字数按汉字计，其他文字按词计。"),
    # sections
    "sections": ("Similarity by section", "分段检测结果"),
    "section": ("Section", "段落"),
    "beginning": ("(beginning)", "（开头）"),
    "section_units": ("Units", "字数"),
    "section_copied": ("Matched", "重复字数"),
    "section_share": ("Similarity", "文字复制比"),
    "section_source": ("Largest source in it", "主要来源"),
    "sections_how": ("Sections begin at the form's headings (template text), the usual parts of a proposal "
                     "and numbered headings.",
                     "段落按申请书模板标题、常见申请书章节名称和编号标题划分。"),
    # sources
    "sources": ("Similar documents", "相似文献列表"),
    "source": ("Source", "来源"),
    "kind": ("Found in", "来源范围"),
    "kind_collection": ("collection", "文献库"),
    "kind_submission": ("this call", "本批次"),
    "share": ("Share of the submission", "占送检文档比例"),
    "similarity": ("Similarity r", "相似度 r"),
    "common": ("Matched units", "重复字数"),
    "excluded_source": ("excluded by the examiner, not counted", "审查人已排除，不计入"),
    "no_sources": ("No source found.", "未发现相似文献。"),
    # full text and passages
    "full_text": ("Full text with matched passages", "全文标明引文"),
    "full_text_note": ("Each matched passage is coloured and numbered by its source (the numbers of the list "
                       "above); {template} is grey, {excluded} grey and struck through; neither is counted.",
                       "每个重复片段按来源着色并标注来源编号（同上方列表）；{template}为灰色，{excluded}为灰色删除线，"
                       "均不计入。"),
    "template_text": ("form (template) text", "模板文字"),
    "excluded_text": ("excluded text", "排除文字"),
    "side_by_side": ("Matched passages side by side", "相似片段对照"),
    "edited_note": ("One entry is one copied section: {identical} in the source's colour, {edited} between the "
                    "identical runs in a lighter shade of it. The share of the submission is counted over these "
                    "passages, edits included; similarity and matched units over the identical runs only.",
                    "每一条为一个被复制的段落：{identical}为来源颜色，相同片段之间的{edited}为同色浅色。"
                    "占送检文档比例按整个段落（含改动）计算；相似度和重复字数仅按完全相同的片段计算。"),
    "identical_text": ("identical text", "完全相同的文字"),
    "edited_text": ("edited words", "改动的文字"),
    "passage": ("#", "#"),
    "units": ("{n} units", "{n} 字"),
    "elided": (" [… {n} characters of this passage not shown …] ", " [……此片段中 {n} 个字符未显示……] "),
    # appendix
    "appendix": ("Appendix: settings and file identities", "附录：检测设置与文件标识"),
    "files": ("Files", "文件"),
    "file": ("File", "文件"),
    "path": ("Path", "路径"),
    "size": ("Size", "大小"),
    "sha256": ("SHA-256", "SHA-256"),
    "settings": ("Settings", "检测设置"),
    "index_file": ("Index file", "索引文件"),
    "collection_folder": ("Collection folder", "文献库文件夹"),
    "application": ("Application", "软件"),
    "created": ("Report created", "报告生成时间"),
    "definitions": ("Similarity r = common / (|A| + |B| − common) over units, counting only aligned runs of at "
                    "least the minimum length (longest common subsequence, Huang, Wang and Li); the share of "
                    "the submission in a source (containment) = common / |submission|. Form text, and quoted "
                    "text or the bibliography when excluded, are removed before comparing.",
                    "相似度 r = 共同字数 / (|A| + |B| − 共同字数)，仅计入长度不小于最小匹配长度的连续对齐片段"
                    "（最长公共子序列，Huang、Wang、Li）；占送检文档比例 = 共同字数 / 送检文档字数。比较前去除模板文字，"
                    "以及设置排除的引文和参考文献。"),
    # screening report
    "screening_summary": ("{n} submissions screened; {f} at or above the flag line {line}; {s} could not be read.",
                          "共检测 {n} 份申请书；{f} 份达到或超过标记线 {line}；{s} 份无法读取。"),
    "folder": ("Folder of submissions", "申请书文件夹"),
    "rank": ("#", "序号"),
    "warnings": ("Warnings", "提示"),
    "skipped": ("not read: {reason}", "未读取：{reason}"),
    "state_running": ("interrupted: not every submission was checked yet", "检测中断：尚有申请书未检测"),
    # PDF footer
    "page": ("page {n} of {m}", "第 {n} 页，共 {m} 页"),
    "yes": ("yes", "是"),
    "no": ("no", "否"),
    "none": ("none", "无"),
}


def translator(lang: str) -> Callable[..., str]:
    """``t(key, **values)`` in ``lang`` (``"en"`` or ``"zh_CN"``; another Chinese locale reads
    Chinese, anything else English)."""
    i = 1 if lang.lower().startswith("zh") else 0

    def t(key: str, **values: object) -> str:
        text = _CATALOG[key][i]
        return text.format(**values) if values else text

    return t


def keys() -> list[str]:
    return list(_CATALOG)
