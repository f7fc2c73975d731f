"""Pages from entries: pure functions of their arguments, returning HTML text.

Jinja templates live in templates/ (``_*.html`` are partials, not pages).  Everything a
template shows is prepared here; templates only lay it out.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from jinja2 import Environment, FileSystemBytecodeCache, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

from ..load.entry import PART_TITLES, Entry
from ..load.versions import Versions, unversioned
from ..runtime import page, units
from ..runtime.citation import book_bibtex, entry_citation
from ..runtime.numbers import reading, shown_input, write_input
from ..ship.assets import Assets, digest
from ..tex import markdown, notation
from ..tex.math import NotTypeset, Typeset, page_katex_css, page_stylesheet, page_words, shipped_katex_rules
from . import preset_table
from .changes import atom_feed, change_log
from .errata import errata
from .results import Results
from .spec import page_spec

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
_MATH_CSS = "/static/math/page.css"  # in a page as rendered, until its own stylesheet is named
_MATH_LINK = re.compile(r'<link rel="stylesheet" href="/(static/math/[0-9a-f]+\.css)">')


def _bytecode_cache() -> FileSystemBytecodeCache | None:
    """Compiled templates, kept with the other derived artefacts (Jinja checks each against its source)."""
    from ..cache import FOLDER

    try:
        (FOLDER / "jinja").mkdir(parents=True, exist_ok=True)
    except OSError:
        return None  # a read-only checkout compiles templates each time
    return FileSystemBytecodeCache(str(FOLDER / "jinja"))


def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        bytecode_cache=_bytecode_cache(),
        autoescape=select_autoescape(["html"]),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["script_json"] = script_json
    return env


def script_json(value) -> Markup:
    """JSON safe inside <script type="application/json">: no '<', '>' or '&' can end the element."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def first_sentence(statement: str) -> str:
    """The text of a statement up to its first full stop outside math, or up to its first
    display formula (ended with an ellipsis): one line of a list."""
    depth, i, n = None, 0, len(statement)
    while i < n:
        if depth is None and (statement.startswith("$$", i) or statement.startswith("\\[", i)):
            return " ".join(statement[:i].rstrip().rstrip(":,;").split()) + "…"
        ch = statement[i]
        if ch == "\\" and i + 1 < n:
            if statement[i + 1] == "(" and depth is None:
                depth = "\\("
            elif statement[i + 1] == ")" and depth == "\\(":
                depth = None
            i += 2
            continue
        if ch == "$":
            depth = "$" if depth is None else (None if depth == "$" else depth)
        elif ch == "." and depth is None and (i + 1 == n or statement[i + 1] in " \n"):
            before = statement[max(0, i - 3) : i]
            if not before.endswith(("e.g", "i.e", "etc", "vs")):
                return " ".join(statement[: i + 1].split())
        i += 1
    return " ".join(statement.split())


class Renderer:
    def __init__(
        self,
        entries: list[Entry],
        math: Typeset,
        assets: Assets,
        site_url: str = "",
        date: str = "1970-01-01",
        presets: dict | None = None,
        chapters: dict | None = None,
        versions: Versions | None = None,
        plans: list | None = None,
        math_css: str = "",
    ):
        self.entries = entries
        self.versions = versions or unversioned(entries)
        self.plans = plans or []  # plan.Plan items: the index and /chapters/ link them
        self.presets = presets or {}
        self.chapter_notes = chapters or {}
        self.by_key = {e.key: e for e in entries}
        self.by_url = {e.url: e for e in entries}
        # Each entry's neighbours among its own kind (the bank's, the toolkit's), and the entries
        # that name it related: found once, not by a walk of the whole bank per page.
        self.neighbours: dict[str, tuple] = {}
        for in_bank in (True, False):
            kind = [e for e in entries if e.in_bank == in_bank]
            for i, e in enumerate(kind):
                self.neighbours[e.key] = (kind[i - 1] if i > 0 else None, kind[i + 1] if i + 1 < len(kind) else None)
        self.relating: dict = {}
        for e in entries:
            for ref in dict.fromkeys(e.related):
                self.relating.setdefault(ref, []).append(e)
        self.math = math
        # The rules for KaTeX's styles as classes (tex/math.py), the whole bank's: each page links
        # a stylesheet of the ones it uses, named by its content, so pages that use the same share it.
        self.math_css = math_css
        self.math_sheets: dict[str, bytes] = {}
        self.assets = assets
        self.site_url = site_url
        self.date = date
        self.env = environment()

    def md(self, text: str) -> Markup:
        return Markup(markdown.render(text, self.math))

    def statement(self, entry: Entry) -> Markup:
        """An entry's statement, each symbol that names a field marked for the page's highlight."""
        marked = notation.marked_statement(entry)
        try:
            return self.md(marked)
        except NotTypeset:  # marking broke a formula KaTeX took as written: the statement as written
            return self.md(entry.statement)

    def one_line(self, entry: Entry) -> Markup:
        """An entry's statement cut to its first sentence, inline (no display formula), for a list."""
        text = first_sentence(entry.statement)
        try:
            html = self.md(text)
        except NotTypeset:
            return Markup(escape(" ".join(re.sub(r"\$+|\\[()\[\]]", " ", text).split())))
        return Markup(re.sub(r"^<p>|</p>\s*$", "", str(html).strip()))

    def tex(self, symbol: str) -> Markup:
        """One inline TeX symbol, typeset (typeset.tex_sources sent every symbol to KaTeX)."""
        return Markup(self.math.inline(symbol.strip())) if symbol.strip() else Markup("")

    def chapter(self, number: int):
        """What chapter ``number`` covers (a Chapter), or None when entries/_chapters.yaml is absent."""
        return self.chapter_notes.get(number)

    def source(self, text: str) -> Markup:
        """Where in the book a case is printed, for readers: the seed file's name gives way to its part's,
        and a chapter named there links to what it covers."""
        plain = re.sub(r"^[0-9]{3}_[0-9a-f]+\.txt \(([^)]*)\)", r"\1", text)

        def link(m: re.Match) -> str:
            chapter = self.chapter(int(m.group(1)))
            if chapter is None:
                return m.group(0)
            return (
                f'<a href="/chapters/#ch-{chapter.number}">Chapter {chapter.number}</a> '
                f'<span class="chapter-short">({escape(chapter.short)})</span>'
            )

        return Markup(re.sub(r"\bChapter (\d+)\b", link, str(escape(plain))))

    def printed(self, text: str) -> str:
        """A printed value as plain text ('1.56\\times10^{23}' -> '1.56×10²³'), typeset where it needs math."""
        tex = markdown.printed_math(text)
        if tex:
            return Markup(self.math.inline(tex))
        # A long number may break after a digit group's comma on a narrow screen, nowhere else.
        return Markup(re.sub(r"(?<=\d),(?=\d{3})", ",<wbr>", str(escape(markdown.printed_text(text)))))

    def _page(self, template: str, **context) -> str:
        """``template`` rendered; a page without typeset math links no math CSS (KaTeX's rules, its own)."""
        page = self.env.get_template(template)
        html = page.render(assets=self.assets, r=self, math=True, math_css=_MATH_CSS, **context)
        if 'class="katex' not in html:
            return page.render(assets=self.assets, r=self, math=False, math_css="", **context)
        # KaTeX's rules this page's math can match, then the page's own (its inline styles as
        # classes): one stylesheet, in the order the two were once linked.
        words = page_words(html)
        rules = (page_katex_css(words, shipped_katex_rules()) + "\n" + page_stylesheet(words, self.math_css)).encode()
        path = f"static/math/{digest(rules)}.css"
        self.math_sheets[path] = rules
        return html.replace(_MATH_CSS, "/" + path)

    def math_sheets_of(self, html: str) -> dict[str, bytes]:
        """The math stylesheet a page rendered here links, as a file of the site ({} for none)."""
        return {path: self.math_sheets[path] for path in _MATH_LINK.findall(html)}

    def index(self) -> str:
        parts = []
        for numeral, title in PART_TITLES.items():
            bank = [e for e in self.entries if e.in_bank and e.part == numeral]
            # Each Part's entries under their chapters, in the bank's order.
            groups = [(c, [e for e in bank if e.chapter == c]) for c in sorted({e.chapter for e in bank})]
            parts.append((numeral, title, groups))
        toolkit = sorted((e for e in self.entries if not e.in_bank), key=lambda e: (e.chapter, e.title.lower()))
        return self._page("index.html", parts=parts, toolkit=toolkit, count=sum(e.in_bank for e in self.entries))

    def synthesis(self, prompts, intro: str) -> str:
        linked = [
            (
                p,
                [self.by_key[str(k)] for k in p.entries],
                [(label, [self.by_key[str(k)] for k in group]) for label, group in p.groups],
            )
            for p in prompts
        ]
        return self._page("synthesis.html", prompts=linked, intro=intro)

    def about(self, licences: dict, prompts=()) -> str:
        """The book, what the site is, how its numbers are checked, how to cite it, and the licences."""
        bank = [e for e in self.entries if e.in_bank]
        cases = [c for e in self.entries for c in e.cases]
        origins = {}
        for c in cases:
            origins[c.origin] = origins.get(c.origin, 0) + 1
        example = self.by_key.get("35") or self.entries[0]
        meta = self.meta(example)
        return self._page(
            "about.html",
            bank=bank,
            toolkit=[e for e in self.entries if not e.in_bank],
            cases=cases,
            origins=origins,
            inverse=sum(1 for c in cases if c.solve),
            errata=sum(1 for c in cases for k in c.checks if k.erratum),
            checks=sum(len(c.checks) for c in cases),
            prompts=prompts,
            licences=licences,
            book_bibtex=book_bibtex(),
            example=example,
            example_citation=entry_citation(meta),
        )

    def changes(self) -> str:
        """Every release and what it changed, entry by entry (changes.py)."""
        return self._page("changes.html", logged=change_log(self.versions, self.entries), release=self.versions.release)

    def changes_feed(self) -> str:
        return atom_feed(change_log(self.versions, self.entries), self.site_url)

    def errata(self) -> str:
        """Where the bank departs from the printed book, then the published figures it disagrees with."""
        found = errata(self.entries)
        groups = [
            (
                "Departures from the printed book",
                [e for e in found if e.of_the_book],
                "A worked number the book prints disagrees with the book's own formula: the bank tests the corrected value.",
            ),
            (
                "Published figures the bank disagrees with",
                [e for e in found if not e.of_the_book],
                "A paper's or a model card's figure that the entry's count does not reproduce, and why.",
            ),
        ]
        labels = {e.key: {o.name: o.label for o in e.outputs} for e in self.entries}
        return self._page("errata.html", groups=[g for g in groups if g[1]], labels=labels)

    notation_name = staticmethod(notation.name)

    def notation(self) -> str:
        """Every symbol of the bank, grouped by base, with its meaning, unit and entries (notation.py)."""
        groups = notation.notation(self.entries)
        return self._page("notation.html", groups=groups, overloaded=sum(g.overloaded for g in groups))

    def not_found(self) -> str:
        return self._page("404.html")

    def toolkit(self) -> str:
        """The toolkit's entries, by chapter, each with its statement's first sentence."""
        toolkit = [e for e in self.entries if not e.in_bank]
        chapters = sorted({e.chapter for e in toolkit})
        groups = [(c, sorted((e for e in toolkit if e.chapter == c), key=lambda e: e.title.lower())) for c in chapters]
        return self._page("toolkit.html", groups=groups, count=len(toolkit))

    def chapters(self) -> str:
        chapters = sorted({e.chapter for e in self.entries} | set(self.chapter_notes))
        return self._page(
            "chapters.html", chapters=[(c, [e for e in self.entries if e.chapter == c]) for c in chapters]
        )

    def alias(self, entry: Entry) -> str:
        return self._page("alias.html", entry=entry, canonical=self.site_url + entry.url)

    def web_manifest(self) -> str:
        return (
            json.dumps(
                {
                    "name": "Derivation Bank",
                    "short_name": "Derivation Bank",
                    "start_url": "/",
                    "display": "standalone",
                    "background_color": "#fdfdfb",
                    "theme_color": "#8a3b12",
                    "icons": [{"src": "/static/icon.svg", "sizes": "any", "type": "image/svg+xml"}],
                },
                indent=2,
            )
            + "\n"
        )

    def meta(self, entry: Entry) -> dict:
        """What the page's Python needs to cite an entry and a computation."""
        return {
            "id": entry.key,
            "label": entry.label,
            "title": entry.title,
            "chapter": entry.chapter,
            "url": self.site_url + entry.url,
            "version": self.assets.version,
            "date": self.date,
            "entry_version": self.versions.current(entry.key),
            "release": self.versions.release,
        }

    @staticmethod
    def unit_menus(entry: Entry) -> list[tuple[str, dict]]:
        """(family, choices) for each display family among the entry's outputs, in a stable order."""
        present = {units.family(o.unit) for o in entry.outputs if o.unit in units.UNITS}
        return [(fam, units.CHOICES[fam]) for fam in units.CHOICES if fam in present]

    elasticity_text = staticmethod(page.elasticity_text)
    shown = staticmethod(shown_input)  # a value written for reading, not typing: whole numbers grouped

    @staticmethod
    def sweep_summary(entry: Entry, plot, sweep: dict) -> str:
        """The chart's text alternative: the range, the ends, and the current point."""
        outputs = {o.name: o for o in entry.outputs}
        x = next(i for i in entry.inputs if i.name == plot["x"])
        parts = []
        for name in plot["y"]:
            ys = [(xv, yv) for xv, yv in zip(sweep["x"], sweep["y"][name]) if yv is not None]
            if not ys:
                continue
            o = outputs[name]
            first, last = ys[0], ys[-1]
            cur = sweep["current"]["y"][name]
            parts.append(
                f"{o.label} goes from {units.write(first[1], o.format, o.unit, None)} at {x.name} = "
                f"{shown_input(first[0])} to {units.write(last[1], o.format, o.unit, None)} at {x.name} = "
                f"{shown_input(last[0])}"
                + (
                    f"; at the current {x.name} = {shown_input(sweep['current']['x'])} it is "
                    f"{units.write(cur, o.format, o.unit, None)}"
                    if cur is not None
                    else ""
                )
                + "."
            )
        scale = " (logarithmic axis)" if plot["log_x"] else ""
        return f"Chart of {', '.join(outputs[n].label for n in plot['y'])} against {x.label}{scale}. " + " ".join(parts)

    def entry(self, entry: Entry, results: Results) -> str:
        """An entry's page, showing ``results`` (made by ``results.results``)."""
        defaults = results.run
        meta = self.meta(entry)
        versions = self.versions.spec(entry.key)
        spec = page_spec(entry, results, meta, self.by_key, self.presets, versions)
        run = page.share(meta, spec["inputs"], spec["outputs"], {}, defaults, "", self.date)
        citation = {**entry_citation(meta), "run_text": run["text"], "run_bibtex": run["bibtex"]}
        first = entry.inputs[0]
        example = f"{first.name}={write_input(first.default)}"
        previous, following = self.neighbours[entry.key]
        related = [self.by_key[str(k)] for k in entry.related if str(k) in self.by_key]
        named = {r.key for r in related}
        cited_by = [e for e in self.relating.get(entry.id, []) if e.key not in named]
        # Each feed's target, and the link carrying this entry's values at the defaults there.
        feeds = [
            {"entry": self.by_key[str(feed.entry)], "label": feed.label, "inputs": feed.inputs, "href": href}
            for feed, href in zip(entry.feeds, page.feed_hrefs(spec["feeds"], defaults))
        ]
        summary = f"{entry.label} of the Derivation Bank (Chapter {entry.chapter}): {entry.title}. Compute it in your browser."
        return self._page(
            "entry.html",
            entry=entry,
            spec=spec,
            history=versions["history"],  # (the page's spec names the current version only)
            labels={**{i.name: i.label for i in entry.inputs}, **{o.name: o.label for o in entry.outputs}},
            defaults=defaults,
            cases=results.cases,
            canonical=meta["url"],
            summary=summary,
            citation=citation,
            example_query=example,
            # The build's QR code is the page's qr.svg, an image loaded when the reader opens it.
            qr_size=re.search(r'<svg width="(\d+)"', results.qr).group(1),
            default_text={i.name: write_input(i.default) for i in entry.inputs},
            default_shown={i.name: shown_input(i.default) for i in entry.inputs},
            default_echo={
                i.name: reading(write_input(i.default), is_list=i.type == "list")
                for i in entry.inputs
                if i.type != "choice"
            },
            case_queries={case.id: page.case_query(case.inputs, case.inverse) for case in entry.cases},
            previous=previous,
            next=following,
            related=related,
            cited_by=cited_by,
            feeds=feeds,
            fill=results.filling,  # the menus: each preset's name and family
            every=[
                {
                    "kind": kind,
                    "label": page.KIND_LABELS[kind],
                    "url": entry.url + preset_table.FILE.format(kind=kind),
                    "count": len(self.presets.get(kind, {})),
                }
                for kind in preset_table.kinds(entry)
            ],
            unit_menus=self.unit_menus(entry),
            unit_defaults={
                fam: units.default_name(
                    fam, [o.format for o in entry.outputs if o.unit in units.UNITS and units.family(o.unit) == fam]
                )
                for fam, _ in self.unit_menus(entry)
            },
            plots=list(zip(entry.plots, results.sweeps)),
            elasticities=results.elasticities,
            scaled_outputs=[
                o for o in entry.outputs if any(row.get(o.name) is not None for row in results.elasticities.values())
            ],
        )
