"""Edited passages: merging rules on hand-made texts, invariants, real edited copies, unrelated pairs."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.corpus import corpus_dir
from neardup_gui.core.compare import REVISION, compare_documents, compare_units
from neardup_gui.core.passages import DEFAULT_RULES, coverage_bound
from neardup_gui.core.settings import Settings
from neardup_gui.core.units import Units, tokenize

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import obfuscate as ob  # noqa: E402

MIN_RUN = Settings().min_run  # 8
RULES = DEFAULT_RULES


def words(prefix: str, n: int, start: int = 0) -> list[str]:
    return [f"{prefix}{i}" for i in range(start, start + n)]


def text(ws: list[str]) -> str:
    return " ".join(ws)


def compare(a: list[str], b: list[str], **kw):
    return compare_documents(text(a), text(b), min_run=MIN_RUN, **kw)


# --- merging rules on hand-made texts ------------------------------------------------------------


def test_substitution_every_eight_words_is_one_passage() -> None:
    """20 untouched words, then one word in eight replaced: every later run has 7 words (< min_run),
    yet the whole text is one passage, because the first run anchors it."""
    src = words("w", 200)
    copy = list(src)
    for k in range(27, 200, 8):
        copy[k] = f"new{k}"
    c = compare(copy, src)
    assert [s.units for s in c.spans] == [27]  # the exact runs see only the anchor
    assert c.common_units == 200 - 22  # the passage's identical units: every word not replaced
    assert len(c.passages) == 1
    p = c.passages[0]
    assert p.units_a == p.units_b == 200 and c.containment_a == 1.0
    # seed 004's ratio over the identical units of the passage (the exact runs alone: 0.07)
    assert c.similarity == pytest.approx(178 / (200 + 200 - 178))
    assert p.matched_units == 200 - len(range(27, 200, 8))  # every untouched word
    assert p.runs[0].units == 27 and all(r.units == 7 for r in p.runs[1:-1]) and p.runs[-1].units == 4


def test_short_runs_in_order_without_an_anchor_are_a_revised_passage() -> None:
    """Runs shorter than min_run everywhere (one word in seven replaced): no anchor, so no edited
    passage and no similarity; but that many runs in order are what a heavy revision keeps of
    its source, so the text is one revised passage, counted in the containment."""
    src = words("w", 120)
    copy = list(src)
    for k in range(6, 120, 7):
        copy[k] = f"new{k}"
    c = compare(copy, src)
    assert c.spans == () and c.similarity == 0.0
    assert [(p.revised, p.moved) for p in c.passages] == [(True, True)] and c.containment_a > 0.9


def test_a_few_short_runs_are_no_passage() -> None:
    """Three short runs in order, nothing else shared: chance, not a revision (min_seeds)."""
    src = words("w", 120)
    copy = [f"own{k}" for k in range(120)]
    for start in (10, 40, 70):
        copy[start:start + 4] = src[start:start + 4]
    c = compare(copy, src)
    assert c.passages == () and c.containment_a == 0.0


@pytest.mark.parametrize("hole, expected", [(RULES.max_hole, 1), (RULES.max_hole + 1, 2)])
def test_hole_size_decides_between_one_and_two_passages(hole: int, expected: int) -> None:
    """Two anchors of 10 words around a hole of replaced words: up to ``max_hole`` it is one
    passage (a few substituted words), beyond it two (the share rule allows no more here:
    0.2 × 20 words < max_hole)."""
    src = words("w", 20 + hole)
    copy = src[:10] + words("x", hole) + src[10 + hole :]
    c = compare(copy, src)
    assert len(c.spans) == 2
    assert len(c.passages) == expected
    if expected == 1:
        assert c.passages[0].units_a == 20 + hole and c.containment_a == 1.0
    else:
        assert c.passage_units_a == c.common_units == 20


def test_long_passages_join_across_a_gap_that_is_small_beside_them() -> None:
    """A burst of 20 replaced words between two copied stretches of 150 words is one passage
    (20 ≤ 0.2 × 300), an unrelated paragraph of 80 words is not."""
    src = words("w", 320)
    burst = src[:150] + words("x", 20) + src[170:]
    c = compare(burst, src)
    assert len(c.passages) == 1 and c.containment_a == 1.0
    inserted = src[:150] + words("y", 80) + src[150:]
    c = compare(inserted, src)
    assert len(c.passages) == 2
    assert c.passage_units_a == c.common_units == 320


def test_word_pairs_bridge_two_anchors_but_do_not_extend_a_lone_one() -> None:
    """Every third word replaced leaves runs of two words: as unlikely by chance as three CJK
    characters (word_weight), so between two anchors they chain into one passage. Around a lone
    anchor they do not count (min_anchors_for_words): one shared phrase is not an edited copy."""
    src = words("w", 100)
    edited = [f"x{k}" if k % 3 == 2 else w for k, w in enumerate(src[10:90], 10)]
    c = compare(src[:10] + edited + src[90:], src)
    assert len(c.spans) == 2 and sum(s.units for s in c.spans) == 21  # the first anchor ends at the first edit
    assert len(c.passages) == 1 and c.containment_a == 1.0
    assert all(r.units == 2 for r in c.passages[0].runs[1:-1])
    lone = compare(src[:10] + edited, src[:90])
    assert len(lone.spans) == 1 and lone.passage_units_a == lone.common_units == 11


def test_character_pairs_are_not_seeds() -> None:
    """The same edit in Chinese (every third character replaced): runs of two characters are
    common by chance and weigh 2 < 3, so the two anchors stay apart."""
    src = "".join(chr(0x4E00 + 7 * k) for k in range(100))
    edited = "".join("乙" if k % 3 == 2 else ch for k, ch in enumerate(src[10:90], 10))
    c = compare_documents(src[:10] + edited + src[90:], src, min_run=MIN_RUN)
    assert len(c.spans) == 2 and len(c.passages) == 2 and c.passage_units_a == c.common_units


def test_a_translation_between_identical_rows_is_not_an_edit() -> None:
    """A translated table (Chinese descriptions) beside its original (English descriptions): the
    package rows are identical runs of 8 units, the descriptions between them are holes small
    enough to chain across, but written in CJK on one side and in words on the other. A
    translation is not an edited copy: every row stays its own passage."""
    zh = ["配置网络的图形工具", "无线网卡的驱动程序", "查看系统日志的工具", "管理软件包的前端"]
    en = ["graphical network configuration tool", "drivers for wireless cards", "system log viewer",
          "package management front end"]
    rows = [f"net-tool-{k} V:{100 + k}, I:{500 + k} {900 + k}" for k in range(len(zh))]
    a = "\n".join(f"{r}\n{d}" for r, d in zip(rows, zh))
    b = "\n".join(f"{r}\n{d}" for r, d in zip(rows, en))
    c = compare_documents(a, b, min_run=MIN_RUN)
    assert len(c.spans) == len(rows) and c.common_units == 8 * len(rows)
    assert len(c.passages) == len(rows) and c.passage_units_a == c.common_units
    # the same table with its Chinese descriptions edited, not translated: one passage
    edited = "\n".join(f"{r}\n{d[:2]}改动{d[4:]}" for r, d in zip(rows, zh))
    c = compare_documents(edited, a, min_run=MIN_RUN)
    assert len(c.passages) == 1 and c.containment_a == 1.0


def test_insertions_and_deletions_inside_a_passage() -> None:
    src = words("w", 100)
    copy = list(src)
    del copy[30]  # a dropped word
    copy.insert(60, "extra")  # an inserted word
    copy.insert(61, "words")
    c = compare(copy, src)
    assert len(c.passages) == 1
    p = c.passages[0]
    assert (p.units_a, p.units_b) == (101, 100)
    assert p.matched_units == 99


def test_passage_never_crosses_template_text() -> None:
    src = words("w", 60)
    copy = list(src)
    copy[30] = "changed"
    a = text(copy)
    start = a.index("changed")
    c = compare_documents(a, text(src), min_run=MIN_RUN, template_a=[(start, start + len("changed"))])
    assert len(c.passages) == 2  # the template word cuts the passage in two
    for p in c.passages:
        assert not (p.a[0] <= start < p.a[1])


def test_a_lone_chance_run_stays_as_it_is() -> None:
    """An 8-word run shared by chance, surrounded by unrelated text: the passage is the run."""
    shared = words("s", 8)
    a = words("a", 100) + shared + words("a", 100, 100)
    b = words("b", 50) + shared + words("b", 150, 50)
    c = compare(a, b)
    assert len(c.passages) == 1 and c.passage_units_a == 8 == c.common_units


def test_cutoff_bound_holds_for_passages() -> None:
    """The cut-off prunes with ``coverage_bound``: it must be ≥ the passage units found."""
    src = words("w", 300)
    copy = list(src)
    rng = random.Random(3)
    for k in range(20, 300):
        if rng.random() < 0.3:
            copy[k] = f"n{k}"
    c = compare(copy, src)
    assert c.passage_units_a > 2 * sum(s.units for s in c.spans)  # edits matter here
    assert coverage_bound(c.common_units) >= c.passage_units_a
    again = compare(copy, src, min_containment=c.containment_a * 0.99)
    assert again is not None and again.containment_a == c.containment_a


# --- invariants -----------------------------------------------------------------------------------


def units_of(ids: list[int]) -> Units:
    return tokenize(" ".join(f"u{i}" for i in ids))


def check_invariants(c, a: Units, b: Units) -> None:
    last_a = last_b = -1
    for p in (p for p in c.passages if not p.moved):
        assert p.a[0] >= last_a and p.b[0] >= last_b, "the in-order passages: disjoint, in the same order in both texts"
        last_a, last_b = p.a[1], p.b[1]
    for side in ("a", "b"):  # every passage (moved ones too): disjoint in each text
        spans = sorted(getattr(p, side) for p in c.passages)
        assert all(x[1] <= y[0] for x, y in zip(spans, spans[1:])), side
    for p in c.passages:
        assert p.runs and p.matched_units == sum(r.units for r in p.runs)
        assert p.matched_units <= min(p.units_a, p.units_b)
        for r in p.runs:
            assert p.a[0] <= r.a[0] < r.a[1] <= p.a[1] and p.b[0] <= r.b[0] < r.b[1] <= p.b[1]
            assert a.text[r.a[0] : r.a[1]] == b.text[r.b[0] : r.b[1]]  # the runs are exact
        # every passage holds an anchor; identical texts are identical however short (issue 14)
        # every passage holds an anchor (a revised one: min_seeds seeds); identical texts are
        # identical however short
        # or a short sentence filling a gap between copied text in both texts: one exact run
        filled = p.moved and len(p.runs) == 1 and p.units_a == p.units_b == p.matched_units
        assert p.revised or any(r.units >= MIN_RUN for r in p.runs) or filled or c.similarity == 1.0, "an anchor"
        if p.revised:
            assert len(p.runs) >= REVISION.min_seeds
    for s in c.spans:  # every exact span lies inside one passage
        assert any(p.a[0] <= s.a[0] and s.a[1] <= p.a[1] for p in c.passages)
    assert c.passage_units_a >= c.common_units and c.passage_units_b >= c.common_units
    assert c.passage_units_a == sum(p.units_a for p in c.passages)


@settings(max_examples=150, deadline=None)
@given(
    base=st.lists(st.integers(0, 30), min_size=0, max_size=150),
    edits=st.lists(st.tuples(st.integers(0, 149), st.sampled_from("sid"), st.integers(31, 60)), max_size=40),
)
def test_passage_invariants(base: list[int], edits: list[tuple[int, str, int]]) -> None:
    copy = list(base)
    for k, op, new in edits:
        if not copy:
            break
        k %= len(copy)
        if op == "s":
            copy[k] = new
        elif op == "i":
            copy.insert(k, new)
        else:
            del copy[k]
    a, b = units_of(copy), units_of(base)
    c = compare_units(a, b, min_run=MIN_RUN)
    check_invariants(c, a, b)
    c_full = compare_units(a, b, min_run=MIN_RUN, alignment="full")
    check_invariants(c_full, a, b)


@settings(max_examples=50, deadline=None)
@given(base=st.lists(st.integers(0, 30), min_size=MIN_RUN, max_size=200))
def test_identical_texts_are_one_passage_covering_all(base: list[int]) -> None:
    a = units_of(base)
    c = compare_units(a, a, min_run=MIN_RUN)
    assert len(c.passages) == 1
    assert c.passage_units_a == c.passage_units_b == len(base) and c.containment_a == 1.0


# --- real text -------------------------------------------------------------------------------------

LANGS = {"zh": "debian-reference-zh-cn", "en": "debian-reference-en"}


def corpus(lang: str) -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted((corpus_dir() / LANGS[lang]).glob("*.txt"))]


@pytest.fixture(scope="module")
def zh_texts() -> list[str]:
    return corpus("zh")


@pytest.fixture(scope="module")
def en_texts() -> list[str]:
    return corpus("en")


@pytest.mark.parametrize("rate, target", [(0.1, 0.95), (0.2, 0.90), (0.3, 0.80)])
def test_edited_chinese_copy_is_seen_whole(zh_texts: list[str], rate: float, target: float) -> None:
    """Two real sections, every word substitued with probability ``rate`` by a word of other
    sections: the containment of the source reaches the issue's targets, in one passage."""
    vocab = ob.chinese_vocab(zh_texts[60:80])
    for k, src in enumerate((zh_texts[3], zh_texts[41])):
        copy = ob.obfuscate(src, "zh", rate, vocab, random.Random(k))
        c = compare_documents(copy, src, min_run=MIN_RUN)
        assert c.containment_a >= target, (k, c.containment_a)
        assert c.common_units / c.units_a < c.containment_a  # exact runs alone say less
        assert len(c.passages) == 1, [p.units_a for p in c.passages]


@pytest.mark.parametrize("rate, target", [(0.1, 0.95), (0.2, 0.90)])
def test_edited_english_copy_is_seen_whole(en_texts: list[str], rate: float, target: float) -> None:
    vocab = ob.english_vocab(en_texts[100:140])
    for k, src in enumerate((en_texts[5], en_texts[77])):
        copy = ob.obfuscate(src, "en", rate, vocab, random.Random(k), mode="mixed")
        c = compare_documents(copy, src, min_run=MIN_RUN)
        assert c.containment_a >= target, (k, c.containment_a)
        assert len(c.passages) == 1, [p.units_a for p in c.passages]


@pytest.mark.parametrize("index", [16, 35])
def test_english_copy_with_30_percent_substituted_is_one_passage(en_texts: list[str], index: int) -> None:
    """A real English section with 30 % of its words replaced: found whole, in one passage.
    With seeds of three words only (before word_weight) these read 0.31 and 0.56, in 3 and 2
    passages: the holes between 3-word runs are often longer than max_hole."""
    vocab = ob.english_vocab(en_texts[100:140])
    src = en_texts[index]
    copy = ob.obfuscate(src, "en", 0.3, vocab, random.Random(index))
    c = compare_documents(copy, src, min_run=MIN_RUN)
    assert c.containment_a >= 0.8, c.containment_a
    assert len(c.passages) == 1, [p.units_a for p in c.passages]
    assert sum(s.units for s in c.spans) / c.units_a < 0.5  # the exact runs alone see less than half


def test_parallel_english_tables_are_not_an_edited_copy() -> None:
    """Two sections of the book with tables of the same layout and one common row (dash): one
    exact run, and word pairs all around it ("List of", "package popcon size", "V 894"). It is
    not a copy: the passage stays the run and its 3-word seeds, below 0.1 on both sides (0.17
    when word pairs count around a lone anchor)."""
    folder = corpus_dir() / LANGS["en"]
    a, b = ((folder / name).read_text(encoding="utf-8") for name in ("ch12-007.txt", "ch12-008.txt"))
    c = compare_documents(a, b, min_run=MIN_RUN)
    assert [s.units for s in c.spans] == [8] and len(c.passages) == 1
    assert max(c.containment_a, c.containment_b) < 0.1
    assert all(r.units >= RULES.short_run for r in c.passages[0].runs)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_unrelated_sections_stay_below_a_tenth(lang: str) -> None:
    """Every pair among 25 sections of one book (same subject, many shared characters in
    Chinese): passages add next to nothing, and no containment reaches 0.1."""
    texts = corpus(lang)
    picked = [texts[i] for i in range(0, len(texts), max(1, len(texts) // 25))][:25]
    units = [tokenize(t) for t in picked]
    for i in range(len(picked)):
        for j in range(i + 1, len(picked)):
            c = compare_units(units[i], units[j], min_run=MIN_RUN)
            assert max(c.containment_a, c.containment_b) < 0.1, (i, j)
            assert c.passage_units_a - c.common_units <= 2 * RULES.max_hole, (i, j)


def test_copied_section_inside_a_host_is_one_passage(zh_texts: list[str]) -> None:
    """PAN's set-up: a host text with a section copied and edited (20 %) in its middle; the
    passage found covers the section, not the host."""
    vocab = ob.chinese_vocab(zh_texts[60:80])
    host, src = zh_texts[10], zh_texts[30]
    copied = ob.obfuscate(src, "zh", 0.2, vocab, random.Random(7))
    cut = host.index("\n", len(host) // 2)
    suspicious = host[:cut] + "\n" + copied + "\n" + host[cut:]
    c = compare_documents(suspicious, src, min_run=MIN_RUN)
    lo, hi = cut + 1, cut + 1 + len(copied)
    assert len(c.passages) == 1
    p = c.passages[0]
    inside = max(0, min(p.a[1], hi) - max(p.a[0], lo))
    assert inside / (hi - lo) >= 0.9  # recall
    assert inside / (p.a[1] - p.a[0]) >= 0.98  # precision


def test_containment_cutoff_never_drops_an_edited_copy_that_reaches_it(zh_texts: list[str]) -> None:
    """The cut-off against brute force: edited copies (exact containment far below the passage
    containment), partial copies and unrelated pairs, at several cut-offs."""
    vocab = ob.chinese_vocab(zh_texts[60:80])
    rng = random.Random(4)
    pairs = []
    for k in range(8):
        src, host = zh_texts[k * 7], zh_texts[k * 7 + 3]
        edited = ob.obfuscate(src, "zh", 0.3, vocab, random.Random(k))
        part = edited[: len(edited) // rng.choice((3, 6, 12))]
        pairs += [(edited, src), (host + part, src), (host, src)]
    pruned = 0
    for a, b in pairs:
        ua, ub = tokenize(a), tokenize(b)
        exact = compare_units(ua, ub, min_run=MIN_RUN)
        for cutoff in (0.02, 0.05, 0.2, 0.5):
            fast = compare_units(ua, ub, min_run=MIN_RUN, min_containment=cutoff)
            if fast is None:
                pruned += 1
                assert max(exact.containment_a, exact.containment_b) < cutoff
            else:
                assert fast == exact
    assert pruned > 0


def test_a_translation_keeping_its_commands_in_order_is_no_revised_passage() -> None:
    """A Chinese page and its English original share the commands, paths and names they quote,
    in the same order, and nothing else: a translation, not a heavy revision."""
    commands = ["apt-get update now please", "apt-get install foo bar baz", "cat /etc/apt/sources.list file",
                "dpkg --list all packages", "systemctl restart the service", "journalctl -u the unit"]
    zh = "".join(f"然后再运行 {c} 。" for c in commands)
    en = " ".join(f"and then run {c}." for c in commands)
    c = compare_documents(zh, en, min_run=MIN_RUN)
    assert not [p for p in c.passages if p.revised] and c.containment_a < 0.1
