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
