"""Citations of an entry and of one computation, as plain text and BibTeX.

Standard library only: shipped to the browser, which asks for the computation's citation
with each result, so the page and the build write citations the same way.
"""

from __future__ import annotations

BOOK = "The Arithmetic of Intelligence"
# The book's texts name no author, publisher or year: a citation gives none rather than invent them,
# and says so where a reader would look for them.
UNNAMED = "The book's texts name no author, publisher or year; add them from your copy."


def _key(meta: dict, suffix: str = "") -> str:
    return "arithmeticofintelligence-" + "".join(ch for ch in str(meta["id"]) if ch.isalnum()) + suffix


def _bib_escape(text: str) -> str:
    return "".join("\\" + ch if ch in "&%$#_{}" else ch for ch in text)


def _place(meta: dict) -> str:
    """Where in the book the entry is: a numbered result of the Derivation Bank (Appendix A), derived in a
    chapter, or toolkit material of Chapter 1 or 2."""
    if str(meta["id"]).isdigit():
        return f"Appendix A (The Derivation Bank), entry {meta['id']}, derived in Chapter {meta['chapter']}"
    return f"Chapter {meta['chapter']} (toolkit)"


def _part(meta: dict) -> str:
    """The part of the book an entry is, for BibTeX's ``chapter`` field."""
    if str(meta["id"]).isdigit():
        return f"Appendix A, The Derivation Bank, entry {meta['id']}: {meta['title']}"
    return f"Chapter {meta['chapter']}: {meta['title']}"


def _versioned(meta: dict) -> str:
    """The entry's link with its version: it opens the same numbers after the entry changes."""
    return f"{meta['url']}?version={meta['entry_version']}"


BOOK_KEY = "arithmeticofintelligence"


def book_bibtex() -> str:
    """The book itself, as a book: its title and nothing the texts do not give."""
    return "\n".join([f"% {UNNAMED}", f"@book{{{BOOK_KEY},", f"  title = {{{{{BOOK}}}}}", "}"])


def entry_citation(meta: dict) -> dict:
    """An entry as part of the book (an @inbook of the @book), read at the entry's page: the site is
    where it is read, not its author."""
    place = _place(meta)
    text = (
        f"“{meta['title']}”, version {meta['entry_version']}. In {BOOK}, {place}. Read at {_versioned(meta)} "
        f"(release {meta['release']}, site version {meta['version']})."
    )
    derived = f"Derived in Chapter {meta['chapter']}. " if str(meta["id"]).isdigit() else ""
    bibtex = "\n".join(
        [
            f"@inbook{{{_key(meta)},",
            f"  crossref     = {{{BOOK_KEY}}},",
            f"  title        = {{{{{BOOK}}}}},",
            f"  chapter      = {{{_bib_escape(_part(meta))}}},",
            f"  howpublished = {{Read at \\url{{{_versioned(meta)}}}}},",
            f"  url          = {{{_versioned(meta)}}},",
            f"  version      = {{{meta['entry_version']}}},",
            f"  note         = {{{derived}Entry version {meta['entry_version']}, release {meta['release']}, "
            f"site version {meta['version']}}}",
            "}",
            "",
            book_bibtex(),
        ]
    )
    return {"text": text, "bibtex": bibtex}


def run_citation(
    meta: dict,
    inputs: list[tuple[str, str]],
    outputs: list[tuple[str, str]],
    url: str,
    accessed: str,
    asked: str = "",
) -> dict:
    """``inputs``: (name, value as typed); ``outputs``: (label, value as written); ``asked``: for the
    answer to a question, the question in words (``solved for s where total ≤ 80GB``)."""
    given = ", ".join(f"{n} = {v}" for n, v in inputs)
    found = "; ".join(f"{label} = {value}" for label, value in outputs)
    text = (
        f"“{meta['title']}”, {asked + ', ' if asked else ''}computed with {given}: {found}. {BOOK}, {_place(meta)}; "
        f"computed at {url} (entry version {meta['entry_version']}, release {meta['release']}, "
        f"site version {meta['version']}, accessed {accessed})."
    )
    bibtex = "\n".join(
        [
            f"@misc{{{_key(meta, '-run')},",
            f"  title        = {{{{{_bib_escape(meta['title'])}: computation}}}},",
            f"  howpublished = {{Computed at \\url{{{url}}}}},",
            f"  note         = {{After {BOOK}, {_bib_escape(_place(meta))}. "
            + (f"{_bib_escape(asked[0].upper() + asked[1:])}. " if asked else "")
            + f"Inputs: {_bib_escape(given)}. "
            f"Results: {_bib_escape(found)}. Entry version {meta['entry_version']}, release {meta['release']}, "
            f"site version {meta['version']}}},",
            f"  version      = {{{meta['entry_version']}}},",
            f"  url          = {{{url}}},",
            f"  urldate      = {{{accessed}}}",
            "}",
        ]
    )
    return {"text": text, "bibtex": bibtex}
