"""A cluster's matrix of its members' similarities: a pair below the pairs cache's floor is
compared for its figures only (``counts_only``, as the collection-wide pass compares), and gives
exactly the similarity of the full comparison a side-by-side view makes (collection.compare)."""

from __future__ import annotations

from pathlib import Path

import pytest

from neardup_gui.core.collection import Collection
from neardup_gui.core.settings import Settings
from tests.corpus import corpus_dir

SETTINGS = Settings(workers=1, threshold=0.8, auto_template=False)


def _star(folder: Path) -> list[str]:
    """A text and four copies, each with a different fifth replaced by another section's text:
    each copy is near the text (about 0.8–0.9), the copies less near one another (about 0.6–0.7)."""
    sections = sorted((corpus_dir() / "debian-reference-en").glob("*.txt"))
    texts = [p.read_text(encoding="utf-8") for p in sections]
    root = max(texts, key=len)
    others = [t for t in texts if t is not root]
    lines = root.split("\n")
    fifth = max(1, len(lines) // 10)
    names = ["root.txt"]
    (folder / "root.txt").write_text(root, encoding="utf-8")
    for i in range(4):
        start = i * 2 * fifth
        copy = lines[:start] + others[i].split("\n")[:fifth] + lines[start + fifth:]
        (folder / f"copy{i}.txt").write_text("\n".join(copy), encoding="utf-8")
        names.append(f"copy{i}.txt")
    return names


def test_members_below_the_floor_are_compared_exactly(tmp_path):
    folder = tmp_path / "star"
    folder.mkdir()
    _star(folder)
    with Collection.open(tmp_path / "index.db") as coll:
        coll.index_folder(str(folder), SETTINGS)
        clusters = [c for c in coll.clusters(SETTINGS) if len(c.members) >= 3]
        assert clusters, "the star is one cluster"
        computed = 0
        for cluster in clusters:
            ids = [m.doc_id for m in cluster.members]
            cached = {frozenset((p.a.doc_id, p.b.doc_id)) for p in coll.pairs(SETTINGS)}
            for x in range(len(ids)):
                for y in range(x + 1, len(ids)):
                    full = coll.compare(ids[x], ids[y], SETTINGS).similarity
                    assert cluster.pairwise[x][y] == cluster.pairwise[y][x] == pytest.approx(full, abs=1e-12)
                    computed += frozenset((ids[x], ids[y])) not in cached
            assert cluster.ring == all(cluster.pairwise[x][y] >= SETTINGS.threshold
                                       for x in range(len(ids)) for y in range(x + 1, len(ids)))
        assert computed >= 1  # (some pair was below the cache's floor: compared for the matrix)


def test_the_matrices_say_their_progress_and_can_be_cancelled(tmp_path):
    """The clusters' matrices took tens of seconds at 10,000 documents without a word of progress
    (the window's bar stood still, and Cancel waited for them): now each cluster is said, and the
    progress callable that raises (as a cancelled task's does) stops them."""
    from neardup_gui.core.progress import Cancelled

    folder = tmp_path / "star"
    folder.mkdir()
    _star(folder)
    with Collection.open(tmp_path / "index.db") as coll:
        coll.index_folder(str(folder), SETTINGS)
        coll.pairs(SETTINGS)
        said: list[tuple[float, str]] = []
        clusters = coll.clusters(SETTINGS, lambda f, m="": said.append((f, m)))
        counted = [(f, m) for f, m in said if m.startswith("Comparing ")]
        assert counted and counted[0][1] == f"Comparing 1 of {len(clusters)}"
        fractions = [f for f, _ in said]
        assert fractions == sorted(fractions) and fractions[-1] == 1.0

        def cancelled(fraction: float, message: str = "") -> None:
            if message.startswith("Comparing "):
                raise Cancelled()

        with pytest.raises(Cancelled):
            coll.clusters(SETTINGS, cancelled)
