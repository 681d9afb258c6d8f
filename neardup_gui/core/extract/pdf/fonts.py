"""pdfminer.six's fonts, made strict for damaged files: a lost font, a damaged character map or
glyph widths, a subset whose codes are not characters are said and left out, never read as
another encoding's characters."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from neardup_gui.core.extract.pdf.salvage import inflates

if TYPE_CHECKING:  # pdfminer.six is imported where it is used (only damaged files need it)
    from pdfminer.pdfdevice import PDFDevice
    from pdfminer.pdfinterp import PDFPageInterpreter, PDFResourceManager

LOST_FONT = "NeardupLostFont"  # the font given to text whose font is lost: its glyphs are dropped
NO_TEXT_FONT = "NeardupNoTextFont"  # the font given to a subset whose codes are not characters


def lost_fonts_marked(resources: Any, damaged_maps: set[int] | None = None,
                      checked_maps: set[int] | None = None, damaged_widths: set | None = None) -> Any:
    """The page's resources with every font that is lost replaced by the lost-font placeholder:
    a font reference to an object that is gone or damaged (not a dictionary), or a font whose
    ToUnicode map is named but gone. pdfminer would read such a font's codes through a standard
    encoding — a LibreOffice subset's codes 1, 2, 3… as "!\"#" — and the document would be
    indexed as that garbage, with no warning. Unchanged when every font is there. A ToUnicode map
    whose compressed data is damaged (some of its characters may be wrong) adds its object number
    to ``damaged_maps``; ``checked_maps``: the maps (and fonts' widths) checked so far in the
    document (pages share their fonts: each map is inflated once, not once a page). A font whose
    glyph widths are damaged (:func:`_widths_damaged`) adds its name to ``damaged_widths``."""
    from pdfminer.pdftypes import PDFStream, resolve1

    res = resolve1(resources)
    fonts = resolve1(res.get("Font")) if isinstance(res, dict) else None
    if not isinstance(fonts, dict):
        return resources
    kept: dict = {}
    lost = False
    for name, ref in fonts.items():
        try:
            spec = resolve1(ref)
        except Exception:  # noqa: BLE001 — a damaged object ("Invalid dictionary construct"): lost
            spec = None
        if damaged_widths is not None and isinstance(spec, dict):
            key = ("widths", getattr(ref, "objid", id(spec)))
            if checked_maps is None or key not in checked_maps:  # (each font once a document)
                if checked_maps is not None:
                    checked_maps.add(key)
                if _widths_damaged(spec):
                    damaged_widths.add(str(getattr(resolve1(spec.get("BaseFont")), "name", name)))
        if damaged_maps is not None and isinstance(spec, dict):
            cmap = spec.get("ToUnicode")
            stream = resolve1(cmap)
            key = getattr(cmap, "objid", id(stream))
            if isinstance(stream, PDFStream) and (checked_maps is None or key not in checked_maps):
                if checked_maps is not None:
                    checked_maps.add(key)
                if not inflates(stream):
                    damaged_maps.add(key)
        unreadable = _unreadable_subset(spec) if isinstance(spec, dict) else "lost"
        if not unreadable and "ToUnicode" in spec and not isinstance(resolve1(spec["ToUnicode"]), PDFStream):
            unreadable = "lost"
        if unreadable:
            kept[name] = lost_font_spec(LOST_FONT if unreadable == "lost" else NO_TEXT_FONT)
            lost = True
        else:
            kept[name] = ref
    return {**res, "Font": kept} if lost else resources


def _widths_damaged(spec: dict) -> bool:
    """True when a simple font's ``/Widths`` cannot be its glyphs' widths: not as many as its
    codes from ``/FirstChar`` to ``/LastChar``, or not all numbers from 0 to 10,000 (a thousandth
    of the text size each). Bytes inserted in the array (found by fuzzing) moved the glyphs after
    a damaged width, and the same characters were read in another order, some lost where two
    landed on one place, without a word."""
    from pdfminer.pdftypes import resolve1
    from pdfminer.psparser import LIT

    if "Widths" not in spec or spec.get("Subtype") is LIT("Type3"):  # (a Type 3 font's are in its own units)
        return False
    try:
        widths = resolve1(spec.get("Widths"))
        first, last = resolve1(spec.get("FirstChar")), resolve1(spec.get("LastChar"))
        values = [resolve1(w) for w in widths] if isinstance(widths, list) else None
    except Exception:  # noqa: BLE001
        return True
    if values is None or not (isinstance(first, int) and isinstance(last, int)):
        return True
    return len(values) != last - first + 1 or not all(
        isinstance(w, (int, float)) and not isinstance(w, bool) and 0 <= w <= 10_000 for w in values)


_SUBSET_TAG_RE = re.compile(r"[A-Z]{6}\+")


def resource_manager(strict: set[str]) -> PDFResourceManager:
    """pdfminer's resource manager, but a subset font with no encoding of its own and a ToUnicode
    map (LibreOffice's kind: its codes 1, 2, 3… are the subset's glyphs, not characters) names
    characters only through that map. pdfminer falls back to a standard encoding for a code the
    map does not name, which turns a damaged map into "!\"#$%&"; here such a code is a lost
    character (its font's name is added to ``strict``, and :func:`page_glyphs` counts it)."""
    from pdfminer.pdffont import PDFSimpleFont
    from pdfminer.pdfinterp import PDFResourceManager
    from pdfminer.pdftypes import PDFStream, resolve1
    from pdfminer.psparser import PSLiteral

    class Manager(PDFResourceManager):
        def get_font(self, objid, spec):  # noqa: ANN001, ANN202
            try:
                font = super().get_font(objid, spec)
            except Exception:  # noqa: BLE001 — pdfminer's font parsers raise many kinds
                font = self._without_program(objid, spec)
            if not isinstance(font, PDFSimpleFont) or not isinstance(spec, dict) or "Encoding" in spec:
                return font
            base, cmap = resolve1(spec.get("BaseFont")), resolve1(spec.get("ToUnicode"))
            # a subset's codes; or a font whose name or map is damaged: nothing says its codes
            # follow a standard encoding
            if isinstance(cmap, PDFStream) and (not isinstance(base, PSLiteral) or _SUBSET_TAG_RE.match(str(base.name))
                                                or not inflates(cmap)):
                font.cid2unicode = {}
                strict.add(font.fontname)
            return font

        def _without_program(self, objid, spec):  # noqa: ANN001, ANN202
            """A font whose embedded program is damaged (pdfminer reads a Type 1 program for its
            built-in encoding, and a flipped byte there raised "not enough values to unpack" and
            lost the whole document — found by fuzzing): read through its ToUnicode map alone
            (its name goes to ``strict``), or, without one, the lost-font placeholder (its text
            left out and counted)."""
            if isinstance(spec, dict) and isinstance(resolve1(spec.get("ToUnicode")), PDFStream):
                descriptor = resolve1(spec.get("FontDescriptor"))
                kept = {k: v for k, v in spec.items() if k not in ("Encoding", "FontDescriptor")}
                if isinstance(descriptor, dict):
                    kept["FontDescriptor"] = {k: v for k, v in descriptor.items()
                                              if k not in ("FontFile", "FontFile2", "FontFile3")}
                try:
                    font = PDFResourceManager.get_font(self, None, kept)
                except Exception:  # noqa: BLE001
                    pass
                else:
                    if isinstance(font, PDFSimpleFont):
                        font.cid2unicode = {}
                    strict.add(font.fontname)
                    return font
            return PDFResourceManager.get_font(self, None, lost_font_spec(LOST_FONT))

    return Manager(caching=True)


def _unreadable_subset(spec: dict) -> str:
    """A font subset (its name tagged ``ABCDEF+``) with neither an encoding nor a ToUnicode map,
    whose codes cannot be characters: a TrueType subset flagged symbolic (its codes name glyphs,
    PDF 32000 9.6.6.4), or a subset whose embedded font program is gone (a subset is always
    embedded: without it nothing tells what its codes are). pdfminer would read the codes through
    a standard encoding. "lost" for the second (a damaged file), "symbolic" for the first (a
    LibreOffice subset that lost its map, or a symbol font's subset: its glyphs are left out
    without a warning, as glyphs without characters always are), "" for a font that is read."""
    from pdfminer.pdftypes import resolve1
    from pdfminer.psparser import PSLiteral

    if "Encoding" in spec or "ToUnicode" in spec:
        return ""
    subtype, base = resolve1(spec.get("Subtype")), resolve1(spec.get("BaseFont"))
    if not (isinstance(base, PSLiteral) and _SUBSET_TAG_RE.match(str(base.name))
            and isinstance(subtype, PSLiteral) and subtype.name in ("TrueType", "Type1", "MMType1")):
        return ""
    descriptor = resolve1(spec.get("FontDescriptor"))
    if not isinstance(descriptor, dict) or not any(key in descriptor for key in ("FontFile", "FontFile2", "FontFile3")):
        return "lost"
    flags = resolve1(descriptor.get("Flags"))
    return "symbolic" if subtype.name == "TrueType" and isinstance(flags, int) and flags & 4 else ""


def interpreter(manager: PDFResourceManager, device: PDFDevice) -> PDFPageInterpreter:
    """pdfminer's page interpreter, but a font name the resources do not hold (a damaged content
    stream's ``/F\x83 12 Tf``) sets the lost-font placeholder: pdfminer set a default font that
    reads the codes through a standard encoding (garbage, indexed without a warning)."""
    from pdfminer.pdfinterp import PDFPageInterpreter
    from pdfminer.psparser import PSLiteral

    class Interpreter(PDFPageInterpreter):
        def do_Tf(self, fontid, fontsize):  # noqa: ANN001, ANN202
            key = fontid.name if isinstance(fontid, PSLiteral) else fontid
            try:
                missing = key not in self.fontmap
            except TypeError:  # (an unhashable operand)
                missing, key = True, None
            if missing:
                lost = self.rsrcmgr.get_font(None, lost_font_spec())
                if key is not None:
                    self.fontmap[key] = lost
                else:
                    self.textstate.font = lost
                    return
            super().do_Tf(fontid, fontsize)

        def do_TJ(self, seq):  # noqa: ANN001, ANN202
            if isinstance(seq, list):  # (a damaged operand draws nothing; pdfminer raised)
                super().do_TJ(seq)

    return Interpreter(manager, device)


def lost_font_spec(name: str = "") -> dict:
    from pdfminer.psparser import LIT

    name = name or LOST_FONT
    return {"Type": LIT("Font"), "Subtype": LIT("Type1"), "BaseFont": LIT(name),
            "FontDescriptor": {"Type": LIT("FontDescriptor"), "FontName": LIT(name), "Flags": 32,
                               "FontBBox": [0, 0, 1000, 1000], "ItalicAngle": 0, "Ascent": 800, "Descent": -200,
                               "CapHeight": 700, "StemV": 80}}

