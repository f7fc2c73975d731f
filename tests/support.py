"""What the test modules share that is not a fixture: the project's folders, Chromium's flags, the
programs the ``node`` and ``browser`` markers stand for, and the bank, loaded and checked once per
session however many modules parametrize over it."""

from __future__ import annotations

import functools
import shutil
from pathlib import Path

from site_builder import bank
from site_builder.errors import Problems

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"  # the fixtures and data beside the test folders
ENTRIES = ROOT / "entries"

# The flags Chromium needs on a machine with no network but loopback.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # A test's second tab puts its first in the background, where Chromium runs timers once a
    # second: every wait on the page would poll at 1 Hz.
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
]

# What each marker stands for: the programs a test so marked may start (conftest.py refuses the
# others).  Playwright's own driver, a Node binary inside its Python package, is part of the
# Python install, not of Node.js.
NEEDS = {
    "node": {"node"},
    "browser": {"chromium", "firefox-esr", "firefox", "WebKitWebDriver", "MiniBrowser", "xvfb-run", "lighthouse"},
}
PLAYWRIGHT_DRIVER = "/playwright/driver/"


def refused(program: str, marks: set[str]) -> str | None:
    """The marker a test carrying ``marks`` lacks to start ``program``, or None when it may."""
    if PLAYWRIGHT_DRIVER in program.replace("\\", "/"):
        return None
    name = Path(program).name
    return next((mark for mark, programs in NEEDS.items() if name in programs and mark not in marks), None)


@functools.cache
def load_bank():
    """(entries, calculators) of entries/, checked: computed once, shared by every module and fixture.

    The result is shared, so a test must not change it; a test that needs to edit an entry loads its own."""
    problems = Problems()
    checked = bank.gather(ENTRIES, problems, steps=bank.CHECKS)  # the build's checks, no KaTeX run
    assert not problems, problems.report()
    return checked.entries, checked.calculators


# Small banks (entries, plans): entry 35 (the KV cache) and entry 36 (arithmetic intensity), which
# links to it; and with them a toolkit entry that feeds 36 and the serving plan, with the entries
# its steps take (16, 20, 40): a page of each kind that an edit of entry 35 rewrites.
SMALL_BANK = (("35", "36"), ())
SMALL_BANK_WITH_PLAN = (("16", "20", "35", "36", "40", "matmul-cost"), ("serve-plan",))


def small_bank(dest: Path, keys: tuple[str, ...], plans: tuple[str, ...] = ()) -> Path:
    """A copy of entries/ at ``dest`` with only the entries ``keys`` (as they are, but for links to
    entries left out: ``related`` and ``feeds`` keep the kept ones) and the plans ``plans``; the
    presets and chapters whole, and the synthesis prompts and numbered versions of what is kept.

    For what does not depend on the bank's size (serve's rebuilds, restarts and reloads): a few
    entries build in a fraction of the whole bank's time.  The caller checks that it builds."""
    import re

    import yaml

    from site_builder.load.yamlfile import LOADER

    kept = set(keys)
    dest.mkdir(parents=True)
    shutil.copytree(ENTRIES / "presets", dest / "presets")
    shutil.copy2(ENTRIES / "_chapters.yaml", dest / "_chapters.yaml")
    if plans:
        (dest / "plans").mkdir()
        for plan in plans:
            shutil.copy2(ENTRIES / "plans" / f"{plan}.yaml", dest / "plans" / f"{plan}.yaml")

    def linked(ids: list) -> list:
        return [i for i in ids if str(i) in kept]

    for path in sorted(ENTRIES.glob("*.yaml")):
        # the file's name says its entry's id (the build refuses one that does not)
        number, _, slug = path.stem.partition("-")
        if path.name.startswith("_") or (str(int(number)) if number.isdigit() else slug) not in kept:
            continue
        text = path.read_text(encoding="utf-8")
        raw = yaml.load(text, Loader=LOADER)
        line = re.search(r"^related: \[.*\]$", text, flags=re.M)
        assert line, f"{path.name}: related is no longer one line of [ids]: teach small_bank its form"
        related = f"related: [{', '.join(map(str, linked(raw['related'])))}]"
        text = text[: line.start()] + related + text[line.end() :]
        if any(str(f["entry"]) not in kept for f in raw.get("feeds", [])):
            # the feeds block, from "feeds:" to the next top-level key, one item per "  - "
            block = re.search(r"^feeds:\n((?:[ #].*\n|\n)*)", text, flags=re.M)
            assert block, f"{path.name}: feeds is no longer a block list: teach small_bank its form"
            items = re.split(r"^(?=  - )", block.group(1), flags=re.M)
            items = [i for i in items if i.strip() and str(yaml.load(i, Loader=LOADER)[0]["entry"]) in kept]
            text = text[: block.start()] + ("feeds:\n" + "".join(items) if items else "") + text[block.end() :]
        (dest / path.name).write_text(text, encoding="utf-8")

    synthesis = yaml.load((ENTRIES / "_synthesis.yaml").read_text(encoding="utf-8"), Loader=LOADER)
    prompts = []
    for prompt in synthesis["prompts"]:
        if "groups" in prompt:
            prompt["groups"] = [
                {**g, "entries": linked(g["entries"])} for g in prompt["groups"] if linked(g["entries"])
            ]
            if prompt["groups"]:
                prompts.append(prompt)
        elif linked(prompt["entries"]):
            prompts.append({**prompt, "entries": linked(prompt["entries"])})
    synthesis["prompts"] = prompts
    (dest / "_synthesis.yaml").write_text(yaml.safe_dump(synthesis, sort_keys=False, allow_unicode=True), "utf-8")

    versions = yaml.load((ENTRIES / "_versions.yaml").read_text(encoding="utf-8"), Loader=LOADER)
    versions["entries"] = {k: v for k, v in versions["entries"].items() if k in kept}
    versions["plans"] = {k: v for k, v in versions.get("plans", {}).items() if k in plans}
    (dest / "_versions.yaml").write_text(yaml.safe_dump(versions, sort_keys=False, allow_unicode=True), "utf-8")
    return dest
