"""The settings that shape indexing, search and verification, passed in (never a singleton)."""

from __future__ import annotations

import logging
import os
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Callable, Mapping

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ExtractLimits:
    """Per-file limits of the extraction workers."""

    time_limit_s: float = 60.0
    memory_limit_mb: int = 1024
    size_limit_mb: int = 200
    # docx/odt: refuse archives whose uncompressed size or ratio says "zip bomb"
    max_unzipped_mb: int = 500
    max_zip_ratio: float = 200.0
    # read an intact PDF with PDFium (extract/pdf/fium.py); False: every PDF with pdfminer.six,
    # the salvage reader (the two readers' answers compared: tests, benchmarks)
    pdf_fast: bool = True


@dataclass(frozen=True)
class FingerprintParams:
    """Everything that shapes the stored fingerprints; stored in the index file.

    A change to any of these re-fingerprints every document from its stored text.
    """

    minhash_bits: int = 256  # k of the 1-bit minwise fingerprint (Yuan et al.), 64..1024
    shingle_units: int = 4  # units per shingle for minhash and LSH (MinHash banding)
    lsh_threshold: float = 0.5  # Jaccard threshold the LSH bands are derived from
    lsh_perms: int = 128  # MinHash permutations behind the LSH band keys
    simhash_lambda: float = 0.5  # λ of Score = tf + λ(Len + Pos) (Yu, Hu and Zhang)
    sentence_buckets: int = 7  # m of Huang, Wang and Li's sentence fingerprints
    sentence_smallest: int = 3  # n of Huang, Wang and Li's sentence fingerprints
    seed: int = 1  # seed of every hash family
    # winnowing anchors for partial copies (our addition to Huang, Wang and Li): k-grams of this many
    # units, one anchor per window of this many k-grams; any common run of at least
    # anchor_window + anchor_kgram - 1 units shares an anchor. 8, not 12: an edited copy keeps a
    # k-gram whole with probability (1 - edit rate)^k, 0.17 against 0.07 at 20 % (English
    # sections edited at 20 / 30 %, source proposed by check: 19 / 13 of 24 against 10 / 8),
    # while unrelated documents share hardly more 8-grams than 12-grams (docs/fingerprints.md)
    anchor_kgram: int = 8
    anchor_window: int = 48
    # the check's dense tier ("grams", core/fingerprints.py): winnowed k-grams of this many units,
    # one per window of this many; any common run of gram_window + gram_kgram - 1 = 8 units (the
    # default minimum run of a comparison) shares one, so the check proposes every document the
    # comparison can find a passage in, whatever the two documents' lengths
    gram_kgram: int = 4
    gram_window: int = 5

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "FingerprintParams":
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


@dataclass(frozen=True)
class Settings:
    """What the examiner can set; the GUI persists these, the CLI takes them as options."""

    threshold: float = 0.7  # similarity at or above which a pair is reported
    min_run: int = 8  # minimum units in an aligned run for it to count as a match span
    strategy: str = "auto"  # brute | permuted | grouped | lsh | auto
    # Automatic template text: a sentence in at least ``template_min_docs`` documents AND in at
    # least ``template_min_share`` of the collection. Frequency alone never decides: the more
    # widely a passage was copied, the more it matters, so only a sentence in at least half the
    # collection (a call's form, kept by nearly every applicant) is taken out without being
    # asked. A ring of 7 in 525 documents (1.3 %) or a passage copied into 1-2 % of the
    # documents always counts; several forms in one folder are each one click in the
    # common-passages list (docs/quality.md, "What counts as template").
    template_min_docs: int = 5
    template_min_share: float = 0.5
    auto_template: bool = True  # False: only the examiner's template files and marks are template
    template_files: tuple[str, ...] = ()
    exclude_quotes: bool = False
    exclude_bibliography: bool = False
    workers: int = field(default_factory=lambda: os.cpu_count() or 1)
    # a Dask scheduler ("tls://host:8786") to run the index build and the pairs pass on; "" = here
    dask_address: str = ""
    # its TLS certificates, PEM files: the CA that signed the scheduler's, and this machine's own
    # with its key ("" = dask's configuration, distributed.comm.tls.*; core/dask_connection.py)
    dask_ca: str = ""
    dask_cert: str = ""
    dask_key: str = ""
    # the examiner allowed a plain (unencrypted) dask_address on another machine
    dask_insecure: bool = False
    limits: ExtractLimits = field(default_factory=ExtractLimits)
    fingerprints: FingerprintParams = field(default_factory=FingerprintParams)

    def with_(self, **changes: Any) -> "Settings":
        return replace(self, **changes)


# What an examiner sets for one collection (stored in its index): the figures of a call depend
# on them. The rest (fingerprint size, search strategy, workers) belongs to the machine.
COLLECTION_FIELDS = (
    "threshold", "min_run", "template_min_docs", "template_min_share", "template_files",
    "exclude_quotes", "exclude_bibliography", "auto_template",
)


def _fraction(raw: Any) -> float:
    value = float(raw)
    if not 0.0 <= value <= 1.0:  # (also refuses NaN)
        raise ValueError(f"{value} is not between 0 and 1")
    return value


def _whole(low: int, high: int) -> Callable[[Any], int]:
    def check(raw: Any) -> int:
        if isinstance(raw, str):
            value = int(raw.strip())
        elif isinstance(raw, int) and not isinstance(raw, bool):
            value = raw
        elif isinstance(raw, float) and raw.is_integer():
            value = int(raw)
        else:
            raise ValueError(f"{raw!r} is not a whole number")
        if not low <= value <= high:
            raise ValueError(f"{value} is not between {low} and {high}")
        return value
    return check


def _yes_no(raw: Any) -> bool:
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, int) and raw in (0, 1):
        return bool(raw)
    if isinstance(raw, str) and raw.strip().lower() in ("true", "1", "yes", "false", "0", "no"):
        return raw.strip().lower() in ("true", "1", "yes")
    raise ValueError(f"{raw!r} is not yes or no")


def _paths(raw: Any) -> tuple[str, ...]:
    # An empty list comes back from some stores as nothing at all (QSettings: ``@Invalid()``),
    # a one-element list as a bare string.
    if raw is None:
        return ()
    if isinstance(raw, str):
        return (raw,) if raw else ()
    if isinstance(raw, (list, tuple)) and all(isinstance(p, str) for p in raw):
        return tuple(p for p in raw if p)
    raise ValueError(f"{raw!r} is not a list of file names")


def _dask_address(raw: Any) -> str:
    if raw is None:
        return ""
    if isinstance(raw, str) and (raw.strip() == "" or "://" in raw.strip() or ":" in raw.strip()):
        return raw.strip()
    raise ValueError(f"{raw!r} is not a scheduler address such as tls://host:8786")


def _file_name(raw: Any) -> str:
    if raw is None:
        return ""
    if isinstance(raw, str):
        return raw.strip()
    raise ValueError(f"{raw!r} is not a file name")


def _strategy(raw: Any) -> str:
    if raw in ("auto", "brute", "permuted", "grouped", "lsh"):
        return str(raw)
    raise ValueError(f"{raw!r} is not a search strategy")


# How each stored value is read back; a checker raises ValueError or TypeError for a value
# that cannot be used.
CHECKERS: dict[str, Any] = {
    "threshold": _fraction,
    "min_run": _whole(1, 100_000),
    "template_min_docs": _whole(2, 100_000_000),
    "template_min_share": _fraction,
    "auto_template": _yes_no,
    "template_files": _paths,
    "exclude_quotes": _yes_no,
    "exclude_bibliography": _yes_no,
    "strategy": _strategy,
    "workers": _whole(1, 1024),
    "dask_address": _dask_address,
    "dask_ca": _file_name,
    "dask_cert": _file_name,
    "dask_key": _file_name,
    "dask_insecure": _yes_no,
    "minhash_bits": _whole(64, 4096),
}


def read_setting(name: str, raw: Any) -> Any:
    """``raw`` as the value of setting ``name``; ValueError (or TypeError) when it is unusable."""
    return CHECKERS[name](raw)


def collection_values(settings: Settings) -> dict[str, Any]:
    """The per-collection part of ``settings``, as plain JSON-able values."""
    values = {name: getattr(settings, name) for name in COLLECTION_FIELDS}
    values["template_files"] = list(settings.template_files)
    return values


def with_values(base: Settings, values: Mapping[str, Any], where: str = "") -> Settings:
    """``base`` with every usable value of ``values`` (unknown names are ignored); an unusable
    one keeps ``base``'s value and is logged as a warning, never raised."""
    changes: dict[str, Any] = {}
    for name, raw in values.items():
        if name not in CHECKERS:
            continue
        try:
            changes[name] = read_setting(name, raw)
        except (TypeError, ValueError, OverflowError) as exc:
            log.warning("setting %s%s: %r cannot be used (%s); keeping %r", name,
                        f" in {where}" if where else "", raw, exc, _current(base, name))
    bits = changes.pop("minhash_bits", None)
    if bits is not None:
        changes["fingerprints"] = replace(base.fingerprints, minhash_bits=bits)
    return replace(base, **changes)


def _current(settings: Settings, name: str) -> Any:
    return settings.fingerprints.minhash_bits if name == "minhash_bits" else getattr(settings, name)
