"""The work the window hands to the task runner: plain functions, each opening its own Collection.

Each runs in a worker thread and opens the index there, because an SQLite connection belongs
to the thread that made it. They take ``progress`` last, as the task runner passes it.
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from neardup_gui.app.diffview import DiffInput
from neardup_gui.core.collection import AddedFile, Collection, IndexReport
from neardup_gui.core.common_passages import CommonPassage, common_passages, exclusion_rules
from neardup_gui.core.document import Skipped
from neardup_gui.core.indexer import left_out, unfinished
from neardup_gui.core.progress import ProgressFn, wrap_progress
from neardup_gui.core.results import CheckResult, Cluster, DocumentInfo, Pair, SourceMatch
from neardup_gui.core.scan import FolderUnavailable, folder_problem
from neardup_gui.core.settings import Settings

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CollectionState:
    """What the window shows of a collection after loading or indexing it."""

    folder: str
    db_path: str
    documents: tuple[DocumentInfo, ...]
    report: IndexReport | None = None  # None when loaded from the saved index
    settings: Settings | None = None  # the defaults with the collection's own values over them
    added: tuple[AddedFile, ...] = ()  # what "Add to collection" did with each file
    # what the last scan of the folder left out (kept in the index): files of other formats, and
    # files it could not read with their reasons (a name that is not valid UTF-8, no permission)
    others: tuple[str, ...] = ()
    unread: tuple[Skipped, ...] = ()
    # the last indexing stopped before its end (cancelled, the program closed): a partial index
    unfinished: bool = False


@dataclass(frozen=True)
class Duplicates:
    pairs: tuple[Pair, ...]
    clusters: tuple[Cluster, ...]
    documents: tuple[DocumentInfo, ...]  # re-read: template shares are filled in while pairing
    passages: tuple[CommonPassage, ...] = ()  # the common passages and what is done with them
    rules: dict | None = None  # which exclusions apply (core.common_passages.exclusion_rules)


def load_collection(db_path: str, folder: str, progress: ProgressFn, defaults: Settings | None = None) -> CollectionState:
    """Open a saved index without re-indexing; with ``defaults``, read the collection's own settings."""
    progress(0.0, "")
    with Collection.open(db_path, create=False) as collection:
        documents = tuple(collection.documents())
        settings = collection.settings_for(defaults) if defaults is not None else None
        others, unread = left_out(collection.store)
        stopped = bool(unfinished(collection.store))
    progress(1.0, "")
    return CollectionState(folder, db_path, documents, settings=settings, others=others, unread=unread,
                           unfinished=stopped)


def index_collection(db_path: str, folder: str, settings: Settings, progress: ProgressFn, *,
                     allow_empty: bool = False) -> CollectionState:
    """Index (or incrementally refresh) ``folder`` into ``db_path``; a new collection keeps
    ``settings`` (the defaults) as its own from now on. ``allow_empty``: the examiner confirmed
    that a folder holding no documents now is to empty the index."""
    Path(db_path).parent.mkdir(parents=True, exist_ok=True)
    with Collection.open(db_path) as collection:
        report = collection.index_folder(folder, settings, progress, allow_empty=allow_empty)
        documents = tuple(collection.documents())
        if not collection.has_own_settings():
            collection.save_settings(settings)
        own = collection.settings_for(settings)
        others, unread = left_out(collection.store)
    return CollectionState(folder, db_path, documents, report, settings=own, others=others, unread=unread)


def save_collection_settings(db_path: str, settings: Settings, progress: ProgressFn) -> Settings:
    """Keep ``settings``' per-collection values in the collection's index."""
    progress(0.0, "")
    with Collection.open(db_path, create=False) as collection:
        collection.save_settings(settings)
    return settings


def rebuild_collection(db_path: str, folder: str, settings: Settings, progress: ProgressFn) -> CollectionState:
    """Index ``folder`` into a fresh file, keeping the unusable one beside it as a backup."""
    problem = folder_problem(os.path.abspath(folder))
    if problem is not None:  # (before the old file is set aside: a rebuild from nothing is no rebuild)
        raise FolderUnavailable(os.path.abspath(folder), problem)
    path = Path(db_path)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for suffix in ("", "-wal", "-shm"):
        old = Path(str(path) + suffix)
        if old.exists():
            old.rename(Path(f"{path}.unusable-{stamp}{suffix}"))
    log.warning("index %s set aside as %s.unusable-%s", path, path, stamp)
    return index_collection(db_path, folder, settings, progress)


def find_duplicates(db_path: str, settings: Settings, progress: ProgressFn) -> Duplicates:
    """Verified pairs above the threshold, their clusters, and the common passages."""
    with Collection.open(db_path, create=False) as collection:
        pairs = tuple(collection.pairs(settings, wrap_progress(progress, 0.0, 0.85)))
        clusters = tuple(collection.clusters(settings, wrap_progress(progress, 0.85, 0.95)))
        passages = tuple(common_passages(collection, settings, progress=wrap_progress(progress, 0.95, 1.0)))
        documents = tuple(collection.documents())
        rules = exclusion_rules(collection, settings)
    return Duplicates(pairs, clusters, documents, passages, rules)


def mark_passage(db_path: str, passage: CommonPassage, action: str, paths: Sequence[str], settings: Settings,
                 progress: ProgressFn) -> "Updated":
    """The examiner's one action on a common passage (``exclude``, ``count``, or ``undo`` its
    marks), stored in the index; then every result (and the shown checks of ``paths``) is
    derived again under it."""
    with Collection.open(db_path, create=False) as collection:
        if action == "undo":
            for mark_id in passage.mark_ids:
                collection.unmark(mark_id)
        else:
            collection.mark_keys(passage.keys, passage.text, action)
    return update_results(db_path, paths, settings, progress)


def mark_text(db_path: str, text: str, paths: Sequence[str], settings: Settings,
              progress: ProgressFn) -> "Updated | None":
    """Mark the sentences of a text the examiner selected as template (stored in the index),
    then derive every result again; None (nothing marked) when it holds no whole sentence."""
    with Collection.open(db_path, create=False) as collection:
        try:
            collection.mark_template(text, "exclude")
        except ValueError:
            return None
    return update_results(db_path, paths, settings, progress)


def check_files(db_path: str, paths: Sequence[str], settings: Settings, progress: ProgressFn) -> list[CheckResult]:
    with Collection.open(db_path, create=False) as collection:
        return collection.check(list(paths), settings, progress)


def add_files(db_path: str, folder: str, paths: Sequence[str], settings: Settings, progress: ProgressFn,
              keep: str = "external", on_clash: str = "rename") -> CollectionState:
    """Make checked submissions members of the collection (copied into its folder or kept as
    external members, see :meth:`Collection.add_files`)."""
    with Collection.open(db_path, create=False) as collection:
        added = collection.add_files(list(paths), settings, progress, keep=keep, on_clash=on_clash)
        documents = tuple(collection.documents())
    return CollectionState(folder, db_path, documents, added=tuple(added))


def update_results(db_path: str, paths: Sequence[str], settings: Settings, progress: ProgressFn) -> "Updated":
    """Results re-derived after a change of settings: pairs and clusters from the verified-pairs
    cache (re-verified only when the exclusions or template changed), and the shown checks."""
    with Collection.open(db_path, create=False) as collection:
        share = 0.7 if paths else 1.0
        pairs = tuple(collection.pairs(settings, wrap_progress(progress, 0.0, share * 0.9)))
        clusters = tuple(collection.clusters(settings, wrap_progress(progress, share * 0.9, share)))
        documents = tuple(collection.documents())
        passages = tuple(common_passages(collection, settings))  # (what is left out of the counts, and why)
        rules = exclusion_rules(collection, settings)
        checks = tuple(collection.check(list(paths), settings, wrap_progress(progress, share, 1.0))) if paths else ()
    return Updated(Duplicates(pairs, clusters, documents, passages, rules), checks, settings)


@dataclass(frozen=True)
class Updated:
    duplicates: Duplicates
    checks: tuple[CheckResult, ...]
    settings: Settings  # what they were derived under


def pair_diff(db_path: str, doc_a: int, doc_b: int, settings: Settings, progress: ProgressFn) -> DiffInput:
    """The side-by-side input of two documents of the collection."""
    progress(0.0, "")
    with Collection.open(db_path, create=False) as collection:
        comparison = collection.compare(doc_a, doc_b, settings)
        a, b = collection.document(doc_a), collection.document(doc_b)
        text_a, text_b = collection.document_text(doc_a), collection.document_text(doc_b)
    return DiffInput(text_a, text_b, comparison, a.rel or a.path, b.rel or b.path, a.path, b.path)


def source_diff(db_path: str, result: CheckResult, match: SourceMatch, progress: ProgressFn) -> DiffInput:
    """The side-by-side input of a checked submission (A) and one of its sources (B)."""
    progress(0.0, "")
    with Collection.open(db_path, create=False) as collection:
        collection.same_document(match.source)
        text_b = collection.document_text(match.source.doc_id)
    return DiffInput(
        result.text, text_b, match.comparison, os.path.basename(result.path),
        match.source.rel or match.source.path, result.path, match.source.path,
    )


def containment_pairs(db_path: str, settings: Settings, progress: ProgressFn) -> tuple[Pair, ...]:
    """The pairs ranked and cut by the larger containment (a copied part of a longer document):
    asked for when the examiner ranks the Duplicates list that way (the pass then also keeps pairs over the
    containment floor, so it is not paid for by default)."""
    with Collection.open(db_path, create=False) as collection:
        return tuple(collection.pairs(settings, progress, by="containment"))
