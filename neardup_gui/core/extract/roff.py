"""Manual pages in their source form (roff: the ``man`` and ``mdoc`` macros, ``tbl`` tables) read as
the text ``man`` shows.

A page's source is a text file (``ls.1``, ``tar.1`` as ``/usr/share/man`` holds them, unzipped)
and was read as one: every ``.TP``, ``.B``, ``\\fB`` and ``\\-`` counted as text. Pages of one
family share their markup as much as their words, so two different pages looked alike — on 2,500
real pages (Google Cloud's ``gcloud`` family), 1,305 pairs at similarity 0.7 read from the sources
against 360 from the same pages rendered by ``man``. Here the requests and escapes are interpreted
the way groff does for a terminal, far enough for the words and their order: fonts, sizes and
spacing dropped, special characters and strings replaced, macro definitions and conditional
blocks skipped, each paragraph (``.PP``, ``.TP``, ``.IP``, ``.SH`` …) one paragraph; text in
no-fill mode (``.nf``, ``.EX``, tables) a paragraph per line. Lines are not filled and
hyphenated: a paragraph is one line, which :func:`~neardup_gui.core.extract.text.split_paragraphs`
keeps.

Not done (documented limits): macros a page defines itself are skipped, not expanded (pod2man's
``.IX`` index entries, ``.Vb``/``.Ve`` verbatim marks — the text between them is read); ``eqn``
and ``pic`` are read as text; a page that only points to another (``.so man7/x.7``) is no source
by :func:`is_roff` (it has no title) and is read as the one line of text it holds.
"""

from __future__ import annotations

import re

# A source is recognised by its requests: a title (.TH, or .Dd/.Dt for mdoc) and section headings.
_TITLE_RE = re.compile(r"^[.'][ \t]*(?:TH|Dd|Dt)(?:[ \t]|$)", re.M)
_SECTION_RE = re.compile(r"^[.'][ \t]*(?:SH|Sh)(?:[ \t]|$)", re.M)


def is_roff(text: str) -> bool:
    """True for a manual page's source: a title request (``.TH``; mdoc's ``.Dd``/``.Dt``) within
    its first 200 lines that are not comments, before at least two section headings."""
    if ".SH" not in text and ".Sh" not in text:
        return False
    head = "\n".join(line for line in text.split("\n", 2000)[:2000]
                     if not line.startswith(('.\\"', "'\\\"", '.\\#')))
    title = _TITLE_RE.search(head)
    sections = list(_SECTION_RE.finditer(head))
    return title is not None and len(sections) >= 2 and title.start() < sections[0].start() \
        and head.count("\n", 0, title.start()) < 200


# Special characters (\(xx, \[xx]): groff_char(7), those a manual page uses.
_SPECIAL = {
    "em": "\u2014", "en": "\u2013", "hy": "-", "-": "-", "mi": "-", "pl": "+", "eq": "=", "aq": "'", "dq": '"',
    "lq": "\u201c", "rq": "\u201d", "oq": "\u2018", "cq": "\u2019", "Bq": "\u201e", "bq": "\u201a",
    "Fo": "\u00ab", "Fc": "\u00bb", "fo": "\u2039", "fc": "\u203a", "bu": "\u2022", "co": "\u00a9",
    "rg": "\u00ae", "tm": "\u2122", "mu": "\u00d7", "di": "\u00f7", "de": "\u00b0", "+-": "\u00b1",
    "<=": "\u2264", ">=": "\u2265", "!=": "\u2260", "==": "\u2261", "->": "\u2192", "<-": "\u2190",
    "<>": "\u2194", "ua": "\u2191", "da": "\u2193", "rA": "\u21d2", "lA": "\u21d0", "ti": "~", "ha": "^",
    "rs": "\\", "sl": "/", "ba": "|", "or": "|", "br": "\u2502", "ul": "_", "ru": "_", "ga": "`",
    "aa": "\u00b4", "sc": "\u00a7", "ps": "\u00b6", "dg": "\u2020", "dd": "\u2021", "ct": "\u00a2",
    "Po": "\u00a3", "Eu": "\u20ac", "eu": "\u20ac", "Ye": "\u00a5", "at": "@", "sh": "#", "Do": "$",
    "ss": "\u00df", "ae": "\u00e6", "AE": "\u00c6", "o/": "\u00f8", "O/": "\u00d8", "ff": "ff",
    "fi": "fi", "fl": "fl", "Fi": "ffi", "Fl": "ffl", "lh": "\u261c", "rh": "\u261e", "sq": "\u25a1",
    "ci": "\u25cb", "**": "*", "pc": "\u00b7", "md": "\u22c5", "OK": "\u2713", "ne": "\u2262",
    "ap": "~", "~~": "\u2248", "if": "\u221e", "mc": "\u00b5", "12": "\u00bd", "14": "\u00bc",
    "34": "\u00be", "S1": "\u00b9", "S2": "\u00b2", "S3": "\u00b3", "r!": "\u00a1", "r?": "\u00bf",
    "lB": "[", "rB": "]", "lC": "{", "rC": "}", "la": "\u27e8", "ra": "\u27e9", "tno": "~", "sd": "\u2033",
    "fm": "\u2032", "nbsp": " ", "ti~": "~",
}
_ACCENTS = {"'": "\u0301", "`": "\u0300", "^": "\u0302", ":": "\u0308", "~": "\u0303", ",": "\u0327", "o": "\u030a"}
# Predefined strings (\*x, \*(xx, \*[name]): the man package's and pod2man's.
_STRINGS = {
    "R": "\u00ae", "Tm": "(TM)", "lq": "\u201c", "rq": "\u201d", "L\"": "\u201c", "R\"": "\u201d",
    "C'": "'", "C`": "`", "Aq": "'", "PI": "pi", "-": "\u2014", "S": "", "HF": "", "Lq": "\u201c",
    "Rq": "\u201d", "Ba": "|", "Am": "&", "Le": "\u2264", "Ge": "\u2265", "Pi": "pi", "Ne": "\u2260",
    "Na": "NaN", "If": "infinity", "Gt": ">", "Lt": "<", "q": '"',
}

_ESCAPE_RE = re.compile(
    r"\\(?:"
    r"(?P<comment>[\"#].*)"
    r"|[fF](?:\[[^\]\n]*\]|\(..|.)"                    # font, font family
    r"|s(?:\[[^\]\n]*\]|[+-]?\(..|[+-]?'[^'\n]*'|[+-]?\d\d?)"  # size
    r"|\((?P<special2>..)"
    r"|\[(?P<special>[^\]\n]*)\]"
    r"|\*(?:\[(?P<string>[^\]\n]*)\]|\((?P<string2>..)|(?P<string1>.))"
    r"|n[+-]?(?:\[[^\]\n]*\]|\(..|.)"                  # number register
    r"|[hvwlLoXZDbNRxSCHY](?P<q>.)(?P<quoted>.*?)(?P=q)"  # quoted-argument escapes
    r"|[kgVmM$](?:\[[^\]\n]*\]|\(..|.)"
    r"|(?P<char>.)"
    r")"
)


_STRING_DEPTH = 3  # strings read inside strings, at most (a damaged page's strings may nest without end)


def _escape(m: re.Match, strings: dict[str, str], depth: int = 0) -> str:
    if m.group("comment") is not None:
        return ""
    name = m.group("special2") or m.group("special")
    if name is not None:
        return _special(name)
    name = m.group("string") or m.group("string2") or m.group("string1")
    if name is not None:
        if name in strings:
            # a string the page defined: its escapes read where it is used (not a string
            # that holds itself: nothing then)
            value = strings[name]
            if "\\" not in value:
                return value
            inner = {k: v for k, v in strings.items() if k != name} if depth < _STRING_DEPTH else {}
            return _text(value, inner, depth + 1)
        return _STRINGS.get(name, "")
    c = m.group("char")
    if c is None:
        if m.group(0)[1:2] in "N" and m.group("quoted"):  # \N'n': a glyph by its number
            digits = m.group("quoted")
            ok = digits.isascii() and digits.isdigit() and len(digits) <= 7 and 31 < int(digits) < 0x110000
            return chr(int(digits)) if ok else ""
        return ""
    if c in "\\e":
        return "\\"
    if c in "-.'`":
        return {"-": "-", ".": ".", "'": "\u00b4", "`": "`"}[c]
    if c in " ~0":
        return " "
    if c == "t":
        return " "
    return ""  # \& \| \^ \% \: \c \) \, \/ \p \z and anything else: nothing printed


def _special(name: str) -> str:
    if name in _SPECIAL:
        return _SPECIAL[name]
    if name.startswith("u") and len(name) >= 5:
        try:
            return "".join(chr(int(part, 16)) for part in name[1:].split("_"))
        except (ValueError, OverflowError):  # (not hexadecimal, or past the last code point)
            return ""
    if len(name) == 2 and name[0] in _ACCENTS:  # \('e: e acute
        import unicodedata
        return unicodedata.normalize("NFC", name[1] + _ACCENTS[name[0]])
    return ""


def _text(line: str, strings: dict[str, str], depth: int = 0) -> str:
    """A line of text with its escapes interpreted."""
    if "\\" not in line:
        return line
    return _ESCAPE_RE.sub(lambda m: _escape(m, strings, depth), line)


_ARG_RE = re.compile(r'"((?:[^"]|"")*)"?|(\S+)')


def _args(rest: str) -> list[str]:
    """A request's arguments: separated by blanks, a double-quoted one may hold blanks (and "")."""
    return [m.group(1).replace('""', '"') if m.group(1) is not None else m.group(2) for m in _ARG_RE.finditer(rest)]


_BREAKS = frozenset(
    "PP P LP sp br RS RE HP PD in ti ne bp ad na hy nh ce ft ps vs ll ta fi nf EX EE TQ YS Pp Lp Bl El Bd Ed "
    "Ss Sh SH SS TP IP It Vb Ve".split()
)
_FILL_OFF = frozenset("nf EX Vb Bd".split())
_FILL_ON = frozenset("fi EE Ve Ed".split())
_JOINED = frozenset("BR BI IB IR RB RI".split())  # alternating fonts, no space between
_SPACED = frozenset("B I SM SB".split())
# mdoc macros: how their words print
_MDOC_QUIET = frozenset("Dd Dt Os Bl El Bd Ed Ek Bk Ns Pf Sm No Li Em Sy Cm Ic Ar Pa Ev Dv Er Va Fa Ft Fn Cd In Lb "
                        "Vt An Ad Mt Tn Ux Bx Nx Fx Ox Bsx At St Rs Re %A %T %B %J %N %V %P %D %I %Q %R %O Ms "
                        "Ot".split())
_MDOC_WRAP = {"Op": ("[", "]"), "Oo": ("[", ""), "Oc": ("", "]"), "Dq": ("\u201c", "\u201d"), "Do": ("\u201c", ""),
              "Dc": ("", "\u201d"), "Sq": ("\u2018", "\u2019"), "So": ("\u2018", ""), "Sc": ("", "\u2019"),
              "Pq": ("(", ")"), "Po": ("(", ""), "Pc": ("", ")"), "Bq": ("[", "]"), "Bo": ("[", ""),
              "Bc": ("", "]"), "Brq": ("{", "}"), "Bro": ("{", ""), "Brc": ("", "}"), "Aq": ("\u27e8", "\u27e9"),
              "Ao": ("\u27e8", ""), "Ac": ("", "\u27e9"), "Qq": ('"', '"'), "Qo": ('"', ""), "Qc": ("", '"'),
              "Ql": ("\u2018", "\u2019"), "Eo": ("", ""), "Ec": ("", "")}
_MDOC_CALLABLE = _MDOC_QUIET | frozenset(_MDOC_WRAP) | frozenset("Fl Xr Nm Nd Ta".split())
_CLOSING = frozenset(".,;:)]?!")
_MANUALS = {"1": "General Commands Manual", "2": "System Calls Manual", "3": "Library Functions Manual",
            "4": "Kernel Interfaces Manual", "5": "File Formats Manual", "6": "Games Manual",
            "7": "Miscellaneous Information Manual", "8": "System Manager's Manual", "9": "Kernel Developer's Manual"}
_MDOC_SILENT = frozenset("Dd Dt Os Bl El Bd Ed Bk Ek Rs Re Sm".split())  # their arguments are settings


class _Reader:
    """The paragraphs printed so far, the one being filled, and what the requests set."""

    def __init__(self) -> None:
        self.paragraphs: list[str] = []
        self.current: list[str] = []
        self.fill = True
        self.strings: dict[str, str] = {}
        self.name = ""  # mdoc: the page's name (.Nm's first argument)
        self.next_is_heading = False
        self.footer = ""  # .TH's, printed at the end
        self.link = ""  # the address of a .UR or .MT, printed at its .UE or .ME

    def flush(self) -> None:
        text = " ".join(" ".join(self.current).split())
        if text:
            self.paragraphs.append(text)
        self.current = []

    def add(self, text: str) -> None:
        if self.fill:
            self.current.append(text)
        else:
            self.flush()
            self.current.append(text)
            self.flush()

    def mdoc(self, words: list[str]) -> str:
        """An mdoc line's words (macro names among them) as printed."""
        out: list[str] = []
        closers: list[str] = []
        i = 0
        glue = False  # the next word joins the previous one (Ns, Pf, Fl's dash)
        while i < len(words):
            w = words[i]
            i += 1
            if w in _MDOC_WRAP:
                opening, closing = _MDOC_WRAP[w]
                if opening:
                    out.append(opening)
                    glue = True
                if closing and w not in ("Oc", "Dc", "Sc", "Pc", "Bc", "Brc", "Ac", "Qc", "Ec"):
                    closers.append(closing)
                elif closing:
                    out[-1:] = [(out[-1] if out else "") + closing]
                continue
            if w == "Fl":
                if glue and out:
                    out[-1] += "-"
                else:
                    out.append("-")
                glue = True
                continue
            if w == "Xr" and i < len(words):
                page = words[i]
                section = words[i + 1] if i + 1 < len(words) and words[i + 1] not in _MDOC_CALLABLE else ""
                i += 2 if section else 1
                out.append(f"{page}({section})" if section else page)
                glue = False
                continue
            if w == "Nm":
                if i < len(words) and words[i] not in _MDOC_CALLABLE and words[i] not in _CLOSING:
                    if not self.name:
                        self.name = words[i]
                    continue  # (its argument prints next)
                out.append(self.name)
                glue = False
                continue
            if w == "Nd":
                out.append("\u2014")
                glue = False
                continue
            if w == "It":
                continue
            if w in ("Ns", "Pf"):
                glue = True
                continue
            if w in _MDOC_QUIET or w == "Ta":
                continue
            if w in _CLOSING and out:
                out[-1] += w
                continue
            if glue and out:
                out[-1] += w
            else:
                out.append(w)
            glue = False
        if closers and out:
            out[-1] += "".join(reversed(closers))
        return " ".join(out)

    def request(self, name: str, rest: str) -> None:
        args = _args(rest)
        if name in _BREAKS:
            self.flush()
        if name in _FILL_OFF:
            self.fill = False
        elif name in _FILL_ON:
            self.fill = True
        if name in ("SH", "SS", "Sh", "Ss"):
            if args:
                self.add(_text(" ".join(args), self.strings))
                self.flush()
            else:
                self.next_is_heading = True
        elif name in _SPACED:
            if args:
                self.add(_text(" ".join(args), self.strings))
        elif name in _JOINED:
            self.add(_text("".join(args), self.strings))
        elif name == "IP":
            if args and args[0]:
                self.add(_text(args[0], self.strings))
                self.flush()
        elif name == "SY":
            self.flush()
            self.add(_text(" ".join(args), self.strings))
        elif name == "OP":
            self.add("[" + _text(" ".join(args), self.strings) + "]")
        elif name == "ds" and args:
            # kept as written (``\\`` read as ``\`` once), interpreted where it is used
            value = rest.split(None, 1)[1] if len(args) > 1 else ""
            self.strings[args[0]] = value.removeprefix('"').replace("\\\\", "\\")
        elif name in ("URL", "MTO") and args:
            # www.tmac's links (util-linux's pages): "text ⟨address⟩after" on a terminal
            text = _text(args[1], self.strings) if len(args) > 1 else ""
            after = _text(args[2], self.strings) if len(args) > 2 else ""
            self.add(f"{text} \u27e8{_text(args[0], self.strings)}\u27e9{after}".lstrip())
        elif name == "TH" and args:
            # the title line and the footer a terminal shows (groff's an.tmac)
            title = f"{_text(args[0], self.strings)}({_text(args[1], self.strings) if len(args) > 1 else ''})"
            manual = args[4] if len(args) > 4 else _MANUALS.get(args[1][:1] if len(args) > 1 else "", "")
            self.paragraphs.append(" ".join(f"{title} {_text(manual, self.strings)} {title}".split()))
            self.footer = " ".join(f"{_text(args[3], self.strings) if len(args) > 3 else ''} "
                                   f"{_text(args[2], self.strings) if len(args) > 2 else ''} {title}".split())
        elif name in ("UR", "MT"):
            self.link = _text(args[0], self.strings) if args else ""
        elif name in ("UE", "ME"):
            tail = _text("".join(args), self.strings)
            if self.link:
                self.add(f"\u27e8{self.link}\u27e9{tail}")  # (groff's brackets on a terminal)
            elif tail and self.current:
                self.current[-1] += tail
            self.link = ""
        elif name == "In" and args:
            self.add(f"#include <{_text(args[0], self.strings)}>")
        elif name == "Fn" and args:
            params = ", ".join(a for a in args[1:] if a not in _CLOSING)
            after = "".join(a for a in args[1:] if a in _CLOSING)
            self.add(_text(f"{args[0]}({params}){after}", self.strings))
        elif name == "Fo" and args:
            self.add(_text(args[0], self.strings) + "(")
        elif name == "Fc":
            self.add(")" + _text("".join(args), self.strings))
        elif name == "Rv" and args[:1] == ["-std"]:
            names = list(args[1:]) or [self.name]
            self.add(f"The {'() and '.join(names)}() function{'s' if len(names) > 1 else ''} return"
                     f"{'' if len(names) > 1 else 's'} the value 0 if successful; otherwise the value -1 is returned "
                     "and the global variable errno is set to indicate the error.")
        elif name == "Ex" and args[:1] == ["-std"]:
            names = list(args[1:]) or [self.name]
            self.add(f"The {' and '.join(names)} utilit{'ies' if len(names) > 1 else 'y'} exit"
                     f"{'' if len(names) > 1 else 's'} 0 on success, and >0 if an error occurs.")
        elif name in _MDOC_SILENT:
            pass
        elif name == "It" or name in _MDOC_CALLABLE:
            text = self.mdoc([name, *args])
            if name == "Nm" and not args and not self.fill:
                text = self.name
            if text:
                self.add(_text(text, self.strings))
        # every other request (and a page's own macros) prints nothing
        if self.next_is_heading and self.current:
            self.flush()  # (a .TP's tag set by a font macro)
            self.next_is_heading = False


_CONDITIONAL_RE = re.compile(r"(if|ie|el|while)(?=[\s\\!'\"]|$)")
_TRUE = ("n", "o", "\\n(.g", "\\n[.g]")  # nroff (a terminal), an odd page, groff


def _condition(rest: str) -> tuple[bool, str]:
    """(whether a condition holds, what follows it). A terminal's conditions: ``n`` holds, ``t``
    and ``v`` do not, groff's ``\\n(.g`` does; any other (registers, comparisons) is taken as
    false — in manual pages they choose among a typesetter's forms and a package's settings."""
    rest = rest.lstrip()
    if rest.startswith("!") and rest[1:2] not in ("", " ", "\t"):
        holds, after = _condition(rest[1:])
        return not holds, after
    if rest[:1] in "'\"" and rest[:1]:  # a string comparison 'a'b'
        q = rest[0]
        parts = rest.split(q, 3)
        return (len(parts) == 4 and parts[1] == parts[2]), (parts[3] if len(parts) == 4 else "")
    cond, _, after = rest.partition(" ")
    if "\\{" in cond:  # (".if n\\{\\": no blank before the block)
        cond, brace, tail = cond.partition("\\{")
        after = brace + tail + " " + after
    return cond in _TRUE, after


_TBL_TAB_RE = re.compile(r"\btab\s*\((.)\)")


def _inline(line: str) -> str:
    """A line inside a table's text block: its text, a font macro's words (.B, .BR …); other
    requests print nothing there."""
    if line[:1] not in ".'":
        return line
    name, _, rest = line[1:].lstrip().partition(" ")
    if name in _JOINED:
        return "".join(_args(rest))
    if name in _SPACED:
        return " ".join(_args(rest))
    return ""


def roff_paragraphs(source: str) -> list[str]:
    """The paragraphs a manual page's source prints, in order."""
    reader = _Reader()
    lines = source.replace("\r\n", "\n").split("\n")
    i = 0
    table = 0  # 0 outside a table; 1 in its options and format; 2 in its data
    cell_tab = "\t"  # what separates a table's cells
    last_ie = True  # the last .ie's condition (its .el takes the other branch)
    pending: list[str] = []  # the text of a conditional that holds, read as a line of its own
    while pending or i < len(lines):
        if pending:
            line = pending.pop()
        else:
            line = lines[i]
            i += 1
            while line.endswith("\\") and not line.endswith("\\\\") and i < len(lines):  # an escaped newline
                line = line[:-1] + lines[i]
                i += 1
        if "\\}" in line:  # the end of a block whose condition held
            line = line.replace("\\}", "")
            if not line.strip(" \t.'"):
                continue
        if line[:1] in ".'":
            body = line[1:].lstrip(" \t")
            if body.startswith(('\\"', "\\#")) or not body:
                continue  # a comment, or an empty request
            conditional = _CONDITIONAL_RE.match(body)
            if conditional:
                name, rest = conditional.group(1), body[conditional.end():]
                if name == "el":
                    holds, after = not last_ie, rest
                else:
                    holds, after = _condition(rest)
                    if name == "ie":
                        last_ie = holds
                after = after.lstrip()
                if not holds or name == "while":
                    if "\\{" in after:  # skip the block, to its matching \}
                        depth = after.count("\\{") - after.count("\\}")
                        while depth > 0 and i < len(lines):
                            depth += lines[i].count("\\{") - lines[i].count("\\}")
                            i += 1
                    continue
                after = after.replace("\\{", "", 1).lstrip()
                if after.endswith("\\"):
                    after = after[:-1]
                if after.strip():
                    pending.append(after)
                continue
            body = body.split('\\"', 1)[0]  # (a comment after a request)
            name, _, rest = body.partition(" ")
            if "\t" in name:
                name, _, more = name.partition("\t")
                rest = more + " " + rest
            if name in ("de", "de1", "am", "ig", "ds1"):
                if name == "ds1":
                    continue
                end = ".."
                parts = rest.split()
                if name == "ig" and parts:
                    end = "." + parts[0]
                elif name != "ig" and len(parts) > 1:
                    end = "." + parts[1]
                while i < len(lines) and "".join(lines[i].split()) != end:  # (". ." ends one too)
                    i += 1
                i += 1
                continue
            if name == "TS":
                reader.flush()
                reader.fill = False
                table, cell_tab = 1, "\t"
                continue
            if name == "TE":
                reader.flush()
                reader.fill = True
                table = 0
                continue
            if name == "TP":
                reader.flush()
                reader.next_is_heading = True  # (the next line is the tag: a paragraph of its own)
                continue
            reader.request(name, rest)
            continue
        if table == 1:
            options = _TBL_TAB_RE.search(line)
            if options and line.rstrip().endswith(";"):
                cell_tab = options.group(1)  # (``tab(@);``: the cells are separated by @)
            if line.rstrip().endswith("."):
                table = 2
            continue
        if table == 2:
            stripped = line.strip()
            if stripped in ("_", "=", "") or stripped.startswith(".T&"):
                continue
            while line.rstrip().endswith("T{") and i < len(lines):
                # a text block cell: its lines (requests among them) up to the line starting T}
                block: list[str] = []
                while i < len(lines) and not lines[i].startswith("T}"):
                    block.append(_inline(lines[i]))
                    i += 1
                after = lines[i][2:] if i < len(lines) else ""
                i += 1
                line = line.rstrip()[:-2] + " " + " ".join(block) + " " + after
            line = " ".join(cell for cell in line.split(cell_tab))
            if not line.strip():
                continue
        text = _text(line, reader.strings)
        if reader.next_is_heading:
            reader.flush()
            reader.add(text)
            reader.flush()
            reader.next_is_heading = False
            continue
        if not line.strip():
            reader.flush()
            continue
        if line[:1] in " \t" and reader.fill:
            reader.flush()  # a line starting with a blank breaks the paragraph (groff's rule)
        reader.add(text)
    reader.flush()
    if reader.footer:
        reader.paragraphs.append(reader.footer)
    return reader.paragraphs
