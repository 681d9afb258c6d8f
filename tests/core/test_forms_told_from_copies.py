"""A text held by half a small folder is a form only if its documents are not copies of one another.

The automatic template rule takes out a sentence in at least 5 documents and half the collection
(issue 14). In a small folder half the collection is a handful of documents, and copying reaches
it: five copies of one proposal among eight files were each wholly "template" before, and not one
of their ten pairs was reported; six edited copies of a Chinese section among eleven files lost a
third of their similarity. A form is told from a copy by what else its documents share
(``templates.copied_keys``). Real files (LibreOffice DOCX, Word 97, WPS) and real corpus text;
expected similarities by brute force (benchmarks/groundtruth.py).
"""

from __future__ import annotations

import random
import shutil
import sys
from pathlib import Path

import pytest

from neardup_gui.core import templates
from neardup_gui.core.collection import Collection
from neardup_gui.core.common_passages import common_passages, set_passage
from neardup_gui.core.extract import extract_file
from neardup_gui.core.screening import screen_folder
from neardup_gui.core.settings import Settings
from neardup_gui.core.templates import copied_keys
from tests import template_cases as tc

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import groundtruth as gt  # noqa: E402

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "ingest"
SETTINGS = Settings(workers=1, threshold=0.5)  # the automatic rule on, as by default


def _pairs(coll: Collection, settings: Settings = SETTINGS) -> dict[frozenset[str], float]:
    return {frozenset((Path(p.a.path).name, Path(p.b.path).name)): p.similarity for p in coll.pairs(settings)}


def _byte_copies(folder: Path) -> list[str]:
    """Five copies of the Chinese fixture (as .docx, a byte copy, Word 97, WPS, macro-enabled)
    beside three other documents: eight files, the copies more than half of them."""
    folder.mkdir()
    copies = {"zh.docx": "申请-A.docx", "zh.doc": "申请-B.doc", "zh.wps": "申请-C.wps", "zh.docm": "申请-D.docm"}
    for source, name in copies.items():
        shutil.copy(FIXTURES / source, folder / name)
    shutil.copy(FIXTURES / "zh.docx", folder / "申请-E.docx")
    for source, name in (("en.docx", "proposal-en.docx"), ("report.odt", "report.odt"), ("en.dotx", "form.dotx")):
        shutil.copy(FIXTURES / source, folder / name)
    return sorted([*copies.values(), "申请-E.docx"])


def test_five_copies_in_eight_files_are_reported_and_can_be_excluded_by_hand(tmp_path, monkeypatch):
    copies = _byte_copies(tmp_path / "folder")
    with Collection.open(tmp_path / "i.ndx") as coll:
        coll.index_folder(str(tmp_path / "folder"), SETTINGS)
        assert coll.template_min_frequency(SETTINGS) == 5  # the copies reach the automatic rule
        expected = {frozenset((a, b)) for i, a in enumerate(copies) for b in copies[i + 1:]}
        pairs = _pairs(coll)
        assert set(pairs) >= expected and all(pairs[k] == 1.0 for k in expected)
        # listed among the common passages as counted, and why; one click still excludes it
        passages = [p for p in common_passages(coll, SETTINGS) if p.documents == 5]
        assert len(passages) == 1 and passages[0].status == "counted" and passages[0].copied
        mark = set_passage(coll, passages[0], "exclude")
        assert not set(_pairs(coll)) & expected
        coll.unmark(mark)
        assert set(_pairs(coll)) >= expected
        # (the guard is what keeps them: without it the rule took all of their text out)
        monkeypatch.setattr(templates, "COPY_PAIRS", 0)
        coll._copied = None
        assert not set(_pairs(coll)) & expected


def _drop_chars(text: str, rate: float, seed: int) -> str:
    rng = random.Random(seed)
    return "".join(c for c in text if c == "\n" or rng.random() > rate)


def test_a_ring_of_edited_chinese_copies_keeps_its_similarity(tmp_path):
    """Six copies of one Chinese section, 1 % of the characters dropped from each, among eleven
    files: every pair reported at its exact similarity, as with the automatic rule off."""
    zh = [text for _, text in tc.sections("zh-cn", min_chars=1500)]
    folder = tmp_path / "ring"
    folder.mkdir()
    texts = {f"ring-{i}.txt": _drop_chars(zh[3], 0.01, i) for i in range(6)}
    texts.update({f"own-{i}.txt": zh[10 + i] for i in range(5)})
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf-8")
    with Collection.open(tmp_path / "i.ndx") as coll:
        coll.index_folder(str(folder), SETTINGS)
        assert len(coll.store.frequent_sentences(coll.template_min_frequency(SETTINGS))) > 0
        pairs, off = _pairs(coll), _pairs(coll, SETTINGS.with_(auto_template=False))
    ring = sorted(n for n in texts if n.startswith("ring"))
    for i, a in enumerate(ring):
        for b in ring[i + 1:]:
            truth = gt.truth_of_texts(texts[a], texts[b]).similarity
            assert pairs[frozenset((a, b))] == pytest.approx(truth, abs=0.02), (a, b)
            assert pairs[frozenset((a, b))] == off[frozenset((a, b))]
    assert all(n.startswith("ring") for key in pairs for n in key)


def test_a_form_in_one_block_beside_each_applicants_own_text_stays_a_form(tmp_path):
    """Issue 14's call of 26: the call's form a block of text (a real section, most of each
    proposal), each applicant's own text beside it. Its documents share nothing else: the form
    stays automatic and no pair is reported. (A body copied into half a small folder beside text
    of each writer's own has this shape too, and is listed in the common passages, one click from
    being counted.)"""
    en = [text for _, text in tc.sections("en", min_chars=1500)]
    texts = {f"p{i:02d}.txt": en[5] + "\n" + en[30 + i][:800] for i in range(12)}
    _call(tmp_path / "call", texts)
    with Collection.open(tmp_path / "i.ndx") as coll:
        coll.index_folder(str(tmp_path / "call"), SETTINGS)
        minimum = coll.template_min_frequency(SETTINGS)
        assert len(coll.store.frequent_sentences(minimum)) > 5 and not coll.copied_keys(minimum)
        assert coll.pairs(SETTINGS.with_(threshold=0.3)) == []
        assert len(coll.pairs(SETTINGS.with_(auto_template=False))) == 66  # the form alone: every pair


def _filled(answers: list[str]) -> str:
    return tc.proposal(tc.FORM_A, answers)


def _call(folder: Path, texts: dict[str, str]) -> None:
    folder.mkdir()
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf-8")


def test_a_ring_inside_a_call_on_one_form(tmp_path):
    """Twelve proposals on one form, seven of them edited copies of one proposal: the ring's
    text counts (all 21 pairs reported), the form stays template (no pair of the others)."""
    answers = tc._answers(0, 6, len(tc.FORM_A) // 2)
    ring_text = _filled([" ".join(a for a in answers[0])] * 5)
    texts = {f"ring-{i}.txt": tc.light_edit(ring_text, seed=i) for i in range(7)}
    texts.update({f"own-{i}.txt": _filled(answers[i]) for i in range(1, 6)})
    _call(tmp_path / "call", texts)
    with Collection.open(tmp_path / "i.ndx") as coll:
        coll.index_folder(str(tmp_path / "call"), SETTINGS)
        pairs = _pairs(coll)
        passages = common_passages(coll, SETTINGS)
        form_ids = {p.id for p in passages if tc.FORM_A[1] in p.text}
        form = [p for p in passages if p.id in form_ids]
        assert form and all(p.status == "automatic" and p.documents == 12 for p in form)
        assert [p for p in passages if p.copied and p.documents == 7]
        ring = sorted(n for n in texts if n.startswith("ring"))
        expected = {frozenset((a, b)) for i, a in enumerate(ring) for b in ring[i + 1:]}
        assert set(pairs) == expected  # the form-only pairs of the others: none
        # each as the examiner gets it by giving the form as a template file (the form left out)
        form_file = tmp_path / "form.txt"
        form_file.write_text("\n".join(tc.FORM_A), encoding="utf-8")
        given = _pairs(coll, SETTINGS.with_(auto_template=False, template_files=(str(form_file),)))
        for key in expected:
            assert pairs[key] == pytest.approx(given[key], abs=0.01)


def test_resubmissions_in_a_call_leave_the_form_a_form(tmp_path):
    """Twenty proposals on one form, five of them resubmitted with light edits: the form's
    documents are not copies of one another (most pairs of them share nothing else), so the form
    stays template, and only the five resubmissions are reported."""
    answers = tc._answers(0, 15, len(tc.FORM_A) // 2)
    texts = {f"p{i:02d}-2024.txt": _filled(answers[i]) for i in range(15)}
    texts.update({f"p{i:02d}-2025.txt": tc.light_edit(_filled(answers[i]), seed=i) for i in range(5)})
    _call(tmp_path / "call", texts)
    with Collection.open(tmp_path / "i.ndx") as coll:
        coll.index_folder(str(tmp_path / "call"), SETTINGS)
        frequent = coll.store.frequent_sentences(coll.template_min_frequency(SETTINGS))
        assert len(frequent) > 0 and not coll.copied_keys(coll.template_min_frequency(SETTINGS))
        assert set(_pairs(coll)) == {frozenset((f"p{i:02d}-2024.txt", f"p{i:02d}-2025.txt")) for i in range(5)}


def test_a_call_screened_with_copies_of_one_proposal(tmp_path):
    """The call's own form rule has the same guard: five copies among eight submissions of a
    call screened against an empty collection are each wholly copied."""
    copies = _byte_copies(tmp_path / "call")
    with Collection.open(tmp_path / "i.ndx") as coll:
        screening = screen_folder(coll, str(tmp_path / "call"), SETTINGS, name="call")
    rows = {r.rel: r for r in screening.rows}
    for name in copies:
        assert rows[name].copied == pytest.approx(1.0), name
    assert rows["report.odt"].copied == 0.0


def test_copied_keys_asks_a_few_pairs_of_each_text():
    """One question per pair asked, at most COPY_PAIRS per text; sentences held by nearly the same
    documents are one text; the answer is the majority's."""
    form_docs = frozenset(range(40))
    ring_docs = frozenset(range(100, 107))
    holders = {1: form_docs, 2: form_docs, 3: form_docs - {5}, 10: ring_docs, 11: ring_docs - {106}, 20: {1, 2, 3, 4, 5}}
    asked: list[tuple[int, int]] = []

    def alike(a: int, b: int) -> bool:
        asked.append((a, b))
        return a >= 100 or (a, b) == (1, 2)  # ring members share more; a form's two holders by chance

    copied = copied_keys(holders, alike)
    assert copied == {10, 11}
    texts = [{a for a, b in asked if a < 100 and b < 100}, {a for a, b in asked if a >= 100}]
    assert len(asked) <= 3 * templates.COPY_PAIRS and all(texts)
    assert all(a < b for a, b in asked)
    first, again = list(asked), []
    assert copied_keys(holders, lambda a, b: again.append((a, b)) or alike(a, b)) == copied
    assert again == first  # the same pairs every time: a fixed choice
    # a text of four documents is asked of its pairs in order (of five: 10 > 9 pairs, a sample
    # instead), each question until the majority is known
    few: list[tuple[int, int]] = []
    assert copied_keys({7: {1, 2, 3, 4}}, lambda a, b: few.append((a, b)) or True) == {7}
    assert few == [(1, 2), (1, 3), (1, 4), (2, 3)]  # four of six: a majority
    few.clear()
    assert copied_keys({7: {1, 2, 3, 4}}, lambda a, b: few.append((a, b)) or a == 1) == frozenset()
    assert few == [(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)]  # three of six: not a majority


def test_the_fixture_copies_read_as_one_text():
    texts = {extract_file(str(FIXTURES / name)).text for name in ("zh.docx", "zh.doc", "zh.wps", "zh.docm")}
    assert len(texts) == 1


def test_a_form_line_in_half_the_folder_stays_a_form(tmp_path):
    """One line of a form heading six of ten proposals (nothing inside it to fill in, but one
    sentence beside a page of the applicant's own) is a form's line: automatic, as before."""
    line = "Application form of the research fund office: part two, the proposal text as submitted for review."
    en = [text for _, text in tc.sections("en", min_chars=1500)]
    texts = {f"p{i}.txt": (line + "\n" if i < 6 else "") + en[60 + i] for i in range(10)}
    _call(tmp_path / "folder", texts)
    with Collection.open(tmp_path / "i.ndx") as coll:
        coll.index_folder(str(tmp_path / "folder"), SETTINGS)
        minimum = coll.template_min_frequency(SETTINGS)
        assert len(coll.store.frequent_sentences(minimum)) == 1 and not coll.copied_keys(minimum)
        [passage] = [p for p in common_passages(coll, SETTINGS) if line[:40] in p.text]
        assert passage.status == "automatic" and passage.documents == 6
