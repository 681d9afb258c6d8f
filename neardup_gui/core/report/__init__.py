"""The duplicate report: one document model, written as HTML, CSV or JSON (PDF lives in the app side).

``build_report`` makes the model from a check, the collection's pairs or its clusters;
``write_report`` writes it in the format its file name asks for. The PDF needs Qt's text engine,
so it is written by ``neardup_gui.qtpdf`` from the same model.
"""

from __future__ import annotations

import itertools
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from neardup_gui.core.report.model import SCOPES, Report, build_report

if TYPE_CHECKING:
    from neardup_gui.core.report.committee import ScreeningReport, SubmissionReport

    AnyReport = Report | SubmissionReport | ScreeningReport  # what the writers take

__all__ = ["FORMATS", "SCOPES", "Report", "build_report", "format_for", "part_path", "report_html", "report_title", "write_report"]

FORMATS = ("html", "csv", "json", "pdf")


def format_for(path: str | Path) -> str:
    """The format a file name asks for (its extension); ValueError for anything else."""
    ext = os.path.splitext(str(path))[1].lower().lstrip(".")
    if ext == "htm":
        ext = "html"
    if ext not in FORMATS:
        raise ValueError(f"cannot tell the report format from {os.path.basename(str(path))!r}: "
                         f"use .html, .csv, .json or .pdf")
    return ext


def report_html(report: AnyReport, *, flavour: str = "browser") -> str:
    """The HTML of any report model: a duplicate :class:`Report`, or a committee report
    (:mod:`neardup_gui.core.report.committee`) of a submission or a screening."""
    from neardup_gui.core.report.committee import ScreeningReport, SubmissionReport

    if isinstance(report, SubmissionReport):
        from neardup_gui.core.report.committee_html import render_submission_html

        return render_submission_html(report, flavour=flavour)
    if isinstance(report, ScreeningReport):
        from neardup_gui.core.report.committee_html import render_screening_html

        return render_screening_html(report, flavour=flavour)
    from neardup_gui.core.report.html import render_html

    return render_html(report, flavour=flavour)


def report_title(report: AnyReport) -> str:
    return report.title if hasattr(report, "title") else report.summary.title


_PARTS = itertools.count(1)


def part_path(path: str | Path) -> Path:
    """The name a report is written under beside ``path`` before it is renamed to it: one no other
    writer uses (the process, the thread and a count in it). With one ``.part`` name for all, two
    reports written to one file at once — an export started twice — wrote into each other's file,
    and the second rename failed ("No such file or directory: '….html.part'"); now each writes its
    own file and the one renamed last is the file kept, whole. A name near the file system's 255
    bytes is shortened before the tail, so any name that fits can be written."""
    p = Path(path)
    tail = f".{os.getpid()}-{threading.get_ident()}-{next(_PARTS)}.part"
    head = p.name.encode("utf-8", "surrogateescape")[: 255 - len(tail)].decode("utf-8", "ignore")
    return p.with_name(head + tail)


def write_report(report: AnyReport, path: str | Path, fmt: str | None = None) -> None:
    """Write ``report`` (any report model) as HTML, CSV or JSON (``fmt`` defaults to the file's extension).

    The file appears complete or not at all: it is written beside the target and renamed.
    """
    from neardup_gui.core.report.committee import ScreeningReport, SubmissionReport

    committee = isinstance(report, (SubmissionReport, ScreeningReport))
    fmt = fmt or format_for(path)
    if fmt not in ("html", "csv", "json"):
        raise ValueError(f"{fmt!r} reports are written by neardup_gui.qtpdf, not by core")
    tmp = part_path(path)
    try:
        if fmt == "html":
            tmp.write_text(report_html(report), encoding="utf-8", newline="\n")
        elif committee and fmt == "csv":
            from neardup_gui.core.report.committee import committee_csv

            with open(tmp, "w", encoding="utf-8-sig", newline="") as fh:
                fh.write(committee_csv(report))
        elif committee:
            import json

            from neardup_gui.core.report.committee import committee_json

            tmp.write_text(json.dumps(committee_json(report), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        elif fmt == "csv":
            from neardup_gui.core.report.csv import write_csv

            write_csv(report, tmp)
        else:
            from neardup_gui.core.report.jsonout import write_json

            write_json(report, tmp)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
