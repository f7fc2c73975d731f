"""The plan pages' figures, recorded in BENCHMARKS.md's "Plans" section.

    python -m benchmarks.plans [--out BENCHMARKS.md]     (or: make bench-plans; make bench runs it too)

Builds the site once, serves it on 127.0.0.1 and drives Debian's Chromium on /plans/train/ and
/plans/serve/.  On each, once Python is ready and the page's first answers are on screen:

- recompute latency: N input changes, each timed in the page from the input event to the page's
  own signal that this edit's answers are on screen (``data-replies`` on ``article.plan``); the
  same again with a change event, which the page computes at once (an input event waits for
  typing to pause first);
- solve latency: N questions asked in the "Ask it backwards" panel, a new target each time, from
  submitting it to the freed input, the answer and every answer below it on screen (the page's
  ``data-solves``);
- page weight, counted as the entry pages' (``benchmarks.common.weight``): compressed HTML, CSS
  and our JavaScript, first what the page fetched before the reader acts (loaded until Python is
  ready, its first answers shown and the network idle, service workers blocked), then the whole
  (the page's HTML with every CSS file and all of our JavaScript).

The section is written between its markers, in place, the rest of the file as it is; ``make
bench`` runs ``benchmarks.run`` (which keeps this section when it rewrites the file) and then
this module.  Figures are p50/p95/max to record, never a pass/fail test: the targets (recompute
p95 ≤ 16 ms, solve p95 ≤ 50 ms, ≤ 60 KB loaded before the reader acts) are said met or not, with
the machine's load average at the start.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

from benchmarks.common import (
    CHROMIUM_ARGS,
    READY_MS,
    bench_site,
    kept_section,
    percentiles,
    python_ready,
    weight,
    write_section,
)
from benchmarks.server import BenchServer, Link

ROOT = Path(__file__).resolve().parent.parent
BEGIN, END = "<!-- plans: written by python -m benchmarks.plans -->", "<!-- /plans -->"
RECOMPUTE_MS, SOLVE_MS, PAGE_BYTES = 16, 50, 60_000

# Per page: the input edited (a new value each time, so each edit changes the answers), and a
# question the plan answers (tests/runtime/test_pyodide_plans.py asks both), its target moved each time.
# Every target here has a solution at the plan's defaults: the micro-batch for a memory budget of
# 40 to 139 GB (b = 1 to 5), the batch for 500 to 2,480 generated tokens/s per replica.
PLANS = {
    "/plans/train/": {
        "edit": ("D", lambda i: f"{10 + 0.05 * i:.2f}T"),
        "solve": ("memory_device", "<=", "b", lambda i: f"{40 + i}GB"),
    },
    "/plans/serve/": {
        "edit": ("s", lambda i: str(4096 + 16 * i)),
        "solve": ("tokens_per_s_replica", ">=", "B", lambda i: str(500 + 20 * i)),
    },
}

PLAN = "document.querySelector('article.plan')"
FIRST_ANSWERS = f"() => {PLAN} && {PLAN}.dataset.replies"
# The page's own counter of answers on screen (data-replies, data-solves) passing its value now.
COUNTED = """const counted = (root, key) => {
    const before = Number(root.dataset[key] || 0);
    return new Promise((resolve) => {
      const watch = new MutationObserver(() => {
        if (Number(root.dataset[key] || 0) > before) { watch.disconnect(); resolve(); }
      });
      watch.observe(root, { attributes: true, attributeFilter: ['data-' + key] });
    });
  };"""
RECOMPUTE_JS = f"""async ([name, values, kind]) => {{
  {COUNTED}
  const input = document.getElementById('in-' + name), root = {PLAN}, times = [];
  for (const value of values) {{
    const shown = counted(root, 'replies');
    const t = performance.now();
    input.value = value;
    input.dispatchEvent(new Event(kind, {{ bubbles: true }}));
    await shown;
    times.push(performance.now() - t);
  }}
  return {{ times, state: root.dataset.planState }};
}}"""
SOLVE_JS = f"""async ([output, sense, free, targets]) => {{
  {COUNTED}
  const el = (id) => document.getElementById(id), root = {PLAN}, times = [];
  el('plan-solve').open = true;
  el('solve-output').value = output; el('solve-sense').value = sense; el('solve-input').value = free;
  const found = new Set();
  for (const target of targets) {{
    const shown = counted(root, 'solves');
    const t = performance.now();
    el('solve-target').value = target;
    el('plan-solve-form').requestSubmit();
    await shown;
    times.push(performance.now() - t);
    found.add(el('in-' + free).value);
  }}
  return {{ times, found: [...found], answer: el('solve-answer').textContent, solved: root.dataset.solved }};
}}"""


def open_plan(page, url: str) -> None:
    """The plan page with Python ready and its first answers (for the link's or the default inputs) on screen."""
    python_ready(page, url)
    page.wait_for_function(FIRST_ANSWERS, timeout=READY_MS)


def latency(browser, server: BenchServer, path: str, changes: int, questions: int) -> dict:
    plan = PLANS[path]
    page = browser.new_page()
    try:
        open_plan(page, server.url + path)
        name, value = plan["edit"]
        found = {"edited": name}
        for kind in ("input", "change"):
            done = page.evaluate(RECOMPUTE_JS, [name, [value(i) for i in range(changes)], kind])
            assert done["state"] == "computed", done  # every edit was computed, none refused
            found[kind] = percentiles(done["times"])
        output, sense, free, target = plan["solve"]
        asked = page.evaluate(SOLVE_JS, [output, sense, free, [target(i) for i in range(questions)]])
        assert asked["solved"] == free and not asked["answer"].startswith("Could not"), asked
        found["solve"] = {**percentiles(asked["times"]), "question": (output, sense, free), "values": asked["found"]}
    finally:
        page.close()
    return found


def measure(changes: int = 200, questions: int = 100) -> dict:
    from playwright.sync_api import sync_playwright

    load = os.getloadavg()
    with bench_site("bench-plans-") as (_, site), sync_playwright() as p:
        server = BenchServer(site, Link())
        browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
        try:
            pages = {}
            for path in PLANS:
                print(f"browser: {path} …", flush=True)
                pages[path] = {
                    **latency(browser, server, path, changes, questions),
                    **weight(browser, server.url, site, path, open_plan),
                }
        finally:
            browser.close()
            server.close()
    return {"pages": pages, "load": load, "load_after": os.getloadavg(), "cores": os.cpu_count()}


def _ms(s: dict) -> str:
    return f"{s['p50']:.1f} ms | {s['p95']:.1f} ms | {s['max']:.1f} ms | {s['n']}"


def section(found: dict) -> str:
    """The section's Markdown, between its markers."""
    pages = found["pages"]
    each = lambda pick: ", ".join(f"{path} {pick(f)}" for path, f in pages.items())
    kb = lambda n: f"{n / 1000:.1f} KB"
    targets = [
        (
            f"Plan recompute p95 ≤ {RECOMPUTE_MS} ms once ready (input event to answers updated)",
            all(f["input"]["p95"] <= RECOMPUTE_MS for f in pages.values()),
            each(lambda f: f"{f['input']['p95']:.1f} ms"),
        ),
        (
            f"Plan solve p95 ≤ {SOLVE_MS} ms once ready",
            all(f["solve"]["p95"] <= SOLVE_MS for f in pages.values()),
            each(lambda f: f"{f['solve']['p95']:.1f} ms"),
        ),
        (
            f"Plan page ≤ {PAGE_BYTES // 1000} KB compressed (HTML, CSS and our JS loaded before the reader acts)",
            all(f["loaded"] <= PAGE_BYTES for f in pages.values()),
            each(lambda f: kb(f["loaded"])),
        ),
    ]
    one, five, fifteen = found["load"]
    busy = one > found["cores"]
    rows = []
    for path, f in pages.items():
        output, sense, free = f["solve"]["question"]
        rows += [
            f"| {path} | an input event on `{f['edited']}` | {_ms(f['input'])} |",
            f"| {path} | a change event on `{f['edited']}` | {_ms(f['change'])} |",
            f"| {path} | solve `{free}` for `{output}` {sense} a target | {_ms(f['solve'])} |",
        ]
    weights = [
        f"| {path} | {kb(f['html'])} | {kb(f['css'])} | {kb(f['js'])} | **{kb(f['loaded'])}** | {kb(f['whole'])} |"
        for path, f in pages.items()
    ]
    files = sorted({name for f in pages.values() for name in f["files"]})
    values = lambda f: sorted(map(float, f["solve"]["values"]))
    solved = "; ".join(
        f"{path}: `{f['solve']['question'][2]}` from {values(f)[0]:g} to {values(f)[-1]:g}" for path, f in pages.items()
    )
    return "\n".join(
        [
            BEGIN,
            "## Plans",
            "",
            f"Measured by `python -m benchmarks.plans` (`make bench-plans`; `make bench` runs it too) in Debian "
            f"Chromium headless, the site built once and served on 127.0.0.1, on {found['cores']} cores shared with "
            f"other work: load average {one:.1f} (1 min), {five:.1f} (5 min), {fifteen:.1f} (15 min) at the start"
            + (", more than the cores, so these times are slower than on an idle machine" if busy else "")
            + f"; {found['load_after'][0]:.1f} (1 min) at the end. Figures to record, never a pass/fail test.",
            "",
            "| target | met | measured |",
            "|---|---|---|",
            *[f"| {name} | {'✓' if ok else '✗'} | {value} |" for name, ok, value in targets],
            "",
            "Latency once Python is ready and the page's first answers are on screen, timed in the page "
            "(`performance.now()`) from the event to the page's own signal that the answers are on screen: for an edit, "
            "this edit's reply shown (`data-replies` on the plan); for a question, its answer, the freed input and every "
            "answer computed again at it (`data-solves`). Each edit gives the input a new value; each question a new target. "
            "A plan page computes every event at once, an input event (typing) and a change event (a menu's choice, "
            "a field left after typing) alike; only the address bar waits for typing to pause.",
            "",
            "| page | timed | p50 | p95 | max | n |",
            "|---|---|---|---|---|---|",
            *rows,
            "",
            f"The solves' values: {solved}.",
            "",
            "Page weight, gzipped at level 9 as for the entry pages: what the page fetched before the reader acts "
            "(until Python is ready and the network idle, service workers blocked: its HTML, the CSS it links and "
            "our JavaScript it and its worker load; not Pyodide's files, the vendored scripts or fonts), and the whole "
            "(its HTML with every CSS file and all of our JavaScript, as the entry pages' figure counts them).",
            "",
            "| page | HTML | CSS | our JS | loaded before the reader acts | whole |",
            "|---|---|---|---|---|---|",
            *weights,
            "",
            f"Loaded before the reader acts: {', '.join(f'`{name}`' for name in files)}.",
            END,
            "",
        ]
    )


def kept(text: str) -> str:
    """The plans section of a BENCHMARKS.md text ('' when it has none), for ``make bench`` to keep."""
    return kept_section(text, BEGIN, END)


def write(out: Path, found: dict) -> None:
    """The section in place of the old one, or after the rest; the rest of the file as it is."""
    write_section(out, BEGIN, END, section(found), in_place=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.plans")
    parser.add_argument("--out", type=Path, default=ROOT / "BENCHMARKS.md")
    parser.add_argument("--changes", type=int, default=200, help="input changes timed on each plan page")
    parser.add_argument("--solves", type=int, default=100, help="questions solved on each plan page")
    args = parser.parse_args(argv)
    found = measure(args.changes, args.solves)
    write(args.out, found)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
