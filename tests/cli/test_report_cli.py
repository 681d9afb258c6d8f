"""`neardup report` end to end: the four formats from the command line, rendered by Chromium and poppler."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtGui import QImage

from neardup_gui.cli import main
from neardup_gui.core.report.html import PALETTE
from report_corpus import EVIL_REL, shared_collection

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def run(capsys, *args: str) -> tuple[int, str]:
    """The command line in this process (no Qt involved): exit code and stdout."""
    capsys.readouterr()
    code = main(list(args))
    return code, capsys.readouterr().out


def neardup(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """The command line in its own process (the PDF needs a Qt application of its own)."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, "-m", "neardup_gui.cli", *args], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=120)


@pytest.fixture(scope="module")
def db(tmp_path_factory, corpus_dir):
    return shared_collection(tmp_path_factory, corpus_dir)


def pixels(png: Path) -> np.ndarray:
    """The image as an (h, w, 4) array of B, G, R, A bytes (QImage reads it; no app needed)."""
    image = QImage(str(png)).convertToFormat(QImage.Format.Format_ARGB32)
    assert not image.isNull(), png
    raw = np.frombuffer(bytes(image.constBits()), dtype=np.uint8)
    return raw.reshape(image.height(), image.bytesPerLine())[:, : image.width() * 4].reshape(image.height(), image.width(), 4)


def non_white_share(px: np.ndarray) -> float:
    return float((px[:, :, :3].min(axis=2) < 235).mean())


def has_colour(px: np.ndarray, hex_colour: str) -> bool:
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return bool(((px[:, :, 2] == r) & (px[:, :, 1] == g) & (px[:, :, 0] == b)).sum() > 200)


def test_report_writes_html_csv_and_json(db, tmp_path, capsys):
    planted, path = db
    for ext in ("html", "csv", "json"):
        out = tmp_path / f"r.{ext}"
        code, stdout = run(capsys, "report", "--db", str(path), "--out", str(out), "--threshold", "0.5", "-q", "--json")
        assert code == 0
        summary = json.loads(stdout)
        assert summary["format"] == ext and summary["scope"] == "pairs" and summary["pairs"] >= 4
        assert out.stat().st_size > 1000 and not Path(str(out) + ".part").exists()
    data = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert data["schema"] == "neardup-report/1" and data["summary"]["settings"]["threshold"] == 0.5
    assert {p["a"]["name"] for p in data["pairs"]} | {p["b"]["name"] for p in data["pairs"]} >= {EVIL_REL, "重新提交.txt"}
    csv_text = (tmp_path / "r.csv").read_bytes()
    assert csv_text.startswith(b"\xef\xbb\xbf") and b"\n=" not in csv_text and b",=" not in csv_text


def test_check_and_cluster_scopes_and_usage_errors(db, tmp_path, capsys):
    planted, path = db
    out = tmp_path / "check.json"
    assert run(capsys, "report", "--db", str(path), "--out", str(out), "--check", str(planted.submission), "-q")[0] == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["summary"]["scope"] == "check" and data["submissions"][0]["document"]["path"] == str(planted.submission)
    assert data["pairs"] and data["pairs"][0]["containment_a"] > 0.4
    out = tmp_path / "clusters.csv"
    assert run(capsys, "report", "--db", str(path), "--out", str(out), "--scope", "clusters", "-q")[0] == 0
    assert out.read_text(encoding="utf-8-sig").count("cluster 1") >= 1
    assert run(capsys, "report", "--db", str(path), "--out", str(tmp_path / "x.docx"))[0] == 2
    assert run(capsys, "report", "--db", str(path), "--out", str(tmp_path / "x.html"), "--scope", "check")[0] == 2
    assert not (tmp_path / "x.docx").exists() and not (tmp_path / "x.html").exists()


def test_pdf_is_paginated_with_cjk_fonts_embedded_and_not_blank(db, tmp_path):
    planted, path = db
    out = tmp_path / "r.pdf"
    done = neardup("report", "--db", str(path), "--out", str(out), "--threshold", "0.5", "-q", "--json")
    assert done.returncode == 0, done.stderr
    pages = json.loads(done.stdout)["pages"]
    assert pages >= 3
    fonts = subprocess.run(["pdffonts", str(out)], capture_output=True, text=True, check=True).stdout
    cjk = [line for line in fonts.splitlines() if "NotoSansCJK" in line]
    assert cjk and all(" yes " in line for line in fonts.splitlines()[2:])  # every font embedded
    text = subprocess.run(["pdftotext", "-layout", str(out), "-"], capture_output=True, text=True, check=True).stdout
    assert "重新提交.txt" in text and "<script>alert(1)</script>" in text and f"page {pages} of {pages}" in text
    subprocess.run(["pdftoppm", "-r", "50", "-png", str(out), str(tmp_path / "page")], check=True)
    pngs = sorted(tmp_path.glob("page-*.png"))
    assert len(pngs) == pages
    for png in pngs:
        assert non_white_share(pixels(png)) > 0.01, png
    # the highlights are there: a page of passages shows palette colours
    assert any(has_colour(pixels(png), PALETTE[0]) for png in pngs[1:])


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (Debian package `chromium`): "
                                             "the HTML report is not rendered in a browser here")
def test_html_renders_in_headless_chromium(db, tmp_path, capsys):
    planted, path = db
    out = tmp_path / "r.html"
    assert run(capsys, "report", "--db", str(path), "--out", str(out), "--threshold", "0.5", "-q")[0] == 0
    shot = tmp_path / "shot.png"
    done = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}",
         f"--screenshot={shot}", "--window-size=1200,1600", out.as_uri()],
        capture_output=True, text=True, timeout=90)
    assert shot.exists(), done.stderr[-2000:]
    px = pixels(shot)
    assert px.shape[:2] == (1600, 1200)
    assert non_white_share(px) > 0.03  # text, table rules, headings
    assert has_colour(px, PALETTE[0]) and has_colour(px, PALETTE[1])  # inline CSS applied (the legend)


def test_lang_applies_to_a_check_report(db, tmp_path, capsys):
    """(issues 18.6 / 19.5) `--lang zh_CN` writes the check report's words in Chinese, CSV headings too."""
    planted, path = db
    out = tmp_path / "check.html"
    assert run(capsys, "report", "--db", str(path), "--out", str(out), "--check", str(planted.submission),
               "--lang", "zh_CN", "-q")[0] == 0
    page = out.read_text(encoding="utf-8")
    assert '<html lang="zh-Hans">' in page and ">概要</h2>" in page and ">发现的来源（按相似程度排序）</h2>" in page
    assert ">Summary</h2>" not in page and "Sources found" not in page
    out = tmp_path / "check.csv"
    assert run(capsys, "report", "--db", str(path), "--out", str(out), "--check", str(planted.submission),
               "--lang", "zh_CN", "-q")[0] == 0
    assert out.read_text(encoding="utf-8-sig").splitlines()[0].startswith("序号,送检文档,")
