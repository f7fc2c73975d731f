"""The page spec: the JSON an entry page carries for the browser, defined once.

Standard library only: shipped to the browser.  The build makes a spec with
``site_builder.pages.spec.page_spec``; the page reads it from ``<script id="entry-spec">``; the
worker's ``api.load`` compiles its formula.  Names are the entry YAML's own
(a plot's ``from`` and ``to``), so an author, the build and the browser say the same thing.

The rules that the build and the browser both apply live here too, one producer each:
what a feed link carries (``feed_hrefs``), the question a link asks (``question_query``, the
build's case links), the citation of one computation (``share``), and an elasticity as
written (``elasticity_text``).  In the browser, ``pyodide_app/link.js`` alone reads and writes
the page's query; Python cites the query it is given, and writes its own links (feeds, cases)
in the same grammar (docs/architecture.md, "The link").
"""

# No ``from __future__ import annotations``: TypedDict must see NotRequired itself.
from typing import NotRequired, TypedDict
from urllib.parse import quote, urlencode

from .citation import run_citation
from .numbers import NBSP, format_number, write_input

PLOT_POINTS = 60  # points a chart computes when its plot gives no ``points``
DEFAULT_FORMAT = "sig:4"  # how an output without a format is written

# Query names an entry page's link keeps for itself: no input or output may take one.
# pyodide_app/link.js's table of parameters names the same (a test holds the two equal).
RESERVED = ("embed", "units", "solve", "model", "hardware", "show", "version", "compare")
# A preset kind as a sentence names it: "no such accelerator fills this entry".
KIND_LABELS = {"model": "model", "hardware": "accelerator"}
# A question's comparison as a sentence writes it, and as a link's key ends (total<=80GB).
SENSE_SIGNS = {"=": "=", "<=": "≤", ">=": "≥"}


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


class Index(TypedDict):
    """How a list output's elements are indexed, as its statement names them: ``j`` from
    ``(n + 1) // 2`` (a whole number, or arithmetic on integer inputs)."""

    symbol: str
    first: int | str


class Output(TypedDict):
    name: str
    label: str
    format: str
    unit: str
    valid: NotRequired[str]
    invalid: NotRequired[str]
    elastic: NotRequired[bool]  # written only when False
    counted: NotRequired[str]  # the model field it counts: filled from a model, a departure is said
    index: NotRequired[Index]  # a list's index as the statement names it: its rows are j = 2, 3


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
    """A model or an accelerator that fills this entry's inputs (site_builder.load.fill.spec)."""

    id: str
    name: str
    family: str
    sources: list[Source]  # each listed once
    values: dict[str, list]  # input -> [its text, the index of its source, the preset field it comes from]
    departs: NotRequired[str]  # where the entry's own count is not the model's (runtime/model_fill.py)


class Device(TypedDict):
    """An accelerator whose memory as printed differs from its memory as built (presets.devices)."""

    name: str
    marketed: float  # bytes, as the vendor prints it (80GB: 80e9)
    built: float  # bytes, as built (80 GiB)


class Meta(TypedDict):
    id: str
    label: str
    title: str
    chapter: int
    url: str
    version: str  # the build's: a digest of the sources and files
    date: str
    entry_version: int  # the entry's own version (site_builder.load.versions)
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


class PageVersions(TypedDict):
    """What an entry's page carries about its versions: the current one; its history and older
    versions (``Versions``) are in versions.json beside the page (``src``) once it has some."""

    current: int
    release: int
    src: NotRequired[str]


class Share(TypedDict):
    """One computation's link and citation."""

    query: dict[str, str]
    url: str
    text: str
    bibtex: str


class Calculator(TypedDict):
    """What the calculator needs but its formula: inputs, outputs, plots."""

    id: str
    inputs: list[Input]
    outputs: list[Output]
    plots: list[Plot]
    solve: Question | Solve | None
    headline: list[str]
    input_units: NotRequired[dict[str, str]]  # input -> its unit, where it has one


class Spec(Calculator):
    """What the calculator needs: formula, inputs, outputs, plots (``Entry.spec``)."""

    formula: str


class PageSpec(Calculator):
    """What the page carries: the calculator's spec and what the page shows around it.  What the
    page shows is not repeated in it, and the browser reads it there: the formula
    (``<code id="formula-source">``), each input's label (its field's ``.label``; an output's is
    in ``outputs``) and the presets that fill the entry (the preset menus' options, by id)."""

    meta: Meta
    sweeps_src: NotRequired[str]  # sweeps.json beside the page: the defaults' points of each plot (without their text)
    feeds: list[Feed]
    protocol: bool
    presets_src: NotRequired[str]  # presets.json beside the page: kind -> [Preset], their values and sources
    versions: PageVersions
    config_fill: NotRequired[list[list]]  # [input, preset field, op, factor, optional]: what a pasted config.json fills
    kinds: NotRequired[dict[str, str]]  # KIND_LABELS of the kinds of presets that fill it: how a sentence names each
    devices: NotRequired[list[Device]]  # on entries solving for bytes: devices sold as one figure, built as another


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


def question_query(question: dict) -> str:
    """The query that asks ``question`` (``{"input", "output", "sense", "target"}``) in the link's
    grammar: ``solve=s&total%3C=80GB`` (< and > escaped: HTML allows neither raw in a query)."""
    sense = {"=": "", "<=": "<", ">=": ">"}[question["sense"]]
    return (
        f"solve={quote(str(question['input']), safe='')}&{quote(str(question['output']), safe='')}"
        f"{quote(sense)}={quote(str(question['target']), safe='')}"
    )


def case_query(inputs: dict, question: dict | None = None) -> str:
    """The query that loads a worked case into the calculator: its inputs as a reader would type
    them, and for an inverse case its question (``s=8k&solve=B&total%3C=80GB``)."""
    given = urlencode({n: write_input(v) for n, v in inputs.items()})
    return "&".join(p for p in [given, question_query(question) if question else ""] if p)


def pretty(url: str) -> str:
    """A link as a reader reads and copies it: a question's < and > unescaped (``total<=80GB``)."""
    return url.replace("%3C=", "<=").replace("%3E=", ">=")


def describe(question: dict, label: str) -> str:
    """A question in words: ``total memory ≤ 80GB`` (a label's capital goes mid-sentence, an
    acronym's stays: "KV cache size")."""
    if len(label) > 1 and label[0].isupper() and label[1].islower():
        label = label[0].lower() + label[1:]
    return f"{label} {SENSE_SIGNS[question['sense']]} {question['target']}"


def share(
    meta: Meta,
    inputs: list[Input],
    outputs: list[Output],
    raw: dict,
    run: dict,
    query: str,
    accessed: str,
    question: dict | None = None,
) -> Share:
    """The link to one computation (the entry's page with ``query``, a query string as the page's
    link wrote it) and its citation: the inputs as given (defaults where ``raw`` has none), the
    outputs as written, and for an answer the ``question`` it answers."""
    url = pretty(meta["url"] + (("?" + query) if query else ""))
    if meta.get("entry_version") is not None and not any(
        p.split("=", 1)[0] == "version" for p in query.split("&") if p
    ):
        # the link names the version that computed it
        query = (query + "&" if query else "") + f"version={meta['entry_version']}"
        url = pretty(meta["url"] + "?" + query)
    given = [(i["name"], write_input(raw.get(i["name"], i["default"]))) for i in inputs]
    found = [(o.get("label", o["name"]), run["outputs"][o["name"]]["text"]) for o in outputs]
    asked = ""
    if question:
        label = next((o.get("label", o["name"]) for o in outputs if o["name"] == question["output"]), "")
        asked = f"solved for {question['input']} where {describe(question, label or question['output'])}"
    return {"query": query, "url": url, **run_citation(meta, given, found, url, accessed, asked)}


def device_note(devices: list[Device], target: float, write) -> str:
    """For a byte target equal to some devices' printed memory: what they hold as built.
    ``write``: bytes -> text, as the result is shown."""
    same: dict[float, list[str]] = {}
    for d in devices:
        if abs(d["marketed"] - target) <= 1e-9 * abs(target):
            same.setdefault(d["built"], []).append(d["name"])
    notes = []
    for built, names in same.items():
        shown = names[:3] + ([f"{len(names) - 3} more"] if len(names) > 3 else [])
        who = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
        one = len(names) == 1
        gib = built / 2**30  # memory as built, in GiB
        notes.append(
            f"{who} {'is' if one else 'are'} sold as {write(target)} and built as "
            f"{format_number(gib, 'sig:4')}{NBSP}GiB ({write(built)}): for what "
            f"{'it holds' if one else 'they hold'}, type {write_input(float(f'{gib:.4g}'))}GiB."
        )
    return " ".join(notes)


def elasticity_text(value: float | None) -> str:
    """An elasticity as the scaling table shows it: two decimals, the whole part grouped, a minus
    sign; a dash for none."""
    return "—" if value is None else f"{value:,.2f}".replace("-", "−")


def elasticity_texts(table: dict) -> dict:
    """``{input: {output: e}}`` written: ``{input: {output: text}}``."""
    return {name: {out: elasticity_text(e) for out, e in row.items()} for name, row in table.items()}
