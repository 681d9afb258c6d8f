"""Commands on one index at once: `neardup index`, `pairs`, `check`, `clusters`, `screen` and
`report` run over and over, each in its own process, while the collection's files are edited,
copied and deleted — as an examiner's script and a colleague's window may do. Any traceback
(a failure the command line does not say in words) is reported.

    .venv/bin/python -m benchmarks.stress.commands --seconds 120

Not part of the suite (its interleavings depend on the machine's speed). A session of it found:
`neardup screen` beside `neardup index` ended with a traceback (a document removed between the
list of a frequent sentence's documents and the reading of their texts), and the note on an
unfinished index said "did not finish" of an indexing still running in another command.
Exit status 1 when anything was reported.
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    random.seed(args.seed)
    sys.path.insert(0, str(ROOT))
    from neardup_gui.app.paths import sample_folder
    from tests.corpus import CORPUS

    work = Path(tempfile.mkdtemp(prefix="neardup-commands-"))
    folder, call, db = work / "collection", work / "call", work / "index.ndx"
    shutil.copytree(sample_folder(), folder)
    texts = sorted(CORPUS.rglob("*.txt"))[:300]
    call.mkdir()
    for i, p in enumerate(random.sample(texts, 4)):
        shutil.copy(p, call / f"c{i}.txt")
    submission = random.choice(texts)
    neardup = [sys.executable, "-m", "neardup_gui.cli"]
    commands = {
        "index": [*neardup, "index", str(folder), "--db", str(db), "-q"],
        "pairs": [*neardup, "pairs", "--db", str(db), "--threshold", "0.5", "-q", "--json"],
        "check": [*neardup, "check", str(submission), "--db", str(db), "-q", "--json"],
        "clusters": [*neardup, "clusters", "--db", str(db), "-q", "--json"],
        "screen": [*neardup, "screen", str(call), "--db", str(db), "-q"],
        "report": [*neardup, "report", "--db", str(db), "--screening", "call", "--out", str(work / "call.html"),
                   "-q"],
    }
    deadline = time.monotonic() + args.seconds
    codes: Counter[tuple[str, int]] = Counter()
    problems: list[str] = []
    lock = threading.Lock()

    def loop(name: str) -> None:
        while time.monotonic() < deadline:
            run = subprocess.run(commands[name], capture_output=True, text=True, cwd=ROOT)
            with lock:
                codes[name, run.returncode] += 1
                if "Traceback" in run.stderr or run.returncode not in (0, 1, 2, 3):
                    problems.append(f"{name} (exit {run.returncode}):\n{run.stderr[-3000:]}")
                    sys.stderr.write(f"COMMANDS {problems[-1]}\n")

    def change_files() -> None:
        while time.monotonic() < deadline:
            files = [p for p in folder.iterdir() if p.is_file()]
            r = random.random()
            try:
                if r < 0.35 and files:
                    p = random.choice(files)
                    if p.suffix == ".txt":
                        with p.open("a", encoding="utf-8") as f:
                            f.write(f"\nAn added line {random.random()}\n")
                elif r < 0.6 and len(files) > 10:
                    random.choice(files).unlink()
                else:
                    shutil.copy(random.choice(texts), folder / f"new{random.randint(0, 10**6)}.txt")
            except OSError:
                pass
            time.sleep(random.choice([0.05, 0.2, 0.5]))

    threads = [threading.Thread(target=loop, args=(name,)) for name in commands]
    threads.append(threading.Thread(target=change_files))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(", ".join(f"{name} exit {code}: {n}" for (name, code), n in sorted(codes.items())))
    print(f"{len(problems)} reported")
    shutil.rmtree(work, ignore_errors=True)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
