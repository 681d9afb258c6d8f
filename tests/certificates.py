"""TLS certificates made for a test: a cluster's own CA, a certificate for its scheduler and workers,
one for the examiner's machine, and a stranger (another CA and a certificate it signed), with the
``cryptography`` package (which dask.distributed depends on). Loopback only: 127.0.0.1, localhost."""

from __future__ import annotations

import datetime
import ipaddress
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID


@dataclass(frozen=True)
class Certificates:
    ca: Path  # the cluster's CA certificate
    node: tuple[Path, Path]  # (certificate, key) of the scheduler and the workers
    examiner: tuple[Path, Path]  # (certificate, key) of the examiner's machine, signed by the CA
    stranger_ca: Path  # another CA
    stranger: tuple[Path, Path]  # (certificate, key) signed by the other CA


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def _write(folder: Path, stem: str, cert: x509.Certificate, key: ec.EllipticCurvePrivateKey | None) -> tuple[Path, Path]:
    cert_path, key_path = folder / f"{stem}.pem", folder / f"{stem}.key"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    if key is not None:
        key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                               serialization.NoEncryption()))
    return cert_path, key_path


def _signed(common: str, issuer: x509.Name, issuer_key, public_key, *, ca: bool) -> x509.Certificate:  # noqa: ANN001
    now = datetime.datetime.now(datetime.timezone.utc)
    builder = (x509.CertificateBuilder().subject_name(_name(common)).issuer_name(issuer).public_key(public_key)
               .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
               .not_valid_after(now + datetime.timedelta(days=30))
               .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
    if not ca:
        builder = (builder.add_extension(x509.SubjectAlternativeName(
            [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH]),
                           critical=False))
    return builder.sign(issuer_key, hashes.SHA256())


def make_certificates(folder: Path) -> Certificates:
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for prefix in ("", "stranger-"):
        ca_key = ec.generate_private_key(ec.SECP256R1())
        ca_name = _name(f"{prefix}test cluster CA")
        ca_cert = _signed(f"{prefix}test cluster CA", ca_name, ca_key, ca_key.public_key(), ca=True)
        paths[f"{prefix}ca"] = _write(folder, f"{prefix}ca", ca_cert, None)[0]
        for stem in (("node", "examiner") if not prefix else ("stranger",)):
            key = ec.generate_private_key(ec.SECP256R1())
            paths[stem] = _write(folder, stem, _signed(stem, ca_name, ca_key, key.public_key(), ca=False), key)
    return Certificates(paths["ca"], paths["node"], paths["examiner"], paths["stranger-ca"], paths["stranger"])
