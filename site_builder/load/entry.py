"""The typed shape of an entry.  Built only by ``load``; nothing past the loader sees a raw dict."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..runtime import page
from ..runtime.numbers import NUMERIC, split_format

PART_TITLES = {"I": "Foundations", "II": "The Classical Era", "III": "The Modern Era"}


@dataclass(frozen=True)
class Where:
    """A place in an entry file: for pointing an author at a mistake."""

    path: Path
    line: int


class Located:
    """An item that knows where each of its fields is written, so an error points at the field's
    own line.  ``lines`` maps a field's path inside the item (``("default",)``,
    ``("inputs", "N")``) to its line; the loader fills it."""

    where: Where | None
    lines: dict

    def at(self, *path) -> Where | None:
        """Where a field is written: ``at("default")``, ``at("inputs", "N")``.  A field the author
        did not write is pointed at by the nearest written field that holds it, else the item's line."""
        path = tuple(path)
        while path and path not in self.lines:
            path = path[:-1]
        if not path or self.where is None:
            return self.where
        return Where(self.where.path, self.lines[path])


@dataclass(frozen=True)
class Input(Located):
    name: str
    label: str
    symbol: str
    unit: str
    default: object
    type: str = "real"
    domain: str | None = None
    length: str | None = None
    integer_elements: bool = False
    sum: float | None = None
    choices: tuple = ()
    help: str = ""
    where: Where | None = field(default=None, compare=False)
    lines: dict = field(default_factory=dict, compare=False, repr=False)  # field path -> line: see Located

    def spec(self) -> page.Input:
        spec: page.Input = {"name": self.name, "type": self.type, "default": self.default}
        for key in ("domain", "length", "sum"):
            if getattr(self, key) is not None:
                spec[key] = getattr(self, key)
        if self.integer_elements:
            spec["integer_elements"] = True
        if self.choices:
            spec["choices"] = [dict(c) for c in self.choices]
        return spec


# What a unitless output is, in the words the page prints beside its label.
KINDS = {
    "probability": "a probability",
    "probabilities": "probabilities",
    "ratio": "a ratio, no unit",
    "factor": "a factor, no unit",
    "exponent": "an exponent, no unit",
    "shares": "shares of one",
    "scale": "in the units of its inputs",
}


@dataclass(frozen=True)
class Index:
    """How a list output's elements are indexed, as its statement names them (``page.Index``)."""

    symbol: str  # one letter, plain text: j
    first: int | str  # the first element's index: a whole number, or arithmetic on integer inputs

    def spec(self) -> page.Index:
        return {"symbol": self.symbol, "first": self.first}


@dataclass(frozen=True)
class Output(Located):
    name: str
    label: str
    symbol: str
    unit: str
    format: str
    help: str = ""
    where: Where | None = field(default=None, compare=False)
    valid: str | None = None  # where the value means what the label says (see the schema)
    invalid: str | None = None  # the sentence shown outside it
    elastic: bool = True  # False for a position or a choice: no elasticity shown
    kind: str = ""  # what a unitless value is (KINDS), printed beside its label
    counted: str = ""  # the model field (params_counted) this output is a count of, when filled from a model
    index: Index | None = None  # a list's index as the statement names it (entry 46's j from (n + 1) // 2)
    lines: dict = field(default_factory=dict, compare=False, repr=False)  # field path -> line: see Located

    @property
    def kind_text(self) -> str:
        """The words the page prints for ``kind``: 'a probability', 'a ratio, no unit'."""
        return KINDS.get(self.kind, "")

    def spec(self) -> page.Output:
        spec: page.Output = {"name": self.name, "label": self.label, "format": self.format, "unit": self.unit}
        spec.update({k: v for k, v in (("valid", self.valid), ("invalid", self.invalid)) if v})
        if not self.elastic:
            spec["elastic"] = False
        if self.counted:
            spec["counted"] = self.counted
        if self.index:
            spec["index"] = self.index.spec()
        return spec


@dataclass(frozen=True)
class Check(Located):
    output: str
    printed: str
    index: int | None = None
    value: str | None = None
    digits: int | str | None = None
    range: str | None = None
    erratum: str | None = None
    where: Where | None = field(default=None, compare=False)
    lines: dict = field(default_factory=dict, compare=False, repr=False)  # field path -> line: see Located


@dataclass(frozen=True)
class Case(Located):
    id: str
    origin: str
    inputs: dict
    checks: tuple[Check, ...]
    source: str = ""
    quote: str = ""
    note: str = ""
    citation: dict | None = None  # published cases: {title, url, where}
    preset: dict | None = None  # {model: id, hardware: id}: fills inputs through the entry's fill mapping
    solve: dict | None = field(default=None, hash=False)  # an inverse case: {input, output, sense, target}
    where: Where | None = field(default=None, compare=False)
    lines: dict = field(default_factory=dict, compare=False, repr=False)  # field path -> line: see Located

    @property
    def inverse(self) -> dict | None:
        """The inverse question with its sense filled in ('=' by default), or None."""
        return {"sense": "=", **self.solve} if self.solve else None


@dataclass(frozen=True)
class Plot(Located):
    """One chart.  ``chart`` holds its YAML keys as the page and the calculator read them (``from``,
    ``to``, ``points`` filled in); ``plot["from"]`` reads one, and a template's ``plot.x`` too."""

    chart: page.Plot = field(hash=False)
    caption: str = ""
    where: Where | None = field(default=None, compare=False)
    lines: dict = field(default_factory=dict, compare=False, repr=False)  # field path -> line: see Located

    def __getitem__(self, key: str):
        return self.chart[key]

    def get(self, key: str, default=None):
        return self.chart.get(key, default)

    def spec(self) -> page.Plot:
        return dict(self.chart)


@dataclass(frozen=True)
class Feed(Located):
    entry: int | str
    label: str
    inputs: dict
    where: Where | None = field(default=None, compare=False)
    lines: dict = field(default_factory=dict, compare=False, repr=False)  # field path -> line: see Located


@dataclass(frozen=True)
class Fill(Located):
    """One line of an entry's ``fill:`` mapping: which preset field fills which input.

    ``field?`` marks a field the preset may lack; ``field / 1e9`` or ``field * 8`` converts
    the preset's base unit to the input's."""

    kind: str
    input: str
    field: str
    optional: bool = False
    op: str = ""
    factor: str = ""
    where: Where | None = field(default=None, compare=False)
    lines: dict = field(default_factory=dict, compare=False, repr=False)  # field path -> line: see Located


@dataclass(frozen=True)
class Entry(Located):
    id: int | str
    slug: str
    title: str
    chapter: int
    part: str
    protocol: bool
    statement: str
    inputs: tuple[Input, ...]
    outputs: tuple[Output, ...]
    formula: str
    cases: tuple[Case, ...]
    related: tuple
    notes: str = ""
    plots: tuple[Plot, ...] = ()
    feeds: tuple[Feed, ...] = ()
    may_be_infinite: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()  # other names readers search for it by
    solve: dict | None = field(default=None, hash=False)  # the question usually asked backwards: {input, output}
    headline: tuple[str, ...] = ()  # the output(s) the statement prices, shown first and large
    fill: tuple[Fill, ...] = ()
    where: Where | None = field(default=None, compare=False)
    # Line of every path in the file (("solve", "output"),), and of the first content line of each
    # block scalar.  ``at("solve", "output")`` reads the first (see Located).
    lines: dict = field(default_factory=dict, compare=False, repr=False)
    block_lines: dict = field(default_factory=dict, compare=False)
    # The sha256 of the file's text as the entry was read from it: the site's version covers it
    # (build.site_files) without the file being read again.
    text_digest: str = field(default="", compare=False, repr=False)

    @property
    def in_bank(self) -> bool:
        return isinstance(self.id, int)

    @property
    def key(self) -> str:
        """Stable text id: '35', or 'softmax' for a toolkit entry."""
        return str(self.id)

    @property
    def test_id(self) -> str:
        return f"e{self.id}" if self.in_bank else f"t-{self.id}"

    @property
    def url(self) -> str:
        return f"/{self.id}/" if self.in_bank else f"/toolkit/{self.id}/"

    @property
    def label(self) -> str:
        return f"Entry {self.id}" if self.in_bank else "Toolkit"

    @property
    def part_title(self) -> str:
        return PART_TITLES[self.part]

    @property
    def question(self) -> dict | None:
        """The default inverse question: ``solve`` if given, else the first numeric input and output."""
        if self.solve:
            return dict(self.solve)
        free = next((i.name for i in self.inputs if i.type in ("real", "integer")), None)
        output = next((o.name for o in self.outputs if split_format(o.format)[0] in NUMERIC), None)
        return {"input": free, "output": output} if free and output else None

    @property
    def headlines(self) -> tuple[str, ...]:
        """The outputs shown first: ``headline`` if given, else the default question's output."""
        if self.headline:
            return self.headline
        question = self.question
        return (question["output"],) if question and question.get("output") else (self.outputs[0].name,)

    def spec(self) -> page.Spec:
        """What the calculator needs (the page's spec adds the rest: ``site_builder.pages.spec``)."""
        return {
            "id": self.key,
            "formula": self.formula,
            "inputs": [i.spec() for i in self.inputs],
            "outputs": [o.spec() for o in self.outputs],
            "plots": [p.spec() for p in self.plots],
            "solve": self.question,
            "headline": list(self.headlines),
            # an input's unit, for its value as the page writes it (a solved 268.4 GB)
            "input_units": {i.name: i.unit for i in self.inputs if i.unit},
        }


@dataclass(frozen=True)
class Synthesis(Located):
    """One of the bank's synthesis essay prompts and the entries it draws on."""

    id: str
    text: str
    entries: tuple
    correction: str = ""
    where: Where | None = field(default=None, compare=False)
    groups: tuple = ()  # (label, entries) in the prompt's order, when it names parts (S4's four budgets)
    lines: dict = field(default_factory=dict, compare=False, repr=False)  # field path -> line: see Located


@dataclass(frozen=True)
class Chapter(Located):
    """What one chapter of the book covers (entries/_chapters.yaml); its entries are the ones whose
    ``chapter`` names it."""

    number: int
    part: str
    short: str
    covers: str
    where: Where | None = field(default=None, compare=False)
    lines: dict = field(default_factory=dict, compare=False, repr=False)  # field path -> line: see Located

    @property
    def part_title(self) -> str:
        return PART_TITLES[self.part]
