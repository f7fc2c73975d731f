"""The change log, its Atom feed and the errata, made from entries/_versions.yaml and the entries."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from site_builder.errors import Problems
from site_builder.load.load import load_all
from site_builder.load.versions import load_versions
from site_builder.pages.changes import ATOM, atom_feed, change_log
from site_builder.pages.errata import errata
from tests.support import ENTRIES, TESTS

VERSIONED = TESTS / "versioned_entries"
A = f"{{{ATOM}}}"
RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")


def logged(folder: Path):
    problems = Problems()
    entries = load_all(folder, problems)
    versions = load_versions(folder, entries, problems)
    assert not problems, problems.report()
    return entries, versions, change_log(versions, entries)


def validate_atom(text: str) -> ET.Element:
    """RFC 4287's rules for a feed and its entries: the namespace; a feed's id, title, updated, an author
    (on the feed or every entry) and a self link; each entry's id, title, updated, an alternate link and
    its summary or content; ids unique IRIs; dates RFC 3339; no element a reader would not know."""
    feed = ET.fromstring(text.encode())
    assert feed.tag == f"{A}feed"
    allowed = {"id", "title", "subtitle", "updated", "author", "link", "entry", "rights", "generator", "icon"}
    assert {child.tag.removeprefix(A) for child in feed} <= allowed
    for name in ("id", "title", "updated"):
        assert len(feed.findall(f"{A}{name}")) == 1, name
    assert RFC3339.match(feed.findtext(f"{A}updated"))
    links = {link.get("rel", "alternate"): link.get("href") for link in feed.findall(f"{A}link")}
    assert links["self"].endswith("/changes.atom") and links["alternate"].endswith("/changes/")
    feed_author = feed.find(f"{A}author/{A}name") is not None
    ids = [feed.findtext(f"{A}id")]
    for entry in feed.findall(f"{A}entry"):
        for name in ("id", "title", "updated"):
            assert len(entry.findall(f"{A}{name}")) == 1, name
        assert RFC3339.match(entry.findtext(f"{A}updated"))
        assert feed_author or entry.find(f"{A}author/{A}name") is not None
        assert any(link.get("rel", "alternate") == "alternate" for link in entry.findall(f"{A}link"))
        assert entry.find(f"{A}summary") is not None or entry.find(f"{A}content") is not None
        content = entry.find(f"{A}content")
        if content is not None:
            assert content.get("type", "text") in ("text", "html", "xhtml")
        ids.append(entry.findtext(f"{A}id"))
    assert len(ids) == len(set(ids)) and all(re.match(r"^[a-z][a-z0-9+.-]*:", i) for i in ids)
    return feed


def test_the_feed_is_valid_atom_with_one_entry_per_release_newest_first():
    entries, versions, log = logged(VERSIONED)
    feed = validate_atom(atom_feed(log, "https://example.org"))
    titles = [e.findtext(f"{A}title") for e in feed.findall(f"{A}entry")]
    assert titles == ["Release 2 (2026-06-01)", "Release 1 (2026-01-15)"]
    assert feed.findtext(f"{A}updated") == "2026-06-01T00:00:00Z"
    newest = feed.find(f"{A}entry").findtext(f"{A}content")
    assert "Entry 1: Toy training cost, version 2: The factor is 6, not 8" in newest


def test_the_banks_feed_is_valid_and_lists_every_entry_and_plan_under_release_1():
    entries, versions, log = logged(ENTRIES)
    validate_atom(atom_feed(log, "https://example.org"))
    assert [item.release.number for item in log] == sorted((r.number for r in versions.releases), reverse=True)
    listed = {c.url.split("#")[0] for item in log for c in item.entries}
    assert listed == {e.url for e in entries} | {"/plans/train/", "/plans/serve/"}


@pytest.mark.node  # reads the built site
def test_the_built_change_log_feed_and_errata_pages(site, bank):
    entries, _ = bank
    validate_atom((site / "changes.atom").read_text())
    changes = (site / "changes" / "index.html").read_text()
    assert 'id="release-1"' in changes and 'href="/changes.atom"' in changes
    for entry in entries:
        assert f'href="{entry.url}#version-1"' in changes, entry.key
    page = html.unescape((site / "errata" / "index.html").read_text())
    found = errata(entries)
    assert len(found) >= 10 and any(e.of_the_book for e in found) and any(not e.of_the_book for e in found)
    for e in found:
        assert f'href="{e.url}"' in page, e.url
        assert " ".join(e.check.erratum.split())[:60] in " ".join(page.split())
    assert "Departures from the printed book" in page and "Published figures the bank disagrees with" in page
