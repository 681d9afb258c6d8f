"""The report as JSON: the whole model with a schema version (documented in docs/report-schema.json)."""

from __future__ import annotations

import json
import logging
from dataclasses import asdict
from pathlib import Path
from typing import Any

from neardup_gui.core.report.model import Report

log = logging.getLogger(__name__)

SCHEMA = "neardup-report/1"


def report_json(report: Report) -> dict[str, Any]:
    """The report as plain JSON data: ``schema`` first, then summary, submissions, clusters, pairs."""
    data = asdict(report)
    return {"schema": SCHEMA, "summary": data["summary"], "submissions": data["submissions"],
            "clusters": data["clusters"], "pairs": data["pairs"], "exclusions": data["exclusions"]}


def render_json(report: Report) -> str:
    return json.dumps(report_json(report), ensure_ascii=False, indent=1) + "\n"


def write_json(report: Report, path: str | Path) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(render_json(report))
