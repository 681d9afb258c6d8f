"""The settings that shape indexing, search and verification, passed in (never a singleton)."""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any


@dataclass(frozen=True)
class ExtractLimits:
    """Per-file limits of the extraction workers."""

    time_limit_s: float = 60.0
    memory_limit_mb: int = 1024
    size_limit_mb: int = 200
    # docx/odt: refuse archives whose uncompressed size or ratio says "zip bomb"
    max_unzipped_mb: int = 500
    max_zip_ratio: float = 200.0


@dataclass(frozen=True)
class FingerprintParams:
    """Everything that shapes the stored fingerprints; stored in the index file.

    A change to any of these re-fingerprints every document from its stored text.
    """

    minhash_bits: int = 256  # k of the 1-bit minwise fingerprint (seed 000), 64..1024
    shingle_units: int = 4  # units per shingle for minhash and LSH (seed 001)
    lsh_threshold: float = 0.5  # Jaccard threshold the LSH bands are derived from
    lsh_perms: int = 128  # MinHash permutations behind the LSH band keys
    simhash_lambda: float = 0.5  # λ of Score = tf + λ(Len + Pos) (seed 002)
    sentence_buckets: int = 7  # m of seed 004's sentence fingerprints
    sentence_smallest: int = 3  # n of seed 004's sentence fingerprints
    seed: int = 1  # seed of every hash family
    # winnowing anchors for partial copies (our addition to seed 004): k-grams of this many
    # units, one anchor per window of this many k-grams; any common run of at least
    # anchor_window + anchor_kgram - 1 units shares an anchor
    anchor_kgram: int = 12
    anchor_window: int = 48

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
    limits: ExtractLimits = field(default_factory=ExtractLimits)
    fingerprints: FingerprintParams = field(default_factory=FingerprintParams)

    def with_(self, **changes: Any) -> "Settings":
        return replace(self, **changes)
