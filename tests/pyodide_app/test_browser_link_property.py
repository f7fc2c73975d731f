"""The link is the page, as a property: after any sequence of reader actions, the address bar,
Copy link, the citation's URL, the QR code and the embed card's link all say the same, and
reopening that link shows exactly what the page showed (every input, result, unit and preset
menu, the question asked and its answer, and the citation word for word).

A seeded generator of action sequences (edits, presets, solve and stop, units, back and forward,
Turbo navigation) drives one Chromium page through many sequences; each is reopened by a link
(mostly through Turbo, as a link on the site is followed; one in 25 by a full load, one in 25 as
an embed card).  A failure prints the seed, the sequence and the difference.  LINK_SEQUENCES and
LINK_SEED change how many and which (the defaults are what CI runs).  The sequences run in runs of
RUN, each a test of its own with its own seed (LINK_SEED + the run's number), so that the test
workers share them out; a failure names the run's seed, which replays it alone.
"""

from __future__ import annotations

import os
import random
import time

import pytest

from site_builder.runtime.calculator import Calculator
from site_builder.runtime.numbers import write_input
from tests.browsing import open_entry

pytestmark = [pytest.mark.browser, pytest.mark.node]  # the built site is typeset by KaTeX in Node

SEQUENCES = int(os.environ.get("LINK_SEQUENCES", "30"))
SEED = int(os.environ.get("LINK_SEED", "20261201"))
# Entries with presets (35: a model; 37: a model and an accelerator), unit menus, questions with
# one answer and with several (19), choices and whole numbers.
ENTRIES = ("35", "37", "19")
ACTIONS = ("edit", "edit", "edit", "preset", "solve", "stop", "units", "back", "visit")
LIMIT = 60_000  # ms: a ceiling for a loaded machine, never a pause
FULL = 25  # of each FULL sequences, one is reopened by a full load and one as an embed card
RUN = 30  # sequences per test: a run's first page load is paid once per RUN sequences
RUNS = [(SEED + n, min(RUN, SEQUENCES - n * RUN)) for n in range(-(-SEQUENCES // RUN))]

# The input errors a page shows, "err-M: the interleaved schedule needs ...".
ERRORS = "() => [...document.querySelectorAll('.field .error')].filter((e) => e.textContent).map((e) => `${e.id}: ${e.textContent}`)"

SNAPSHOT = (
    """() => {
  const form = document.getElementById("inputs");
  const value = (id) => document.getElementById(id).value;
  const asked = !document.getElementById("solve-clear").hidden;
  return {
    inputs: Object.fromEntries([...form.elements].filter((e) => e.name).map((e) => [e.name, e.value])),
    outputs: Object.fromEntries([...document.querySelectorAll("output[id^='out-']")].map((o) => [o.id, o.textContent])),
    menus: Object.fromEntries([...document.querySelectorAll(".unit-menus select, #presets select")].map((m) => [m.id, m.value])),
    solved: [...document.querySelectorAll(".field.solved")].map((f) => f.id),
    question: asked ? ["solve-output", "solve-sense", "solve-target", "solve-input"].map(value) : null,
    // The answer's values; its sentence on the range searched depends on the machine's speed (a
    // slow formula's search is cut short), not on the link.
    answer: asked ? [...document.querySelectorAll("#solve-answer .solve-value, #solve-answer .solve-neighbour, #solve-answer input:checked")]
      .map((e) => e.textContent || e.value) : null,
    citation: document.getElementById("cite-run-text").textContent,
    stale: document.getElementById("outputs").classList.contains("stale"),
    // What the page says is wrong with the inputs (results stay stale until it is fixed).
    errors: ("""
    + ERRORS
    + """)(),
  };
}"""
)

SETTLED = """() => {
  const d = document.documentElement.dataset;
  return d.python === "ready" && d.replies && d.asking === "0" && d.link !== "pending";
}"""


def _pools(bank) -> dict:
    """entry -> input -> values a reader might type there, each one the runtime reads."""
    entries, calculators = bank
    pools = {}
    for key in ENTRIES:
        calc: Calculator = calculators[key]
        entry = next(e for e in entries if e.key == key)
        pools[key] = {}
        values = calc.read({})
        for i in entry.inputs:
            if i.type in ("list", "choice"):
                continue  # a choice is a menu: its options are read from the page
            d = values[i.name]
            found = [write_input(i.default)]
            for candidate in (d * 2, d / 2, d + 1, d * 10, d / 4):
                if i.type == "integer":
                    candidate = round(candidate)
                text = write_input(candidate)
                if text not in found and not calc.errors({i.name: text}):
                    found.append(text)
            pools[key][i.name] = found
    return pools


class Walker:
    """One page, many sequences: each action as a reader does it, waiting only on the page."""

    def __init__(self, page, server, pools, rng):
        self.page, self.server, self.pools, self.rng = page, server, pools, rng

    def entry(self) -> str:
        return self.page.evaluate("JSON.parse(document.getElementById('entry-spec').textContent).id")

    def settle(self):
        self.page.wait_for_function(SETTLED, timeout=LIMIT)

    def restore(self) -> str | None:
        """After an action the page refuses (a preset's values with one the reader typed, say):
        the page says its link is the last computed page's, and the reader opens that link."""
        refused = self.refused()
        if not refused:
            return None
        page = self.page
        assert page.is_visible("#share-stale"), (
            f"refused ({refused}), and the page does not say its link is the last computed one"
        )
        key = self.entry()
        self.visit(page.evaluate("location.href"))
        self.wait_entry(key)
        assert self.refused() == [], f"the link reopened with {self.refused()}"
        return f"refused ({'; '.join(refused)}): reopened its link"

    def refused(self) -> list[str]:
        """Once the page has answered: the input errors it shows."""
        self.settle()
        return self.page.evaluate(ERRORS)

    def act(self, action) -> str | None:
        """Do ``action`` (a name) with random choices; return what was done, or None if it could not be."""
        page, rng = self.page, self.rng
        key = self.entry()
        if action == "edit":
            fields = page.evaluate(
                "[...document.getElementById('inputs').elements].filter((e) => e.name).map((e) => [e.name, e.tagName])"
            )
            name, tag = rng.choice(fields)
            old = page.input_value(f"#in-{name}")
            if tag == "SELECT":
                options = page.evaluate(f"[...document.getElementById('in-{name}').options].map((o) => o.value)")
                value = rng.choice(options)
                page.select_option(f"#in-{name}", value)
            else:
                pool = self.pools.get(key, {}).get(name)
                if not pool:
                    return None
                value = rng.choice(pool)
                page.fill(f"#in-{name}", value)
                if rng.random() < 0.5:  # the reader leaves the field: its link is written at once
                    page.press(f"#in-{name}", "Tab")
                    value += " ⇥"
            refused = self.refused()
            if refused:
                # A value fine alone that another input refuses (19's interleaved schedule: M a
                # multiple of P).  The link never carries a refused value, and the page says so;
                # the reader puts the value back, as they would fix it, before sharing.
                assert page.is_visible("#share-stale"), (
                    f"{name}={value} refused ({refused}), and the page does not say the link is the last computed one"
                )
                if tag == "SELECT":
                    page.select_option(f"#in-{name}", old)
                else:
                    page.fill(f"#in-{name}", old)
                assert self.refused() == [] and page.is_hidden("#share-stale"), f"{name}={old} put back"
                return f"edit {name}={value} (refused: {refused}; put back {old})"
            return f"edit {name}={value}"
        if action == "preset":
            menus = page.evaluate(
                "[...document.querySelectorAll('#presets:not([hidden]) select')].map((m) => [m.id, [...m.options].map((o) => o.value)])"
            )
            if not menus:
                return None
            menu, options = rng.choice(menus)
            value = rng.choice(options)
            page.select_option(f"#{menu}", value)
            return f"preset {menu}={value}"
        if action == "units":
            menus = page.evaluate(
                "[...document.querySelectorAll('.unit-menus select')].map((m) => [m.id, [...m.options].map((o) => o.value)])"
            )
            if not menus:
                return None
            menu, options = rng.choice(menus)
            value = rng.choice(options)
            page.select_option(f"#{menu}", value)
            return f"units {menu}={value}"
        if action == "solve":
            if page.is_hidden("#solve"):
                return None
            spec = page.evaluate("JSON.parse(document.getElementById('entry-spec').textContent).solve")
            output, free = rng.choice(spec["outputs"]), rng.choice(spec["inputs"])
            sense = rng.choice(["=", "<=", ">="])
            shown = page.text_content(f"#out-{output}").replace("\u00a0", " ")
            head = shown.split(" ")[0].replace(",", "")
            try:
                number = float(head.rstrip("%"))
            except ValueError:
                return None
            target = (
                f"{number * rng.choice([0.5, 1, 1, 2]):.3g}"
                + shown[len(shown.split(" ")[0]) :]
                + ("%" if head.endswith("%") else "")
            )
            before = int(page.evaluate("document.documentElement.dataset.solves || 0"))
            page.select_option("#solve-output", output)
            page.select_option("#solve-sense", sense)
            page.select_option("#solve-input", free)
            page.fill("#solve-target", target)
            page.press("#solve-target", "Enter")
            page.wait_for_function(
                f"() => Number(document.documentElement.dataset.solves || 0) > {before} || !document.getElementById('solve-err').hidden",
                timeout=LIMIT,
            )
            return f"solve {output}{sense}{target} by {free}"
        if action == "stop":
            if page.is_hidden("#solve-clear"):
                return None
            page.click("#solve-clear")
            return "stop"
        if action == "back":
            other = rng.choice([k for k in ENTRIES if k != key])
            self.settle()
            self.visit(f"/{other}/")
            self.wait_entry(other)
            self.arm()
            page.go_back()
            self.wait_entry(key)
            return f"to /{other}/ and back"
        if action == "visit":
            other = rng.choice([k for k in ENTRIES if k != key])
            self.settle()
            self.visit(f"/{other}/")
            self.wait_entry(other)
            return f"visit /{other}/"
        raise AssertionError(action)

    def arm(self):
        """Until the next visit has rendered its page for good (a cached preview comes first)."""
        self.page.evaluate(
            "window.__loaded = false; addEventListener('turbo:load', () => { window.__loaded = true; }, { once: true })"
        )

    def visit(self, url):
        self.arm()
        self.page.evaluate("(url) => Turbo.visit(url)", url)

    def wait_entry(self, key):
        if self.page.evaluate("'__loaded' in window"):
            self.page.wait_for_function("() => window.__loaded", timeout=LIMIT)
        self.page.wait_for_function(
            "(key) => { const s = document.getElementById('entry-spec'); return s && JSON.parse(s.textContent).id === key; }",
            arg=key,
            timeout=LIMIT,
        )
        self.settle()
        if self.page.evaluate("new URLSearchParams(location.search).has('solve')"):
            self.page.wait_for_function("() => document.documentElement.dataset.solves", timeout=LIMIT)
            self.settle()

    def shared(self) -> dict:
        """Every form of the page's link, once the page has answered everything asked."""
        page = self.page
        self.settle()
        page.click("#copy-link")  # as a reader copies it: the newest answer's link, at once
        page.wait_for_function("() => document.getElementById('copy-feedback').textContent === 'Link copied.'")
        page.wait_for_function("() => document.documentElement.dataset.link !== 'pending'")
        copied = page.evaluate("navigator.clipboard.readText()")
        page.evaluate("document.getElementById('copy-feedback').textContent = ''")
        if not page.evaluate("document.getElementById('qr').open"):
            page.click("#qr summary")
        page.wait_for_function(
            "(url) => document.getElementById('qr').dataset.payload === url", arg=copied, timeout=LIMIT
        )
        citation = page.text_content("#cite-run-text")
        cited = citation.split(" computed at ")[-1].split(" (entry version")[0].split(" (site version")[0]
        return {
            "address": page.evaluate("location.href"),
            "copied": copied,
            "cited": cited,
            "card": page.evaluate("import('/static/link.js').then((m) => m.shared({ card: true }))"),
            "qr": page.get_attribute("#qr", "data-payload"),
        }


def _differences(before: dict, after: dict) -> str:
    """What the reopened page shows otherwise: field by field."""
    out = []
    for part in before:
        if isinstance(before[part], dict):
            for name in sorted(set(before[part]) | set(after[part])):
                if before[part].get(name) != after[part].get(name):
                    out.append(f"{part}.{name}: {before[part].get(name)!r} became {after[part].get(name)!r}")
        elif before[part] != after[part]:
            out.append(f"{part}: {before[part]!r} became {after[part]!r}")
    return "; ".join(out)


def _unescaped(address: str) -> str:
    """The address bar's link as Copy link writes it: a question's < and > as typed."""
    return address.replace("%3C=", "<=").replace("%3E=", ">=")


def _check_forms(forms: dict, server, canonical: str):
    """Every form of the link is the same link."""
    address = _unescaped(forms["address"])
    assert forms["copied"] == address.replace("&embed=1", "").replace("?embed=1&", "?").replace("?embed=1", "")
    assert forms["qr"] == forms["copied"]
    assert forms["cited"] == canonical + forms["copied"].removeprefix(server.url)
    query = forms["copied"].partition("?")[2]
    without_show = "&".join(p for p in query.split("&") if p and not p.startswith("show="))
    assert forms["card"] == forms["copied"].partition("?")[0] + (f"?{without_show}" if without_show else "")


@pytest.mark.parametrize(("seed", "sequences"), RUNS, ids=[f"seed-{seed}" for seed, _ in RUNS])
def test_the_link_reproduces_the_page_after_any_sequence_of_actions(browser, server, bank, seed, sequences):
    context = browser.new_context()
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    page = context.new_page()
    problems = []
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    fresh = context.new_page()  # every few sequences the link is opened by a full load here
    page.bring_to_front()  # a tab behind another runs its timers once a second: 3 s a wait
    rng = random.Random(seed)
    walker = Walker(page, server, _pools(bank), rng)
    open_entry(page, server, f"/{ENTRIES[0]}/")
    canonical = page.evaluate("JSON.parse(document.getElementById('entry-spec').textContent).meta.url").rsplit("/", 2)[
        0
    ]
    started = time.monotonic()
    for n in range(sequences):
        done = []
        try:
            for _ in range(rng.randint(1, 5)):
                what = walker.act(rng.choice(ACTIONS))
                if what:
                    done.append(what)
                    restored = walker.restore()
                    if restored:
                        done.append(restored)
            forms = walker.shared()
            _check_forms(forms, server, canonical)
            before = page.evaluate(SNAPSHOT)
            assert not before["stale"] and not before["errors"], (
                f"the page settled with stale results {before['errors']}"
            )
            how = "full load" if n % FULL == FULL - 1 else "embed card" if n % FULL == FULL // 2 else "Turbo"
            link = forms["copied"] + (
                ("&" if "?" in forms["copied"] else "?") + "embed=1" if how == "embed card" else ""
            )
            target = page if how == "Turbo" else fresh
            target.bring_to_front()
            if how == "Turbo":
                walker.visit(link)
            else:
                open_entry(fresh, server, link.removeprefix(server.url))
            reopened = Walker(target, server, walker.pools, rng)
            reopened.wait_entry(forms["copied"].removeprefix(server.url).split("/")[1])
            after = target.evaluate(SNAPSHOT)
            assert target.is_hidden("#notice"), target.text_content("#notice")
            assert after == before, _differences(before, after)
            # The reopened page's own link is the same link: a fixed point.  Through Turbo, its
            # address (the next sequence checks every other form against it); after a full load,
            # every form.  The card has no Copy link: the embed test reads its link.
            if how == "Turbo":
                assert _unescaped(target.evaluate("location.href")) == forms["copied"]
            elif how == "full load":
                assert reopened.shared()["copied"] == forms["copied"]
            page.bring_to_front()
        except Exception as failure:
            raise AssertionError(
                f"seed {seed}, sequence {n}: {' → '.join(done) or 'no action'}; then reopened "
                f"{locals().get('link', '?')}\n{failure}"
            ) from failure
        if os.environ.get("LINK_TIMES"):
            print(f"{n}: {time.monotonic() - started:.1f} s {done}")
    took = time.monotonic() - started
    print(f"{sequences} sequences in {took:.1f} s")
    assert problems == []
    context.close()
