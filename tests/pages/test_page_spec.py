"""The page spec and the rules the build and the browser share: each written once, in the runtime,
and what repeats it elsewhere (the schema, the docs, the loader's hint) held to it."""

from __future__ import annotations

import html
import json
import re
import shutil

import pytest

from site_builder.cli import main
from site_builder.errors import shown
from site_builder.load.load import _PATTERN_HINTS, schema
from site_builder.runtime import api, page
from site_builder.runtime.numbers import FORMAT_PATTERN, FORMATS, NUMERIC, split_format
from tests.support import ROOT

DOC = ROOT / "docs" / "entry-format.md"
SPEC = re.compile(r'<script type="application/json" id="entry-spec">(.*?)</script>', re.S)


def written(f, code: str = "") -> str:
    """One format as the docs list it: `sig:N` (what it writes)."""
    name = f"{code}{f.name}:N{code}" if f.takes_n else f"{code}{f.name}{code}"
    return f"{name} ({f.description.replace('`', '') if not code else f.description})" if f.description else name


# ----------------------------------------------------------------------------- output formats


def test_the_schema_admits_exactly_the_formats_of_the_table():
    node = schema()["$defs"]["output"]["properties"]["format"]
    assert node["pattern"] == FORMAT_PATTERN
    assert node["description"] == "How to write the value: " + ", ".join(written(f) for f in FORMATS) + "."


def test_the_docs_list_the_formats_of_the_table():
    row = next(line for line in DOC.read_text().splitlines() if line.startswith("| `format` |"))
    missing = [written(f, "`") for f in FORMATS if written(f, "`") not in row]
    assert f"How to write the value: {', '.join(written(f, '`') for f in FORMATS)}." in row, (
        f"docs/entry-format.md: the `format` row must list {missing or 'the formats'}, in the order of FORMATS"
    )


def test_the_loaders_hint_names_every_format():
    names = [f"{f.name}:N" if f.takes_n else f.name for f in FORMATS]
    assert _PATTERN_HINTS["format"] == f"is not a format: {', '.join(names[:-1])} or {names[-1]}"


@pytest.mark.parametrize(
    "text, split", [("si:3", ("si", 3)), ("sig:12", ("sig", 12)), ("sig", ("sig", None)), ("int", ("int", None))]
)
def test_split_format(text, split):
    assert split_format(text) == split


@pytest.mark.parametrize("text", ["money", "int:3", "bool:1", "sig:", "si:x", "", "sig:4 "])
def test_split_format_rejects_what_the_schema_rejects(text):
    with pytest.raises(ValueError):
        split_format(text)
    assert not re.fullmatch(FORMAT_PATTERN, text)


def test_numeric_formats_are_the_tables():
    assert NUMERIC == tuple(f.name for f in FORMATS if f.numeric)
    assert "bool" not in NUMERIC and "text" not in NUMERIC and "fraction" in NUMERIC


def test_formats_is_the_only_switch_on_a_formats_name():
    """Adding a format touches numbers.py (its row and its branch in format_number), the schema and
    the docs (docs/architecture.md's recipe): no other module may decide anything by a format's
    name, so none compares a name to a format kind or keeps a table keyed by one."""
    root = ROOT
    names = "|".join(f.name for f in FORMATS)
    keys = "|".join(f.name for f in FORMATS if f.numeric)  # "text" is every reply's key, not a format's
    compared = re.compile(
        rf"""(==|!=|===|!==|\bin)\s*\(?\s*["'](?:{names})["']|["'](?:{names})["']\s*(==|!=|===|!==|in\b)"""
        rf"""|^\s*["'](?:{keys})["']\s*:"""  # a dict keyed by a format's name
    )
    found = []
    for path in [*root.glob("site_builder/**/*.py"), *root.glob("pyodide_app/*.js")]:
        if path.name == "numbers.py" and path.parent.name == "runtime":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#")[0] if path.suffix == ".py" else line.split("//")[0]
            if ("format" in code or "kind" in code or re.search(rf"^\s*[\"'](?:{keys})[\"']\s*:", code)) and (
                compared.search(code)
            ):
                found.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    assert not found, "read the format's column in numbers.FORMATS instead:\n" + "\n".join(found)


def test_each_format_says_where_its_last_digit_is():
    """The solver's tolerance and a rescaled result's figures come from FORMATS' columns."""
    from site_builder.runtime.numbers import figures, half_last_place

    assert half_last_place("int", 123456) == 0.5
    assert half_last_place("fixed:2", 3.14159) == 0.005
    assert half_last_place("percent:1", 0.125) == 0.0005
    assert half_last_place("sig:3", 1234.0) == 5.0 and half_last_place("si:4", 2.5e9) == 5e5
    assert half_last_place("fraction", 0.3) == 0.5e-4
    assert [figures(f) for f in ("sig:5", "si:2", "sci:6", "fixed:2", "int", "fraction")] == [5, 2, 6, 4, 4, 4]
    assert all(f.place for f in FORMATS if f.numeric) and not any(f.place for f in FORMATS if not f.numeric)


# ----------------------------------------------------------------------------- defaults written once


def test_the_chart_points_default_is_written_once():
    points = schema()["$defs"]["plot"]["properties"]["points"]["description"]
    assert f"(default {page.PLOT_POINTS})" in points
    row = next(line for line in DOC.read_text().splitlines() if line.startswith("| `points` |"))
    assert f"(default {page.PLOT_POINTS})" in row


def test_a_plot_keeps_the_yaml_names_and_its_defaults(bank):
    entries, _ = bank
    plots = [p for e in entries for p in e.plots]
    assert plots
    for plot in plots:
        chart = plot.spec()
        assert {"x", "y", "from", "to", "log_x", "log_y", "points"} <= set(chart)
        assert "start" not in chart and "stop" not in chart
        assert plot["from"] == chart["from"] and plot["to"] == chart["to"]


def keys_of(typed) -> tuple[set, set]:
    return set(typed.__required_keys__), set(typed.__required_keys__ | typed.__optional_keys__)


def presets_of(page_path, spec: dict) -> dict:
    """The presets' values and sources a page fetches on first use (presets.json beside it), the
    same ones, by id, as its preset menus offer (the browser reads the ids there)."""
    text = page_path.read_text()
    if "kinds" not in spec:
        assert "presets_src" not in spec and 'id="preset-' not in text
        return {}
    assert spec["presets_src"] == "/" + page_path.parent.name + "/presets.json" or "/toolkit/" in spec["presets_src"]
    full = json.loads((page_path.parent / "presets.json").read_text())
    for kind in spec["kinds"]:
        menu = re.search(rf'<select id="preset-{kind}".*?</select>', text, re.S).group(0)
        offered = [html.unescape(v) for v in re.findall(r'<option value="([^"]+)"', menu)]
        assert sorted(offered) == sorted(p["id"] for p in full[kind]), (page_path, kind)
    assert set(full) == set(spec["kinds"])
    return full


@pytest.mark.node  # reads the built site
def test_every_built_spec_has_the_shape_its_type_declares(site):
    """The builder and the type agree: the keys a page carries are the ones page.py declares."""
    pages = [p for p in site.rglob("index.html") if SPEC.search(p.read_text())]
    assert len(pages) >= 60
    for path in pages:
        spec = json.loads(SPEC.search(path.read_text()).group(1))
        for typed, items in [
            (page.PageSpec, [spec]),
            (page.Meta, [spec["meta"]]),
            (page.Input, spec["inputs"]),
            (page.Output, spec["outputs"]),
            (page.Plot, spec["plots"]),
            (page.Feed, spec["feeds"]),
            (page.Solve, [spec["solve"]] if spec["solve"] else []),
            (page.Sweep, json.loads((path.parent / "sweeps.json").read_text()) if spec["plots"] else []),
            (page.Preset, [p for kind in presets_of(path, spec).values() for p in kind]),
        ]:
            required, allowed = keys_of(typed)
            for item in items:
                assert required <= set(item) <= allowed, (path, typed.__name__, set(item) ^ required)


# ----------------------------------------------------------------------------- reserved query names

RESERVED_FIXTURE = ROOT / "tests" / "bad_entries" / "input-name-reserved"


@pytest.mark.node  # the check typesets the fixture's TeX with KaTeX
@pytest.mark.parametrize("name", page.RESERVED)
def test_an_input_named_like_a_page_parameter_is_rejected(name, tmp_path, capsys):
    folder = tmp_path / "bank"
    shutil.copytree(RESERVED_FIXTURE, folder)
    yaml = folder / "01-toy.yaml"
    yaml.write_text(re.sub(r"\bsolve\b", name, yaml.read_text()))
    # The fixture's message, word for word, for this name (it writes the list of reserved names as
    # {reserved}, so a new link parameter leaves it as it is).
    expected = (RESERVED_FIXTURE / "expected.txt").read_text().replace("{here}", shown(folder))
    expected = re.sub(r"\bsolve\b", name, expected).replace("{reserved}", ", ".join(page.RESERVED))
    assert main(["--entries", str(folder), "check"]) == 1
    assert capsys.readouterr().err == expected


def test_the_docs_name_every_reserved_name():
    row = next(line for line in DOC.read_text().splitlines() if "keep for themselves" in line)
    missing = [name for name in page.RESERVED if f"`{name}`" not in row]
    assert not missing, f"docs/entry-format.md: the input `name` row must name {missing}, which the links keep"


@pytest.mark.node  # reads the built site
# ----------------------------------------------------------------------------- one run, complete


def built_spec(site, url: str) -> tuple[dict, str]:
    """A page's spec with its formula, as the browser reads them (the formula from the page's text)."""
    text = (site / url.strip("/") / "index.html").read_text()
    formula = html.unescape(re.search(r'<code id="formula-source">([^<]*)</code>', text).group(1))
    return {**json.loads(SPEC.search(text).group(1)), "formula": formula}, text


@pytest.mark.node  # reads the built site
def test_a_run_reply_carries_the_link_the_citation_and_the_feed_links(site):
    spec, text = built_spec(site, "/36/")
    assert spec["feeds"], "entry 36 feeds another entry"
    api.load(json.dumps(spec))
    date = spec["meta"]["date"]
    # At the defaults: what the build printed into the page, from the same producers.
    value = json.loads(api.run_json(spec["id"], "{}", date))["value"]
    hrefs = re.findall(r'class="feed-link" id="feed-\d+" href="([^"]*)"', text)
    assert value["feeds"] == [html.unescape(h) for h in hrefs]
    cited = re.search(r'<pre class="citation" id="cite-run-text">(.*?)</pre>', text, re.S).group(1)
    assert value["share"]["text"] == html.unescape(cited)
    assert value["share"]["query"] == "version=1" and value["share"]["url"] == spec["meta"]["url"] + "?version=1"
    # An edit: the one reply has everything the page writes.
    first = spec["inputs"][0]
    changed = "7" if first["type"] in ("real", "integer") else None
    assert changed, "entry 36's first input is a number"
    value = json.loads(api.run_json(spec["id"], json.dumps({first["name"]: changed}), "2026-12-01"))["value"]
    share = value["share"]
    assert share["query"] == f"{first['name']}={changed}&version=1"
    assert share["url"] == f"{spec['meta']['url']}?{first['name']}={changed}&version=1"
    assert f"{first['name']} = {changed}" in share["text"] and "accessed 2026-12-01" in share["text"]
    assert share["bibtex"].startswith("@")
    # The page's link as link.js wrote it (a preset, a unit choice): cited as it is.
    query = f"{first['name']}={changed}&units=bytes%3AGiB&version=1"
    linked = json.loads(api.run_json(spec["id"], json.dumps({first["name"]: changed}), "2026-12-01", "", query))
    assert linked["value"]["share"]["query"] == query
    assert f"computed at {spec['meta']['url']}?{query} (entry version 1" in linked["value"]["share"]["text"]
    assert value["feeds"] == page.feed_hrefs(spec["feeds"], value)
    for href, feed in zip(value["feeds"], spec["feeds"]):
        assert href.startswith(feed["url"] + "?") and all(f"{t}=" in href for t in feed["inputs"])


def test_a_feed_link_carries_values_as_a_reader_types_them():
    run = {"inputs": {"N": 70_000_000_000}, "outputs": {"bytes": {"value": 1.4e11, "text": "140 GB"}}}
    feeds = [{"url": "/36/", "inputs": {"N": "N", "M": "bytes"}}]
    assert page.feed_hrefs(feeds, run) == ["/36/?N=70B&M=140B"]


@pytest.mark.node  # reads the built site
def test_the_elasticity_reply_carries_its_text(site):
    spec, text = built_spec(site, "/35/")
    api.load(json.dumps(spec))
    reply = json.loads(api.elasticity_json(spec["id"], "{}"))
    assert reply["text"] == page.elasticity_texts(reply["value"])
    for name, row in reply["text"].items():
        for output, shown_text in row.items():
            cell = re.search(rf'<td id="el-{name}-{output}">([^<]*)</td>', text)
            if cell:  # the build wrote the same text
                assert cell.group(1) == shown_text


@pytest.mark.parametrize("value, text", [(None, "—"), (1.0, "1.00"), (-0.5, "−0.50"), (0.333, "0.33")])
def test_elasticity_text(value, text):
    assert page.elasticity_text(value) == text


@pytest.mark.node  # reads the built site
def test_each_solution_carries_its_run_complete(site):
    spec, _ = built_spec(site, "/35/")
    api.load(json.dumps(spec))
    question = {"input": "s", "output": "total", "sense": "<=", "target": "80GB"}
    reply = json.loads(api.solve_json("35", "{}", json.dumps(question), "2026-12-01"))
    solution = reply["value"]["solutions"][0]
    run = solution["run"]
    assert (
        run["share"]["query"] == f"s={solution['value']}&version=1" == "s=244140&version=1"
    )  # no page link given: as Python writes it
    assert "accessed 2026-12-01" in run["share"]["text"]
    assert run["feeds"] == page.feed_hrefs(spec["feeds"], run)
    assert "echo" in run


def test_the_page_assigns_what_python_wrote():
    """Feed links and elasticities are written by the runtime (page.feed_hrefs, page.elasticity_text):
    page.js only puts them in place."""
    script = (ROOT / "pyodide_app" / "page.js").read_text()
    assert "toFixed(2)" not in script  # (a load time is written with toFixed(1): not a result)
    assert ".typed" not in script and "feed.inputs" not in script


def test_the_links_grammar_reserves_what_the_runtime_reserves():
    """pyodide_app/link.js's table of parameters and runtime/page.py's RESERVED name the same keys,
    so no entry's input or output can take a name the link uses."""
    source = (ROOT / "pyodide_app" / "link.js").read_text()
    table = source.split("export const PARAMS = [", 1)[1].split("\n];", 1)[0]
    keys = set(re.findall(r'key: "([a-z]+)"', table)) | set(re.findall(r'preset\("([a-z]+)"\)', table))
    assert keys == set(page.RESERVED)
    assert set(page.KIND_LABELS) == set(re.findall(r'preset\("([a-z]+)"\)', table))


def test_a_case_link_asks_its_question_in_the_links_grammar():
    assert page.case_query({"B": 2}, {"input": "s", "output": "total", "sense": "<=", "target": "80 GB"}) == (
        "B=2&solve=s&total%3C=80%20GB"
    )
    assert page.case_query({}, {"input": "M", "output": "bubble", "sense": ">=", "target": "8%"}) == (
        "solve=M&bubble%3E=8%25"
    )
    assert page.case_query({"s": 32000}) == "s=32000"
    assert page.pretty("https://x/35/?solve=s&total%3C=80GB") == "https://x/35/?solve=s&total<=80GB"


def test_one_module_reads_and_writes_the_link_and_none_edits_pythons_text():
    """In the browser only link.js parses or writes a query, or the address bar; the citation is
    Python's text, put in place as it is."""
    for path in sorted((ROOT / "pyodide_app").glob("*.js")):
        if path.name == "link.js":
            continue
        text = path.read_text()
        assert "URLSearchParams" not in text and "searchParams" not in text, path.name
        assert "history.replaceState" not in text and "history.pushState" not in text, path.name
        assert "computed with" not in text and "share.text.replace" not in text, path.name


def test_write_json_writes_values_in_the_readers_units(bank):
    """The "Every model" table's cells in the reader's units: each value as the page writes it."""
    entries, calculators = bank
    entry = next(e for e in entries if e.key == "35")
    api.load(json.dumps(entry.spec()))
    calc = calculators["35"]
    total = next(o for o in calc.outputs if o["name"] == "total")
    asked = json.dumps({"total": [2**31, None]})
    reply = json.loads(api.write_json("35", asked, json.dumps({"bytes": "GiB"})))
    assert reply == {"ok": True, "value": {"total": [calc.write(total, 2**31, {"bytes": "GiB"}), None]}}
    assert reply["value"]["total"][0].endswith("GiB")
    default = json.loads(api.write_json("35", json.dumps({"total": [2e9]}), "{}"))
    assert default["value"]["total"] == [calc.write(total, 2e9)]
    assert default["value"]["total"][0] == "2\u00a0GB"
    refused = json.loads(api.write_json("35", json.dumps({"nope": [1]}), "{}"))
    assert refused == {"ok": False, "errors": {"nope": "is not an output of this entry"}}
