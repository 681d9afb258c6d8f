"""``--dask ADDRESS``: index and pairs on a real Dask cluster, over TLS, give exactly the local
answers and leave nothing on the workers; what cannot be used safely (a plain address on another
machine, a wrong or missing certificate, nothing listening) is said in one line, at once.

One TLS cluster serves the module: a scheduler and two worker processes on loopback, with
certificates made here (tests/certificates.py).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys

import pytest

from neardup_gui.core.dask_connection import ClusterUnavailable, DaskConnection, connect, insecure_refusal, plain_remote
from benchmarks.copyheavy import build
from tests.certificates import make_certificates

distributed = pytest.importorskip("distributed", reason="the cluster extra (dask.distributed) is not installed")
from distributed.security import Security  # noqa: E402

SETTINGS_ARGS = ["--threshold", "0.8"]
ELSEWHERE = "tcp://192.0.2.1:8786"  # (TEST-NET-1: an address no machine here holds; never contacted)


def neardup(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "neardup_gui.cli", *args], capture_output=True, text=True, timeout=600,
                          env=env)


@pytest.fixture(scope="module")
def certs(tmp_path_factory):
    return make_certificates(tmp_path_factory.mktemp("certificates"))


def examiner_security(certs) -> Security:  # noqa: ANN001
    return Security(tls_ca_file=str(certs.ca), tls_client_cert=str(certs.examiner[0]),
                    tls_client_key=str(certs.examiner[1]), require_encryption=True)


@pytest.fixture(scope="module")
def cluster(certs):
    """A TLS scheduler and two worker processes on loopback (a real cluster, not an in-process one)."""
    import dask

    node_cert, node_key = map(str, certs.node)
    security = Security(tls_ca_file=str(certs.ca), tls_scheduler_cert=node_cert, tls_scheduler_key=node_key,
                        tls_worker_cert=node_cert, tls_worker_key=node_key, tls_client_cert=str(certs.examiner[0]),
                        tls_client_key=str(certs.examiner[1]), require_encryption=True)
    # extraction keeps its killable child processes only in workers that may have children
    with dask.config.set({"distributed.worker.daemon": False}):
        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                      protocol="tls://", security=security,
                                      dashboard_address="127.0.0.1:0") as lc:  # (a free port: 8787 may be taken)
            assert lc.scheduler_address.startswith("tls://127.0.0.1:")
            yield lc.scheduler_address


def tls_options(certs) -> list[str]:  # noqa: ANN001
    return ["--dask-ca", str(certs.ca), "--dask-cert", str(certs.examiner[0]), "--dask-key", str(certs.examiner[1])]


@pytest.fixture(scope="module")
def folder(tmp_path_factory, corpus_dir):
    root = tmp_path_factory.mktemp("dask")
    build(root / "docs", 200, seed=11, families=50)
    return root / "docs"


def pairs_by_path(db, *extra: str, env: dict | None = None) -> list[dict]:
    done = neardup("pairs", "--db", str(db), "--json", "-q", *SETTINGS_ARGS, *extra, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = []
    for r in json.loads(done.stdout):  # A is the lower id: oriented by path here instead
        if r["b"] < r["a"]:
            r = {**r, "a": r["b"], "b": r["a"], "containment_a": r["containment_b"], "containment_b": r["containment_a"]}
        rows.append(r)
    return sorted(rows, key=lambda r: (r["a"], r["b"]))


def test_index_and_pairs_on_a_tls_cluster_equal_the_local_run_and_leave_nothing_on_the_workers(
        cluster, certs, folder, tmp_path) -> None:
    local_db, dask_db = tmp_path / "local.db", tmp_path / "dask.db"
    done = neardup("index", str(folder), "--db", str(local_db), "-q")
    assert done.returncode == 0, done.stderr[-2000:]
    done = neardup("index", str(folder), "--db", str(dask_db), "-q", "--dask", cluster, *tls_options(certs))
    assert done.returncode == 0, done.stderr[-2000:]

    local = pairs_by_path(local_db)
    on_cluster = pairs_by_path(dask_db, "--dask", cluster, *tls_options(certs))
    assert len(local) > 20
    # same pairs (by path: the two indexes numbered the documents in a different order), same
    # similarities and containments, bit for bit
    assert [(r["a"], r["b"]) for r in on_cluster] == [(r["a"], r["b"]) for r in local]
    assert on_cluster == local

    # and the cluster's pass over the locally built index, the certificates from dask's configuration
    fresh = tmp_path / "again.db"
    done = neardup("index", str(folder), "--db", str(fresh), "-q")
    assert done.returncode == 0
    env = {**os.environ, "DASK_DISTRIBUTED__COMM__TLS__CA_FILE": str(certs.ca),
           "DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT": str(certs.examiner[0]),
           "DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY": str(certs.examiner[1])}
    assert pairs_by_path(fresh, "--dask", cluster, env=env) == local

    # The workers keep nothing of the run: no task result in their memory, and no file in their
    # local folders (spilled results, anything written) holds a document's text.
    def held(dask_worker) -> tuple[int, dict[str, bytes]]:  # noqa: ANN001 - a distributed.Worker
        files = {}
        for root, _, names in os.walk(dask_worker.local_directory):
            for name in names:
                try:
                    with open(os.path.join(root, name), "rb") as f:
                        files[os.path.join(root, name)] = f.read()
                except OSError:
                    continue
        return len(dask_worker.data), files

    with distributed.Client(cluster, security=examiner_security(certs), set_as_default=False) as client:
        workers = client.run(held)
    assert len(workers) == 2
    texts = [p.read_text(encoding="utf-8") for p in sorted(folder.rglob("*.txt"))]
    pieces = [t[len(t) // 2:len(t) // 2 + 40].encode("utf-8") for t in texts if len(t) > 200]
    assert len(pieces) > 100
    for worker, (results, files) in workers.items():
        assert results == 0, f"{worker} still holds {results} results"
        for path, data in files.items():
            assert not any(piece in data for piece in pieces), f"{worker}: {path} holds a document's text"


@pytest.fixture
def no_client(monkeypatch):
    """dask's Client may not be made: what fails must be said before (it would try for 20 s)."""
    def refuse(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        raise AssertionError("the Client was asked to connect")

    monkeypatch.setattr(distributed, "Client", refuse)


@pytest.mark.parametrize("case, said", [
    ("a certificate the scheduler's CA did not sign", "refused this machine's certificate"),
    ("a CA that did not sign the scheduler's", "its certificate is not signed by the CA given"),
    ("a certificate file missing", "Cannot read this machine's certificate"),
    ("a key that is not the certificate's", "cannot be used: KEY_VALUES_MISMATCH"),
    ("no certificate at all", "needs certificates"),
    ("certificates for a plain address", "Certificates were given"),
])
def test_what_cannot_be_used_is_said_at_once_without_the_client(cluster, certs, tmp_path, no_client, case, said) -> None:
    import dask

    conn = {
        "a certificate the scheduler's CA did not sign": DaskConnection(cluster, str(certs.ca), *map(str, certs.stranger)),
        "a CA that did not sign the scheduler's": DaskConnection(cluster, str(certs.stranger_ca), *map(str, certs.examiner)),
        "a certificate file missing": DaskConnection(cluster, str(certs.ca), str(tmp_path / "none.pem"), str(certs.examiner[1])),
        "a key that is not the certificate's": DaskConnection(cluster, str(certs.ca), str(certs.examiner[0]), str(certs.stranger[1])),
        "no certificate at all": DaskConnection(cluster),
        "certificates for a plain address": DaskConnection(cluster.replace("tls://", "tcp://"), *map(str, (certs.ca, *certs.examiner))),
    }[case]
    tls_unset = {"distributed.comm.tls.ca-file": None, "distributed.comm.tls.client.cert": None,
                 "distributed.comm.tls.client.key": None}
    with dask.config.set(tls_unset), pytest.raises(ClusterUnavailable, match=said) as caught:
        connect(conn)
    assert "\n" not in str(caught.value)


def test_a_wrong_certificate_is_one_line_on_the_command_line(cluster, certs, folder, tmp_path) -> None:
    done = neardup("index", str(folder), "--db", str(tmp_path / "x.db"), "-q", "--dask", cluster, "--dask-ca",
                   str(certs.ca), "--dask-cert", str(certs.stranger[0]), "--dask-key", str(certs.stranger[1]))
    assert done.returncode == 2
    assert done.stderr.startswith(f"neardup: The Dask scheduler at {cluster} refused this machine's certificate")
    assert done.stderr.count("\n") == 1  # (one line: no traceback, no log)


def test_a_refused_connection_is_said_without_waiting_for_the_client(no_client) -> None:
    """Nothing listens at the address: said at once, without dask's Client, which tries again
    for its whole time-out even when the connection is refused (20 s for a mistyped port)."""
    with pytest.raises(ClusterUnavailable, match="Cannot reach the Dask scheduler at tcp://127.0.0.1:9: "):
        connect(DaskConnection("tcp://127.0.0.1:9"))


def test_unreachable_scheduler_is_a_plain_message(tmp_path, folder) -> None:
    done = neardup("index", str(folder), "--db", str(tmp_path / "x.db"), "-q", "--dask", "tcp://127.0.0.1:9")
    assert done.returncode == 2
    assert "Cannot reach the Dask scheduler at tcp://127.0.0.1:9" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("address, exposed", [
    ("tcp://127.0.0.1:8786", False), ("127.0.0.5:8786", False), ("tcp://localhost:8786", False),
    ("tcp://[::1]:8786", False), (f"tcp://{socket.gethostname()}:8786", False), ("tcp://0.0.0.0:8786", False),
    (ELSEWHERE, True), ("192.0.2.1:8786", True), ("tcp://scheduler.example.org:8786", True), ("ws://192.0.2.1:80", True),
    ("tls://192.0.2.1:8786", False), ("tls://scheduler.example.org:8786", False), ("inproc://192.0.2.1/1/2", False),
    ("", False),
])
def test_a_plain_address_is_exposed_unless_on_this_machine(address, exposed) -> None:
    """Decided from the address alone: no name is looked up, no connection made."""
    assert plain_remote(address) == exposed


def test_a_plain_address_on_another_machine_is_refused_without_connecting(monkeypatch, no_client) -> None:
    def no_connection(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        raise AssertionError("a connection was attempted")

    monkeypatch.setattr(socket, "create_connection", no_connection)
    with pytest.raises(ClusterUnavailable) as caught:
        connect(DaskConnection(ELSEWHERE))
    said = str(caught.value)
    assert said.startswith(f"Refusing to send the documents to {ELSEWHERE}: tcp:// is not encrypted and 192.0.2.1 "
                           "is not this machine")
    assert "tls://192.0.2.1:8786" in said and "--dask-insecure" in said and "docs/scale.md" in said
    assert insecure_refusal(DaskConnection(ELSEWHERE, insecure=True)) is None  # (the examiner allowed it)


def test_the_command_line_refuses_a_plain_address_on_another_machine(tmp_path, folder) -> None:
    done = neardup("index", str(folder), "--db", str(tmp_path / "x.db"), "-q", "--dask", ELSEWHERE)
    assert done.returncode == 2
    assert done.stderr.startswith(f"neardup: Refusing to send the documents to {ELSEWHERE}")
    assert done.stderr.count("\n") == 1
