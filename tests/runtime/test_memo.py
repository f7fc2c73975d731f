"""The one bounded memo (runtime/memo.py): made once per key, never more than its bound, and,
through cache.kept_for, kept only for the very object it was made for."""

from __future__ import annotations

from dataclasses import dataclass

from site_builder.cache import kept_for
from site_builder.runtime.memo import remembered


def test_a_result_is_made_once_per_key_and_a_full_memo_starts_again():
    memo, made = {}, []

    def make(k):
        made.append(k)
        return k * 10

    assert [remembered(memo, k, lambda k=k: make(k), bound=3) for k in (1, 2, 1, 3, 2)] == [10, 20, 10, 30, 20]
    assert made == [1, 2, 3]
    assert remembered(memo, 4, lambda: make(4), bound=3) == 40  # full: emptied, then 4 goes in
    assert memo == {4: 40} and made == [1, 2, 3, 4]
    assert remembered(memo, 1, lambda: make(1), bound=3) == 10 and made[-1] == 1  # made again


def test_a_result_that_no_longer_holds_is_made_again():
    memo = {}
    assert remembered(memo, "k", lambda: ("old", 1), bound=8) == ("old", 1)
    assert remembered(memo, "k", lambda: ("new", 2), bound=8, still=lambda f: f[0] == "new") == ("new", 2)
    assert remembered(memo, "k", lambda: ("newer", 3), bound=8, still=lambda f: f[0] == "new") == ("new", 2)


@dataclass(frozen=True)
class Item:
    name: str


def test_kept_for_holds_for_the_same_object_and_the_same_also_only():
    memo, made = {}, []
    a, b = Item("a"), Item("a")  # equal, not the same object

    def make(item):
        made.append(item)
        return item.name.upper()

    assert kept_for(memo, a, lambda: make(a)) == "A"
    assert kept_for(memo, a, lambda: make(a)) == "A" and made == [a]
    assert kept_for(memo, b, lambda: make(b)) == "A" and made == [a, b]  # another object: made for it
    assert kept_for(memo, a, lambda: make(a), also=1) == "A" and len(made) == 3  # asked otherwise
