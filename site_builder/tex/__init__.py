"""Typesetting: KaTeX in Node, statement Markdown, the notation's symbols, TeX errors at their line."""
