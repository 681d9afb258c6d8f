"""The packaging metadata agrees with itself and the code: ids, executables, version, icons.

The bundle itself is built and smoke-tested by `make package-test` (minutes; not part of the
suite). These checks are the fast part: a mismatch here is a menu entry without an icon or an
AppStream entry that no software centre can tie to the application.
"""

from __future__ import annotations

import ast
import configparser
import sys
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from neardup_gui import __version__
from neardup_gui.app.main import APP_ID

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"
ICONS = ROOT / "resources" / "icons"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)

sys.path.insert(0, str(PACKAGING))
import render_icons  # noqa: E402 - lives in packaging/, not in the package


def desktop_entry() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # keys are case-sensitive
    parser.read(PACKAGING / f"{APP_ID}.desktop", encoding="utf-8")
    return parser["Desktop Entry"]


def metainfo() -> ET.Element:
    return ET.parse(PACKAGING / f"{APP_ID}.metainfo.xml").getroot()


def project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_ids_match_across_desktop_entry_metainfo_and_app():
    entry = desktop_entry()
    root = metainfo()
    assert root.findtext("id") == APP_ID
    assert root.find("launchable[@type='desktop-id']").text == f"{APP_ID}.desktop"
    assert entry["Icon"] == APP_ID
    assert render_icons.APP_ID == APP_ID


def test_executables_and_version_match_the_project():
    entry = desktop_entry()
    proj = project()
    assert entry["Exec"].split()[0] == "neardup-gui"
    assert set(proj["gui-scripts"]) == {"neardup-gui"}
    provided = {b.text for b in metainfo().findall("provides/binary")}
    assert provided == set(proj["scripts"]) | set(proj["gui-scripts"]) == {"neardup", "neardup-gui"}
    assert metainfo().find("releases/release").get("version") == __version__
    assert metainfo().findtext("project_license") == proj["license"]["text"]


@pytest.mark.parametrize("size", SIZES)
def test_icon_png_has_its_size_and_a_transparent_rounded_corner(qapp, size):
    image = QImage(str(ICONS / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png"))
    assert (image.width(), image.height()) == (size, size)
    assert image.hasAlphaChannel()
    assert image.pixelColor(0, 0).alpha() == 0  # the tile's corner is rounded off
    assert image.pixelColor(size // 2, size // 2).alpha() == 255


def test_scalable_icon_is_the_window_icon_and_renders(qapp, tmp_path):
    scalable = ICONS / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg"
    assert scalable.read_bytes() == (ICONS / "neardup.svg").read_bytes()
    written = render_icons.render_all(ICONS / "neardup.svg", tmp_path, sizes=(32,))
    assert written == [tmp_path / "32x32" / "apps" / f"{APP_ID}.png"]
    assert QImage(str(written[0])).size().width() == 32
    assert (tmp_path / "scalable" / "apps" / f"{APP_ID}.svg").is_file()


@pytest.mark.parametrize("script", ["launch_cli.py", "launch_gui.py"])
def test_frozen_entry_point_calls_freeze_support_before_importing_the_app(script):
    # A spawned extraction worker is the frozen executable run again: freeze_support() must
    # take it over before the window or the command line is even imported.
    tree = ast.parse((PACKAGING / script).read_text(encoding="utf-8"))
    guard = next(node for node in tree.body if isinstance(node, ast.If))
    first = guard.body[0]
    assert isinstance(first, ast.Expr) and ast.unparse(first.value) == "multiprocessing.freeze_support()"
    imports = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert [ast.unparse(n) for n in imports] == ["import multiprocessing"]
