"""The bank's TeX: which fragments each entry holds, all typeset in one KaTeX run (math.py),
with an author error at its line for each fragment KaTeX rejects."""

from __future__ import annotations

from pathlib import Path

from . import markdown, math
from .entry import Entry
from .errors import Problems


def tex_sources(entry: Entry) -> list[tuple[str, int, str]]:
    """(markdown text, line of its first line, what it is) for everything in an entry that holds TeX."""
    items = [(entry.statement, entry.block_lines["statement"], "statement")]
    if entry.notes:
        items.append((entry.notes, entry.block_lines["notes"], "notes"))
    for k, i in enumerate(entry.inputs):
        items.append((f"${i.symbol}$" if i.symbol else "", i.where.line, f"inputs[{k}].symbol"))
    for k, o in enumerate(entry.outputs):
        items.append((f"${o.symbol}$" if o.symbol else "", o.where.line, f"outputs[{k}].symbol"))
    for case in entry.cases:
        if case.quote:
            items.append((case.quote, case.where.line, f"case {case.id}: quote"))
        for c in case.checks:
            tex = markdown.printed_math(c.printed)
            if tex:
                items.append((f"${tex}$", c.where.line, f"case {case.id}: printed"))
    return items


def typeset_bank(entries: list[Entry], problems: Problems, prompts=()) -> tuple[math.Typeset, str]:
    """Typeset every fragment in one KaTeX run; record the ones KaTeX rejects at their line.

    Returns every fragment typeset and the stylesheet its classes need."""
    sources = [(entry.where.path, *source) for entry in entries for source in tex_sources(entry)]
    for prompt in prompts:
        sources += [
            (prompt.where.path, text, prompt.where.line, prompt.id) for text in (prompt.text, prompt.correction)
        ]
    located = []
    for path, text, first_line, what in sources:
        for stray in markdown.stray_dollars(text):
            problems.add(
                Path(path),
                _line_of(text, stray, first_line),
                f"{what}: '$' opens no math in {stray[:60]!r}; close the formula, or write \\$ for a dollar sign",
            )
        for fragment in markdown.fragments(text):
            located.append((path, _line_of(text, fragment[0], first_line), what, fragment))
    results, css = math.typeset_for_pages([f for *_, f in located])
    typeset = {}
    for (path, line, what, fragment), result in zip(located, results):
        if result.error:
            problems.add(Path(path), line, f"{what}: KaTeX cannot typeset {fragment[0]!r}: {result.error}")
        typeset[fragment] = result.html
    return math.Typeset(typeset), css


def _line_of(text: str, tex: str, first_line: int) -> int:
    head = tex.splitlines()[0] if tex else ""
    for offset, line in enumerate(text.splitlines()):
        if head and head in line:
            return first_line + offset
    return first_line
