"""Statement Markdown -> HTML, with ``$...$``, ``$$...$$``, ``\\( \\)`` and ``\\[ \\]`` math.

Two passes over one parser: ``fragments`` lists the TeX a text needs, so a build can
typeset all of it in one KaTeX call; ``render`` writes HTML given those results.
Raw HTML in Markdown is off: an entry cannot inject markup.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.texmath import texmath_plugin

if TYPE_CHECKING:
    from .math import Typeset

Fragment = tuple[str, bool]  # (tex, display)
_MATH = {"math_inline": False, "math_inline_double": True, "math_block": True, "math_block_eqno": True}


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "typographer": False})
    md.use(dollarmath_plugin, allow_space=False, allow_digits=True, double_inline=True)
    md.use(texmath_plugin, delimiters="brackets")
    for kind, display in _MATH.items():
        md.add_render_rule(kind, _math_rule(display))
    md.core.ruler.push("entry_links", _entry_links)
    return md


_ENTRY = re.compile(r"\b([Ee]ntry ([1-9][0-9]?))\b")


def _entry_links(state) -> None:
    """ "entry 21" in a text becomes a link to /21/, for the bank's 50 entries (not inside a link)."""
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        children, inside = [], 0
        for t in block.children:
            inside += {"link_open": 1, "link_close": -1}.get(t.type, 0)
            if t.type != "text" or inside or not _ENTRY.search(t.content):
                children.append(t)
                continue
            at = 0
            for m in _ENTRY.finditer(t.content):
                if int(m[2]) > 50:
                    continue
                children.append(_text(t.content[at : m.start()]))
                link = Token("link_open", "a", 1)
                link.attrs = {"href": f"/{m[2]}/"}
                children += [link, _text(m[1]), Token("link_close", "a", -1)]
                at = m.end()
            children.append(_text(t.content[at:]))
        block.children = children


def _text(content: str) -> Token:
    token = Token("text", "", 0)
    token.content = content
    return token


def _math_rule(display: bool):
    def rule(self, tokens, idx, options, env):
        token = tokens[idx]
        html = env["math"].fragment(token.content.strip(), display)
        if not display:
            return html
        if token.type == "math_inline_double":  # $$...$$ inside a paragraph: a block-looking span
            return f'<span class="math-display">{html}</span>'
        return f'<div class="math-display">{html}</div>\n'

    return rule


@lru_cache(maxsize=4096)
def _tokens(text: str) -> tuple:
    """Parsed once per text: check, search and render all read the same tokens (never mutated)."""
    return tuple(_parser().parse(text))


def fragments(text: str) -> list[Fragment]:
    """Every TeX fragment of ``text``, in order of appearance."""
    found = []
    for token in _tokens(text):
        for t in [token, *(token.children or [])]:
            if t.type in _MATH:
                found.append((t.content.strip(), _MATH[t.type]))
    return found


def stray_dollars(text: str) -> list[str]:
    """Text runs holding a '$' that opened no math (an unclosed or mistyped formula)."""
    found = []
    for token in _tokens(text.replace("\\$", "")):  # an escaped \$ is a dollar sign
        for t in token.children or []:
            if t.type == "text" and "$" in t.content:
                found.append(t.content.strip())
    return found


def render(text: str, math: Typeset) -> str:
    """HTML for ``text``; ``math`` holds each of its fragments typeset."""
    md = _parser()
    return md.renderer.render(list(_tokens(text)), md.options, {"math": math})


# ----------------------------------------------------------------------------- printed values
# A case's printed value is the book's text, bits of TeX included.

_TEX_WORDS = {
    r"\times": "×",
    r"\cdot": "·",
    r"\approx": "≈",
    r"\%": "%",
    r"{,}": ",",
    r"\,": "\u2009",
    r"\sim": "~",
    r"\le": "≤",
    r"\ge": "≥",
    r"\infty": "∞",
    r"\pm": "±",
    "~": "\u00a0",
}
_SUPERSCRIPTS = str.maketrans("0123456789-+", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺")


def printed_text(text: str) -> str:
    """A printed value's bits of TeX as plain text: '1.56\\times10^{23}' -> '1.56×10²³'."""
    for tex, plain in _TEX_WORDS.items():
        text = text.replace(tex, plain)
    text = re.sub(r"\^\{([-+0-9]+)\}|\^([-+]?[0-9])", lambda m: (m[1] or m[2]).translate(_SUPERSCRIPTS), text)
    text = re.sub(r"\\(?:text|mathrm)\{([^}]*)\}", r"\1", text)
    return text.replace("\\(", "").replace("\\)", "").strip()


def printed_math(text: str) -> str | None:
    """The TeX of a printed value that plain text cannot show (a root, a fraction, a fractional power), else None."""
    if not re.search(r"[\\^_{}]", printed_text(text)):
        return None
    return text.strip().removeprefix("\\(").removesuffix("\\)").strip()
