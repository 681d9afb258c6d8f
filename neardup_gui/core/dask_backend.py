"""Running the index build and the collection-wide pass on a Dask cluster (``--dask ADDRESS``).

Optional: needs the ``cluster`` extra (``pip install neardup[cluster]``, i.e. dask.distributed).
The tasks are the same functions the local worker processes run — extraction + fingerprints of a
partition of files (:func:`extract_partition`), candidates + exact verification of a partition
of documents (:func:`neardup_gui.core.pairpass.run_partition`) — so the answers are identical to
a local run. Only the examiner's process writes the index: the tasks send their results back.

What the workers must see: the collection's files (for the index build) and the index file (for
the pass, opened read-only) at the same paths as the examiner's machine — a shared folder.
docs/scale.md says how to start a cluster, over TLS, and what crosses the network; how the
connection is made, and refused, is :mod:`neardup_gui.core.dask_connection`'s.
"""

from __future__ import annotations

import logging
import os
import time
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

from neardup_gui.core.dask_connection import ClusterUnavailable, DaskConnection, connect
from neardup_gui.core.pairpass import DocumentPairs, Executor, PassSpec, run_partition
from neardup_gui.core.progress import ProgressFn, no_progress
from neardup_gui.core.settings import ExtractLimits

if TYPE_CHECKING:
    from distributed import Client

log = logging.getLogger(__name__)

__all__ = ["ClusterUnavailable", "DaskConnection", "dask_extraction", "dask_pass", "extract_partition"]

# How often the caller wakes while tasks run (lets ``progress`` cancel).
_TICK_S = 0.2
# Partitions per worker thread: enough for load balance, few enough that a task's start-up
# (opening the index, loading the search tables) is paid rarely.
PARTITIONS_PER_THREAD = 4
# Files per extraction task: each task starts one killable extraction process (about a second of
# start-up), so a few large tasks per worker thread, within these bounds.
TASKS_PER_THREAD = 2
FILES_PER_TASK = (16, 1000)


def _threads(client: Client) -> int:
    return max(1, sum(client.nthreads().values()))


def _as_completed(client: Client, futures: list, tick: ProgressFn) -> Iterator[Any]:
    """Results of ``futures`` as they finish; ``tick`` called while waiting (it may cancel)."""
    pending = list(futures)
    try:
        while pending:
            done = [f for f in pending if f.done()]
            if not done:
                tick(0.0, "")
                time.sleep(_TICK_S)
                continue
            for f in done:
                pending.remove(f)
                yield f.result()  # raises the task's error here, in the examiner's process
    finally:
        if pending:
            client.cancel(pending)


# --- the collection-wide pass ----------------------------------------------------------------


def _pass_partition(spec: PassSpec, doc_ids: list[int]) -> tuple[int, list[DocumentPairs]]:
    return len(doc_ids), run_partition(spec, doc_ids)


def dask_pass(conn: DaskConnection) -> Executor:
    """An executor for :func:`pairpass.run_pass` that runs the partitions on a Dask cluster.

    The partitions given are regrouped into a few per worker thread."""

    def run(spec: PassSpec, parts: list[list[int]], tick: ProgressFn) -> Iterator[tuple[int, list[DocumentPairs]]]:
        with connect(conn) as dask:
            docs = [d for part in parts for d in part]
            count = max(1, min(len(docs), _threads(dask) * PARTITIONS_PER_THREAD))
            size = -(-len(docs) // count)
            groups = [docs[i:i + size] for i in range(0, len(docs), size)]
            [spec_f] = dask.scatter([spec], broadcast=True)
            futures = [dask.submit(_pass_partition, spec_f, g, pure=False) for g in groups]
            yield from _as_completed(dask, futures, tick)

    return run


# --- the index build ---------------------------------------------------------------------------


def extract_partition(paths: Sequence[str], limits: ExtractLimits, prepare: Any) -> list[tuple[str, Any, Any]]:
    """Extract and prepare files on a cluster worker: ``[(path, Document | Skipped, prepared)]``.

    In a killable child process, as locally (time and memory limits hold), when the worker may
    start one; a Dask worker started as a daemon may not, and then extracts in its own process."""
    from neardup_gui.core.workers import extract_and_prepare, process_many, resolve_prepare

    try:
        return list(process_many(list(paths), limits, 1, prepare=prepare))
    except AssertionError as exc:  # "daemonic processes are not allowed to have children"
        log.warning("extracting in the Dask worker itself (no time or memory limit): %s", exc)
    prepare = resolve_prepare(prepare)
    return [(path, *extract_and_prepare(path, limits, prepare)) for path in paths]


def dask_extraction(conn: DaskConnection) -> Callable[..., Iterator[tuple[str, Any, Any]]]:
    """A drop-in for :func:`workers.process_many` that extracts on a Dask cluster."""

    def process(paths: Sequence[str], limits: ExtractLimits = ExtractLimits(), workers: int = 0,
                progress: ProgressFn = no_progress, prepare: Any = None) -> Iterator[tuple[str, Any, Any]]:
        paths = [os.path.abspath(p) for p in paths]
        with connect(conn) as dask:
            low, high = FILES_PER_TASK
            size = min(high, max(low, -(-len(paths) // (_threads(dask) * TASKS_PER_THREAD))))
            futures = [dask.submit(extract_partition, paths[i:i + size], limits, prepare, pure=False)
                       for i in range(0, len(paths), size)]
            done = 0
            for batch in _as_completed(dask, futures, lambda f, m: progress(done / max(len(paths), 1), "")):
                for item in batch:
                    done += 1
                    progress(done / len(paths), os.path.basename(item[0]))
                    yield item

    return process
