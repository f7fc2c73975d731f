"""Citations of an entry and of one computation, as plain text and BibTeX.

Standard library only: shipped to the browser, which asks for the computation's citation
with each result, so the page and the build write citations the same way.
"""

from __future__ import annotations

BOOK = "The Arithmetic of Intelligence"


def _key(meta: dict, suffix: str = "") -> str:
    return "derivationbank" + "".join(ch for ch in str(meta["id"]) if ch.isalnum()) + suffix


def _bib_escape(text: str) -> str:
    return "".join("\\" + ch if ch in "&%$#_{}" else ch for ch in text)


def entry_citation(meta: dict) -> dict:
    where = f"{meta['label']}, after {BOOK}, Chapter {meta['chapter']}"
    text = (f"Derivation Bank, {meta['label']}: “{meta['title']}” (after {BOOK}, Chapter {meta['chapter']}). "
            f"{meta['url']} (site version {meta['version']}).")
    bibtex = "\n".join([
        f"@misc{{{_key(meta)},",
        f"  title        = {{{{{_bib_escape(meta['title'])}}}}},",
        "  author       = {{Derivation Bank}},",
        f"  howpublished = {{\\url{{{meta['url']}}}}},",
        f"  note         = {{{_bib_escape(where)}. Site version {meta['version']}}},",
        f"  year         = {{{meta['date'][:4]}}}",
        "}",
    ])
    return {"text": text, "bibtex": bibtex}


def run_citation(meta: dict, inputs: list[tuple[str, str]], outputs: list[tuple[str, str]], url: str, accessed: str) -> dict:
    """``inputs``: (name, value as typed); ``outputs``: (label, value as written)."""
    given = ", ".join(f"{n} = {v}" for n, v in inputs)
    found = "; ".join(f"{label} = {value}" for label, value in outputs)
    text = (f"Derivation Bank, {meta['label']}: “{meta['title']}”, computed with {given}: {found}. "
            f"{url} (site version {meta['version']}, accessed {accessed}).")
    bibtex = "\n".join([
        f"@misc{{{_key(meta, 'run')},",
        f"  title        = {{{{{_bib_escape(meta['title'])}: computation}}}},",
        "  author       = {{Derivation Bank}},",
        f"  howpublished = {{\\url{{{url}}}}},",
        f"  note         = {{{_bib_escape(meta['label'])}. Inputs: {_bib_escape(given)}. Results: {_bib_escape(found)}. "
        f"Site version {meta['version']}}},",
        f"  year         = {{{accessed[:4]}}},",
        f"  urldate      = {{{accessed}}}",
        "}",
    ])
    return {"text": text, "bibtex": bibtex}
