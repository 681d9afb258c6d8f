"""The report as CSV: one row per reported pair (per source found, for a check), spreadsheet-safe.

UTF-8 with a byte-order mark so spreadsheet programs read Chinese file names correctly; every
cell that a spreadsheet could take for a formula (it starts with ``=``, ``+``, ``-``, ``@``, a tab
or a carriage return, also after leading spaces) is prefixed with ``'`` and so stays text.
"""

from __future__ import annotations

import csv
import io
import logging
from pathlib import Path
from typing import Any

from neardup_gui.core.report.model import Report, ReportPair, flags_csv
from neardup_gui.core.report.strings import LANGUAGES

log = logging.getLogger(__name__)

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

PAIR_COLUMNS = (
    "rank", "group", "path_a", "path_b", "name_a", "name_b", "similarity", "containment_a_in_b",
    "containment_b_in_a", "template_share_a", "template_share_b", "common_units", "units_a", "units_b",
    "passages", "size_a", "size_b", "sha256_a", "sha256_b",
    "not_counted_a", "not_counted_b",  # units each exclusion removed ("automatic:40; quotes:3")
    "warnings_a", "warnings_b",  # how a document was read only in part or leniently ("; "-joined)
    "flags_a", "flags_b",  # integrity flags, "kind:count" ("; "-joined; their places are in the JSON report)
    "same_applicant", "decision", "decision_note", "decided_at", "decision_applied",  # (docs/applicants.md)
)
CHECK_COLUMNS = (
    "rank", "submission", "submission_path", "source_path", "source", "similarity", "containment",
    "source_containment", "template_share_submission", "template_share_source", "common_units",
    "units_submission", "units_source", "passages", "estimate", "size_submission", "size_source",
    "sha256_submission", "sha256_source",
    # the submission's own figures on each of its rows: the overall copy ratio per proposal
    "submission_copied_ratio", "submission_copied_ratio_without_template", "submission_copied_ratio_without_quotes",
    "submission_largest_source_ratio",
    "not_counted_submission", "not_counted_source",  # as in PAIR_COLUMNS
    "warnings_submission", "warnings_source",  # as in PAIR_COLUMNS
    "flags_submission", "flags_source",  # as in PAIR_COLUMNS
    # the submission's copied ratio split by whose the credited text is
    "submission_copied_from_others", "submission_copied_from_own",
    "same_applicant", "decision", "decision_note", "decided_at", "decision_applied",
)


# The columns' headings in Chinese, for a report in Chinese (an English report keeps the column
# names above, which scripts read); the rows are the same in both.
HEADINGS_ZH: dict[str, str] = {
    "rank": "序号",
    "group": "所属",
    "path_a": "A 路径",
    "path_b": "B 路径",
    "name_a": "A 文件名",
    "name_b": "B 文件名",
    "similarity": "相似度 r",
    "containment_a_in_b": "A 在 B 中",
    "containment_b_in_a": "B 在 A 中",
    "template_share_a": "A 模板文字占比",
    "template_share_b": "B 模板文字占比",
    "common_units": "相同字数",
    "units_a": "A 总字数",
    "units_b": "B 总字数",
    "passages": "片段数",
    "size_a": "A 大小（字节）",
    "size_b": "B 大小（字节）",
    "sha256_a": "A SHA-256",
    "sha256_b": "B SHA-256",
    "not_counted_a": "A 未计入",
    "not_counted_b": "B 未计入",
    "warnings_a": "A 提示",
    "warnings_b": "B 提示",
    "flags_a": "A 文本异常标记",
    "flags_b": "B 文本异常标记",
    "submission": "送检文档",
    "submission_path": "送检文档路径",
    "source_path": "来源路径",
    "source": "来源",
    "containment": "占送检文档比例",
    "source_containment": "来源在送检文档中的比例",
    "template_share_submission": "送检文档模板文字占比",
    "template_share_source": "来源模板文字占比",
    "units_submission": "送检文档总字数",
    "units_source": "来源总字数",
    "estimate": "指纹估计值",
    "size_submission": "送检文档大小（字节）",
    "size_source": "来源大小（字节）",
    "sha256_submission": "送检文档 SHA-256",
    "sha256_source": "来源 SHA-256",
    "submission_copied_ratio": "总文字复制比",
    "submission_copied_ratio_without_template": "总文字复制比（模板不计入）",
    "submission_copied_ratio_without_quotes": "去除引用文献复制比",
    "submission_largest_source_ratio": "单篇最大文字复制比",
    "not_counted_submission": "送检文档未计入",
    "not_counted_source": "来源未计入",
    "warnings_submission": "送检文档提示",
    "warnings_source": "来源提示",
    "flags_submission": "送检文档文本异常标记",
    "flags_source": "来源文本异常标记",
    "submission_copied_from_others": "去除本人文献复制比",
    "submission_copied_from_own": "本人文献复制比",
    "same_applicant": "同一申请人",
    "decision": "审查人认定",
    "decision_note": "认定说明",
    "decided_at": "认定时间",
    "decision_applied": "认定已采用",
}


def headings(columns: tuple[str, ...], lang: str) -> list[str]:
    """The header row of ``columns`` in ``lang`` (one of strings.LANGUAGES)."""
    if lang in LANGUAGES and lang.startswith("zh"):
        return [HEADINGS_ZH.get(c, c) for c in columns]
    return list(columns)


def neutralise(value: Any) -> str:
    """A cell as text that no spreadsheet evaluates."""
    text = "" if value is None else str(value)
    if text.startswith(FORMULA_STARTS) or text.lstrip(" ").startswith(FORMULA_STARTS):
        return "'" + text
    return text


def _ratio(x: float) -> str:
    return f"{x:.6f}"


def _not_counted(units: dict[str, int]) -> str:
    """Units each exclusion removed, as ``kind:units`` joined by ``; ``."""
    return "; ".join(f"{kind}:{n}" for kind, n in units.items() if n)


def _row(p: ReportPair, check: bool, subs: dict | None = None) -> list[Any]:
    if check:
        s = (subs or {}).get(p.a.path)
        own = ["", "", "", ""] if s is None else [
            _ratio(s.copied_ratio), _ratio(s.copied_ratio_without_template), _ratio(s.copied_ratio_without_quotes),
            _ratio(s.largest_source_ratio)]
        return [p.rank, p.a.name, p.a.path, p.b.path, p.b.name, _ratio(p.similarity), _ratio(p.containment_a),
                _ratio(p.containment_b), _ratio(p.template_share_a), _ratio(p.template_share_b), p.common_units,
                p.units_a, p.units_b, len(p.passages), "" if p.estimate is None else _ratio(p.estimate),
                p.a.size, p.b.size, p.a.sha256, p.b.sha256, *own,
                _not_counted(p.exclusions_a), _not_counted(p.exclusions_b), *_warnings(p),
                *(["", ""] if s is None else [_ratio(s.copied_from_others), _ratio(s.copied_from_own)]), *_decided(p)]
    return [p.rank, p.group, p.a.path, p.b.path, p.a.name, p.b.name, _ratio(p.similarity), _ratio(p.containment_a),
            _ratio(p.containment_b), _ratio(p.template_share_a), _ratio(p.template_share_b), p.common_units,
            p.units_a, p.units_b, len(p.passages), p.a.size, p.b.size, p.a.sha256, p.b.sha256,
            _not_counted(p.exclusions_a), _not_counted(p.exclusions_b), *_warnings(p), *_decided(p)]


def _decided(p: ReportPair) -> list[Any]:
    """Whether the pair is one applicant's, and the examiner's decision on it (choice, note, when,
    whether it applies)."""
    d = p.decision
    return [int(p.same_applicant), *(("", "", "", "") if d is None else (
        d["decision"], d["note"], d["decided_at"], int(d["applied"])))]


def _warnings(p: ReportPair) -> list[str]:
    """The two documents' warnings, then their integrity flags."""
    return ["; ".join(p.a.warnings), "; ".join(p.b.warnings), flags_csv(p.a.flags), flags_csv(p.b.flags)]


def render_csv(report: Report) -> str:
    """The CSV text (without the byte-order mark; :func:`write_csv` adds it)."""
    check = report.summary.scope == "check"
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(headings(CHECK_COLUMNS if check else PAIR_COLUMNS, getattr(report, "lang", "en")))
    subs = {s.document.path: s for s in report.submissions}
    for p in report.pairs:
        writer.writerow([neutralise(v) for v in _row(p, check, subs)])
    return out.getvalue()


def write_csv(report: Report, path: str | Path) -> None:
    with open(path, "w", encoding="utf-8-sig", newline="") as f:
        f.write(render_csv(report))
