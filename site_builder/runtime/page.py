"""The page spec: the JSON an entry page carries for the browser, defined once.

Standard library only: shipped to the browser.  The build makes a spec with
``site_builder.spec.page_spec``; the page reads it from ``<script id="entry-spec">``; the
worker's ``api.load`` compiles its formula.  Names are the entry YAML's own
(a plot's ``from`` and ``to``), so an author, the build and the browser say the same thing.

The rules that the build and the browser both apply live here too, one producer each:
what a feed link carries (``feed_hrefs``), the citation of one computation (``share``),
and an elasticity as written (``elasticity_text``).
"""

# No ``from __future__ import annotations``: TypedDict must see NotRequired itself.
from typing import NotRequired, TypedDict
from urllib.parse import urlencode

from .citation import run_citation
from .numbers import write_input

PLOT_POINTS = 60  # points a chart computes when its plot gives no ``points``
DEFAULT_FORMAT = "sig:4"  # how an output without a format is written

# Query names an entry page's link keeps for itself: no input or output may take one.
RESERVED = ("embed", "units", "solve", "model", "hardware", "show", "version")


class Choice(TypedDict):
    value: str
    label: str


class Input(TypedDict):
    name: str
    type: str  # real, integer, list, choice
    default: object
    domain: NotRequired[str]
    length: NotRequired[str]
    sum: NotRequired[float]
    integer_elements: NotRequired[bool]
    choices: NotRequired[list[Choice]]


class Output(TypedDict):
    name: str
    label: str
    format: str
    unit: str
    valid: NotRequired[str]
    invalid: NotRequired[str]
    elastic: NotRequired[bool]  # written only when False


# ``from`` is a Python keyword: the functional syntax keeps the YAML's name.
Plot = TypedDict(
    "Plot",
    {
        "x": str,
        "y": list,
        "from": float,
        "to": float,
        "log_x": bool,
        "log_y": bool,
        "points": int,
        "when": NotRequired[dict],  # {choice input: value}: the mode in which the swept input is used
    },
)


class Question(TypedDict):
    """An inverse question's pairing: the input freed, the output aimed at."""

    input: str | None
    output: str | None


class Solve(Question):
    """What the solve panel offers: the numeric inputs it may free, the numeric outputs it may aim at."""

    inputs: list[str]
    outputs: list[str]


class Feed(TypedDict):
    url: str  # the target entry's page
    inputs: dict[str, str]  # target input -> this entry's input or output that fills it


class Sweep(TypedDict):
    """A plot's points (``Calculator.sweep``); the spec carries the defaults' without ``text``."""

    x: list[float]
    y: dict[str, list]  # output -> its values, None where the formula gives none
    current: dict  # {"x", "y": {output: value}}: the reader's own point
    text: NotRequired[dict]  # the same points as the chart's table writes them
    inactive: NotRequired[dict]  # {"input", "when"}: the mode in which the swept input is not used


class Source(TypedDict):
    title: str
    url: str
    where: str


class Preset(TypedDict):
    """A model or an accelerator that fills this entry's inputs (site_builder.fill.spec)."""

    id: str
    name: str
    family: str
    sources: list[Source]  # each listed once
    values: dict[str, list]  # input -> [its text, the index of its source, the preset field it comes from]


class Meta(TypedDict):
    id: str
    label: str
    title: str
    chapter: int
    url: str
    version: str  # the build's: a digest of the sources and files
    date: str
    entry_version: int  # the entry's own version (site_builder.versions)
    release: int  # the site's release number


class History(TypedDict):
    """One version of an entry, as its page lists it."""

    version: int
    date: str
    release: int
    changed: str
    why: str
    erratum: NotRequired[str]
    source: NotRequired[str]
    errata: NotRequired[list[str]]  # ids of the cases whose printed value the bank corrects


class Versions(TypedDict):
    """An entry's versions: the current one, its history, and each superseded version's spec
    (formula, inputs, outputs), which runs on the same runtime as the current one."""

    current: int
    release: int
    history: list[History]
    older: dict[str, dict]  # version -> {formula, inputs, outputs}


class Share(TypedDict):
    """One computation's link and citation."""

    query: dict[str, str]
    url: str
    text: str
    bibtex: str


class Spec(TypedDict):
    """What the calculator needs: formula, inputs, outputs, plots (``Entry.spec``)."""

    id: str
    formula: str
    inputs: list[Input]
    outputs: list[Output]
    plots: list[Plot]
    solve: Question | Solve | None
    headline: list[str]


class PageSpec(Spec):
    """What the page carries: the calculator's spec and what the page shows around it."""

    meta: Meta
    sweeps: list[Sweep]  # the defaults' points of each plot (without their text: the table is in the HTML)
    feeds: list[Feed]
    labels: dict[str, str]  # input or output name -> its label
    protocol: bool
    reserved: list[str]  # RESERVED: query names that are the page's, not an input's
    presets: NotRequired[dict[str, list[Preset]]]  # kind (model, hardware) -> the presets that fill this entry
    versions: Versions
    config_fill: NotRequired[list[list[str]]]  # [input, preset field, op, factor]: what a pasted config.json fills


# ----------------------------------------------------------------------------- the shared rules


def feed_query(feed: Feed, run: dict) -> dict[str, str]:
    """The target's inputs a feed link carries: each from this entry's current input or output,
    written as a reader would type it."""
    return {
        target: write_input(run["outputs"][origin]["value"] if origin in run["outputs"] else run["inputs"][origin])
        for target, origin in feed["inputs"].items()
    }


def feed_hrefs(feeds: list[Feed], run: dict) -> list[str]:
    """Each feed's link, carrying ``run``'s values (a run: ``{"inputs", "outputs"}``)."""
    return [f"{feed['url']}?{urlencode(feed_query(feed, run))}" for feed in feeds]


def share(
    meta: Meta, inputs: list[Input], outputs: list[Output], raw: dict, run: dict, query: dict, accessed: str
) -> Share:
    """The link to one computation (the entry's page with ``query``) and its citation: the inputs
    as given (defaults where ``raw`` has none) and the outputs as written."""
    query = {**query, "version": str(meta["entry_version"])}  # the link names the version that computed it
    url = meta["url"] + "?" + urlencode(query)
    given = [(i["name"], write_input(raw.get(i["name"], i["default"]))) for i in inputs]
    found = [(o.get("label", o["name"]), run["outputs"][o["name"]]["text"]) for o in outputs]
    return {"query": query, "url": url, **run_citation(meta, given, found, url, accessed)}


def elasticity_text(value: float | None) -> str:
    """An elasticity as the scaling table shows it: two decimals, a minus sign; a dash for none."""
    return "—" if value is None else f"{value:.2f}".replace("-", "−")


def elasticity_texts(table: dict) -> dict:
    """``{input: {output: e}}`` written: ``{input: {output: text}}``."""
    return {name: {out: elasticity_text(e) for out, e in row.items()} for name, row in table.items()}
