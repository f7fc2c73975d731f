"""The bank's TeX: which fragments each entry holds, all typeset in one KaTeX run (math.py),
with an author error at its line for each fragment KaTeX rejects."""

from __future__ import annotations

from pathlib import Path

from ..errors import Problems
from ..load.entry import Entry
from . import markdown, math, notation

MARKED = "notation"  # TeX the build derives from an entry's own (notation.py): its errors are the source's


def tex_sources(entry: Entry) -> list[tuple[str, int, str]]:
    """(markdown text, line of its first line, what it is) for everything in an entry that holds TeX."""
    items = [(entry.statement, entry.block_lines["statement"], "statement")]
    # The statement as the page shows it: each symbol that names a field marked, for the highlight.
    # Its errors are the statement's own, reported once, as written.
    marked = notation.marked_statement(entry)
    if marked != entry.statement:
        items.append((marked, entry.block_lines["statement"], MARKED))
    if entry.notes:
        items.append((entry.notes, entry.block_lines["notes"], "notes"))
    for k, i in enumerate(entry.inputs):
        items.append((f"${i.symbol}$" if i.symbol else "", i.at("symbol").line, f"inputs[{k}].symbol"))
    for k, o in enumerate(entry.outputs):
        items.append((f"${o.symbol}$" if o.symbol else "", o.at("symbol").line, f"outputs[{k}].symbol"))
    # Each symbol as the notation index writes it.
    for canonical in sorted({t for u in notation.uses(entry) for t in (u.canonical, notation.base(u.canonical))}):
        items.append((f"${canonical}$", entry.block_lines["statement"], MARKED))
    for case in entry.cases:
        if case.quote:
            items.append((case.quote, case.at("quote").line, f"case {case.id}: quote"))
        for c in case.checks:
            tex = markdown.printed_math(c.printed)
            if tex:
                items.append((f"${tex}$", c.at("printed").line, f"case {case.id}: printed"))
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
        for stray in markdown.stray_dollars(text) if what != MARKED else ():
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
        if result.error and what == MARKED:
            continue  # the page falls back to the TeX as written (render.Renderer.statement)
        if result.error:
            tex = fragment[0]
            if result.position is not None:  # a fragment over several lines: the line KaTeX stopped on
                line += tex[: result.position].count("\n")
            problems.add(Path(path), line, f"{what}: KaTeX cannot typeset {tex!r}: {katex_error(tex, result)}")
        typeset[fragment] = result.html
    return math.Typeset(typeset), css


CONTEXT = 30  # characters of TeX shown on either side of the place KaTeX stopped


def katex_error(tex: str, result: math.Result) -> str:
    """KaTeX's words, and where in ``tex`` it stopped (when KaTeX says)."""
    return result.error if result.position is None else f"{result.error} ({marked(tex, result.position)})"


def marked(tex: str, position: int) -> str:
    """Where the character at ``position`` (0-based) is in ``tex``, the TeX on either side of a caret:
    "at character 13: '\\\\frac{a}{b} ' ^ '\\\\foo x'", or "at the end of the TeX"."""
    if position >= len(tex):
        return "at the end of the TeX"
    return f"at character {position + 1}: {_tail(tex[:position])!r} ^ {_head(tex[position:])!r}"


def _tail(text: str) -> str:
    return text if len(text) <= CONTEXT else "..." + text[-CONTEXT:]


def _head(text: str) -> str:
    return text if len(text) <= CONTEXT else text[:CONTEXT] + "..."


def _line_of(text: str, tex: str, first_line: int) -> int:
    head = tex.splitlines()[0] if tex else ""
    for offset, line in enumerate(text.splitlines()):
        if head and head in line:
            return first_line + offset
    return first_line
