"""Typeset TeX behind one object."""

from __future__ import annotations

import pytest

from site_builder import markdown, math


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
