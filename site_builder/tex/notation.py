"""The notation: every symbol of the bank, read from the inputs', outputs' and statements' TeX,
with its meaning and unit in each entry that uses it, for ``/notation/``; and an entry's statement
with each symbol that names one of its fields marked (``\\htmlData{sym=name}``), so that the page
can highlight a symbol and its field together.

A symbol is a base (a letter or a Greek letter) with its subscript and a lettered superscript
(``H_{kv}``, ``d_{\\text{head}}``, ``d^R_h``, ``\\beta_T``); a numeric superscript is a power and is
not part of it.  Symbols are grouped under their base (β: ``\\beta``, ``\\beta_1``, ``\\beta^{*}``);
a group whose uses mean different things (no content word in common) is flagged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..cache import kept_for
from ..load.entry import Entry
from . import markdown

GREEK = frozenset(
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi pi varpi rho "
    "varrho sigma varsigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi "
    "Psi Omega ell".split()
)
ACCENTS = frozenset({"bar", "hat", "tilde", "vec", "dot", "ddot", "overline", "widehat", "widetilde"})
WORDS = frozenset({"text", "mathrm", "operatorname", "textstyle", "mathsf", "mathtt", "textbf", "textit", "mbox"})
_COMMAND = re.compile(r"\\([A-Za-z]+)")
_MATH = re.compile(r"(?<!\\)\$\$(.+?)(?<!\\)\$\$|(?<!\\)\$(.+?)(?<!\\)\$|\\\((.+?)\\\)|\\\[(.+?)\\\]", re.S)
STOP = frozenset(
    "the of a an per in to and or for by with at on from its is are that this when given directly first last base "
    "one each all number numbers value total".split()
)


@dataclass(frozen=True)
class Found:
    """One symbol where it is written: its TeX as written, its canonical TeX, and its span."""

    tex: str
    canonical: str
    base: str
    start: int
    end: int


def _group(tex: str, at: int) -> int:
    """The index just past the braced group that opens at ``at``."""
    depth = 0
    for k in range(at, len(tex)):
        if tex[k] == "{" and (k == 0 or tex[k - 1] != "\\"):
            depth += 1
        elif tex[k] == "}" and tex[k - 1] != "\\":
            depth -= 1
            if depth == 0:
                return k + 1
    return len(tex)


def _argument(tex: str, at: int) -> int:
    """The index past a script's argument starting at ``at``: a group, a command or one character."""
    while at < len(tex) and tex[at] == " ":
        at += 1
    if at >= len(tex):
        return at
    if tex[at] == "{":
        return _group(tex, at)
    m = _COMMAND.match(tex, at)
    if m:
        end = m.end()
        if m.group(1) in WORDS and end < len(tex) and tex[end] == "{":
            return _group(tex, end)
        return end
    return at + 1


def _plain_argument(text: str) -> str:
    """A script's argument without its braces and spaces: ``{\\text{head}}`` -> ``\\text{head}``."""
    text = text.strip()
    while text.startswith("{") and _group(text, 0) == len(text):
        text = text[1:-1].strip()
    return text


def _lettered(argument: str) -> bool:
    """A superscript that names (R, KV, *), not a power (2, -1, \\beta/2)."""
    inner = re.sub(r"\\(?:text|mathrm)\s*\{([^{}]*)\}", r"\1", _plain_argument(argument))
    return bool(re.fullmatch(r"[A-Za-z]+|\*|\\ast|\\star|\\prime|'", inner))


def symbols(tex: str) -> list[Found]:
    """Every symbol written in one TeX fragment, in order."""
    return list(_symbols(tex))


@lru_cache(maxsize=8192)
def _symbols(tex: str) -> tuple[Found, ...]:
    """``symbols``, read once per fragment: the notation, the search index and each page's
    statement read the same few thousand fragments again and again."""
    found, k = [], 0
    while k < len(tex):
        ch = tex[k]
        start, base, accent = k, None, ""
        m = _COMMAND.match(tex, k)
        if m and m.group(1) in ACCENTS:
            after = _argument(tex, m.end())
            inner = _plain_argument(tex[m.end() : after])
            if re.fullmatch(r"[A-Za-z]|\\[A-Za-z]+", inner) and (inner[0] != "\\" or inner[1:] in GREEK):
                base, accent, k = inner, m.group(1), after
            else:
                k = m.end()
                continue
        elif m:
            if m.group(1) in GREEK:
                base, k = "\\" + m.group(1), m.end()
            elif m.group(1) in WORDS and m.end() < len(tex) and tex[m.end()] == "{":
                k = _group(tex, m.end())
                continue
            else:
                k = m.end()
                continue
        elif ch.isalpha() and ch.isascii():
            base, k = ch, k + 1
        else:
            k += 1
            continue
        sub = sup = ""
        while True:
            j = k
            while j < len(tex) and tex[j] == " ":
                j += 1
            if j < len(tex) and tex[j] == "_" and not sub:
                end = _argument(tex, j + 1)
                sub, k = _plain_argument(tex[j + 1 : end]), end
            elif j < len(tex) and tex[j] == "^" and not sup and _lettered(tex[j + 1 : _argument(tex, j + 1)]):
                end = _argument(tex, j + 1)
                sup, k = _plain_argument(tex[j + 1 : end]), end
            else:
                break
        head = f"\\{accent}{{{base}}}" if accent else base
        canonical = head + (f"_{{{sub}}}" if sub else "") + (f"^{{{sup}}}" if sup else "")
        found.append(Found(tex[start:k], canonical, base, start, k))
    return tuple(found)


def name(canonical: str) -> str:
    """A symbol as a reader types it: ``\\beta`` -> ``beta``, ``H_{kv}`` -> ``H_kv``, ``d_{\\text{head}}``
    -> ``d_head``, ``d^{R}_{h}`` -> ``d_h^R``, ``\\bar{\\alpha}_{t}`` -> ``alpha-bar_t``."""
    text = re.sub(r"\\(?:text|mathrm)\s*\{([^{}]*)\}", r"\1", canonical)
    text = re.sub(r"\\(bar|hat|tilde|vec|dot|ddot|overline|widehat|widetilde)\{\\?([A-Za-z]+)\}", r"\2-\1", text)
    text = text.replace("\\ast", "*").replace("\\star", "*").replace("\\prime", "'")
    text = re.sub(r"\\([A-Za-z]+)", r"\1", text)
    return re.sub(r"[{}\s]", "", text)


def base(canonical: str) -> str:
    """The letter a symbol is written on: ``\\beta`` for ``\\beta_{T}``, ``\\alpha`` for ``\\bar{\\alpha}_{t}``."""
    return symbols(canonical)[0].base


def anchor(canonical: str) -> str:
    """The symbol's id on /notation/: ``sym-`` and its name, every other character a dash."""
    return "sym-" + re.sub(r"[^A-Za-z0-9_]+", "-", name(canonical).replace("*", "star")).strip("-")


# ----------------------------------------------------------------------------- an entry's symbols


@dataclass(frozen=True)
class Use:
    """A symbol in one entry: what it means there (the field it names, if any) and its unit."""

    entry: Entry
    canonical: str
    field: str = ""  # the input or output it names ("" when it is only written in the TeX)
    kind: str = ""  # "input" or "output"
    meaning: str = ""
    unit: str = ""


def _defines(symbol: str) -> Found | None:
    """The one symbol a field's TeX names: all of it (``H_{kv}``), or the left of its ``=``."""
    head = symbol.split("=", 1)[0].strip()
    found = symbols(head)
    if len(found) == 1 and not head[: found[0].start].strip() and not head[found[0].end :].strip():
        return found[0]
    return None


def fields(entry: Entry) -> dict[str, list[tuple[str, str, str, str]]]:
    """canonical symbol -> [(field name, kind, label, unit), ...], for each field that names one symbol
    (an input first: the statement's symbol is marked with the first)."""
    named: dict[str, list] = {}
    for kind, items in (("input", entry.inputs), ("output", entry.outputs)):
        for item in items:
            found = _defines(item.symbol) if item.symbol.strip() else None
            if found:
                named.setdefault(found.canonical, []).append((item.name, kind, item.label, item.unit))
    return named


def statement_tex(entry: Entry) -> list[str]:
    return [tex for tex, _ in markdown.fragments(entry.statement)]


# Entries are frozen: serve, which makes the notation again at each edit, keeps most of them, and
# finds their symbols here (id -> the entry itself, so the id stays its own, and its uses).
_USES: dict = {}  # id -> the entry, and its uses (cache.kept_for)
_USES_KEPT = 8192


def uses(entry: Entry) -> list[Use]:
    """Every symbol of an entry, once each: from its statement and its fields' TeX."""
    return list(kept_for(_USES, entry, lambda: _uses(entry), bound=_USES_KEPT))


def _uses(entry: Entry) -> list[Use]:
    named = fields(entry)
    texts = statement_tex(entry) + [i.symbol for i in entry.inputs] + [o.symbol for o in entry.outputs]
    seen: dict[str, list[Use]] = {}
    for tex in texts:
        for found in symbols(tex):
            if found.canonical not in seen:
                named_by = named.get(found.canonical, [])
                seen[found.canonical] = [Use(entry, found.canonical, *field) for field in named_by] or [
                    Use(entry, found.canonical)
                ]
    return [use for found in seen.values() for use in found]


def marked_statement(entry: Entry) -> str:
    """The statement with each symbol that names a field wrapped in ``\\htmlData{sym=<field>}{...}``:
    the page pairs it with the field.  The statement as it is when marking would change its math."""
    named = fields(entry)

    def mark(tex: str) -> str:
        out, last = [], 0
        for found in symbols(tex):
            if found.canonical not in named:
                continue
            field = named[found.canonical][0]
            # In braces: a bare argument (``^k``, ``\\sqrt\\kappa``) stays one token.
            out += [tex[last : found.start], f"{{\\htmlData{{sym={field[0]}}}{{{found.tex}}}}}"]
            last = found.end
        return "".join(out) + tex[last:]

    def replace(m: re.Match) -> str:
        for group, (open_, close) in zip(m.groups(), (("$$", "$$"), ("$", "$"), ("\\(", "\\)"), ("\\[", "\\]"))):
            if group is not None:
                return open_ + mark(group) + close
        return m.group(0)

    marked = _MATH.sub(replace, entry.statement)
    return marked if len(markdown.fragments(marked)) == len(markdown.fragments(entry.statement)) else entry.statement


def index_tex(entries: list[Entry]) -> list[str]:
    """The TeX the notation page typesets: each symbol once, in its canonical form."""
    return sorted({u.canonical for e in entries for u in uses(e)})


# ----------------------------------------------------------------------------- the index


@dataclass(frozen=True)
class Meaning:
    """Uses of a group's symbols that mean one thing (their labels share a content word)."""

    labels: tuple[str, ...]
    uses: tuple[Use, ...]


@dataclass(frozen=True)
class Group:
    """Every symbol with one base (β, β₁, β_T, β*), and what each means where."""

    base: str
    symbols: tuple[str, ...]  # canonical TeX, the base alone first
    uses: tuple[Use, ...]
    meanings: tuple[Meaning, ...]

    @property
    def anchor(self) -> str:
        return anchor(self.base)

    @property
    def name(self) -> str:
        return name(self.base)

    @property
    def overloaded(self) -> bool:
        return len(self.meanings) > 1


def _words(label: str) -> set[str]:
    return {w.rstrip("s") for w in re.findall(r"[a-z]{3,}", label.lower()) if w not in STOP}


def _meanings(items: list[Use]) -> tuple[Meaning, ...]:
    """Named uses clustered by a shared content word of their labels, in order of first use."""
    clusters: list[tuple[set, list[Use]]] = []
    for use in (u for u in items if u.meaning):
        words = _words(use.meaning)
        joined = [c for c in clusters if c[0] & words]
        if not joined:
            clusters.append((set(words), [use]))
            continue
        first = joined[0]
        first[0].update(words)
        first[1].append(use)
        for other in joined[1:]:
            first[0].update(other[0])
            first[1].extend(other[1])
            clusters.remove(other)
    return tuple(Meaning(tuple(dict.fromkeys(u.meaning for u in c[1])), tuple(c[1])) for c in clusters)


GREEK_ORDER = (
    "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi pi rho sigma tau upsilon phi chi "
    "psi omega ell".split()
)


def _order(base: str) -> tuple:
    """Latin letters first (a, A, b, B, ...), then Greek in the alphabet's order."""
    if not base.startswith("\\"):
        return (0, base.lower(), base.isupper(), "")
    plain = base[1:].replace("var", "")
    place = GREEK_ORDER.index(plain.lower()) if plain.lower() in GREEK_ORDER else len(GREEK_ORDER)
    return (1, str(place).zfill(2), plain[0].isupper(), base)


def notation(entries: list[Entry]) -> list[Group]:
    """Every symbol of the bank, grouped by base."""
    by_base: dict[str, list[Use]] = {}
    for e in entries:
        for use in uses(e):
            by_base.setdefault(base(use.canonical), []).append(use)
    groups = []
    for letter, items in by_base.items():
        canon = sorted({u.canonical for u in items}, key=lambda c: (c != letter, len(c), c))
        groups.append(Group(letter, tuple(canon), tuple(items), _meanings(items)))
    return sorted(groups, key=lambda g: _order(g.base))
