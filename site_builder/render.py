"""Pages from entries: pure functions of their arguments, returning HTML text.

Jinja templates live in templates/ (``_*.html`` are partials, not pages).  Everything a
template shows is prepared here; templates only lay it out.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from . import markdown
from .entry import PART_TITLES, Entry
from .runtime.numbers import write_input

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


@dataclass(frozen=True)
class Assets:
    """URLs of everything a page links, versioned where the content is immutable."""

    style: str
    page_js: str
    katex_css: str
    pyodide: str
    runtime: tuple[str, ...]
    version: str


def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(["html"]),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["script_json"] = script_json
    return env


_TEX_WORDS = {r"\times": "×", r"\cdot": "·", r"\approx": "≈", r"\%": "%", r"{,}": ",", r"\,": "\u2009",
              r"\sim": "~", r"\le": "≤", r"\ge": "≥", r"\infty": "∞", r"\pm": "±", "~": "\u00a0"}
_SUPERSCRIPTS = str.maketrans("0123456789-+", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺")


def printed_text(text: str) -> str:
    for tex, plain in _TEX_WORDS.items():
        text = text.replace(tex, plain)
    text = re.sub(r"\^\{([-+0-9]+)\}|\^([-+]?[0-9])", lambda m: (m[1] or m[2]).translate(_SUPERSCRIPTS), text)
    text = re.sub(r"\\(?:text|mathrm)\{([^}]*)\}", r"\1", text)
    return text.replace("\\(", "").replace("\\)", "").strip()


def script_json(value) -> Markup:
    """JSON safe inside <script type="application/json">: no '<', '>' or '&' can end the element."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


class Renderer:
    def __init__(self, entries: list[Entry], math: dict, assets: Assets):
        self.entries = entries
        self.by_key = {e.key: e for e in entries}
        self.math = math
        self.assets = assets
        self.env = environment()

    def md(self, text: str) -> Markup:
        return Markup(markdown.render(text, self.math))

    def tex(self, symbol: str) -> Markup:
        return Markup(markdown.render_inline(f"${symbol}$", self.math)) if symbol else Markup("")

    @staticmethod
    def printed(text: str) -> str:
        """A printed value's bits of TeX as plain text: '1.56\\times10^{23}' -> '1.56×10²³'."""
        return printed_text(text)

    def _page(self, template: str, **context) -> str:
        return self.env.get_template(template).render(assets=self.assets, r=self, **context)

    def index(self) -> str:
        parts = [(numeral, title, [e for e in self.entries if e.in_bank and e.part == numeral])
                 for numeral, title in PART_TITLES.items()]
        toolkit = [e for e in self.entries if not e.in_bank]
        return self._page("index.html", parts=parts, toolkit=toolkit, count=sum(e.in_bank for e in self.entries))

    def not_found(self) -> str:
        return self._page("404.html")

    def entry(self, entry: Entry, defaults: dict, cases: dict) -> str:
        """``defaults``: the run on default inputs; ``cases``: case id -> run on its inputs."""
        bank = [e for e in self.entries if e.in_bank == entry.in_bank]
        i = bank.index(entry)
        related = [self.by_key[str(k)] for k in entry.related if str(k) in self.by_key]
        cited_by = [e for e in self.entries if entry.id in e.related and e.key not in {r.key for r in related}]
        spec = entry.spec()
        return self._page(
            "entry.html", entry=entry, spec=spec, defaults=defaults, cases=cases,
            default_text={i.name: write_input(i.default) for i in entry.inputs},
            previous=bank[i - 1] if i > 0 else None, next=bank[i + 1] if i + 1 < len(bank) else None,
            related=related, cited_by=cited_by,
        )
