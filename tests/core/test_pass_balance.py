"""The pass's partitions are shared fairly among its workers: a family of long texts too large for
one worker is cut into one partition per document, the rest ordered costliest first; every
document is in one partition, and the pairs are the serial pass's, bit for bit."""

from __future__ import annotations

import random

import numpy as np

from benchmarks.copyheavy import build, light_edit, sections
from neardup_gui.core import pairpass
from neardup_gui.core.collection import Collection
from neardup_gui.core.settings import Settings

SETTINGS = Settings(threshold=0.8, auto_template=False, workers=2)


def _docs(units: dict[int, int], sha: dict[int, str] | None = None) -> dict[int, tuple[int, str]]:
    return {d: (n, (sha or {}).get(d, f"sha{d}")) for d, n in units.items()}


def test_a_family_larger_than_a_workers_share_is_cut_into_single_documents() -> None:
    long_family = list(range(1, 14))  # thirteen edits of a 300,000-unit text
    short = list(range(100, 400))  # families of three short texts
    family = {d: 1 for d in long_family} | {d: 100 + (d - 100) // 3 for d in short}
    units = {d: 300_000 for d in long_family} | {d: 5_000 for d in short}
    parts = pairpass.family_partitions(np.array(long_family + short, dtype=np.int64),
                                       np.array([family[d] for d in long_family + short], dtype=np.int64), 64)
    got = pairpass.balanced_partitions(parts, family, _docs(units), workers=2)
    assert sorted(d for p in got for d in p) == sorted(long_family + short)  # every document once
    for d in long_family:
        assert [d] in got  # the long family shared by the workers, a document at a time
    costs = pairpass.partition_costs(got, family, _docs(units))
    alone = {p[0]: c for p, c in zip(got, costs) if len(p) == 1}
    assert got[0][0] in long_family  # its documents come first: each costs more than a whole short partition
    assert all(len(p) > 1 for p in got if p[0] in short)  # the short families stay together
    assert len(alone) == len(long_family)


def test_partitions_within_their_share_are_only_ordered() -> None:
    rng = np.random.default_rng(5)
    todo = np.arange(1, 601, dtype=np.int64)
    keys = rng.integers(0, 150, size=len(todo))
    family = dict(zip(todo.tolist(), keys.tolist()))
    units = {d: int(rng.integers(500, 20_000)) for d in todo.tolist()}
    parts = pairpass.family_partitions(todo, keys, 16)
    got = pairpass.balanced_partitions(parts, family, _docs(units), workers=2)
    assert sorted(map(tuple, got)) == sorted(map(tuple, parts))  # none cut
    costs = pairpass.partition_costs(got, family, _docs(units))
    assert costs == sorted(costs, reverse=True)  # the costliest first


def test_byte_copies_count_once() -> None:
    """Six byte copies of one long text are compared once: their partition is not a large one."""
    copies = list(range(1, 7))
    family = {d: 1 for d in copies} | {d: d for d in range(10, 40)}
    units = {d: 300_000 for d in copies} | {d: 300_000 for d in range(10, 40)}
    sha = {d: "same" for d in copies}
    parts = [copies] + [[d] for d in range(10, 40)]
    got = pairpass.balanced_partitions(parts, family, _docs(units, sha), workers=2)
    assert copies in got
    assert pairpass.partition_costs([copies], family, _docs(units, sha)) == [300_000.0 ** 2]


def test_a_pass_with_one_family_of_long_texts_gives_the_serial_pairs(tmp_path, corpus_dir) -> None:
    docs = tmp_path / "docs"
    build(docs, 60, seed=21, families=20)
    rng = random.Random(21)
    long_text = "\n\n".join(sections()[:60])  # tens of thousands of units
    for k in range(6):
        (docs / f"long{k}.txt").write_text(light_edit(long_text, 0.01, rng), encoding="utf-8")
    db = tmp_path / "index.db"
    with Collection.open(db) as coll:
        coll.index_folder(str(docs), SETTINGS)
        long_ids = {d.doc_id for d in coll.documents() if d.rel.startswith("long")}
    seen: list[list[int]] = []

    def recording(spec, parts, tick):  # noqa: ANN001, ANN202 - an Executor that notes its partitions
        seen.extend(parts)
        yield from pairpass.process_results(2)(spec, parts, tick)

    rows = []
    for executor in (pairpass.serial_results, recording):
        with Collection.open(db) as coll:
            with coll.store.transaction() as conn:
                conn.execute("DELETE FROM pairs")
                conn.execute("DELETE FROM paired")
            pairpass.run_pass(coll.pass_spec(SETTINGS), coll._write_pairs, executor=executor, partition_docs=16)
            rows.append(sorted(coll.store.conn.execute(
                "SELECT a, b, similarity, containment_a, containment_b, common FROM pairs")))
    assert rows[1] == rows[0]  # the same pairs, bit for bit
    long_pairs = [r for r in rows[0] if r[0] in long_ids and r[1] in long_ids]
    assert len(long_pairs) == 15  # every two edits of the long text
    assert all([d] in seen for d in long_ids)  # its family shared by the two workers
    assert sorted(d for p in seen for d in p) == sorted(d for d, in _indexed(db))


def _indexed(db):  # noqa: ANN001, ANN202
    with Collection.open(db) as coll:
        return coll.store.conn.execute("SELECT id FROM documents WHERE status = 'indexed'").fetchall()
