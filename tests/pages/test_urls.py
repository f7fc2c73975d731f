"""Published URLs never change by accident: the full map is pinned in tests/data/urls.txt.

Regenerate it only on purpose: python -m site_builder urls > tests/data/urls.txt
"""

from __future__ import annotations

import pytest

from site_builder.pages.urls import NETLIFY, aliases, netlify_with_aliases, url_map
from site_builder.serve.host import host_rules
from tests.support import TESTS

PINNED = TESTS / "data" / "urls.txt"


def test_the_url_map_is_the_pinned_one(bank):
    entries, _ = bank
    assert url_map(entries) == PINNED.read_text().splitlines()


@pytest.mark.node
def test_every_mapped_url_is_published(bank, site):
    entries, _ = bank
    for line in url_map(entries):
        path = line.split()[1]
        target = site / path.lstrip("/")
        assert (target / "index.html").is_file() or target.is_file(), line


def test_netlify_redirects_every_alias_to_its_entry(bank):
    entries, _ = bank
    text = NETLIFY.read_text()
    assert netlify_with_aliases(text, entries) == text, "run: python -m site_builder urls --write"
    _, redirects = host_rules()
    rules = {(r["from"], r["to"], r["status"]) for r in redirects}
    for alias, target in aliases(entries).items():
        assert (alias, target, 301) in rules and (alias.rstrip("/"), target, 301) in rules


@pytest.mark.node
def test_alias_pages_forward_on_a_plain_static_host(bank, site):
    entries, _ = bank
    for alias, target in aliases(entries).items():
        html = (site / alias.strip("/") / "index.html").read_text()
        assert f'<meta http-equiv="refresh" content="0; url={target}">' in html
        assert f'data-target="{target}"' in html
