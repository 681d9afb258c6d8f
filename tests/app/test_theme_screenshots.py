"""The screenshot tool in a new process, light and dark: the dark run is dark (banner and check
summary included), the light run light, and every screen the README shows is written."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtGui import QImage

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "packaging"))
from screenshots import SCREENS  # noqa: E402


def mean_lightness(image: QImage, rect: tuple[int, int, int, int] | None = None) -> float:
    x0, y0, w, h = rect or (0, 0, image.width(), image.height())
    values = [image.pixelColor(x, y).lightness() for x in range(x0, x0 + w, 7) for y in range(y0, y0 + h, 7)]
    return sum(values) / len(values)


def test_light_and_dark_screens_of_the_check_and_side_by_side(tmp_path, qapp):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, str(ROOT / "packaging" / "screenshots.py"), "--out", str(tmp_path),
                           "--languages", "en", "--themes", "light,dark", "--main-only", "--sizes", "1440x880"],
                          capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    shots = tmp_path / "1440x880"
    for theme in ("en-light", "en-dark"):
        for screen in SCREENS:
            assert (shots / f"{theme}-{screen}.png").is_file(), (theme, screen)
    light = QImage(str(shots / "en-light-03-check.png"))
    dark = QImage(str(shots / "en-dark-03-check.png"))
    assert mean_lightness(light) > 180 and mean_lightness(dark) < 80
    # the notice banner and the summary sit in the top band: dark in the dark theme too
    band = (300, 20, 800, 150)
    assert mean_lightness(dark, band) < 100 < mean_lightness(light, band)
    side = QImage(str(shots / "en-dark-08-side-by-side.png"))
    assert mean_lightness(side) < 100
