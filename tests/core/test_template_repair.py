"""A change of template re-pairs only the documents it changes.

Marking a passage as template (or undoing a mark) changed the pairs cache's key, and the whole
cache started again: every document paired anew (28 s at 10,000 generated documents for one
sentence held by 77 of them). Now the documents holding a sentence whose status changed are paired
again and every pair of theirs dropped; the other pairs stand. The answers are those of a cache
made from nothing under the same marks."""

from __future__ import annotations

from pathlib import Path

from neardup_gui.core.collection import Collection
from neardup_gui.core.matrixcache import MatrixCache
from neardup_gui.core.common_passages import common_passages
from neardup_gui.core.settings import Settings
from tests import template_cases as tc
from tests.corpus import corpus_dir

SETTINGS = Settings(workers=1, threshold=0.3)  # (the automatic template on, as in the window)


def _folder(tmp: Path) -> Path:
    """Two calls' proposals (12 on form A: automatic template; 8 on form B: counted), and a text
    with three edits of it that has nothing to do with either form."""
    root, _ = tc.two_forms_collection(tmp)
    text = max((p.read_text(encoding="utf-8") for p in (corpus_dir() / "debian-reference-en").glob("*.txt")), key=len)
    lines = text.split("\n")
    cut = len(lines) // 12
    (root / "edit-0.txt").write_text(text, encoding="utf-8")
    for i in range(1, 4):  # each without a different twelfth: near the text, less near one another
        (root / f"edit-{i}.txt").write_text("\n".join(lines[:i * 2 * cut] + lines[(i * 2 + 1) * cut:]), encoding="utf-8")
    return root


def _pairs(coll: Collection, progress=None) -> dict:  # noqa: ANN001
    got = coll.pairs(SETTINGS, progress) if progress else coll.pairs(SETTINGS)
    return {(p.a.rel, p.b.rel): (p.similarity, p.containment_a, p.containment_b, p.common_units) for p in got}


def test_a_mark_re_pairs_only_the_documents_holding_it(tmp_path) -> None:
    root = _folder(tmp_path)
    with Collection.open(tmp_path / "a.ndx") as coll:
        coll.index_folder(str(root), SETTINGS)
        before = _pairs(coll)
        edits = {k for k in before if k[0].startswith("edit-") and k[1].startswith("edit-")}
        assert len(edits) == 6
        assert sum(k[0].startswith("call-b") and k[1].startswith("call-b") for k in before) >= 20
        form_b = next(p for p in common_passages(coll, SETTINGS) if tc.FORM_B[1] in p.text)
        mark = coll.mark_keys(form_b.keys, form_b.text, "exclude")
        said: list[str] = []
        after = _pairs(coll, lambda _f, m="": said.append(m))
        assert "Comparing 1 of 8" in said  # (the eight proposals on form B; before: all 24)
        assert {k: before[k] for k in edits} == {k: after[k] for k in edits}
        assert not [k for k in after if k[0].startswith("call-b") and k[1].startswith("call-b")]

    # the same answers as a cache made from nothing under the same mark
    with Collection.open(tmp_path / "b.ndx") as fresh:
        fresh.index_folder(str(root), SETTINGS)
        fresh.mark_keys(form_b.keys, form_b.text, "exclude")
        assert _pairs(fresh) == after

    # the mark undone: the same eight paired again, and the pairs are those of before
    with Collection.open(tmp_path / "a.ndx") as coll:
        coll.unmark(mark)
        said.clear()
        assert _pairs(coll, lambda _f, m="": said.append(m)) == before
        assert "Comparing 1 of 8" in said


def test_other_settings_or_a_missing_snapshot_start_the_cache_again(tmp_path) -> None:
    """What cannot be told apart is not guessed: another min_run, or no snapshot of the template
    the cache was made with (an index of an earlier version), pairs every document again."""
    root = _folder(tmp_path)
    with Collection.open(tmp_path / "a.ndx") as coll:
        coll.index_folder(str(root), SETTINGS)
        before = _pairs(coll)
        coll.store.conn.execute("DELETE FROM search_tables WHERE name = 'pairs_template_keys'")
        form_b = next(p for p in common_passages(coll, SETTINGS) if tc.FORM_B[1] in p.text)
        coll.mark_keys(form_b.keys, form_b.text, "exclude")
        said: list[str] = []
        after = _pairs(coll, lambda _f, m="": said.append(m))
        assert "Comparing 1 of 24" in said
        assert {k: v for k, v in before.items() if k[0].startswith("edit-")} == \
            {k: v for k, v in after.items() if k[0].startswith("edit-")}
        said.clear()
        coll.pairs(SETTINGS.with_(min_run=7), lambda _f, m="": said.append(m))
        assert "Comparing 1 of 24" in said


def test_a_mark_keeps_the_matrices_of_the_clusters_it_leaves_alone(tmp_path, monkeypatch) -> None:
    from neardup_gui.core.verify import Verifier

    root = _folder(tmp_path)
    made: list[int] = []
    real = Verifier.compare_prepared
    monkeypatch.setattr(Verifier, "compare_prepared", lambda self, *a, **k: made.append(1) or real(self, *a, **k))
    with Collection.open(tmp_path / "a.ndx") as coll:
        low = SETTINGS.with_(threshold=0.93)  # (the text and two edits: one cluster, the edits below 0.93)
        coll.index_folder(str(root), low)
        coll.pairs(low)
        made.clear()
        first = [c.pairwise for c in coll.clusters(low)]
        assert made  # (the two edits, 0.917 apart: compared for the matrix)
        form_b = next(p for p in common_passages(coll, low) if tc.FORM_B[1] in p.text)
        coll.mark_keys(form_b.keys, form_b.text, "exclude")
        coll.pairs(low)
        made.clear()
        assert [c.pairwise for c in coll.clusters(low)] == first
        assert made == []  # (the edits hold no sentence of form B: their values carried over)
        assert coll.store.load_search_table(MatrixCache.NAME, coll._verify_key(low, coll.verifier(low))) is not None
