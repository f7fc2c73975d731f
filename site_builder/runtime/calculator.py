"""An entry's formula, compiled once, evaluated on a reader's raw inputs, results written.

Standard library only: shipped to the browser.  The same class answers pytest, the
build (the results printed into each page), ``site_builder compute`` and Pyodide.

The worker's requests and replies (JSON text in, JSON text out) are ``api.py``'s.

A spec is plain data, ``page.Spec`` (the page carries a ``page.PageSpec`` as JSON)::

    {"id": "35", "formula": "def compute(L, ...): ...",
     "inputs": [{"name": "L", "type": "integer", "domain": "[1, inf)", "default": 80}, ...],
     "outputs": [{"name": "bytes", "format": "si:3", "unit": "B"}, ...]}
"""

from __future__ import annotations

import ast
import json
import math
from fractions import Fraction
from functools import lru_cache
from urllib.parse import urlencode

from . import page
from . import units as unit_table
from .domain import Domain, DomainError, Interval
from .numbers import NUMERIC, index_row, shown_input, shown_text, split_format, write_input

# Standard-library modules in Pyodide's core that a formula may import.
ALLOWED_IMPORTS = frozenset(
    {
        "math",
        "cmath",
        "fractions",
        "decimal",
        "statistics",
        "itertools",
        "functools",
        "operator",
        "collections",
        "bisect",
        "heapq",
        "numbers",
        "random",
    }
)


class FormulaError(Exception):
    """A formula that cannot be compiled or that broke its contract; ``line`` is in its source."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.line = line


def formula_problems(source: str) -> list[tuple[int, str]]:
    """(line, message) for each reason ``source`` is not a valid formula; [] when it is."""
    return list(_formula_problems(source))


@lru_cache(maxsize=256)
def _formula_problems(source: str) -> tuple[tuple[int, str], ...]:
    """``formula_problems``, parsed once per source: the check asks before it compiles, and compiling asks again."""
    try:
        tree = ast.parse(source, mode="exec")
    except SyntaxError as exc:
        return ((exc.lineno or 1, f"formula does not compile: {exc.msg}"),)
    problems = []
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [("." * node.level) + (node.module or "")]
        for name in names:
            if name.split(".")[0] not in ALLOWED_IMPORTS:
                allowed = ", ".join(sorted(ALLOWED_IMPORTS))
                problems.append((node.lineno, f"formula imports {name!r}; allowed: {allowed}"))
    computes = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "compute"]
    if not computes:
        problems.append((1, "formula defines no top-level function compute(...)"))
    return tuple(problems)


def compile_formula(source: str, label: str = "formula"):
    """The ``compute`` function defined by ``source``; FormulaError when it is not valid."""
    problems = formula_problems(source)
    if problems:
        line, message = problems[0]
        raise FormulaError(message, line)
    namespace: dict = {"__name__": f"formula_{label}"}
    exec(compile(source, f"<{label}>", "exec"), namespace)
    return namespace["compute"]


def _plain(value):
    """A formula's result as JSON-able data: Fractions and ints kept exact where they are whole."""
    if type(value) is float:  # the most common result: nothing to convert
        return value
    if isinstance(value, bool) or isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    if isinstance(value, int):
        return value
    return float(value)


class Calculator:
    """One entry's inputs, outputs and compiled formula."""

    def __init__(self, spec: dict):
        self.id = str(spec["id"])
        self.domains = [Domain.from_spec(i) for i in spec["inputs"]]
        self.defaults = {i["name"]: i["default"] for i in spec["inputs"]}
        self.outputs = list(spec["outputs"])
        self.plots = list(spec.get("plots", []))
        self.inputs = list(spec["inputs"])
        self.meta = spec.get("meta")
        self.feeds = list(spec.get("feeds", []))  # the "feeds into" links (the page's spec lists them)
        self.input_units = dict(spec.get("input_units", {}))  # input -> its unit (a solved value is written in it)
        self.devices = list(spec.get("devices", []))  # devices sold as one memory figure, built as another
        self.compute = compile_formula(spec["formula"], self.id)
        self._default_values = None
        self._default_sweeps: dict = {}
        self._runs: dict = {}

    def read(self, raw: dict) -> dict:
        """Inputs for the formula from raw ones (defaults fill the gaps); DomainError on the first bad one."""
        unknown = sorted(set(raw) - set(self.defaults))
        if unknown:
            raise DomainError(unknown[0], f"is not an input of entry {self.id}; inputs: {', '.join(self.defaults)}")
        return {d.name: d.read(raw[d.name]) if d.name in raw else self._default(d) for d in self.domains}

    def _default(self, domain):
        """An input's default as read, read once (a plan's solve runs an entry hundreds of times with
        most of its inputs at their defaults); a list is handed out as a copy."""
        cache = self.__dict__.setdefault("_read_defaults", {})
        if domain.name not in cache:
            cache[domain.name] = domain.read(self.defaults[domain.name])
        value = cache[domain.name]
        return list(value) if isinstance(value, list) else value

    def errors(self, raw: dict) -> dict:
        """Every bad input at once: {name: message}."""
        return self.read_all(raw)[1]

    def read_all(self, raw: dict) -> tuple[dict, dict]:
        """Every input read once: (the values ``read`` gives, {name: message} for each bad one);
        a long list is read once, not once to check it and again to run it."""
        values, found = {}, {}
        for d in self.domains:
            try:
                values[d.name] = d.read(raw.get(d.name, self.defaults[d.name]))
            except DomainError as exc:
                found[d.name] = exc.message
        return values, found

    def shown_inputs(self, raw: dict) -> dict:
        """{input: its text as the embed card and the card image show it} for every input but a
        choice (its menu's label says it): the reader's text, a plain number's digits grouped."""
        return {
            i["name"]: shown_text(str(raw[i["name"]])) if i["name"] in raw else shown_input(i["default"])
            for i in self.inputs
            if i.get("type") != "choice"
        }

    def echoes(self, raw: dict) -> dict:
        """{input: how its raw value was read} for the values that could be read two ways (``32K``)."""
        found = {}
        for d in self.domains:
            echo = d.echo(raw[d.name]) if d.name in raw else None
            if echo:
                found[d.name] = echo
        return found

    def evaluate(self, values: dict) -> dict:
        """The formula's outputs for already-read inputs, checked against the declared outputs."""
        try:
            result = self.compute(**values)
        except DomainError:
            raise
        except (ValueError, ZeroDivisionError, OverflowError) as exc:
            name = _blame(exc, values)
            message = str(exc)
            if name != "inputs":
                message = message.split(":", 1)[1].strip()
            raise DomainError(name, message) from None
        if not isinstance(result, dict):
            raise FormulaError(f"compute() returned {type(result).__name__}, not a dict of outputs")
        names = [o["name"] for o in self.outputs]
        missing = [n for n in names if n not in result]
        extra = [n for n in result if n not in names]
        if missing or extra:
            raise FormulaError(f"compute() returned {sorted(result)}; declared outputs are {names}")
        return {n: _plain(result[n]) for n in names}

    def run(self, raw: dict, units: dict | None = None, values: dict | None = None) -> dict:
        """Read, evaluate and write: ``{"inputs", "outputs": {name: {value, text}}}`` or DomainError.

        ``units`` maps a display family ("bytes", "flop", "count", ...) to the reader's choice;
        ``values``: the inputs already read from ``raw`` (``read_all``)."""
        values = self.read(raw) if values is None else values
        outputs = self.evaluate(values)
        written = {}
        for o in self.outputs:
            value = outputs[o["name"]]
            written[o["name"]] = {"value": value, "text": self.write(o, value, units)}
            first = index_first(o["index"]["first"], values) if o.get("index") and isinstance(value, list) else None
            if first is not None:  # the statement's index: entry 46's vote terms are j = 2, 3 for n = 3
                written[o["name"]]["index"] = {"symbol": o["index"]["symbol"], "first": first}
            if isinstance(value, (list, tuple)) and len(value) > 1:
                # A list reads as a small table: each value written alone (the page's rows).
                # A long unit (tokens) is said once, over the table, not on every row.
                unit = o.get("unit", "")
                once = (
                    len(unit) > 2 and unit_table.family(unit) in ("count", "plain")
                    if unit in unit_table.UNITS
                    else False
                )
                items = [self.write(o, v, units) for v in value]
                if once and all(item.rsplit("\u00a0", 1)[-1] in (unit, unit[:-1]) for item in items):
                    items = [item.rsplit("\u00a0", 1)[0] for item in items]
                else:
                    once = False
                written[o["name"]]["items"] = items
                # Each row headed by its index: the statement's (j = 2), else its place from 1.
                symbol, start = (o["index"]["symbol"], first) if first is not None else ("", 1)
                written[o["name"]]["rows"] = [index_row(symbol, start + k) for k in range(len(items))]
                if once:
                    written[o["name"]]["items_unit"] = unit
            flag = self.flag(o, value, written[o["name"]]["text"])
            if flag:
                written[o["name"]]["flag"] = flag
        return {"inputs": values, "outputs": written}

    def remembered(self, raw: dict) -> dict:
        """``run(raw)``, computed once for the same raw inputs: the check reproduces each worked
        case and the build prints it.  The result is shared: read it, never change it."""
        key = json.dumps(raw, sort_keys=True, default=repr)
        if key not in self._runs:
            self._runs[key] = self.run(raw)
        return self._runs[key]

    @staticmethod
    def flag(output: dict, value, text: str) -> str | None:
        """The sentence that replaces a result the inputs make impossible or meaningless, or None.

        An output may declare ``valid``, the interval where its value means what its label says
        (an infinite end may be closed: ``[0, inf]`` admits the limit), and ``invalid``, the
        sentence to show outside it (``{text}`` is the value as written)."""
        valid = output.get("valid")
        if not valid or isinstance(value, (list, tuple, str)) or value is None:
            return None
        x = float(value)
        interval = Interval.parse(valid.replace("inf]", "inf)"))
        if math.isnan(x) or not (x in interval or (x == interval.hi == math.inf and valid.endswith("inf]"))):
            sentence = (
                output.get("invalid") or "Not meaningful for these inputs: the formula gives {text}, outside {valid}."
            )
            written = "\u2212" + text[1:] if text.startswith("-") else text  # a minus sign, in a sentence
            return sentence.replace("{text}", written).replace("{valid}", valid.replace("inf", "∞"))
        return None

    def _try(self, values: dict):
        try:
            return self.evaluate(values)
        except (DomainError, FormulaError, ArithmeticError, ValueError, TypeError):
            return None

    def sweep(self, raw: dict, plot: dict) -> dict:
        """The plot's outputs along its input, the other inputs as given: points computed by the formula."""
        if not raw:  # the defaults' sweep is asked for by the check and by the page: compute it once
            key = json.dumps(plot, sort_keys=True)
            if key not in self._default_sweeps:
                self._default_sweeps[key] = self._sweep(raw, plot)
            return self._default_sweeps[key]
        return self._sweep(raw, plot)

    def _sweep(self, raw: dict, plot: dict) -> dict:
        values = self.read(raw)
        domain = next(d for d in self.domains if d.name == plot["x"])
        lo, hi, n = float(plot["from"]), float(plot["to"]), int(plot.get("points", page.PLOT_POINTS))
        off = {name: choice for name, choice in plot.get("when", {}).items() if values.get(name) != choice}
        if off:
            # In this mode the swept input is not used: a flat line would say it does not matter.
            return {
                "x": [],
                "y": {name: [] for name in plot["y"]},
                "text": {"x": [], "y": {name: [] for name in plot["y"]}},
                "current": {"x": values[plot["x"]], "y": {name: None for name in plot["y"]}},
                "inactive": {"input": plot["x"], "when": off},
            }
        current = values[plot["x"]]
        # The reader's value outside the chart's range: the sweep reaches out to include it.
        if isinstance(current, (int, float)) and math.isfinite(current) and (current < lo or current > hi):
            if not plot.get("log_x") or current > 0:
                lo, hi = min(lo, current), max(hi, current)
        if plot.get("log_x") and lo > 0:
            xs = [lo * (hi / lo) ** (i / (n - 1)) for i in range(n)]
        else:
            xs = [lo + (hi - lo) * i / (n - 1) for i in range(n)]
        if isinstance(current, (int, float)) and not isinstance(current, bool) and lo <= current <= hi:
            xs = sorted({*xs, current})  # the reader's own point is one of the chart's (its tooltip, its row)
        if domain.kind == "integer":
            xs = sorted({round(x) for x in xs})
        points = {"x": [], "y": {name: [] for name in plot["y"]}}
        for x in xs:
            if x not in domain.interval:
                continue
            result = self._try({**values, plot["x"]: x})
            points["x"].append(x)
            for name in plot["y"]:
                y = result[name] if result else None
                ok = isinstance(y, (int, float)) and not isinstance(y, bool) and math.isfinite(y)
                points["y"][name].append(float(y) if ok else None)
        # The same points as the reader reads numbers elsewhere, for the chart's table.
        outputs = {o["name"]: o for o in self.outputs}
        points["text"] = {
            "x": [
                shown_input(x if x == current else float(f"{x:.3g}")) for x in points["x"]
            ],  # to three figures, the reader's own as typed, whole numbers grouped
            "y": {
                name: ["—" if y is None else self.write(outputs[name], y) for y in ys]
                for name, ys in points["y"].items()
            },
        }
        points["current"] = {"x": current, "y": {name: self._scalar(self._try(values), name) for name in plot["y"]}}
        return points

    @staticmethod
    def _scalar(result, name):
        y = result.get(name) if result else None
        return float(y) if isinstance(y, (int, float)) and not isinstance(y, bool) and math.isfinite(y) else None

    def elasticities(self, raw: dict) -> dict:
        """d ln(output) / d ln(input) at the current point, by central differences: {input: {output: e}}.
        A whole number steps to the nearest value on each side that the formula accepts (a width
        that the head count must divide, to the next multiple), at most a tenth of it away; a side
        with none is left out (a one-sided difference), and an input with neither shows none."""
        values = self.read(raw)
        here = []  # the result at the inputs as they are, computed once if a side needs it

        def at_x():
            if not here:
                here.append(self._try(values))
            return here[0]

        table = {}
        for d in self.domains:
            x = values[d.name]
            if d.kind not in ("real", "integer") or not x:
                continue
            if d.kind == "integer":
                step = max(1, round(abs(x) * 1e-6))
                lo, hi = x - step, x + step
            else:
                lo, hi = x * (1 - 1e-6), x * (1 + 1e-6)
            lo = lo if lo in d.interval and lo > 0 else x
            hi = hi if hi in d.interval else x
            if lo == hi or lo <= 0:
                continue  # the input's range holds no other value: no column
            if d.kind == "integer":
                (lo, below), (hi, above) = self._accepted(values, d, -step, at_x), self._accepted(values, d, step, at_x)
            else:
                below = self._try({**values, d.name: lo}) if lo != x else at_x()
                above = self._try({**values, d.name: hi}) if hi != x else at_x()
            row = {}
            for o in self.outputs:
                if o.get("elastic") is False or split_format(o["format"])[0] not in NUMERIC:
                    continue  # a position, a choice, a yes/no: no elasticity means anything
                a, b = self._scalar(below, o["name"]), self._scalar(above, o["name"])
                if lo == hi or a is None or b is None or a == 0 or b == 0 or (a > 0) != (b > 0):
                    row[o["name"]] = None
                else:
                    row[o["name"]] = (math.log(abs(b)) - math.log(abs(a))) / (math.log(hi) - math.log(lo))
            table[d.name] = row
        return table

    _STEPS = 64  # the most values tried on each side of a whole number

    def _accepted(self, values: dict, d, step: int, at_x):
        """The value of ``d``'s input nearest to its own, ``step`` by ``step`` (and at most a tenth of
        it away), that the formula accepts with the other inputs as they are, with its result: the
        input's own value and result (``at_x()``) if there is none."""
        x = values[d.name]
        for k in range(1, self._STEPS + 1):
            candidate = x + k * step
            if abs(candidate - x) > max(abs(step), abs(x) / 10):
                break
            if candidate in d.interval and candidate > 0:
                result = self._try({**values, d.name: candidate})
                if result is not None:
                    return candidate, result
        return x, at_x()

    def changed(self, raw: dict, values: dict) -> dict:
        """The raw inputs whose values differ from the defaults': what a shareable link must carry."""
        if self._default_values is None:
            self._default_values = self.read({})
        return {n: write_input(raw[n]) for n in self.defaults if n in raw and values[n] != self._default_values[n]}

    def share(
        self, raw: dict, result: dict, accessed: str, query: str | None = None, question: dict | None = None
    ) -> page.Share:
        """The link to one computation and its citation (needs the page's ``meta``).  ``query``: the
        page's link as pyodide_app/link.js wrote it; without one, the inputs that differ from the
        defaults.  ``question``: the question this run answers, cited with it."""
        if query is None:
            query = urlencode(self.changed(raw, result["inputs"]))
        return page.share(self.meta, self.inputs, self.outputs, raw, result, query, accessed, question)

    def write_given(self, name: str, value, typed: str, units: dict | None = None) -> str:
        """Input ``name``'s value, typed as ``typed``, as the page writes results in its unit: a
        solved 2.6843545602e11 bytes is 268.43545602 GB beside results in GB (``units.write_given``)."""
        unit = self.input_units.get(name, "")
        choice = (units or {}).get(unit_table.family(unit)) if unit in unit_table.UNITS else None
        return unit_table.write_given(value, typed, unit, choice)

    @staticmethod
    def write(output: dict, value, units: dict | None = None) -> str:
        unit = output.get("unit", "")
        choice = (units or {}).get(unit_table.family(unit)) if unit in unit_table.UNITS else None
        return unit_table.write(value, output.get("format", page.DEFAULT_FORMAT), unit, choice)


# What a list output's ``index.first`` may be written with: whole numbers, integer inputs, + - * //.
_INDEX_OPS = {ast.Add: int.__add__, ast.Sub: int.__sub__, ast.Mult: int.__mul__, ast.FloorDiv: int.__floordiv__}


def index_names(first) -> list[str]:
    """The inputs a list output's ``index.first`` names (``"(n + 1) // 2"`` -> ``["n"]``; ``0`` ->
    ``[]``); ValueError when it is not whole-number arithmetic (+, -, *, //) on them."""
    if isinstance(first, bool) or not isinstance(first, (int, str)):
        raise ValueError(f"{first!r} is neither a whole number nor an expression")
    if isinstance(first, int):
        return []
    try:
        tree = ast.parse(first.strip(), mode="eval")
    except SyntaxError:
        raise ValueError(f"{first!r} does not parse") from None
    names = []
    for node in ast.walk(tree.body):
        if isinstance(node, ast.Name):
            names.append(node.id)
        elif isinstance(node, ast.BinOp):
            if type(node.op) not in _INDEX_OPS:
                raise ValueError(f"{first!r} uses an operation other than +, -, * and //")
        elif isinstance(node, ast.UnaryOp):
            if not isinstance(node.op, ast.USub):
                raise ValueError(f"{first!r} uses an operation other than +, -, * and //")
        elif isinstance(node, ast.Constant):
            if isinstance(node.value, bool) or not isinstance(node.value, int):
                raise ValueError(f"{first!r} holds {node.value!r}, not a whole number")
        elif not isinstance(node, (ast.operator, ast.unaryop, ast.Load)):
            raise ValueError(f"{first!r} is not arithmetic on whole numbers and inputs")
    return list(dict.fromkeys(names))


def index_first(first, values: dict) -> int | None:
    """The index of a list output's first element at the inputs ``values`` (``index.first``, a
    whole number or arithmetic on integer inputs: ``(n + 1) // 2`` is 2 at n = 3); None where it
    has none (a division by zero)."""
    if isinstance(first, int):
        return first

    def value(node) -> int:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return int(values[node.id])
        if isinstance(node, ast.UnaryOp):
            return -value(node.operand)
        return _INDEX_OPS[type(node.op)](value(node.left), value(node.right))

    try:
        return value(ast.parse(first.strip(), mode="eval").body)
    except ZeroDivisionError:
        return None


def _blame(exc: Exception, values: dict) -> str:
    """The input a formula's ValueError names (its message starts 'name: ...'), else 'inputs'."""
    head = str(exc).split(":", 1)[0].strip()
    return head if head in values else "inputs"
