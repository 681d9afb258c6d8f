"""Fingerprint search: interchangeable strategies behind one interface, and their bytes.

Hamming strategies (exact for the radius they promise; tests prove each equals brute force):
``brute`` (the reference), ``permuted`` (Manku's tables, alg.G), ``grouped`` (alg.H, the group
merging of Yuan, Long, Zhang and Gui). ``lsh`` (band-key buckets) is probabilistic. :class:`AnchorIndex` and
:class:`SentenceIndex` are the hash → documents lookups for partial copies and the
perhaps-similar sets of Huang, Wang and Li.
"""

from __future__ import annotations

from typing import Any

from neardup_gui.core.search.base import HammingSearch, pack_state, unpack_state
from neardup_gui.core.search.brute import BruteSearch
from neardup_gui.core.search.grouped import GroupedSearch, group_layout
from neardup_gui.core.search.lsh import LshSearch
from neardup_gui.core.search.permuted import PermutedLayout, PermutedSearch, permuted_layout
from neardup_gui.core.search.postings import AnchorIndex, PostingIndex, SentenceIndex

__all__ = [
    "AnchorIndex",
    "BruteSearch",
    "GroupedSearch",
    "HammingSearch",
    "LshSearch",
    "PermutedLayout",
    "PermutedSearch",
    "PostingIndex",
    "SentenceIndex",
    "STRATEGIES",
    "deserialise",
    "group_layout",
    "make_search",
    "permuted_layout",
    "serialise",
]

STRATEGIES = ("brute", "permuted", "grouped", "lsh")
_CLASSES: dict[str, Any] = {
    cls.name: cls
    for cls in (BruteSearch, PermutedSearch, GroupedSearch, LshSearch, PostingIndex, AnchorIndex, SentenceIndex)
}


def make_search(name: str, bits: int = 64, max_radius: int | None = None, **options: Any) -> Any:
    """A new, empty strategy by name.

    ``brute``: any radius. ``permuted`` and ``grouped`` need ``max_radius`` (for ``grouped`` the
    largest radius it must serve; the actual limit is its group count − 1). ``lsh`` needs
    ``bands=`` (see ``fingerprints.lsh_layout``). Extra options go to the class.
    """
    if name == "brute":
        return BruteSearch(bits, None)
    if name in ("permuted", "grouped"):
        if max_radius is None:
            raise ValueError(f"the {name} strategy needs max_radius")
        return _CLASSES[name](bits, max_radius, **options)
    if name == "lsh":
        return LshSearch(**options)
    raise ValueError(f"unknown search strategy {name!r}; choose from {', '.join(STRATEGIES)}")


def serialise(search: Any) -> bytes:
    """The built tables as bytes (little-endian, self-describing) for storing in the index file."""
    params, arrays = search.state()
    return pack_state(search.name, params, arrays)


def deserialise(data: bytes) -> Any:
    """A strategy back from :func:`serialise`'s bytes, ready to query without rebuilding."""
    name, params, arrays = unpack_state(data)
    if name not in _CLASSES:
        raise ValueError(f"unknown search strategy {name!r} in stored tables")
    return _CLASSES[name].from_state(params, arrays)
