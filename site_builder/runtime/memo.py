"""A bounded memo: a result remembered by its key, for a process that asks for it again (serve
between two edits, a page between two of the reader's).  Standard library only: shipped to the
browser.

The one rule for every memo of the project: it holds at most ``bound`` results, and a full one
starts again (nothing to order or evict; what is still asked for is made again at once)."""

from __future__ import annotations


def remembered(memo: dict, key, make, bound: int, still=None):
    """``make()``, kept in ``memo`` by ``key`` (while ``still(kept)`` says it holds, when given);
    a full ``memo`` (``bound`` results) is emptied before a new one goes in."""
    if key in memo:
        found = memo[key]
        if still is None or still(found):
            return found
    if len(memo) >= bound:
        memo.clear()
    found = memo[key] = make()
    return found
