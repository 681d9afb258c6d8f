"""What every subcommand of the command line shares: output, progress, the options of a
collection, the registry of subcommands, and the words and JSON of the rules and passages."""

from __future__ import annotations

import argparse
import json
import logging
import os
import shlex
import shutil
import sys
import time
import unicodedata
from typing import TYPE_CHECKING, Any, Callable, Sequence

if TYPE_CHECKING:
    from neardup_gui.core.collection import Collection
    from neardup_gui.core.settings import Settings


log = logging.getLogger(__name__)

EXIT_OK = 0
EXIT_SKIPPED = 1
EXIT_USAGE = 2
EXIT_INDEX = 3
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141  # (128 + SIGPIPE: what a shell shows for a writer whose reader went away)


def configure_logging(verbose: int) -> None:
    """Configure logging once, for the command line (stderr)."""
    level = logging.WARNING - 10 * min(verbose, 2)
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    logging.getLogger("jieba").setLevel(logging.ERROR)
    from neardup_gui.core.extract import quiet_parsers

    quiet_parsers(verbose == 0)  # (the workers the command forks inherit it)


def print_json(data: Any) -> None:
    """Print machine-readable output on stdout, UTF-8, one document."""
    # One write: json.dump writes every token separately (0.18 s for the pairs of 797 documents).
    # A list (pairs, clusters) is written one item per line: an indented dump runs json's Python
    # encoder, 0.95 s for the 12,815 pairs of 2,375 documents, where the compiled one per item
    # takes about a tenth of that.
    if isinstance(data, list) and data:
        text = "[\n" + ",\n".join("  " + json.dumps(item, ensure_ascii=False) for item in data) + "\n]"
    else:
        text = json.dumps(data, ensure_ascii=False, indent=2)
    sys.stdout.write(text + "\n")


class StderrProgress:
    """A ``progress(fraction, message)`` callable that writes progress to stderr.

    On a terminal, one line that updates in place: cut to the terminal's width (a Chinese
    character takes two columns) and ended by "erase to the end of the line", so a shorter
    message never shows the tail of a longer one; :func:`main` clears it before the command's
    own output. Elsewhere (a log file, a pipe), a line each time the whole percentage moves, each
    stage's start and end (0 % and 100 %) and at most every ``LOG_EVERY_S`` seconds otherwise:
    indexing 50,000 files writes about a hundred lines, not a hundred thousand.
    """

    LOG_EVERY_S = 5.0

    def __init__(self, quiet: bool = False, stream: Any = None) -> None:
        self.quiet = quiet
        self.stream = stream
        self._last = ""
        self._message = ""
        self._logged_percent = -1
        self._logged_at = float("-inf")

    def __call__(self, fraction: float, message: str = "") -> None:
        if self.quiet:
            return
        # An empty message only moves the bar: the previous message stands (never "[  5.0%] ").
        message = message or self._message
        self._message = message
        if not message:
            return
        line = f"[{fraction * 100:5.1f}%] {message}"
        if line == self._last:
            return
        self._last = line
        stream = self.stream or sys.stderr
        if _is_terminal(stream):
            _ProgressLine.show(stream, line)
            return
        percent, now = int(fraction * 100), time.monotonic()
        # (a percent back from the one logged is a rounding's jitter, not news: 1.999… after 2.0)
        if (0 < fraction < 1 and self._logged_percent - 1 <= percent <= self._logged_percent
                and now - self._logged_at < self.LOG_EVERY_S):
            return
        self._logged_percent, self._logged_at = percent, now
        stream.write(line[:200] + "\n")
        stream.flush()


def _is_terminal(stream: Any) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):  # (a closed or unusual stream: not a terminal)
        return False


def _columns(ch: str) -> int:
    """Columns a character takes on a terminal: two when wide (CJK), none when combining."""
    return 0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1


def display_width(text: str) -> int:
    """Columns ``text`` takes on a terminal."""
    return sum(map(_columns, text))


def clip_to_width(text: str, columns: int) -> str:
    """The longest head of ``text`` that fits in ``columns`` terminal columns."""
    used = 0
    for i, ch in enumerate(text):
        used += _columns(ch)
        if used > columns:
            return text[:i]
    return text


def _terminal_columns(stream: Any) -> int:
    """The width of the terminal ``stream`` writes to: $COLUMNS when set, else the terminal's own
    (stderr's, not stdout's: `neardup pairs | less` shows its progress on a terminal), else 80."""
    try:
        return max(int(os.environ["COLUMNS"]), 1)
    except (KeyError, ValueError):
        pass
    try:
        columns = os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, ValueError, OSError):
        columns = 0
    return columns or shutil.get_terminal_size(fallback=(80, 24)).columns


class _ProgressLine:
    """The progress line standing on a terminal, if any (one per process)."""

    stream: Any = None

    @classmethod
    def show(cls, stream: Any, line: str) -> None:
        columns = _terminal_columns(stream)
        # one column short of the width: a line that fills it wraps on some terminals
        stream.write("\r" + clip_to_width(line, max(columns - 1, 10)) + "\x1b[K")
        stream.flush()
        cls.stream = stream

    @classmethod
    def clear(cls) -> None:
        """Erase the progress line, so that what is printed next starts on a clean line."""
        stream, cls.stream = cls.stream, None
        if stream is not None:
            try:
                stream.write("\r\x1b[K")
                stream.flush()
            except (OSError, ValueError):
                pass


class _ClearsProgress:
    """``sys.stdout`` while a progress line may stand on the terminal: erased before any output."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        if _ProgressLine.stream is not None:
            _ProgressLine.clear()
        return self._stream.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


# Each subcommand registers (name, help, add_arguments, run) here; run(args) returns an exit code.
Command = tuple[str, str, Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]
COMMANDS: list[Command] = []


def command(name: str, help: str, add_arguments: Callable[[argparse.ArgumentParser], None]):
    """Register a subcommand's ``run(args) -> int``."""

    def register(run: Callable[[argparse.Namespace], int]):
        COMMANDS.append((name, help, add_arguments, run))
        return run

    return register




def _settings(args: argparse.Namespace, base: Settings | None = None) -> Settings:
    """Settings from the command line's options (``base``, else the defaults, for what is not given)."""
    from neardup_gui.core.settings import FingerprintParams, Settings

    s = base or Settings()
    changes: dict[str, Any] = {}
    for name in ("threshold", "min_run", "strategy", "workers"):
        value = getattr(args, name, None)
        if value is not None:
            changes[name] = value
    if getattr(args, "template", None):
        changes["template_files"] = tuple(args.template)
    if getattr(args, "exclude_quotes", False):
        changes["exclude_quotes"] = True
    if getattr(args, "exclude_bibliography", False):
        changes["exclude_bibliography"] = True
    if getattr(args, "dask", None):
        changes["dask_address"] = args.dask
    for name in ("dask_ca", "dask_cert", "dask_key"):
        if getattr(args, name, None):
            changes[name] = getattr(args, name)
    if getattr(args, "dask_insecure", False):
        changes["dask_insecure"] = True
    if getattr(args, "no_auto_template", False):
        changes["auto_template"] = False
    if getattr(args, "bits", None):
        changes["fingerprints"] = FingerprintParams(**{**s.fingerprints.to_dict(), "minhash_bits": args.bits})
    return s.with_(**changes)


def _common_options(p: argparse.ArgumentParser, *, db: bool = True, threshold: bool = True) -> None:
    if db:
        p.add_argument("--db", required=True, metavar="F", help="the index file of the collection")
    if threshold:
        p.add_argument("--threshold", type=float, metavar="T", help="similarity r to report, 0..1 (default 0.7)")
    p.add_argument("--min-run", type=int, dest="min_run", metavar="N", help="minimum units in a matched passage (default 8)")
    p.add_argument("--template", action="append", metavar="FILE", help="a template file whose text never counts (repeatable)")
    p.add_argument("--exclude-quotes", action="store_true", help="do not count quoted text")
    p.add_argument("--exclude-bibliography", action="store_true", help="do not count the bibliography")
    p.add_argument("--no-auto-template", action="store_true", dest="no_auto_template",
                   help="count all text except your template files and the passages you marked "
                        "(no sentence is taken out for being in most documents)")
    p.add_argument("--json", action="store_true", help="machine-readable output on stdout")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")


def _open(args: argparse.Namespace, *, create: bool = False):
    from neardup_gui.core.collection import Collection

    return Collection.open(args.db, create=create)


def given_path_problem(path: str) -> str | None:
    """What is wrong with a file named on the command line, said plainly (the extraction's own
    reasons are about files that change under it: "no longer exists", and "unsupported file
    type ''" for a folder), or None."""
    if os.path.isdir(path):
        return "a folder, not a file: give the files in it, or `neardup screen FOLDER` for a folder of submissions"
    if not os.path.lexists(path):
        return "no such file"
    return None


def _index_problem(exc) -> int:
    hint = ""
    if exc.kind == "not-an-index" and str(exc).startswith("There is no index at"):
        hint = " Make one with `neardup index FOLDER --db F`."
    sys.stderr.write(f"neardup: {exc}{hint}\n")
    return EXIT_INDEX


def _on_collection(args: argparse.Namespace, work: Callable[[Any, Any], Any], *, create: bool = False) -> Any:
    """Open the index of ``--db``, run ``work(collection, settings)`` and close it again.

    The collection's own settings (saved by the app: threshold, exclusions, template files)
    apply where no option is given. Raises ``IndexProblem`` (damaged, too new, busy, full,
    read-only) for the caller to report.
    """
    from neardup_gui.core.settings import Settings

    with _open(args, create=create) as coll:
        _say_if_unfinished(coll, args.db)
        return work(coll, _settings(args, coll.settings_for(Settings())))


def _say_if_unfinished(coll: Collection, db: str) -> None:
    """A note on stderr when the last indexing stopped before its end: the answers cover only
    the documents indexed until then (JSON on stdout stays as it is)."""
    from neardup_gui.core.indexer import unfinished

    folder = unfinished(coll.store)
    if folder:
        # (the mark is also there while another command or window is indexing it now)
        sys.stderr.write(f"neardup: note: the last indexing of {folder} did not finish (or is still running in "
                         f"another window or command); this index holds only the documents indexed until then. "
                         f"Run `neardup index {shlex.quote(folder)} --db {shlex.quote(db)}` to complete it.\n")


def _rules_json(coll, settings) -> dict[str, Any]:
    from neardup_gui.core.common_passages import exclusion_rules

    return exclusion_rules(coll, settings)


def _exclusions_line(units: dict[str, int]) -> str:
    """``not counted: 120 units (template files 80, automatic 40)`` for the plain output."""
    parts = [f"{k.replace('_', ' ')} {v}" for k, v in units.items() if v]
    return f"not counted: {sum(units.values())} units" + (f" ({', '.join(parts)})" if parts else "")


def _applicants_option(p: argparse.ArgumentParser, where: str) -> None:
    from neardup_gui.cli_examiner import applicants_option

    applicants_option(p, where)




OTHERS_NAMED = 5  # the other files named in `index`'s summary (all of them in its --json)


def other_files_line(others: Sequence[str], folder: str) -> str:
    """"2 files of other formats left out (neardup reads …): ls.1, README": what `index` and
    `screen` say of the files they do not read, so that none is left out in silence."""
    from neardup_gui.core.extract import READ_SUFFIXES
    from neardup_gui.core.progress import count_noun

    names = [os.path.relpath(p, folder) for p in others[:OTHERS_NAMED]]
    more = f" and {len(others) - OTHERS_NAMED} more (--json lists them all)" if len(others) > OTHERS_NAMED else ""
    return (f"{count_noun(len(others), 'file')} of other formats left out (neardup reads "
            f"{' '.join(READ_SUFFIXES)}, and by its content a file named without a type): "
            f"{', '.join(names)}{more}")




def _flags_line(flags: list[dict[str, Any]]) -> str:
    """Integrity flags (as JSON) in words: "replaced characters: 212 in 118 words; hidden text: …"."""
    from neardup_gui.core.flags import Flag
    from neardup_gui.core.report.strings import flag_text, translator

    t = translator("en")
    return "; ".join(flag_text(Flag.from_json(f), t).lower() for f in flags)


def _dask_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dask", metavar="ADDRESS",
                   help="run on a Dask cluster, e.g. tls://host:8786 (needs neardup[cluster]; see docs/scale.md)")
    p.add_argument("--dask-ca", dest="dask_ca", metavar="FILE",
                   help="the CA certificate that signed the scheduler's (PEM; default: dask's configuration)")
    p.add_argument("--dask-cert", dest="dask_cert", metavar="FILE",
                   help="this machine's certificate, signed by that CA (PEM; it may hold the key too)")
    p.add_argument("--dask-key", dest="dask_key", metavar="FILE", help="the private key of --dask-cert (PEM)")
    p.add_argument("--dask-insecure", dest="dask_insecure", action="store_true",
                   help="allow a plain tcp:// scheduler on another machine: every text then crosses the network "
                        "unencrypted")


def _cluster_problem(exc) -> int:
    sys.stderr.write(f"neardup: {exc}\n")
    return EXIT_USAGE




def _applied(rules: dict[str, Any]) -> list[str]:
    """The kinds of exclusion in effect, by name (as in ``Exclusions``)."""
    kinds = [("template_files", bool(rules["template_files"])), ("marked", rules["marked"] > 0),
             ("automatic", rules["automatic"]), ("furniture", rules["furniture"]), ("quotes", rules["quotes"]),
             ("bibliography", rules["bibliography"])]
    return [name for name, on in kinds if on]


def _auto_words(rules: dict[str, Any]) -> str:
    if not rules["automatic"]:
        return "automatic template off (--no-auto-template)"
    return (f"automatic template: sentences in at least {rules['automatic_min_frequency']} documents, "
            f"unless those documents copy one another (see `neardup common`)")
