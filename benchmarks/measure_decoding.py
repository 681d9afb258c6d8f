"""How much invalid data can real text carry before its encoding is no longer found? (issue 17)

Real corpus sections (12 Chinese, 6 English) are encoded as UTF-8, GB18030, Big5 and UTF-16
(little-endian, no BOM), then damaged: a share of their bytes (0.01 % … 20 %) replaced by
random bytes (fixed seeds). Each damaged text is decoded three ways:

- ``strict``: the decoder before issue 17 (strict UTF-8 or UTF-16, else the detector's strict
  decodings): read right, read wrong (another encoding), or refused;
- ``no limit``: the lenient decoder with no limit on invalid bytes, to see where detection
  itself goes wrong;
- ``shipped``: the lenient decoder with the shipped limit (``MAX_INVALID_SHARE``).

"Right" means the encoding found is the true one (any ASCII-compatible one for English) and
the text read agrees with the original in at least 1 − 4 × rate of its characters (Levenshtein). The invalid share is what the true
encoding's decoder replaced. Real binary files (programs, images, archives, an SQLite database,
compressed data without its header) are decoded the same way, as if named .txt: the smallest
share of invalid bytes any candidate encoding leaves in them shows the margin.

Run: python benchmarks/measure_decoding.py  (about a minute)
"""

from __future__ import annotations

import codecs
import io
import random
import sqlite3
import statistics
import sys
import tempfile
import zipfile
from pathlib import Path

from rapidfuzz.distance import Levenshtein

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from neardup_gui.core.extract import extract_bytes  # noqa: E402
from neardup_gui.core.extract import text as text_mod  # noqa: E402
from neardup_gui.core.extract.common import ExtractError, sniff  # noqa: E402
from neardup_gui.core.settings import ExtractLimits  # noqa: E402
from tests.corpus import CORPUS  # noqa: E402

RATES = (0.0, 0.0001, 0.001, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2)
ENCODINGS = ("utf-8", "gb18030", "big5", "utf-16-le")
FAMILY = {"utf-8": "utf_8", "utf-8-sig": "utf_8", "gb18030": "gb18030", "gbk": "gb18030", "gb2312": "gb18030",
          "big5": "big5", "big5hkscs": "big5", "cp950": "big5", "utf-16-le": "utf_16", "utf-16": "utf_16",
          "utf_16": "utf_16", "utf_16_le": "utf_16"}


def family(name: str) -> str:
    try:
        canonical = codecs.lookup(name).name
    except LookupError:
        return name
    return FAMILY.get(canonical, FAMILY.get(name, canonical))


def texts() -> list[tuple[str, str]]:
    zh = sorted((CORPUS / "debian-reference-zh-cn").glob("*.txt"))
    en = sorted((CORPUS / "debian-reference-en").glob("*.txt"))
    out = [("zh", p.read_text(encoding="utf-8")[:3000]) for p in zh[5:125:10]]
    out += [("en", p.read_text(encoding="utf-8")[:5000]) for p in en[5:125:20]]
    return out


def damage(data: bytes, rate: float, rng: random.Random) -> bytes:
    if rate == 0:
        return data
    out = bytearray(data)
    for at in rng.sample(range(len(out)), max(1, round(rate * len(out)))):
        out[at] = rng.randrange(256)
    return bytes(out)


def strict_decode(data: bytes) -> tuple[str, str] | None:
    """The decoder of neardup before issue 17 (its order: BOM, UTF-8, UTF-16, the detector)."""
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    if data.count(0) > len(data) // 8:
        name = "utf-16-le" if data[1::2].count(0) > data[0::2].count(0) else "utf-16-be"
        try:
            return data[: len(data) // 2 * 2].decode(name), name
        except UnicodeDecodeError:
            return None
    best = text_mod._choose(text_mod.from_bytes(data))
    if best is None:
        return None
    name = text_mod._SUPERSETS.get(best.encoding, best.encoding)
    try:
        return data.decode(name), name
    except (UnicodeDecodeError, LookupError):
        return str(best), best.encoding


def lenient_decode(data: bytes, share: float) -> tuple[str, str] | None:
    saved = text_mod.MAX_INVALID_SHARE
    text_mod.MAX_INVALID_SHARE = share
    try:
        decoded = text_mod.decode(data)
        return decoded.text, decoded.encoding
    except ExtractError:
        return None
    finally:
        text_mod.MAX_INVALID_SHARE = saved


def outcome(result: tuple[str, str] | None, original: str, encoding: str, rate: float) -> str:
    if result is None:
        return "refused"
    text, name = result
    agree = Levenshtein.normalized_similarity(text.replace("\ufffd", ""), original)
    # ASCII text reads the same in every ASCII-compatible encoding: only the damage differs
    right_family = family(name) == family(encoding) or original.isascii()
    return "right" if right_family and agree >= 1 - 4 * rate - 0.002 else "wrong"


def binaries() -> list[tuple[str, bytes]]:
    found: list[tuple[str, bytes]] = []
    for name in ("ls", "cp", "python3", "sqlite3", "soffice", "bash", "tar", "grep"):
        for folder in ("/usr/bin", "/bin"):
            path = Path(folder) / name
            if path.is_file() and not path.is_symlink():
                found.append((f"program {name}", path.read_bytes()[:65536]))
                break
    pictures = sorted(Path("/usr/share").rglob("*.png"))[:4] + sorted(Path("/usr/share").rglob("*.jpg"))[:2]
    found += [(f"image {p.name}", p.read_bytes()[:65536]) for p in pictures]
    for docx in sorted((ROOT / "tests" / "fixtures" / "ingest").glob("*.docx")):
        found.append((f"zip {docx.name}", docx.read_bytes()))
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "x.db"
        with sqlite3.connect(db) as conn:
            conn.execute("CREATE TABLE t (x TEXT, y REAL)")
            conn.executemany("INSERT INTO t VALUES (?, ?)", [(f"row {i} 中文", i / 7) for i in range(2000)])
        found.append(("sqlite database", db.read_bytes()))
    for changelog in sorted(Path("/usr/share/doc").glob("*/changelog*.gz"))[:4]:
        raw = changelog.read_bytes()
        found.append((f"gzip body {changelog.parent.name}", raw[32:]))  # no magic, no header
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("a.txt", "\n".join(t for _, t in texts()))
    found.append(("deflate data without header", buf.getvalue()[40:-200]))
    noise = random.Random(3)
    high = bytearray(noise.randrange(0x80, 0x100) for _ in range(20000))
    found.append(("random high bytes", bytes(high)))
    high[5000] = 0xFF  # one byte no candidate accepts
    found.append(("random high bytes, one 0xFF", bytes(high)))
    return found


def invalid_share(data: bytes, encoding: str) -> float:
    decoded = text_mod.decode_leniently(data, encoding, limit=len(data))
    return (decoded.invalid_bytes / len(data)) if decoded is not None else 1.0


def main() -> None:
    rng = random.Random(20261123)
    samples = texts()
    shipped = text_mod.MAX_INVALID_SHARE
    print(f"texts: {sum(1 for k, _ in samples if k == 'zh')} Chinese, {sum(1 for k, _ in samples if k == 'en')} "
          f"English sections; shipped limit {shipped:.1%} of the bytes (at least {text_mod.MIN_INVALID_ALLOWED})\n")
    print("| encoding | damaged bytes | invalid share (median) | strict: right/wrong/refused | "
          "no limit: right/wrong/refused | shipped: right/wrong/refused |")
    print("|---|---|---|---|---|---|")
    for encoding in ENCODINGS:
        chosen = [(k, t) for k, t in samples if k == "zh" or encoding in ("utf-8", "utf-16-le")]
        for rate in RATES:
            shares = []
            counts = {key: {"right": 0, "wrong": 0, "refused": 0} for key in ("strict", "free", "shipped")}
            for _, original in chosen:
                clean = original.encode(encoding, errors="ignore")
                reference = clean.decode(encoding)
                data = damage(clean, rate, rng)
                shares.append(invalid_share(data, encoding))
                counts["strict"][outcome(strict_decode(data), reference, encoding, rate)] += 1
                counts["free"][outcome(lenient_decode(data, 1.0), reference, encoding, rate)] += 1
                counts["shipped"][outcome(lenient_decode(data, shipped), reference, encoding, rate)] += 1
            cells = " | ".join("/".join(str(c[k]) for k in ("right", "wrong", "refused"))
                               for c in (counts["strict"], counts["free"], counts["shipped"]))
            print(f"| {encoding} | {rate:.2%} | {statistics.median(shares):.2%} | {cells} |", flush=True)
    print("\n| binary file (as .txt) | sniffed as | smallest invalid share, UTF-8/GB18030/Big5 | "
          "as UTF-16 | decoded, no limit | decoded, shipped | extract_bytes |")
    print("|---|---|---|---|---|---|---|")
    for name, data in binaries():
        shares = {enc: invalid_share(data, enc) for enc in ("utf-8", "gb18030", "big5hkscs")}
        best = min(shares, key=shares.get)
        utf16 = invalid_share(data, "utf-16-le")
        free = "read" if lenient_decode(data, 1.0) is not None else "refused"
        limited = "read" if lenient_decode(data, shipped) is not None else "refused"
        result = extract_bytes(f"/x/{name}.txt", "txt", data, ExtractLimits(), {})
        verdict = "refused" if not hasattr(result, "text") else "READ"
        print(f"| {name} | {sniff(data)} | {shares[best]:.1%} ({best}) | {utf16:.1%} invalid | {free} | {limited} "
              f"| {verdict} |", flush=True)


if __name__ == "__main__":
    main()
