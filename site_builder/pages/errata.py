"""The errata: every place where the bank departs from the printed book (a worked number the book
prints that disagrees with its own formula), and every published figure the bank's count disagrees
with, each with the printed value, the bank's, and why; gathered from the entries' checks for
``/errata/``."""

from __future__ import annotations

from dataclasses import dataclass

from ..load.entry import Case, Check, Entry


@dataclass(frozen=True)
class Erratum:
    entry: Entry
    case: Case
    check: Check

    @property
    def url(self) -> str:
        return f"{self.entry.url}#case-{self.case.id}"

    @property
    def of_the_book(self) -> bool:
        """The printed book disagrees with itself (not a published paper with the entry)."""
        return self.case.origin != "published"


def errata(entries: list[Entry]) -> list[Erratum]:
    """Every check that carries an erratum, in the bank's order."""
    return [Erratum(e, c, k) for e in entries for c in e.cases for k in c.checks if k.erratum]
