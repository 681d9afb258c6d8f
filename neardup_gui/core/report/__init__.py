"""The duplicate report: one document model, written as HTML, CSV or JSON (PDF lives in the app side).

``build_report`` makes the model from a check, the collection's pairs or its clusters;
``write_report`` writes it in the format its file name asks for. The PDF needs Qt's text engine,
so it is written by ``neardup_gui.qtpdf`` from the same model.
"""

from __future__ import annotations

import os
from pathlib import Path

from neardup_gui.core.report.model import SCOPES, Report, build_report

__all__ = ["FORMATS", "SCOPES", "Report", "build_report", "format_for", "write_report"]

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


def write_report(report: Report, path: str | Path, fmt: str | None = None) -> None:
    """Write ``report`` as HTML, CSV or JSON (``fmt`` defaults to the file's extension).

    The file appears complete or not at all: it is written beside the target and renamed.
    """
    fmt = fmt or format_for(path)
    if fmt not in ("html", "csv", "json"):
        raise ValueError(f"{fmt!r} reports are written by neardup_gui.qtpdf, not by core")
    tmp = Path(str(path) + ".part")
    try:
        if fmt == "html":
            from neardup_gui.core.report.html import render_html

            tmp.write_text(render_html(report), encoding="utf-8", newline="\n")
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
