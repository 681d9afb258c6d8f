"""A highly repetitive text pair: thousands of near-identical licence sections, two edited copies.

The hard case for a bounded-memory comparison: nearly every unit lies in a k-gram both copies
share, so the shared-k-gram filter removes nothing and the alignment sees all of both texts. The
real one is the Debian copyright file of Boost (about 2 MB; used when it is on the machine); the
synthetic one has the same shape: ``Files:``/``Copyright:``/``License:`` stanzas whose licence
paragraph is the same everywhere and whose names and years vary.
"""

from __future__ import annotations

import glob
import random
import re

BOOST_COPYRIGHT = "/usr/share/doc/libboost*/copyright"

_LICENCE = (
    "Permission is hereby granted, free of charge, to any person or organization obtaining a copy of "
    "the software and accompanying documentation covered by this license (the Software) to use, "
    "reproduce, display, distribute, execute, and transmit the Software, and to prepare derivative "
    "works of the Software, and to permit third-parties to whom the Software is furnished to do so, "
    "all subject to the following: the copyright notices in the Software and this entire statement, "
    "including the above license grant, this restriction and the following disclaimer, must be "
    "included in all copies of the Software, in whole or in part."
)
_NAMES = ["Beman Dawes", "David Abrahams", "Peter Dimov", "Joel de Guzman", "Hartmut Kaiser", "Eric Niebler",
          "Howard Hinnant", "Ion Gaztanaga", "John Maddock", "Jeremy Siek", "Douglas Gregor", "Anthony Williams"]
_LIBS = ["asio", "filesystem", "spirit", "thread", "regex", "graph", "python", "serialization", "math", "interprocess"]


def boost_copyright() -> str | None:
    """The text of the Debian copyright file of Boost, when a Boost package is installed."""
    for path in sorted(glob.glob(BOOST_COPYRIGHT)):
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.read()
    return None


def synthetic_copyright(sections: int, seed: int = 5) -> str:
    """``sections`` licence stanzas (about 1 KB each) differing only in paths, names and years."""
    rng = random.Random(seed)
    out = []
    for i in range(sections):
        lib = rng.choice(_LIBS)
        years = f"{rng.randint(1998, 2015)}-{rng.randint(2016, 2023)}"
        out.append(f"Files: libs/{lib}/src/part{i}/*\nCopyright: {years} {rng.choice(_NAMES)}\n"
                   f" {years} {rng.choice(_NAMES)}\nLicense: BSL-1.0\n {_LICENCE}\n")
    return "\n".join(out)


def drop_words(text: str, rate: float, seed: int) -> str:
    """``text`` with a share ``rate`` of its words dropped (white space kept)."""
    rng = random.Random(seed)
    return "".join(t for t in re.findall(r"\S+|\s+", text) if t.isspace() or rng.random() >= rate)


def edited_pair(text: str, rate: float = 0.02) -> tuple[str, str]:
    """Two copies of ``text``, each with ``rate`` of its words dropped independently."""
    return drop_words(text, rate, 1), drop_words(text, rate, 2)
