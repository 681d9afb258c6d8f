"""Write a copy of a text with a share of its words dropped at random (issue 16.5's edited copies).

Usage: python drop_words.py SRC OUT RATE SEED
"""
import random
import re
import sys

src, out, rate, seed = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
rng = random.Random(seed)
text = open(src, encoding="utf-8", errors="replace").read()
parts = re.split(r"(\s+)", text)
kept = [p for p in parts if p.isspace() or not p or rng.random() >= rate]
open(out, "w", encoding="utf-8").write("".join(kept))
