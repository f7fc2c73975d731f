"""TeX -> HTML+MathML through KaTeX from the npm package: the only module that knows how KaTeX runs.

All fragments of a build go to one Node process.  No KaTeX JavaScript reaches the browser;
pages carry the rendered markup and link, in their own math stylesheet, the KaTeX rules and fonts their math uses.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..cache import Cache, key

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).with_name("katex.mjs")


@dataclass(frozen=True)
class Result:
    """One fragment typeset: its HTML, or KaTeX's error and where in the TeX it arose."""

    html: str | None
    error: str | None = None
    position: int | None = None  # the offending character's index in the TeX, as Python counts


class MathToolMissing(RuntimeError):
    """Node or the katex npm package is not installed."""


class NotTypeset(LookupError):
    """A page asked for TeX that was never sent to KaTeX."""


Fragment = tuple[str, bool]  # (tex, display), as markdown.fragments lists them


class Typeset:
    """Every fragment of the bank, typeset: the one place pages take typeset TeX from.

    A fragment the build never sent to KaTeX is a clear error naming it, not a KeyError."""

    def __init__(self, html: dict[Fragment, str] | None = None):
        self._html = dict(html or {})

    def fragment(self, tex: str, display: bool) -> str:
        """The HTML of one fragment, as markdown.fragments lists it."""
        try:
            return self._html[(tex, display)]
        except KeyError:
            kind = "display" if display else "inline"
            raise NotTypeset(
                f"the {kind} TeX {tex!r} was never sent to KaTeX: add the field that holds it "
                "to typeset.tex_sources, which lists every text of an entry that holds TeX"
            ) from None

    def inline(self, tex: str) -> str:
        return self.fragment(tex, False)

    def merged(self, other: Typeset) -> Typeset:
        """These fragments and ``other``'s (``serve`` adds an edited entry's to the bank's)."""
        return Typeset({**self._html, **other._html})

    def block(self, tex: str) -> str:
        return self.fragment(tex, True)


def katex_dir() -> Path:
    return ROOT / "node_modules" / "katex"


def katex_version() -> str:
    return json.loads((katex_dir() / "package.json").read_text())["version"]


def typeset(fragments: list[tuple[str, bool]]) -> list[Result]:
    """Each (tex, display) fragment typeset, in order; errors are KaTeX's own words."""
    if not fragments:
        return []
    cache = Cache("katex")  # results depend only on the TeX and KaTeX's version
    version = katex_version()
    keys = {f: key(version, f[0], str(f[1])) for f in dict.fromkeys(fragments)}
    missing = [f for f, k in keys.items() if cache.get(k) is None]
    if missing:
        for fragment, result in zip(missing, _run_katex(missing)):
            cache.put(keys[fragment], result)
        cache.save()
    results = []
    for f in fragments:
        found = cache.get(keys[f])
        position = found.get("position")
        results.append(
            Result(found.get("html"), found.get("error"), None if position is None else _characters(f[0], position))
        )
    return results


def _characters(tex: str, units: int) -> int:
    """KaTeX's position (JavaScript counts UTF-16 code units) as an index into the Python string."""
    return len(tex.encode("utf-16-le")[: 2 * units].decode("utf-16-le", errors="ignore"))


# A KaTeX process kept alive (katex_process.py, while serve runs); otherwise one Node per batch.
kept_alive = None


def katex_command(*args: str) -> tuple[list[str], dict]:
    """The command that runs katex.mjs (with ``args``) and its environment; MathToolMissing without Node or KaTeX."""
    node = shutil.which("node")
    if node is None or not katex_dir().is_dir():
        raise MathToolMissing("KaTeX needs Node.js and `npm ci` in the project folder")
    return [node, str(SCRIPT), *args], {**os.environ, "NODE_PATH": str(ROOT / "node_modules")}


def _run_katex(unique: list[tuple[str, bool]]) -> list[dict]:
    if kept_alive is not None:
        return kept_alive.run(unique)
    command, env = katex_command()
    proc = subprocess.run(command, input=json.dumps(unique), capture_output=True, text=True, cwd=ROOT, env=env)
    if proc.returncode != 0:
        raise MathToolMissing(f"KaTeX process failed: {proc.stderr.strip()[:2000]}")
    return json.loads(proc.stdout)


_SCRIPTED_OPERATOR = re.compile(r"<(msub|msup|msubsup|munder|mover|munderover)>(<mo\b[^>]*>[^<]*</mo>)")


# KaTeX writes \lambda_{\max} as <msub> with three children: the script and an invisible
# function application (U+2061) after it. A script element takes exactly two.
_SCRIPT_WITH_APPLY = re.compile(r"(<mi\b[^>]*>[^<]*</mi>)(<mo>\u2061</mo>)(</msub>|</msup>|</msubsup>)")


def valid_mathml(html: str) -> str:
    """KaTeX's MathML made valid for strict validators, rendering unchanged: an operator as a script's
    base, or a script followed by a function application, wrapped in <mrow>."""
    html = _SCRIPT_WITH_APPLY.sub(r"<mrow>\1\2</mrow>\3", html)
    return _SCRIPTED_OPERATOR.sub(r"<\1><mrow>\2</mrow>", html)


def typeset_for_pages(fragments: list[tuple[str, bool]]) -> tuple[list[Result], str]:
    """As ``typeset``, with inline styles turned into classes, and the stylesheet for them.

    The rewriting is a pure function of KaTeX's output, so it is cached beside it."""
    rules: dict[str, str] = {}
    cache = Cache("katex-pages")
    results = []
    for t in typeset(fragments):
        if not t.html:
            results.append(t)
            continue
        k = key(t.html)
        done = cache.get(k)
        if done is None:
            own: dict[str, str] = {}
            done = [valid_mathml(without_inline_styles(t.html, own)), own]
            cache.put(k, done)
        rules.update(done[1])
        results.append(Result(done[0], None))
    cache.save()
    return results, stylesheet(rules)


_STYLED_TAG = re.compile(r'<(\w+)((?:\s[^>]*?)?)\sstyle="([^"]*)"([^>]*)>')
_CLASS = re.compile(r'\sclass="([^"]*)"')


def style_class(style: str) -> str:
    return "ks-" + hashlib.sha1(style.encode()).hexdigest()[:8]


def without_inline_styles(html: str, rules: dict[str, str]) -> str:
    """KaTeX's style="..." attributes as classes (collected in ``rules``), so pages need no 'unsafe-inline'."""

    def replace(m: re.Match) -> str:
        tag, before, style, after = m.groups()
        name = style_class(style)
        rules[name] = style
        attrs = before + after
        if _CLASS.search(attrs):
            attrs = _CLASS.sub(lambda c: f' class="{c.group(1)} {name}"', attrs, count=1)
        else:
            attrs = f' class="{name}"' + attrs
        return f"<{tag}{attrs}>"

    return _STYLED_TAG.sub(replace, html)


def stylesheet(rules: dict[str, str]) -> str:
    """The CSS for ``without_inline_styles``' classes, in a stable order."""
    return "".join(f".{name}{{{style}}}\n" for name, style in sorted(rules.items()))


_RULE = re.compile(r"^\.(ks-[0-9a-f]{8})\{", re.M)
# A word of a page is a run of these characters; anything else (a quote, a space, a backslash of
# the spec's JSON, every byte of a character beyond ASCII) separates two.
_WORD_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_SEPARATED = bytes(c if c in _WORD_BYTES else 0x20 for c in range(256))


def page_words(html: str) -> frozenset[str]:
    """Every word of a page (its text, its attributes and its spec), where a class name is one
    word: what ``page_katex_css`` and ``page_stylesheet`` look for.  One pass of bytes.translate
    (a regular expression's two passes took 9 ms a page, a third of rendering it)."""
    return frozenset(html.encode().translate(_SEPARATED).decode("ascii").split())


def page_stylesheet(words: frozenset[str], css: str) -> str:
    """The rules of ``stylesheet``'s ``css`` whose class is one of a page's ``words``
    (``page_words``), in the same order: a page links these few instead of the whole site's."""
    return "".join(line for name, line in _rules(css) if name in words)


@lru_cache(maxsize=2)
def _rules(css: str) -> tuple[tuple[str, str], ...]:
    """Each rule of ``css`` with its class, read once per stylesheet (not once per page)."""
    return tuple((m.group(1), line + "\n") for line in css.splitlines() if (m := _RULE.match(line)))


# ---- KaTeX's own stylesheet: per page, the rules a page's math can match; for all pages, the fonts

_BLOCK = re.compile(r"([^{}]+)\{([^{}]*)\}")
_NEGATED = re.compile(r":not\([^()]*\)")
_SELECTOR_CLASS = re.compile(r"\.([A-Za-z0-9_-]+)")
_FONT_FAMILY = re.compile(r"font-family:([^;}]+)")


@dataclass(frozen=True)
class KatexRule:
    """One block of katex.min.css: an @font-face (``family`` it declares) or a rule with, for each
    of its selectors, the classes an element must carry for it to match (classes under :not() left
    out: their absence does not stop a match)."""

    text: str
    family: str = ""
    needs: tuple[frozenset[str], ...] = ()


def katex_rules(css: str, fonts_url: str) -> tuple[KatexRule, ...]:
    """katex.min.css as rules: woff2 fonts only (every current browser reads them), linked at
    ``fonts_url``.  The file is flat (no @media, no nesting), which this reading relies on."""
    css = re.sub(r',url\(fonts/[^)]+\.(?:woff|ttf)\) format\("(?:woff|truetype)"\)', "", css)
    css = css.replace("url(fonts/", f"url({fonts_url}")
    blocks = _BLOCK.findall(css)
    assert "".join(f"{s}{{{d}}}" for s, d in blocks) == css.strip(), "katex.min.css is no longer flat"
    rules = []
    for selectors, declarations in blocks:
        text = f"{selectors}{{{declarations}}}"
        if selectors.strip() == "@font-face":
            family = _FONT_FAMILY.search(declarations).group(1).strip()
            rules.append(KatexRule(text, family=family))
            continue
        needs = tuple(
            frozenset(_SELECTOR_CLASS.findall(_NEGATED.sub("", selector))) for selector in selectors.split(",")
        )
        rules.append(KatexRule(text, needs=needs))
    return tuple(rules)


def page_katex_css(words: frozenset[str], rules: tuple[KatexRule, ...]) -> str:
    """KaTeX's rules that could match in a page (every class a selector needs is one of the page's
    ``words``, ``page_words``), in KaTeX's order: a page links these, with ``katex_fonts_css``,
    instead of all of katex.min.css, and renders the same."""
    return "".join(r.text for r in rules if not r.family and any(need <= words for need in r.needs))


def katex_fonts_css(rules: tuple[KatexRule, ...]) -> str:
    """Every @font-face of KaTeX's, one stylesheet shared by all pages with math.  A font declared
    is fetched only when a page's text uses it; declared again in each page's own stylesheet, every
    page Turbo brought in made the browser match its fonts and lay the page out anew (a link
    between two entries took 60 ms longer)."""
    return "".join(r.text for r in rules if r.family)


_shipped: tuple[KatexRule, ...] | None = None


def shipped_katex_rules() -> tuple[KatexRule, ...]:
    """The installed KaTeX's rules, its fonts linked where the site ships them (/katex/<version>/fonts/)."""
    global _shipped
    if _shipped is None:
        css = (katex_dir() / "dist" / "katex.min.css").read_text(encoding="utf-8")
        _shipped = katex_rules(css, f"/katex/{katex_version()}/fonts/")
    return _shipped
