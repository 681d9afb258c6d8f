"""Reaching a Dask scheduler without exposing the documents: TLS, the address rule, quick failures.

The index build and the pass send every document's text to the cluster (docs/scale.md, "Security").
So a connection is made only where the texts are safe on their way:

- ``tls://`` (or ``wss://``): encrypted, both sides proving themselves with certificates signed by
  the cluster's own CA. The certificates are PEM files given by the examiner (``--dask-ca``,
  ``--dask-cert``, ``--dask-key``, or the window's Settings) or, for what is not given, dask's own
  configuration (``distributed.comm.tls.ca-file``, ``.client.cert``, ``.client.key``).
- A plain address (``tcp://``, or ``HOST:PORT``, which dask reads as tcp) only when it is on this
  machine (loopback, this machine's name or one of its addresses), decided from the address alone
  (no name is looked up), or when the examiner allowed it (``--dask-insecure``; the window asks).

What cannot work is said in one line before dask's Client is made: a missing or unreadable
certificate, a scheduler whose certificate our CA did not sign or which refuses ours, a scheduler
that does not speak TLS, nothing listening (the Client would try again for its whole 20 s time-out).
"""

from __future__ import annotations

import ipaddress
import logging
import socket
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from neardup_gui.core.settings import Settings

if TYPE_CHECKING:
    import ssl  # (imported where a cluster is used: 5 ms every command that only names ClusterUnavailable)

    from distributed import Client  # imported at run time only when a cluster is used

log = logging.getLogger(__name__)

__all__ = ["ClusterUnavailable", "DaskConnection", "connect", "insecure_refusal", "on_this_machine", "plain_remote"]

# Schemes whose connections are encrypted; "inproc" never leaves this process.
ENCRYPTED_SCHEMES = frozenset({"tls", "wss"})
LOCAL_SCHEMES = frozenset({"inproc"})
# How long the quick check waits for the scheduler to accept and to answer (it answers at once).
CHECK_S = 5.0
CLIENT_TIMEOUT_S = 20


class ClusterUnavailable(RuntimeError):
    """The cluster cannot be used: dask.distributed is missing, the scheduler cannot be reached,
    its address would expose the texts, or the certificates do not fit (a plain, one-line message)."""


@dataclass(frozen=True)
class DaskConnection:
    """A scheduler's address and how to reach it. The certificate files are PEM; "" leaves the
    value to dask's configuration. ``insecure``: the examiner allowed a plain address on another
    machine."""

    address: str
    ca_file: str = ""
    cert_file: str = ""
    key_file: str = ""
    insecure: bool = False

    @classmethod
    def of(cls, settings: Settings) -> "DaskConnection":
        return cls(settings.dask_address, settings.dask_ca, settings.dask_cert, settings.dask_key,
                   settings.dask_insecure)


def split_address(address: str) -> tuple[str, str | None, int | None]:
    """``(scheme, host, port)`` of a dask address; no scheme means tcp, as dask reads it."""
    from urllib.parse import urlsplit

    scheme, sep, rest = address.strip().partition("://")
    if not sep:
        scheme, rest = "tcp", address.strip()
    try:
        parts = urlsplit("//" + rest)
        return scheme.lower(), parts.hostname, parts.port
    except ValueError:  # (a port that is no number: the Client says what it makes of it)
        return scheme.lower(), None, None


def on_this_machine(host: str) -> bool:
    """True when ``host`` is this machine: "localhost", its own name, or an address it holds
    (loopback, or one it can bind). Decided without looking any name up: another name is taken for
    another machine."""
    name = host.strip().lower().rstrip(".")
    if name == "localhost" or name == socket.gethostname().lower():
        return True
    try:
        ip = ipaddress.ip_address(name.split("%", 1)[0])
    except ValueError:
        return False
    if ip.is_loopback or ip.is_unspecified:
        return True
    family = socket.AF_INET6 if ip.version == 6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.bind((name, 0))  # (only an address of one of this machine's interfaces binds)
    except OSError:
        return False
    return True


def plain_remote(address: str) -> bool:
    """True for an address whose connections are not encrypted and which is not on this machine:
    the texts would cross the network readable."""
    scheme, host, _ = split_address(address)
    if not address.strip() or scheme in ENCRYPTED_SCHEMES or scheme in LOCAL_SCHEMES or not host:
        return False
    return not on_this_machine(host)


def insecure_refusal(conn: DaskConnection) -> str | None:
    """Why ``conn`` is refused for exposing the texts, or None."""
    if conn.insecure or not plain_remote(conn.address):
        return None
    scheme, host, port = split_address(conn.address)
    return (f"Refusing to send the documents to {conn.address}: {scheme}:// is not encrypted and {host} is not "
            f"this machine, so anyone on the network between could read every text. Use a TLS scheduler "
            f"(tls://{host}:{port or 8786} with its certificates: --dask-ca, --dask-cert, --dask-key; see "
            "docs/scale.md), or allow this unencrypted address (--dask-insecure; in the window, Settings) "
            "if the network is trusted.")


def _security(conn: DaskConnection, scheme: str) -> tuple[Any, ssl.SSLContext | None]:
    """dask's Security for ``conn`` and the client's TLS context it makes (None for a plain
    address); ClusterUnavailable when the certificates are missing or cannot be used."""
    import ssl

    from distributed.security import Security

    given = {name: path for name, path in (("tls_ca_file", conn.ca_file), ("tls_client_cert", conn.cert_file),
                                           ("tls_client_key", conn.key_file)) if path}
    if scheme not in ENCRYPTED_SCHEMES:
        if given:
            raise ClusterUnavailable(f"Certificates were given for {conn.address}, whose connections are not "
                                     f"encrypted: give the scheduler's TLS address, tls://HOST:PORT.")
        return None, None
    security = Security(require_encryption=True, **given)
    for what, path in (("the CA certificate", security.tls_ca_file), ("this machine's certificate", security.tls_client_cert),
                       ("this machine's key", security.tls_client_key)):
        if path and "\n" not in path:  # (dask's configuration may hold a certificate itself)
            try:
                with open(path, "rb"):
                    pass
            except OSError as exc:
                raise ClusterUnavailable(f"Cannot read {what} {path}: {exc.strerror or exc}.") from None
    try:
        context = security.get_connection_args("client")["ssl_context"]
    except (ssl.SSLError, OSError, ValueError) as exc:
        raise ClusterUnavailable(f"The certificates for {conn.address} cannot be used: "
                                 f"{getattr(exc, 'reason', None) or exc}.") from None
    if context is None:
        raise ClusterUnavailable(
            f"{conn.address} needs certificates: the CA that signed the scheduler's (--dask-ca) and this machine's "
            "own with its key (--dask-cert, --dask-key), or dask's configuration (distributed.comm.tls.ca-file, "
            ".client.cert, .client.key); see docs/scale.md.")
    return security, context


def _check(conn: DaskConnection, context: ssl.SSLContext | None) -> str | None:
    """What stops a connection to ``conn``'s scheduler, found at once, or None (also when the
    check cannot tell: the Client then tries and says why it failed)."""
    import ssl

    scheme, host, port = split_address(conn.address)
    if scheme not in ("tcp", "tls") or not host or not port:
        return None
    try:
        sock = socket.create_connection((host, port), timeout=CHECK_S)
    except ConnectionRefusedError as exc:
        return f"Cannot reach the Dask scheduler at {conn.address}: {exc}"
    except OSError:
        return None  # (a time-out or an unknown host)
    with sock:
        if context is None:
            return None
        try:
            with context.wrap_socket(sock) as tls:
                tls.settimeout(CHECK_S)
                # The scheduler speaks first; a certificate it refuses comes back here, as an alert.
                tls.recv(1)
        except ssl.SSLCertVerificationError as exc:
            return (f"Cannot trust the Dask scheduler at {conn.address}: its certificate is not signed by the CA "
                    f"given ({exc.verify_message}).")
        except ssl.SSLError as exc:
            reason = exc.reason or str(exc)
            if "ALERT" in reason.upper():
                return (f"The Dask scheduler at {conn.address} refused this machine's certificate ({reason}): it "
                        "must be signed by the CA the scheduler trusts.")
            return (f"The Dask scheduler at {conn.address} does not answer in TLS ({reason}): is it started with "
                    "--protocol tls?")
        except OSError:
            return None
    return None


def connect(conn: DaskConnection) -> Client:
    """A dask Client connected to ``conn``'s scheduler; ClusterUnavailable, in one line, when that
    cannot be done safely (see the module's docstring)."""
    try:
        from distributed import Client
    except ImportError as exc:
        raise ClusterUnavailable(
            "Running on a Dask cluster needs dask.distributed: pip install 'neardup[cluster]'.") from exc
    refusal = insecure_refusal(conn)
    if refusal is not None:
        raise ClusterUnavailable(refusal)
    scheme, _, _ = split_address(conn.address)
    security, context = _security(conn, scheme)
    problem = _check(conn, context)
    if problem is not None:
        raise ClusterUnavailable(problem)
    try:
        return Client(conn.address, timeout=CLIENT_TIMEOUT_S, set_as_default=False, security=security)
    except (OSError, TimeoutError) as exc:
        raise ClusterUnavailable(f"Cannot reach the Dask scheduler at {conn.address}: {exc}") from exc
