"""Render the application icon (resources/icons/neardup.svg) into the hicolor icon sizes.

Run from the project folder after changing the SVG:

    QT_QPA_PLATFORM=offscreen .venv/bin/python packaging/render_icons.py

Writes resources/icons/hicolor/<N>x<N>/apps/io.github.neardup.NearDup.png for the usual sizes
and the scalable copy, the names a desktop entry's ``Icon=io.github.neardup.NearDup`` looks up.
"""

from __future__ import annotations

import argparse
import logging
import shutil
import sys
from pathlib import Path

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

log = logging.getLogger("render_icons")

APP_ID = "io.github.neardup.NearDup"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICONS = Path(__file__).resolve().parent.parent / "resources" / "icons"


def render(svg: Path, size: int) -> QImage:
    """The SVG drawn into a transparent ``size`` × ``size`` image, antialiased."""
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise ValueError(f"not a valid SVG: {svg}")
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter, QRectF(0, 0, size, size))
    painter.end()
    return image


def render_all(svg: Path, out: Path, sizes: tuple[int, ...] = SIZES) -> list[Path]:
    """Write every size and the scalable copy under ``out`` (a hicolor folder); returns the PNGs."""
    written = []
    for size in sizes:
        target = out / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        if not render(svg, size).save(str(target), "PNG"):
            raise OSError(f"could not write {target}")
        written.append(target)
    scalable = out / "scalable" / "apps" / f"{APP_ID}.svg"
    scalable.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(svg, scalable)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--svg", type=Path, default=ICONS / "neardup.svg")
    parser.add_argument("--out", type=Path, default=ICONS / "hicolor")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # noqa: F841 - QPainter needs it
    for path in render_all(args.svg, args.out):
        log.info("wrote %s", path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
