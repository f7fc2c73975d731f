"""Typeset TeX behind one object, and KaTeX's errors shown where in the TeX they arose."""

from __future__ import annotations

import pytest

from site_builder.tex import markdown, math
from site_builder.tex.typeset import marked


def test_a_fragment_never_typeset_is_named_with_its_cure():
    typeset = math.Typeset({("x^2", False): "<x²>"})
    assert typeset.inline("x^2") == "<x²>"
    with pytest.raises(math.NotTypeset) as raised:
        typeset.block("x^2")  # typeset inline only
    assert not isinstance(raised.value, KeyError)
    message = str(raised.value)
    assert "the display TeX 'x^2' was never sent to KaTeX" in message
    assert "typeset.tex_sources" in message


def test_markdown_takes_its_math_from_the_typeset_fragments():
    typeset = math.Typeset({("a", False): "<A>"})
    assert markdown.render("see $a$", typeset) == "<p>see <A></p>\n"
    with pytest.raises(math.NotTypeset, match=r"the inline TeX 'b' was never sent"):
        markdown.render("see $b$", typeset)


@pytest.mark.node  # KaTeX runs in Node
def test_katex_reports_where_it_stopped():
    (bad,) = math.typeset([("a + \\nosuchcommand", False)])
    assert bad.html is None
    assert bad.error == "Undefined control sequence: \\nosuchcommand"
    assert bad.position == 4
    (end,) = math.typeset([("\\frac{a}{", False)])
    assert end.position == len("\\frac{a}{")


def test_the_place_is_marked_with_the_tex_on_either_side():
    assert marked("a + \\foo", 4) == "at character 5: 'a + ' ^ '\\\\foo'"
    assert marked("\\frac{a}{", 9) == "at the end of the TeX"
    long = "x" * 40 + "\\foo" + "y" * 40
    assert marked(long, 40) == "at character 41: '..." + "x" * 30 + "' ^ '\\\\foo" + "y" * 26 + "...'"


def test_positions_count_characters_as_python_does():
    # KaTeX counts UTF-16 code units: a character beyond the BMP is two of them.
    assert math._characters("\U0001d465 + \\foo", 5) == 4
    assert math._characters("x + \\foo", 4) == 4


CSS = (
    '@font-face{font-family:KaTeX_AMS;src:url(fonts/KaTeX_AMS-Regular.woff2) format("woff2"),'
    'url(fonts/KaTeX_AMS-Regular.woff) format("woff"),url(fonts/KaTeX_AMS-Regular.ttf) format("truetype")}'
    '@font-face{font-family:KaTeX_Main;src:url(fonts/KaTeX_Main-Regular.woff2) format("woff2")}'
    ".katex{font:normal 1.21em KaTeX_Main,serif}"
    ".katex .amsrm{font-family:KaTeX_AMS}"
    ".katex .sizing.reset-size6.size3{font-size:.5em}"
    ".katex .accent .accent-body:not(.accent-full){width:0}"
    ".katex .mfrac .frac-line,.katex .overline .overline-line{border-bottom-style:solid}"
)


def test_a_page_gets_the_katex_rules_its_math_can_match_and_the_fonts_are_declared_once_for_all():
    rules = math.katex_rules(CSS, "/katex/9/fonts/")
    html = '<span class="katex"><span class="accent"><span class="accent-body">x</span></span><span class="mfrac">'
    html += '<span class="frac-line"></span></span><span class="sizing reset-size6"></span></span>'
    css = math.page_katex_css(math.page_words(html), rules)
    assert css == (
        ".katex{font:normal 1.21em KaTeX_Main,serif}"
        ".katex .accent .accent-body:not(.accent-full){width:0}"  # (a class under :not() is not needed)
        ".katex .mfrac .frac-line,.katex .overline .overline-line{border-bottom-style:solid}"
    )
    # A class in the spec's JSON counts as in the page.
    spec = '<script type="application/json">"\\u003cspan class=\\"amsrm\\""</script>'
    css = math.page_katex_css(math.page_words(html + spec), rules)
    assert ".katex .amsrm{font-family:KaTeX_AMS}" in css and "@font-face" not in css
    # Every font is declared in the one stylesheet all pages with math share, woff2 only: a page
    # brought in by a link adds no @font-face, which would have the browser lay it out again.
    assert math.katex_fonts_css(rules) == (
        '@font-face{font-family:KaTeX_AMS;src:url(/katex/9/fonts/KaTeX_AMS-Regular.woff2) format("woff2")}'
        '@font-face{font-family:KaTeX_Main;src:url(/katex/9/fonts/KaTeX_Main-Regular.woff2) format("woff2")}'
    )


def test_a_page_gets_the_rules_of_its_own_inline_styles_it_uses_and_no_others():
    css = math.stylesheet({"ks-0000000a": "width:1em", "ks-0000000b": "top:2px", "ks-0000000c": "left:0"})
    html = '<p>θ≈<span class="mord ks-0000000a">x</span></p><script type="application/json">"class=\\"ks-0000000c\\""</script>'
    html += '<span class="ks-0000000bx">a longer name is another class</span>'
    words = math.page_words(html)
    assert {"mord", "ks-0000000a", "ks-0000000c", "ks-0000000bx", "p", "span", "class"} <= words
    assert not any("θ" in w or "≈" in w or "\\" in w for w in words)  # beyond ASCII and JSON's escapes separate words
    assert math.page_stylesheet(words, css) == ".ks-0000000a{width:1em}\n.ks-0000000c{left:0}\n"


@pytest.mark.node
def test_the_installed_katex_css_reads_as_flat_rules():
    rules = math.shipped_katex_rules()
    assert sum(bool(r.family) for r in rules) == 20
    assert all("url(/katex/" in r.text for r in rules if r.family)
