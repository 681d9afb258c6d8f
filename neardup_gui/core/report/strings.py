"""The reports' words in the interface's languages (core cannot use Qt's translations).

A small catalog: each key has its English and Simplified-Chinese text; the Chinese first page uses
CNKI's terms (送检文档, 检测时间, 总文字复制比, 去除引用文献复制比, 单篇最大文字复制比, 重复字数,
相似文献列表) because that is what a Chinese committee reads, the English one Turnitin's.
The duplicate reports' words (check, pairs, clusters: html.py, csv.py) have keys ``r_…``.
The language is passed in (the app gives its interface language, the CLI ``--lang``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from neardup_gui.core.flags import Flag

LANGUAGES = ("en", "zh_CN")

_CATALOG: dict[str, tuple[str, str]] = {
    # first page
    "submission_title": ("Similarity report", "文本复制检测报告单"),
    "screening_title": ("Screening report: {name}", "批量检测报告：{name}"),
    "document": ("Submission", "送检文档"),
    "checked_at": ("Checked", "检测时间"),
    "call": ("Call (screening)", "检测批次"),
    "against": ("Compared with", "比对范围"),
    "against_value": ("the collection (documents: {n}) and this call's other submissions ({m})",
                      "文献库 {n} 篇文档及本批次其他 {m} 份申请书"),
    "against_collection": ("the collection (documents: {n})", "文献库 {n} 篇文档"),
    "copied": ("Copied", "总文字复制比"),
    "copied_note": ("share of the text found in the sources; the application form's own text is not counted",
                    "送检文档中与来源重复的文字所占比例；申请书模板文字不计入"),
    "without_quotes": ("Copied without quotations", "去除引用文献复制比"),
    "largest": ("Largest single source", "单篇最大文字复制比"),
    "copied_units": ("Copied units", "重复字数"),
    "total_units": ("Units", "总字数"),
    "template": ("Template share", "模板文字占比"),
    "sources_count": ("Sources", "相似文献数"),
    "flagged": ("Flagged: copied is at or above the flag line ({line}).", "已标记：总文字复制比达到或超过标记线（{line}）。"),
    "not_flagged": ("Not flagged: copied is below the flag line ({line}).", "未标记：总文字复制比低于标记线（{line}）。"),
    # the line under the figures: what copied counts, the template share, what a unit is
    "figures_note": ("{copied}: {note}. {template}: {share}. {units}", "{copied}：{note}。{template}：{share}。{units}"),
    "warnings_line": ("Warnings: {warnings}", "提示：{warnings}"),
    "list_separator": ("; ", "；"),
    "labelled": ("{label}: {value}", "{label}：{value}"),  # (the colon of the report's language)
    "units_note": ("A unit is one Chinese character or one word of another script.",
                   "字数按汉字计，其他文字按词计。"),
    # sections
    "sections": ("Similarity by section", "分段检测结果"),
    "section": ("Section", "段落"),
    "beginning": ("(beginning)", "（开头）"),
    "section_units": ("Units", "总字数"),
    "section_copied": ("Copied units", "重复字数"),
    "section_share": ("Copied", "文字复制比"),
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
    "credited": ("Credited", "计入比例"),
    "similarity": ("Similarity r", "相似度 r"),
    "common": ("Identical units", "相同字数"),
    "excluded_source": ("excluded by the examiner, not counted", "审查人已排除，不计入"),
    "source_holds": ("holds {share} of the submission; the rest is credited to {others}",
                     "含本文 {share}，其余计入 {others}"),
    "no_sources": ("No source found.", "未发现相似文献。"),
    # full text and passages
    "full_text": ("Full text with matched passages", "全文标明引文"),
    "full_text_note": ("Each matched passage is coloured and numbered by its source (the numbers of the list "
                       "above); {template} is grey, {excluded} grey and struck through; neither is counted.",
                       "每个重复片段按来源着色并标注来源编号（同上方列表）；{template}为灰色，{excluded}为灰色删除线，"
                       "均不计入。"),
    "template_text": ("template text", "模板文字"),
    "excluded_text": ("excluded text", "排除文字"),
    "side_by_side": ("Matched passages side by side", "相似片段对照"),
    "edited_note": ("One entry is one copied section: {identical} in the source's colour, {edited} between the "
                    "identical runs in a lighter shade of it. The share of the submission is counted over these "
                    "passages, edits included; similarity r and identical units over the identical runs only.",
                    "每一条为一个被复制的段落：{identical}为来源颜色，相同片段之间的{edited}为同色浅色。"
                    "占送检文档比例按整个段落（含改动）计算；相似度 r 和相同字数仅按完全相同的片段计算。"),
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
    "definitions": ("Similarity r = identical units / (A + B − identical units), counting only aligned runs of "
                    "at least the minimum length (longest common subsequence, Huang, Wang and Li); the share of "
                    "the submission in a source = the submission's units inside passages found in the source / "
                    "its units. Template text, and quoted text or the bibliography when excluded, are removed "
                    "before comparing.",
                    "相似度 r = 相同字数 / (A + B − 相同字数)，仅计入长度不小于最小匹配长度的连续对齐片段"
                    "（最长公共子序列，Huang、Wang、Li）；占送检文档比例 = 在该来源中找到的片段所含送检文档字数 / "
                    "送检文档总字数。比较前去除模板文字，以及设置排除的引文和参考文献。"),
    # screening report
    "screening_summary": ("Submissions screened: {n}; at or above the flag line ({line}): {f}; could not be read: {s}.",
                          "共检测 {n} 份申请书；{f} 份达到或超过标记线（{line}）；{s} 份无法读取。"),
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
    # --- the duplicate reports: check, pairs, clusters (html.py, csv.py) ---
    "r_title_check": ("Duplicate report: submissions checked against the collection", "重复检测报告：送检文档与文献库比对"),
    "r_title_pairs": ("Duplicate report: near-duplicate pairs of the collection", "重复检测报告：文献库中的近似重复文档对"),
    "r_title_clusters": ("Duplicate report: near-duplicate clusters of the collection", "重复检测报告：文献库中的近似重复文档聚类"),
    "r_created_by": ("Created {created} by neardup {version}.", "由 neardup {version} 于 {created} 生成。"),
    "r_explanation": ("Similarity r is the share of the two texts' countable units that are identical within the "
                      "passages they share in order (runs of at least the minimum length and the shorter identical "
                      "runs between them, across small edits); A in B is the share of A found in B, in any order. "
                      "Template and excluded text is shown grey and never counted.",
                      "相似度 r 为两篇文本按顺序共有的段落中完全相同字数所占的比例（不短于最小长度的片段，以及小改动之间较短的"
                      "相同片段）；A 在 B 中为 A 在 B 中出现的比例，不论顺序。模板文字和排除文字以灰色显示，均不计入。"),
    "r_summary": ("Summary", "概要"),
    "r_report": ("Report", "报告"),
    "r_scope_check": ("submissions checked against the collection", "送检文档与文献库比对"),
    "r_scope_pairs": ("near-duplicate pairs of the collection", "文献库中的近似重复文档对"),
    "r_scope_clusters": ("near-duplicate clusters of the collection", "文献库中的近似重复文档聚类"),
    "r_created": ("Created", "生成时间"),
    "r_not_recorded": ("(not recorded)", "（未记录）"),
    "r_index_size": ("Index size", "索引大小"),
    "r_index_unfinished": ("Index incomplete", "索引不完整"),
    "r_index_unfinished_value": ("the last indexing of {folder} did not finish: the files not indexed then are not "
                                 "compared in this report",
                                 "{folder} 上次的索引没有完成：当时未索引的文件没有参与本报告的比较"),
    "r_documents": ("Documents in the collection", "文献库文档数"),
    "r_documents_value": ("{d} ({i} indexed, {w} with warnings, {k} skipped)",
                          "{d}（已索引 {i}，其中有提示 {w}，跳过 {k}）"),
    "r_submissions_checked": ("Submissions checked", "送检文档数"),
    "r_clusters_count": ("Clusters", "聚类数"),
    "r_threshold": ("Similarity r threshold", "相似度 r 阈值"),
    "r_pairs_reported": ("Pairs reported", "报告的文档对"),
    "r_passages_count": ("Matched passages", "匹配片段数"),
    "r_colours": ("Colours:", "颜色："),
    "r_match_n": ("match {n}", "片段 {n}"),
    "r_colours_note": ("… each matched passage has the same colour on both sides; {template} and {excluded} are "
                       "grey and never counted.", "……每个匹配片段在两侧颜色相同；{template}和{excluded}为灰色，均不计入。"),
    "r_template_text": ("template text", "模板文字"),
    "r_edited_note": ("One entry is one copied section: {identical} in its colour, {edited} between the identical "
                      "runs in a lighter shade of the same colour. A in B and B in A are counted over these passages, "
                      "edits included; similarity r and identical units over the identical runs only.",
                      "每一条为一个被复制的段落：{identical}为其颜色，相同片段之间的{edited}为同色浅色。"
                      "A 在 B 中、B 在 A 中按整个段落（含改动）计算；相似度 r 和相同字数仅按完全相同的片段计算。"),
    "r_settings": ("Settings", "检测设置"),
    "r_set_threshold": ("similarity r reported at or above", "报告相似度 r 不低于"),
    "r_set_min_run": ("minimum units in a matched passage", "匹配片段最少字数"),
    "r_set_strategy": ("candidate search strategy", "候选检索策略"),
    "r_set_template_min_docs": ("template: sentence in at least this many documents", "模板：句子至少出现在这么多篇文档中"),
    "r_set_template_min_share": ("template: and at least this share of the collection", "模板：且至少占文献库的比例"),
    "r_set_template_files": ("template files", "模板文件"),
    "r_set_exclude_quotes": ("quoted text excluded", "排除引文"),
    "r_set_exclude_bibliography": ("bibliography excluded", "排除参考文献"),
    "r_set_workers": ("extraction processes", "文本提取进程数"),
    "r_submissions": ("Submissions", "送检文档"),
    "r_submission": ("Submission", "送检文档"),
    "r_units": ("Units", "总字数"),
    "r_copied": ("Copied", "总文字复制比"),
    "r_copied_without_quotes": ("Copied without quotations", "去除引用文献复制比"),
    "r_largest_source": ("Largest single source", "单篇最大文字复制比"),
    "r_sources": ("Sources", "相似文献数"),
    "r_skipped": ("skipped: {reason}", "已跳过：{reason}"),
    "r_clusters": ("Clusters", "聚类"),
    "r_cluster": ("Cluster", "聚类"),
    "r_cluster_n": ("cluster {n}", "聚类 {n}"),
    "r_document": ("Document", "文档"),
    "r_similarity_to_first": ("Similarity r to the first", "与首篇的相似度 r"),
    "r_ring": (" (a ring: every pair near-identical)", "（环：每两篇都近似相同）"),
    "r_representative": ("representative", "代表文档"),
    "r_not_counted": ("What was not counted", "未计入的内容"),
    "r_auto_on": ("on: a sentence in at least {f} documents ({d} and {s} of the collection), unless the "
                  "documents holding it copy one another",
                  "开启：句子至少出现在 {f} 篇文档中（{d} 篇且占文献库 {s}），含有该句的文档相互抄袭时除外"),
    "r_off": ("off", "关闭"),
    "r_template_files": ("Template files", "模板文件"),
    "r_template_files_value": ("{n} files, {u} units", "{n} 个文件，{u} 字"),
    "r_marked": ("Passages you marked as template", "标记为模板的片段"),
    "r_marked_value": ("{n} marks, {u} units", "{n} 处标记，{u} 字"),
    "r_counted": ("Passages you chose to count", "选择计入的片段"),
    "r_automatic": ("Automatic template", "自动识别的模板"),
    "r_auto_value": ("{auto}; {u} units", "{auto}；{u} 字"),
    "r_furniture": ("PDF page furniture", "PDF 页眉页脚"),
    "r_units_value": ("{u} units", "{u} 字"),
    "r_quotations": ("Quotations", "引文"),
    "r_bibliography": ("Bibliography", "参考文献"),
    "r_excluded_value": ("excluded; {u} units", "已排除；{u} 字"),
    "r_counted_value": ("counted; {u} units", "计入；{u} 字"),
    "r_left_out": ("Passage left out", "未计入的片段"),
    "r_documents_short": ("Documents", "文档数"),
    "r_why": ("Why", "原因"),
    "r_status_template-file": ("template file", "模板文件"),
    "r_status_marked": ("marked as template", "标记为模板"),
    "r_status_automatic": ("automatic template", "自动识别的模板"),
    "r_ranking_check": ("Sources found, best first", "发现的来源（按相似程度排序）"),
    "r_ranking_pairs": ("Ranked pairs", "文档对排序"),
    "r_nothing": ("Nothing to report: no pair reached the threshold.", "无可报告内容：没有文档对达到阈值。"),
    "r_source": ("Source", "来源"),
    "r_doc_a": ("Document A", "文档 A"),
    "r_doc_b": ("Document B", "文档 B"),
    "r_similarity": ("Similarity r", "相似度 r"),
    "r_a_in_b": ("A in B", "A 在 B 中"),
    "r_b_in_a": ("B in A", "B 在 A 中"),
    "r_common_units": ("Identical units", "相同字数"),
    "r_template_ab": ("Template share A / B", "模板文字占比 A / B"),
    "r_passages": ("Passages", "片段数"),
    "r_matched_passages": ("Matched passages", "匹配片段"),
    "r_in": ("In", "所属"),
    "r_pair_figures": ("Similarity r {sim} · A in B {ab} · B in A {ba} · identical units {common} (units: A {ua}, "
                       "B {ub}) · template share A {ta}, B {tb}",
                       "相似度 r {sim} · A 在 B 中 {ab} · B 在 A 中 {ba} · 相同字数 {common}（总字数：A {ua}，B {ub}）"
                       " · 模板文字占比 A {ta}，B {tb}"),
    "r_pair_excluded": (" · excluded A {a}, B {b}", " · 排除比例 A {a}，B {b}"),
    "r_pair_estimate": (" · fingerprint estimate {e} (an estimate)", " · 指纹估计值 {e}（估计值）"),
    "r_no_passage": ("No matched passage of the minimum length.", "没有达到最小长度的匹配片段。"),
    "r_unreadable": ("unreadable", "无法读取"),
    "r_bytes": ("{n} bytes", "{n} 字节"),
    "r_passage_units": ("{n} units", "{n} 字"),
    "passage_moved": ("moved: in another order in the other text", "已移位：在另一文本中的顺序不同"),
    "r_passage_size": ("units {a} / {b}, identical {m} (runs: {r})", "{a} / {b} 字，其中相同 {m} 字（{r} 段）"),
    # whose text it is: applicants, own work, the examiner's decisions (core/ownership.py)
    "without_own": ("Copied without own documents", "去除本人文献复制比"),
    "from_own": ("Copied from own documents", "本人文献复制比"),
    "applicants": ("Applicants", "申请人"),
    "applicants_value": ("{names} ({source})", "{names}（{source}）"),
    "applicants_unknown": ("not known: own earlier work cannot be told from others' work",
                           "未知：无法区分本人已有成果与他人文献"),
    "source_csv": ("from the examiner's list", "来自审查人的名单"),
    "source_examiner": ("set by the examiner", "审查人设定"),
    "source_metadata": ("from the file's author metadata", "来自文件的作者属性"),
    "resubmission": ("Resubmission / duplicate submission of {name}: {share} of this submission is found in the "
                     "applicant's own document; this is the applicant's own work, not copying.",
                     "重复申报：本文 {share} 见于申请人本人的文档 {name}；属本人已有成果，不计为抄袭。"),
    "flag_by_others": ("The flag is set by the share copied without the applicant's own documents.",
                       "标记按去除本人文献复制比判定。"),
    "set_apart": ("Set apart by the examiner's decisions (permitted or not relevant): {share} of the submission, "
                  "not counted in any figure.",
                  "经审查人认定而剔除（允许使用或无关）：占本文 {share}，不计入任何复制比。"),
    "same_applicant": ("the applicant's own document: own work, not counted as copying",
                       "申请人本人的文档：属本人成果，不计为抄袭"),
    "decisions": ("The examiner's decisions", "审查人认定"),
    "decision": ("Decision", "认定"),
    "decision_note": ("Examiner's note", "审查说明"),
    "decision_date": ("Decided", "认定时间"),
    "decision_changed": ("a text changed since: not applied, to be decided again", "其后文本已改动：未采用，需重新认定"),
    "decision_applied_apart": ("applied: its text is not counted", "已采用：相应文字不计入"),
    "decision_applied_counted": ("applied: counted as copying", "已采用：计为抄袭"),
    "choice_confirmed": ("copying confirmed", "确认抄袭"),
    "choice_own-work": ("permitted: the applicant's own work", "允许：申请人本人成果"),
    "choice_cited": ("permitted: cited", "允许：已注明引用"),
    "choice_common-knowledge": ("permitted: common knowledge", "允许：公知内容"),
    "choice_not-relevant": ("not relevant", "无关"),
    "r_without_own": ("Copied without own documents", "去除本人文献复制比"),
    "r_label": ("Label", "标签"),
    "r_resubmission_label": ("resubmission / duplicate submission", "重复申报"),
    "r_same_applicant": ("Both documents are one applicant's: own work, not copying",
                         "两篇文档属于同一申请人：属本人成果，不属抄袭"),
    # integrity flags (core/flags.py)
    "integrity": ("Integrity flags", "文本异常标记"),
    "integrity_none": ("none", "无"),
    "integrity_note": ("The text was compared as a reader sees it: look-alike letters and traditional characters "
                       "folded, invisible characters and hidden text left out of every figure.",
                       "比对按读者所见的文字进行：形近字母和繁体字已归一，不可见字符和隐藏文字不计入任何数值。"),
    "integrity_places": ("where:", "位置："),
    "integrity_label": ("Integrity flags:", "文本异常标记："),
    "flag_replaced": ("Replaced characters: {n} in {w} words", "替换字符：{w} 个词中共 {n} 个"),
    "flag_hidden": ("Hidden text: {n} characters", "隐藏文字：{n} 个字符"),
    "flag_invisible": ("Invisible characters: {n}", "不可见字符：{n} 个"),
    "flag_traditional": ("Traditional characters folded for comparison: {n}", "繁体字已转为简体比对：{n} 个"),
}


def translator(lang: str) -> Callable[..., str]:
    """``t(key, **values)`` in ``lang`` (``"en"`` or ``"zh_CN"``; another Chinese locale reads
    Chinese, anything else English)."""
    i = 1 if lang.lower().startswith("zh") else 0

    def t(key: str, **values: object) -> str:
        text = _CATALOG[key][i]
        return text.format(**values) if values else text

    return t


def flag_text(flag: Flag, t: Callable[..., str]) -> str:
    """A flag in words ("Replaced characters: 212 in 118 words"), by the translator ``t``."""
    return t(f"flag_{flag.kind}", n=f"{flag.count:,}", w=f"{flag.words:,}")


def keys() -> list[str]:
    return list(_CATALOG)
