"""The bank from Python: entries, run, solve, sweep and presets, with results that carry their units.

Public as ``import derivation_bank as bank`` (docs/python.md).  The ``compute`` command is a
thin layer over this module: it parses the arguments, calls ``Bank.entry(...).run/solve`` and
prints; the messages of the errors raised here are the command's messages.

Every number is written by the runtime the page runs (``runtime.units.write``), so a value
reads here as it reads on the entry's page.  A plan (``Bank.plan("serve")``) runs and solves
as an entry does, every figure an entry's output.
"""

from __future__ import annotations

import csv
import html
import io
import re
from dataclasses import dataclass, field
from pathlib import Path

from .errors import BuildFailed, Problems
from .runtime.calculator import Calculator
from .runtime.domain import DomainError
from .runtime.numbers import NBSP, index_span

ENTRIES = Path(__file__).resolve().parent.parent / "entries"
KINDS = ("model", "hardware")


class BankError(Exception):
    """Any refusal of the bank; its text is the message the ``compute`` command prints."""


class UnknownEntry(BankError, LookupError):
    """No entry of that id."""


class UnknownPreset(BankError, LookupError):
    """No preset of that id fills the entry (the text lists the ones that do)."""


class InputError(BankError, ValueError):
    """An input (or a solve question) outside what the entry allows; ``name`` is the input."""

    def __init__(self, message: str, name: str = ""):
        super().__init__(message)
        self.name = name


def _plain_text(text: str) -> str:
    return text.replace(NBSP, " ")  # no-break spaces are for pages


@dataclass(frozen=True)
class Quantity:
    """A value with its unit, written as the page writes it: ``str(q)`` is ``1.342 GB``.

    Compares and converts like its value in base units (``float(q)``, ``q <= 80e9``)."""

    value: object  # the formula's value: int, float, list of numbers, or a choice's text
    unit: str = ""
    text: str = ""  # as the page prints it (no-break spaces)
    name: str = ""
    label: str = ""
    # A list's elements as the statement indexes them: entry 46's vote terms at n = 3 are
    # j = 2, 3 (``index`` (2, 3), ``index_symbol`` "j"); empty when the output names no index.
    index: tuple = ()
    index_symbol: str = ""

    @property
    def written(self) -> str:
        """As the page prints it, and for a list the statement indexes, which indices it holds:
        ``(0.027, 0.001) for j = 2 to 3`` (no-break spaces, as ``text``)."""
        if not self.index:
            return self.text
        return f"{self.text} for {index_span(self.index_symbol, self.index[0], len(self.index))}"

    def __str__(self) -> str:
        return _plain_text(self.written)

    def __repr__(self) -> str:
        unit = f" {self.unit}" if self.unit else ""
        return f"<{self.name or 'value'}: {self} = {self.value!r}{unit}>"

    def __float__(self) -> float:
        return float(self.value)

    def __int__(self) -> int:
        return int(self.value)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec) if not spec or spec[-1] not in "eEfFgGdn%" else format(self.value, spec)

    def __eq__(self, other):
        if isinstance(other, Quantity):
            return (self.value, self.unit) == (other.value, other.unit)
        return self.value == other

    def __hash__(self):
        return hash((repr(self.value), self.unit))

    def __lt__(self, other):
        return self.value < (other.value if isinstance(other, Quantity) else other)

    def __le__(self, other):
        return self.value <= (other.value if isinstance(other, Quantity) else other)

    def __gt__(self, other):
        return self.value > (other.value if isinstance(other, Quantity) else other)

    def __ge__(self, other):
        return self.value >= (other.value if isinstance(other, Quantity) else other)


def _quantity(output: dict, written: dict) -> Quantity:
    """An output as the runtime wrote it (``Calculator.run``), with the statement's index of a list."""
    index = written.get("index")
    return Quantity(
        written["value"],
        output.get("unit", ""),
        written["text"],
        output["name"],
        output.get("label", output["name"]),
        tuple(range(index["first"], index["first"] + len(written["value"]))) if index else (),
        index["symbol"] if index else "",
    )


def _table_html(caption: str, head: tuple, rows: list[tuple]) -> str:
    cells = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>"
        for row in rows  # the page's own text, escaped
    )
    header = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    return (
        f"<table><caption>{html.escape(caption)}</caption><thead><tr>{header}</tr></thead>"
        f"<tbody>{cells}</tbody></table>"
    )


def _table_text(caption: str, rows: list[tuple[str, str]]) -> str:
    width = max((len(a) for a, _ in rows), default=0)
    return "\n".join([caption, *(f"  {a:<{width}}  {b}" for a, b in rows)])


@dataclass(frozen=True)
class Filled:
    """What one preset filled: the inputs it set (the ones given by name win) and its sources."""

    preset: Preset
    values: dict  # input -> raw value as the preset writes it
    sources: tuple  # presets.Source, each cited once
    departs: str = ""  # where the entry's own count is not the model's architecture count (fill.departures)


@dataclass(frozen=True)
class Result:
    """One run: the inputs as read, every output a ``Quantity`` (``result.total``, ``result["total"]``)."""

    entry: Entry
    inputs: dict  # name -> the value the formula received
    outputs: dict  # name -> Quantity, in the entry's order
    presets: tuple = ()  # Filled, in the order model, hardware
    notes: tuple = ()  # how a value that reads two ways was read (``s: 32K read as 32,000 ...``)
    raw: dict = field(default_factory=dict, repr=False)  # the runtime's answer, as the page receives it

    def __getattr__(self, name):
        outputs = self.__dict__.get("outputs", {})
        if name in outputs:
            return outputs[name]
        raise AttributeError(f"{name!r} is not an output of entry {self.entry.id}; outputs: {', '.join(outputs)}")

    def __getitem__(self, name) -> Quantity:
        return self.outputs[name]

    def __dir__(self):
        return [*super().__dir__(), *self.outputs]

    def _rows(self) -> list[tuple[str, str]]:
        return [(q.label, str(q)) for q in self.outputs.values()]

    def __repr__(self) -> str:
        return _table_text(f"{self.entry.label} · {self.entry.title}", self._rows())

    def _repr_html_(self) -> str:
        rows = [(q.label, q.written, q.unit) for q in self.outputs.values()]
        return _table_html(f"{self.entry.label} · {self.entry.title}", ("Output", "Value", "Unit"), rows)


@dataclass(frozen=True)
class Solution:
    """The inverse question's answer: the values of ``free`` where the target holds, a ``Result`` at each."""

    entry: Entry
    free: str
    output: str
    sense: str  # "=", "<=" or ">="
    target: Quantity
    status: str  # "solved", or why not ("none", ...)
    message: str  # the sentence the page and the command print
    values: tuple  # Quantity of ``free`` at each solution
    results: tuple  # Result at each solution
    notes: tuple = ()  # how a value that reads two ways was read
    raw: dict = field(default_factory=dict, repr=False)

    def __bool__(self) -> bool:
        return self.status == "solved"

    @property
    def value(self) -> Quantity:
        """The one solution (the first, when there are several); BankError when there is none."""
        if not self.values:
            raise BankError(f"entry {self.entry.key}: no solution: {self.message}")
        return self.values[0]

    def question(self) -> str:
        symbol = {"=": "=", "<=": "≤", ">=": "≥"}[self.sense]
        label = next(o["label"] for o in self.entry.calculator.outputs if o["name"] == self.output)
        return f"{label} {symbol} {self.target}, solved for {self.free}"

    def __repr__(self) -> str:
        lines = [f"{self.entry.label} · {self.entry.title}", f"  {self.question()}:", f"  {self.message}"]
        for v, r in zip(self.values, self.results):
            lines += ["", f"  at {self.free} = {v}:", *(f"  {line}" for line in repr(r).splitlines()[1:])]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        head = (self.free, *(q.label for q in self.results[0].outputs.values())) if self.results else (self.free,)
        rows = [(v.text, *(q.written for q in r.outputs.values())) for v, r in zip(self.values, self.results)]
        table = _table_html(f"{self.entry.label} · {self.question()}", head, rows)
        return f"<p>{html.escape(self.message)}</p>{table}"


@dataclass(frozen=True)
class Sweep:
    """Outputs along one input, the others as given: the points a chart of the page draws."""

    entry: Entry
    x: str  # the swept input
    xs: tuple  # its values
    ys: dict  # output -> tuple of values (None where the formula has no value)
    texts: dict  # "x" -> tuple of texts, and output -> tuple of texts, as the chart's table writes them
    units: dict  # name -> unit ("" for none)

    def __len__(self) -> int:
        return len(self.xs)

    def __getitem__(self, name) -> tuple:
        return self.xs if name == self.x else self.ys[name]

    def rows(self) -> list[tuple]:
        return [(x, *(self.ys[n][i] for n in self.ys)) for i, x in enumerate(self.xs)]

    def header(self) -> list[str]:
        """Column names with their units, as the chart's CSV has them: ``s``, ``total (B)``."""
        return [f"{n} ({self.units[n]})" if self.units.get(n) else n for n in (self.x, *self.ys)]

    def to_csv(self) -> str:
        """The points as CSV: a header of names and units, numbers unformatted (repr), empty where none."""
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(self.header())
        for row in self.rows():
            w.writerow(["" if v is None else repr(v) for v in row])
        return out.getvalue()

    def __repr__(self) -> str:
        head = [self.x, *self.ys]
        body = [
            [self.texts["x"][i], *(self.texts[n][i] for n in self.ys)] for i in range(len(self.xs))
        ]  # as the chart's table
        widths = [max(len(_plain_text(r[j])) for r in [head, *body]) for j in range(len(head))]
        lines = ["  ".join(_plain_text(c).rjust(w) for c, w in zip(r, widths)) for r in [head, *body]]
        return "\n".join([f"{self.entry.label} · {self.entry.title}, along {self.x}", *lines])

    def _repr_html_(self) -> str:
        rows = [(self.texts["x"][i], *(self.texts[n][i] for n in self.ys)) for i in range(len(self.xs))]
        return _table_html(f"{self.entry.label} · {self.entry.title}, along {self.x}", (self.x, *self.ys), rows)


@dataclass(frozen=True)
class Preset:
    """A published model or accelerator (entries/presets/): ``id``, ``name``, ``family``, its cited values."""

    kind: str
    id: str
    name: str
    family: str
    source: object = field(repr=False, compare=False, default=None)  # presets.Preset


def _presets_html(kind: str, items: list[Preset]) -> str:
    return _table_html(f"{kind} presets", ("id", "name", "family"), [(p.id, p.name, p.family) for p in items])


class Presets(tuple):
    """Presets, listed as a table in a notebook; ``"h100-sxm" in presets`` asks by id."""

    kind = ""

    def __new__(cls, kind: str, items):
        self = super().__new__(cls, items)
        self.kind = kind
        return self

    def __contains__(self, item) -> bool:
        return any(p.id == item or p == item for p in self)

    def ids(self) -> list[str]:
        return [p.id for p in self]

    def __repr__(self) -> str:
        return "\n".join(f"{p.id:<16} {p.name} ({p.family})" for p in self)

    def _repr_html_(self) -> str:
        return _presets_html(self.kind, list(self))


_QUESTION = re.compile(r"^\s*([A-Za-z_][A-Za-z_0-9]*)\s*(<=|>=|<|>|=)\s*(.+?)\s*$")


class Entry:
    """One entry of the bank: ``run``, ``solve``, ``sweep`` and the presets that fill it."""

    def __init__(self, bank: Bank, source):
        self._bank = bank
        self.source = source  # entry.Entry, as loaded
        self.id = source.id
        self.key = source.key
        self.label = source.label
        self.title = source.title
        self.calculator = Calculator(source.spec())
        self.inputs = tuple(i["name"] for i in self.calculator.inputs)
        self.outputs = tuple(o["name"] for o in self.calculator.outputs)
        self.defaults = dict(self.calculator.defaults)

    def __repr__(self) -> str:
        return f"<{self.label} · {self.title}: inputs {', '.join(self.inputs)}; outputs {', '.join(self.outputs)}>"

    def presets(self, kind: str) -> Presets:
        """The presets of ``kind`` ("model", "hardware") that fill this entry."""
        from .load import fill as P

        offered = P.offered(self.source, self._bank.preset_sources())
        return Presets(kind, [self._bank._preset(kind, p) for p in offered.get(kind, [])])

    def _filled(self, model: str | None, hardware: str | None, given: dict) -> tuple[dict, tuple]:
        from .load import fill as P

        raw, used = {}, []
        for kind, wanted in (("model", model), ("hardware", hardware)):
            if not wanted:
                continue
            choices = self.presets(kind)
            if wanted not in choices.ids():
                ids = "\n".join(f"  {p.id:<16} {p.name} ({p.family})" for p in choices)
                raise UnknownPreset(
                    f"{kind} {wanted!r}: no {kind} preset of that name fills {self.label}"
                    + (f"; these do:\n{ids}" if choices else f"; {self.label} has no {kind} fill mapping")
                )
            preset = next(p for p in choices if p.id == wanted).source
            values = P.filled(self.source, preset)
            raw.update(values)
            kept = {n: v for n, v in values.items() if n not in given}
            cited = []
            for f in self.source.fill:
                if f.kind == preset.kind and f.input in kept:
                    cited += [s for s in preset.sources_of(f.field) if s not in cited]
            # Said only of the model's own values: an input given by name makes it another model.
            departs = P.departures(self.source, preset, self.calculator) if kept == values else ""
            used.append(Filled(self._bank._preset(kind, preset), kept, tuple(cited), departs))
        return raw, tuple(used)

    def _raw(self, model, hardware, inputs: dict) -> tuple[dict, tuple, tuple]:
        raw, used = self._filled(model, hardware, inputs)
        raw.update(inputs)
        notes = []
        for name, echo in self.calculator.echoes(raw).items():  # a value that reads two ways: say how
            other = (
                f"; for {echo['alternative_text']} write {name}={echo['alternative']}"
                if echo.get("alternative")
                else ""
            )
            notes.append(_plain_text(f"{name}: {echo['text']}{other}"))
        return raw, used, tuple(notes)

    def _result(self, run: dict, used: tuple = (), notes: tuple = ()) -> Result:
        outputs = {o["name"]: _quantity(o, run["outputs"][o["name"]]) for o in self.calculator.outputs}
        return Result(self, dict(run["inputs"]), outputs, used, notes, run)

    def run(self, *, model: str | None = None, hardware: str | None = None, **inputs) -> Result:
        """The outputs at these inputs (the rest from the presets, then the defaults).

        Inputs are read as the page and the command read them: ``s="8k"``, ``N=70e9``, ``N="70B"``."""
        raw, used, notes = self._raw(model, hardware, inputs)
        try:
            run = self.calculator.run(raw)
        except DomainError as exc:
            raise InputError(f"entry {self.key}: {exc}", exc.name) from None
        return self._result(run, used, notes)

    def question_error(self, free: str) -> str:
        """What a solve question must be, naming the outputs."""
        return (
            f"solve {free}: give one target, output=value, output<=value or output>=value "
            f"(outputs: {', '.join(self.outputs)})"
        )

    def solve(
        self, question: str, free: str, *, model: str | None = None, hardware: str | None = None, **inputs
    ) -> Solution:
        """The values of input ``free`` where ``question`` holds: ``"total<=80GB"`` (in the output's units).

        ``sense`` is ``=``, ``<=`` or ``>=`` (``<`` and ``>`` read as ``<=`` and ``>=``, as the command reads them)."""
        from .runtime.solve import solve

        m = _QUESTION.match(question)
        if not m or m.group(1) not in self.outputs:
            raise InputError(self.question_error(free), "question")
        output, sense, target = m.group(1), {"<": "<=", ">": ">="}.get(m.group(2), m.group(2)), m.group(3)
        raw, used, notes = self._raw(model, hardware, inputs)
        try:
            answer = solve(self.calculator, raw, free, output, sense, target)
        except DomainError as exc:
            raise InputError(f"entry {self.key}: {exc}", exc.name) from None
        unit = next(o.get("unit", "") for o in self.calculator.outputs if o["name"] == output)
        free_unit = next((i.get("unit", "") for i in self.calculator.inputs if i["name"] == free), "")
        values = tuple(Quantity(s["value"], free_unit, s["text"], free, free) for s in answer["solutions"])
        results = tuple(self._result(s["run"], used, notes) for s in answer["solutions"])
        return Solution(
            self,
            free,
            output,
            sense,
            Quantity(answer["target"], unit, answer["target_text"], output, output),
            answer["status"],
            _plain_text(answer["message"]),
            values,
            results,
            notes,
            answer,
        )

    def sweep(
        self,
        x: str,
        start,
        stop,
        points: int | None = None,
        *,
        outputs: list[str] | None = None,
        log: bool | None = None,
        model: str | None = None,
        hardware: str | None = None,
        **inputs,
    ) -> Sweep:
        """The numeric outputs (or ``outputs``) along input ``x`` from ``start`` to ``stop``, the rest as given.

        Spaced as the page's chart of ``x`` spaces them (logarithmically when it does; otherwise when
        the range spans two decades or more), and the current value of ``x`` is one of the points."""
        if x not in self.inputs:
            raise InputError(
                f"entry {self.key}: {x}: is not an input of entry {self.id}; inputs: {', '.join(self.inputs)}", x
            )
        domain = next(d for d in self.calculator.domains if d.name == x)
        try:
            lo, hi = float(domain.read(start)), float(domain.read(stop))
        except DomainError as exc:
            raise InputError(f"entry {self.key}: {exc}", exc.name) from None
        chart = next((p for p in self.calculator.plots if p["x"] == x), {})
        names = list(outputs or [o["name"] for o in self.calculator.outputs if o.get("type") != "choice"])
        unknown = [n for n in names if n not in self.outputs]
        if unknown:
            raise InputError(
                f"entry {self.key}: {unknown[0]}: is not an output of entry {self.id}; outputs: {', '.join(self.outputs)}",
                unknown[0],
            )
        if log is None:
            log = chart.get("log_x", lo > 0 and hi / lo >= 100)
        plot = {"x": x, "y": names, "from": lo, "to": hi, "points": int(points or chart.get("points", 60))}
        plot["log_x"] = bool(log)
        raw, _, _ = self._raw(model, hardware, inputs)
        try:
            got = self.calculator.sweep(raw, plot)
        except DomainError as exc:
            raise InputError(f"entry {self.key}: {exc}", exc.name) from None
        numeric = [n for n in names if all(y is None or isinstance(y, float) for y in got["y"][n])]
        units = {x: next((i.get("unit", "") for i in self.calculator.inputs if i["name"] == x), "")}
        units.update({o["name"]: o.get("unit", "") for o in self.calculator.outputs if o["name"] in numeric})
        return Sweep(
            self,
            x,
            tuple(got["x"]),
            {n: tuple(got["y"][n]) for n in numeric},
            {"x": tuple(got["text"]["x"]), **{n: tuple(got["text"]["y"][n]) for n in numeric}},
            units,
        )


class UnknownPlan(BankError, LookupError):
    """No plan of that id."""


class Plan(Entry):
    """One plan of the bank (entries/plans/): ``run`` and ``solve`` as an entry's, each figure an
    entry's output (``result.presets`` and ``result.raw["outputs"][name]["step"]`` say which)."""

    def __init__(self, bank: Bank, plan, calculator):
        self._bank = bank
        self.source = plan  # plan.Plan, as checked
        self.id = plan.id
        self.key = plan.id
        self.label = f"Plan {plan.id}"
        self.title = plan.title
        self.calculator = calculator  # runtime.plan.PlanCalculator
        self.inputs = tuple(i["name"] for i in calculator.inputs)
        self.outputs = tuple(o["name"] for o in calculator.outputs)
        self.defaults = dict(calculator.defaults)

    def entries_used(self) -> list[str]:
        """The keys of the entries the plan composes, in the order it runs them."""
        return list(self.calculator.entries_used())

    def sweep(self, *args, **kwargs):
        raise BankError(f"{self.label}: a plan has no sweep; sweep the entry a figure comes from")


class Bank:
    """The entries of one folder (the project's ``entries/`` unless told), loaded as they are asked for."""

    def __init__(self, entries_dir: Path | str = ENTRIES):
        self.entries_dir = Path(entries_dir)
        self._entries: dict = {}
        self._presets = None
        self._plans = None

    def _checked_plans(self) -> dict:
        """plan id -> (Plan, PlanCalculator), checked as the build checks them (the whole bank is read)."""
        if self._plans is None:
            from . import bank as pipeline

            problems = Problems()
            checked = pipeline.gather(self.entries_dir, problems, steps=pipeline.CHECKS)
            if problems:
                raise BuildFailed(problems)
            self._plans = {pid: Plan(self, plan, calc) for pid, (plan, calc) in checked.plans.items()}
        return self._plans

    def plans(self) -> list[Plan]:
        """Every plan: ``train-plan``, ``serve-plan``."""
        return list(self._checked_plans().values())

    def plan(self, which: str) -> Plan:
        """Plan ``which``: ``"serve"`` or ``"serve-plan"``."""
        found = self._checked_plans()
        wanted = str(which) if str(which).endswith("-plan") else f"{which}-plan"
        if wanted not in found:
            raise UnknownPlan(
                f"no plan {str(which)!r}; plans: {', '.join(p.removesuffix('-plan') for p in sorted(found))}"
            )
        return found[wanted]

    def entry(self, which) -> Entry:
        """Entry ``which``: a bank number (``35``, ``"35"``, ``"e35"``) or a toolkit id."""
        from .load.load import entry_files, load_file

        wanted = str(which).lstrip("e")
        if wanted in self._entries:
            return self._entries[wanted]
        matches = [
            p
            for p in entry_files(self.entries_dir)
            if p.stem.split("-", 1)[0].lstrip("0") == wanted.lstrip("0") or p.stem == f"toolkit-{wanted}"
        ]
        problems = Problems()
        source = load_file(matches[0], problems) if matches else None
        if problems:
            raise BuildFailed(problems)
        if source is None:
            raise UnknownEntry(f"no entry {str(which)!r}: expected a bank number 1-50 or a toolkit id")
        self._entries[wanted] = Entry(self, source)
        return self._entries[wanted]

    def entries(self) -> list[Entry]:
        """Every entry, bank numbers first, then the toolkit."""
        from .load.load import entry_files

        ids = []
        for p in entry_files(self.entries_dir):
            head = p.stem.split("-", 1)[0]
            ids.append(head.lstrip("0") if head.isdigit() else p.stem.removeprefix("toolkit-"))
        return [self.entry(i) for i in ids]

    def preset_sources(self) -> dict:
        from .load.presets import load_presets

        if self._presets is None:
            problems = Problems()
            found = load_presets(self.entries_dir, problems)
            if problems:
                raise BuildFailed(problems)
            self._presets = found
        return self._presets

    @staticmethod
    def _preset(kind: str, p) -> Preset:
        return Preset(kind, p.id, p.name, p.family, p)

    def presets(self, kind: str) -> Presets:
        """Every preset of ``kind``: "model" or "hardware"."""
        if kind not in KINDS:
            raise InputError(f"no preset kind {kind!r}; kinds: {', '.join(KINDS)}", "kind")
        found = self.preset_sources().get(kind, {})
        return Presets(kind, [self._preset(kind, p) for p in found.values()])


_DEFAULT: Bank | None = None


def default() -> Bank:
    """The project's own bank (entries/), loaded once."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Bank()
    return _DEFAULT


def entry(which) -> Entry:
    """``bank.entry(35)``: an entry of the project's bank."""
    return default().entry(which)


def entries() -> list[Entry]:
    return default().entries()


def presets(kind: str) -> Presets:
    """``bank.presets("model")``: every published model (or "hardware": accelerator) preset."""
    return default().presets(kind)


def plan(which: str) -> Plan:
    """``bank.plan("serve")``: a plan of the project's bank."""
    return default().plan(which)


def plans() -> list[Plan]:
    return default().plans()


__all__ = [
    "Bank",
    "BankError",
    "Entry",
    "Filled",
    "InputError",
    "Plan",
    "Preset",
    "Presets",
    "Quantity",
    "Result",
    "Solution",
    "Sweep",
    "UnknownEntry",
    "UnknownPlan",
    "UnknownPreset",
    "default",
    "entries",
    "entry",
    "plan",
    "plans",
    "presets",
]
