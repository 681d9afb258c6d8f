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

from neardup_gui.core.report.model import Report, ReportPair

log = logging.getLogger(__name__)

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

PAIR_COLUMNS = (
    "rank", "group", "path_a", "path_b", "name_a", "name_b", "similarity", "containment_a_in_b",
    "containment_b_in_a", "template_share_a", "template_share_b", "common_units", "units_a", "units_b",
    "passages", "size_a", "size_b", "sha256_a", "sha256_b",
    "not_counted_a", "not_counted_b",  # issue 14: units each exclusion removed ("automatic:40; quotes:3")
    "warnings_a", "warnings_b",  # issue 17.3: how a document was read only in part or leniently ("; "-joined)
)
CHECK_COLUMNS = (
    "rank", "submission", "submission_path", "source_path", "source", "similarity", "containment",
    "source_containment", "template_share_submission", "template_share_source", "common_units",
    "units_submission", "units_source", "passages", "estimate", "size_submission", "size_source",
    "sha256_submission", "sha256_source",
    # the submission's own figures on each of its rows: the overall copy ratio per proposal
    "submission_copied_ratio", "submission_copied_ratio_without_template", "submission_copied_ratio_without_quotes",
    "submission_largest_source_ratio",
    "not_counted_submission", "not_counted_source",  # issue 14, as in PAIR_COLUMNS
    "warnings_submission", "warnings_source",  # issue 17.3, as in PAIR_COLUMNS
)


def neutralise(value: Any) -> str:
    """A cell as text that no spreadsheet evaluates."""
    text = "" if value is None else str(value)
    if text.startswith(FORMULA_STARTS) or text.lstrip(" ").startswith(FORMULA_STARTS):
        return "'" + text
    return text


def _ratio(x: float) -> str:
    return f"{x:.6f}"


def _not_counted(units: dict[str, int]) -> str:
    """Units each exclusion removed, as ``kind:units`` joined by ``; `` (issue 14)."""
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
                _not_counted(p.exclusions_a), _not_counted(p.exclusions_b), *_warnings(p)]
    return [p.rank, p.group, p.a.path, p.b.path, p.a.name, p.b.name, _ratio(p.similarity), _ratio(p.containment_a),
            _ratio(p.containment_b), _ratio(p.template_share_a), _ratio(p.template_share_b), p.common_units,
            p.units_a, p.units_b, len(p.passages), p.a.size, p.b.size, p.a.sha256, p.b.sha256,
            _not_counted(p.exclusions_a), _not_counted(p.exclusions_b), *_warnings(p)]


def _warnings(p: ReportPair) -> list[str]:
    return ["; ".join(p.a.warnings), "; ".join(p.b.warnings)]


def render_csv(report: Report) -> str:
    """The CSV text (without the byte-order mark; :func:`write_csv` adds it)."""
    check = report.summary.scope == "check"
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CHECK_COLUMNS if check else PAIR_COLUMNS)
    subs = {s.document.path: s for s in report.submissions}
    for p in report.pairs:
        writer.writerow([neutralise(v) for v in _row(p, check, subs)])
    return out.getvalue()


def write_csv(report: Report, path: str | Path) -> None:
    with open(path, "w", encoding="utf-8-sig", newline="") as f:
        f.write(render_csv(report))
