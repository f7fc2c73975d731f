"""The published URL map: every page, every alias, and the host's redirects for the aliases.

A bank entry lives at /N/ with its slug as an alias (/kv-cache-size/ -> /35/); a toolkit
entry at /toolkit/<id>/.  Aliases work on Netlify through netlify.toml's redirects and on
any plain static host through a small redirect page.
"""

from __future__ import annotations

import re
import tomllib
from functools import lru_cache
from pathlib import Path

from ..load.entry import Entry

ROOT = Path(__file__).resolve().parents[2]
NETLIFY = ROOT / "netlify.toml"
PAGES = ("/", "/chapters/", "/toolkit/", "/synthesis/", "/about/", "/changes/", "/errata/", "/notation/", "/404.html")
FEEDS = ("/changes.atom",)
BEGIN, END = "# BEGIN entry aliases (python -m site_builder urls --write)", "# END entry aliases"


@lru_cache(maxsize=1)
def site_url() -> str:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return config["tool"]["derivation-bank"]["site-url"].rstrip("/")


def aliases(entries: list[Entry]) -> dict[str, str]:
    """Alias path -> canonical path, for every bank entry."""
    return {f"/{e.slug}/": e.url for e in entries if e.in_bank}


def plan_urls(entries_dir: Path = ROOT / "entries") -> list[str]:
    """The plans' pages: entries/plans/<name>-plan.yaml is published at /plans/<name>/."""
    return [
        f"/plans/{p.stem.removesuffix('-plan')}/" for p in sorted((Path(entries_dir) / "plans").glob("*-plan.yaml"))
    ]


def url_map(entries: list[Entry], plans: list[str] | None = None) -> list[str]:
    """Every published URL, one line each: pages, plan pages, entry pages, aliases with their targets."""
    lines = [f"page {p}" for p in PAGES]
    lines += [f"feed {f}" for f in FEEDS]
    lines += [f"plan {u}" for u in (plan_urls() if plans is None else plans)]
    lines += [f"entry {e.url}" for e in entries]
    lines += [f"alias {a} -> {t}" for a, t in aliases(entries).items()]
    return lines


def netlify_block(entries: list[Entry]) -> str:
    rules = []
    for alias, target in aliases(entries).items():
        for source in (alias, alias.rstrip("/")):
            rules.append(f'[[redirects]]\n  from = "{source}"\n  to = "{target}"\n  status = 301\n  force = true\n')
    return BEGIN + "\n" + "\n".join(rules) + END + "\n"


def netlify_with_aliases(text: str, entries: list[Entry]) -> str:
    """netlify.toml's text with its alias block replaced (or appended)."""
    block = netlify_block(entries)
    pattern = re.compile(re.escape(BEGIN) + r".*?" + re.escape(END) + r"\n?", re.S)
    if pattern.search(text):
        return pattern.sub(lambda _: block, text)
    return text.rstrip("\n") + "\n\n" + block
