"""Brute-force Hamming search: numpy ``bitwise_count`` over the whole matrix; the reference."""

from __future__ import annotations

import logging
from typing import ClassVar

from neardup_gui.core.search.base import HammingBase

log = logging.getLogger(__name__)


class BruteSearch(HammingBase):
    """Compares the query with every stored fingerprint: O(n·words) per query, any radius.

    Every other strategy is tested against this one; it is also the fastest choice for small
    collections, where building tables does not pay off.
    """

    name: ClassVar[str] = "brute"
