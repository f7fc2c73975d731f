"""The built site: a page per entry, math typeset, results present, self-contained, links whole."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urldefrag, urlsplit

import pytest
from markupsafe import escape

from site_builder.build import build
from site_builder.cli import main
from site_builder.pages.urls import site_url
from site_builder.tex import markdown
from tests.support import ENTRIES, load_bank

TEXT_SUFFIXES = {".html", ".css", ".js", ".mjs", ".py", ".json", ".svg", ".txt", ".xml", ".webmanifest"}
# Vendored npm files are checked in the browser test instead: no request leaves 127.0.0.1.
VENDORED = ("pyodide/", "vendor/")
XML_NAMESPACE = re.compile(r'xmlns(:\w+)?="http://www\.w3\.org/[^"]*"')


class Page(HTMLParser):
    def __init__(self, text: str):
        super().__init__()
        self.links, self.ids = [], set()
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        for key in ("href", "src"):
            if attrs.get(key):
                self.links.append(attrs[key])


def pages(site: Path) -> dict[str, Page]:
    return {"/" + p.relative_to(site).as_posix(): Page(p.read_text()) for p in site.rglob("*.html")}


@pytest.mark.node
def test_one_page_per_entry_and_an_index(site, bank):
    entries, _ = bank
    for entry in entries:
        assert (site / entry.url.strip("/") / "index.html").is_file(), entry.url
    assert (site / "index.html").is_file() and (site / "404.html").is_file()


@pytest.mark.node
def test_math_is_typeset_at_build_time_and_no_katex_script_ships(site, bank):
    entries, _ = bank
    for entry in entries:
        html = (site / entry.url.strip("/") / "index.html").read_text()
        statement = html.split('id="statement"', 1)[1].split("</section>", 1)[0]
        if markdown.fragments(entry.statement):
            assert 'class="katex"' in statement, entry.url
            assert "<math" in statement, "MathML kept for screen readers"
        assert "$" not in re.sub(r"<annotation.*?</annotation>", "", statement, flags=re.S), entry.url
    assert not [p for p in site.rglob("katex*.js")] and not [p for p in site.rglob("katex*.mjs")]


@pytest.mark.node
def test_pages_carry_results_for_the_defaults(site, bank):
    entries, calculators = bank
    for entry in entries:
        html = (site / entry.url.strip("/") / "index.html").read_text()
        expected = calculators[entry.key].run({})["outputs"]
        for name, out in expected.items():
            shown = re.search(rf'<output id="out-{name}"[^>]*>(.*?)</output>', html, re.S).group(1)
            assert shown == str(escape(out["text"])), (entry.url, name)


def _cited_urls() -> set:
    """The sources presets and published cases cite: links a reader follows, never fetched by the page."""
    from site_builder.errors import Problems
    from site_builder.load.presets import load_presets

    cited = {
        s.url for kind in load_presets(ENTRIES, Problems()).values() for p in kind.values() for s in p.sources.values()
    }
    from site_builder.check.plan_check import load_plan, plan_files

    plans = [load_plan(path, Problems()) for path in plan_files(ENTRIES)]
    in_plans = {c.citation["url"] for plan in plans for c in plan.cases if c.citation}
    return cited | in_plans | {c.citation["url"] for e in load_bank()[0] for c in e.cases if c.citation}


@pytest.mark.node
def test_no_url_to_another_host(site):
    """Only our own canonical address (for citations, QR codes and link previews) may appear,
    and the sources presets and published cases cite (links a reader follows, never fetched by the page)."""
    cited = _cited_urls()
    for path in site.rglob("*"):
        rel = path.relative_to(site).as_posix()
        if path.suffix not in TEXT_SUFFIXES or rel.startswith(VENDORED):
            continue
        text = XML_NAMESPACE.sub("", path.read_text(encoding="utf-8")).replace(site_url(), "")
        found = [u for u in re.findall(r"https?://[^\s\"'<>)]+", text) if u not in cited]
        assert not found, f"{rel}: {found[:3]}"


@pytest.mark.node
def test_every_internal_link_and_anchor_resolves(site):
    all_pages = pages(site)
    cited = _cited_urls()  # a published case links the paper it cites
    for source, page in all_pages.items():
        for link in page.links:
            if link in cited:
                continue
            if link.startswith(site_url() + "/"):
                link = link[len(site_url()) :]  # our canonical host: must name a page we publish
            url = urlsplit(link)
            assert not url.scheme and not url.netloc, f"{source}: {link}"
            path, fragment = urldefrag(link)
            path = urlsplit(path).path or source
            target = site / path.lstrip("/")
            if path.endswith("/"):
                target = target / "index.html"
            assert target.is_file(), f"{source}: broken link {link}"
            if fragment and target.suffix == ".html":
                key = "/" + target.relative_to(site).as_posix()
                assert fragment in all_pages[key].ids, f"{source}: missing anchor {link}"


@pytest.mark.node
def test_two_builds_are_byte_identical():
    first, _ = build(ENTRIES)
    second, _ = build(ENTRIES)
    assert first.keys() == second.keys()
    assert [k for k in first if first[k] != second[k]] == []


@pytest.mark.node
def test_build_prints_a_one_line_summary(tmp_path, capsys):
    assert main(["build", "--out", str(tmp_path / "out")]) == 0
    line = capsys.readouterr().out.strip()
    assert re.fullmatch(r"built \d+ pages \(\d+ entries\), \d+ cases reproduced, in \d+\.\d\d s -> .*", line), line


@pytest.mark.node
def test_the_service_worker_precaches_every_page_and_pyodide_but_not_the_far_pages_extras(site):
    """Offline, pages boot from the precached start-up stdlib and WebAssembly as they are: the
    memory snapshot (near pages only) and the .xz copies (far pages' first visit) stay out."""
    sw = (site / "sw.js").read_text()
    listed = set(re.findall(r'"url":"([^"]+)"', sw))
    assert "/35/" in listed and "/" in listed
    pyodide = next(site.glob("pyodide/*/pyodide.asm.wasm")).relative_to(site).as_posix()
    stdlib = next(site.glob("pyodide/*/stdlib-startup-*.zip")).relative_to(site).as_posix()
    assert {"/" + pyodide, "/" + stdlib} <= listed
    assert not [url for url in listed if url.endswith(".xz") or url.startswith("/snapshot/")]
    assert list(site.glob("pyodide/*/*.xz")) and list(site.glob("snapshot/*/*.snapshot"))


class ReaderText(HTMLParser):
    """The text a reader sees: not code, scripts, or the TeX that MathML keeps for screen readers."""

    HIDDEN = {"code", "pre", "script", "style", "math", "svg", "template"}

    def __init__(self, text: str):
        super().__init__()
        self.depth, self.parts = 0, []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.depth += tag in self.HIDDEN

    def handle_endtag(self, tag):
        self.depth -= tag in self.HIDDEN

    def handle_data(self, data):
        if not self.depth:
            self.parts.append(data)


@pytest.mark.node
def test_no_raw_tex_or_seed_file_name_reaches_the_reader(site):
    for path in site.rglob("index.html"):
        text = " ".join(ReaderText(path.read_text()).parts)
        raw_tex = re.findall(r".{0,30}(?:\\[A-Za-z]+|\\[()\[\]]|\^\{).{0,20}", text)
        assert not raw_tex, (path, raw_tex)
        assert not re.findall(r"\b\d{3}_[0-9a-f]{16}\.txt", text), path


@pytest.mark.node
def test_a_charts_table_lists_its_points_in_order(site, bank):
    _, calculators = bank
    calc = calculators["35"]
    sweep = calc.sweep({}, calc.plots[0])
    html = (site / "35" / "index.html").read_text()
    table = html.split('class="plot-data"', 1)[1].split("</table>", 1)[0]
    rows = [re.findall(r"<td>(.*?)</td>", row) for row in re.findall(r"<tr><td>.*?</tr>", table)]
    name = calc.plots[0]["y"][0]
    assert rows == [[str(escape(x)), str(escape(y))] for x, y in zip(sweep["text"]["x"], sweep["text"]["y"][name])]
    assert len({y for _, y in rows}) == len(rows), "each row shows its own point"


def test_entry_numbers_in_text_link_to_their_entry():
    html = markdown.render("see entry 21 and *Entry 3*; [entry 4](/x/) and entry 99 stay as they are", {})
    assert '<a href="/21/">entry 21</a>' in html and '<a href="/3/">Entry 3</a>' in html
    assert html.count("<a ") == 3, html  # the two, and the link that was there
