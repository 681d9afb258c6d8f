"""``--dask ADDRESS``: index and pairs on a real Dask cluster give exactly the local answers."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.benchmarks.copyheavy import build

distributed = pytest.importorskip("distributed", reason="the cluster extra (dask.distributed) is not installed")

SETTINGS_ARGS = ["--threshold", "0.8"]


def neardup(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "neardup_gui.cli", *args], capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def cluster():
    """A scheduler and two worker processes on loopback (a real cluster, not an in-process one)."""
    import dask

    # extraction keeps its killable child processes only in workers that may have children
    with dask.config.set({"distributed.worker.daemon": False}):
        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                      dashboard_address=None) as lc:
            yield lc.scheduler_address


@pytest.fixture(scope="module")
def folder(tmp_path_factory, corpus_dir):
    root = tmp_path_factory.mktemp("dask")
    build(root / "docs", 200, seed=11, families=50)
    return root / "docs"


def pairs_by_path(db, *extra: str) -> list[dict]:
    done = neardup("pairs", "--db", str(db), "--json", "-q", *SETTINGS_ARGS, *extra)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = []
    for r in json.loads(done.stdout):  # A is the lower id: oriented by path here instead
        if r["b"] < r["a"]:
            r = {**r, "a": r["b"], "b": r["a"], "containment_a": r["containment_b"], "containment_b": r["containment_a"]}
        rows.append(r)
    return sorted(rows, key=lambda r: (r["a"], r["b"]))


def test_index_and_pairs_on_a_dask_cluster_equal_the_local_run(cluster, folder, tmp_path) -> None:
    local_db, dask_db = tmp_path / "local.db", tmp_path / "dask.db"
    done = neardup("index", str(folder), "--db", str(local_db), "-q")
    assert done.returncode == 0, done.stderr[-2000:]
    done = neardup("index", str(folder), "--db", str(dask_db), "-q", "--dask", cluster)
    assert done.returncode == 0, done.stderr[-2000:]

    local = pairs_by_path(local_db)
    on_cluster = pairs_by_path(dask_db, "--dask", cluster)
    assert len(local) > 20
    # same pairs (by path: the two indexes numbered the documents in a different order), same
    # similarities and containments, bit for bit
    assert [(r["a"], r["b"]) for r in on_cluster] == [(r["a"], r["b"]) for r in local]
    assert on_cluster == local

    # and the cluster's pass over the locally built index, too
    fresh = tmp_path / "again.db"
    done = neardup("index", str(folder), "--db", str(fresh), "-q")
    assert done.returncode == 0
    assert pairs_by_path(fresh, "--dask", cluster) == local


def test_a_refused_connection_is_said_without_waiting_for_the_client(monkeypatch) -> None:
    """Nothing listens at the address: said at once, without dask's Client, which tries again
    for its whole time-out even when the connection is refused (20 s for a mistyped port)."""
    import distributed

    from neardup_gui.core import dask_backend

    def no_client(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        raise AssertionError("the Client was asked to connect")

    monkeypatch.setattr(distributed, "Client", no_client)
    with pytest.raises(dask_backend.ClusterUnavailable, match="Cannot reach the Dask scheduler at tcp://127.0.0.1:9: "):
        dask_backend._client("tcp://127.0.0.1:9")


def test_unreachable_scheduler_is_a_plain_message(tmp_path, folder) -> None:
    done = neardup("index", str(folder), "--db", str(tmp_path / "x.db"), "-q", "--dask", "tcp://127.0.0.1:9")
    assert done.returncode == 2
    assert "Cannot reach the Dask scheduler at tcp://127.0.0.1:9" in done.stderr
    assert "Traceback" not in done.stderr
