"""A plan, computed: the bank's entries run in their order, each input bound to a plan input,
an earlier step's output, a constant, or left at the entry's default.

Standard library only: shipped to the browser.  The same class answers pytest, the build,
``site_builder compute train-plan`` and Pyodide.  A plan never computes a number itself:
every figure it returns is an entry's output, computed by that entry's ``Calculator``, so
that each formula is checked once, in its entry.

A plan's spec is plain data (the page carries it as JSON)::

    {"id": "train-plan", "title": "...",
     "inputs": [{"name": "L", "type": "integer", "domain": "[1, inf)", "default": 80}, ...],
     "steps": [{"id": "params", "entry": "16", "url": "/16/", "title": "...",
                "bind": {"d": ["input", "d"], "N": ["step", "params", "model_total"], "mode": ["set", "train"]}},
               ...],                                   # in an order where each step follows what it reads
     "outputs": [{"name": "params", "step": "params", "from": "model_total",
                  "label": "...", "unit": "parameters", "format": "int"}, ...],
     "entries": {"16": <the entry's page.Spec>, ...}}

``PlanCalculator`` has the interface the solver reads (``id``, ``domains``, ``defaults``,
``outputs``, ``read``, ``evaluate``, ``run``, ``write``), so a plan is asked backwards with
the entries' own solver (``solve.solve``).
"""

from __future__ import annotations

import json
from operator import is_
from urllib.parse import urlencode

from .api import json_safe
from .calculator import Calculator, FormulaError
from .domain import Domain, DomainError
from .memo import remembered
from .numbers import write_input
from .solve import solve

STEPS_KEPT = 2048  # steps' results kept for a run or a solve that asks them again (a few MB at most)


class PlanCalculator:
    """One plan: its inputs, its steps (each an entry's calculator) and its outputs."""

    def __init__(self, spec: dict, calculators: dict | None = None):
        self.id = str(spec["id"])
        self.spec = spec
        self.inputs = list(spec["inputs"])
        self.domains = [Domain.from_spec(i) for i in self.inputs]
        self.defaults = {i["name"]: i["default"] for i in self.inputs}
        self.outputs = list(spec["outputs"])
        self.input_units = dict(spec.get("input_units", {}))  # input -> its unit (a solved value is written in it)
        self.steps = list(spec["steps"])
        given = calculators or {}
        self.calculators = {
            key: given[key] if key in given else Calculator(entry) for key, entry in spec["entries"].items()
        }
        self._runs: dict = {}
        self._default_values = None
        # What one edit leaves as it was, kept for the next: a page computes the whole plan at every
        # keystroke, and one typed input changes a few of its many inputs, steps and figures.
        self._steps_done: dict = {}  # (step id, its raw inputs' repr) -> (values read, outputs)
        self._links: dict = {}  # the same key -> (the entry's query, its href)
        self._written: dict = {}  # (output, its step's key, units) -> (text, flag)
        self._reads: dict = {}  # (input, raw text) -> (value, None) or (None, DomainError)
        self._echoes: dict = {}  # (input, raw text) -> its echo
        self._last_given: dict = {}  # step id -> (the values it was last given, their key)

    def read(self, raw: dict) -> dict:
        """The plan's inputs read into their domains (defaults fill the gaps); DomainError on the first bad one."""
        unknown = sorted(set(raw) - set(self.defaults))
        if unknown:
            raise DomainError(unknown[0], f"is not an input of {self.id}; inputs: {', '.join(self.defaults)}")
        return {d.name: self._read(d, raw.get(d.name, self.defaults[d.name])) for d in self.domains}

    def read_all(self, raw: dict) -> tuple[dict, dict]:
        """Every input read once: (the values ``read`` gives, {name: message} for each bad one in
        ``raw``, as ``errors``); the values lack an input whose value could not be read."""
        values, found = {}, {}
        for d in self.domains:
            try:
                values[d.name] = self._read(d, raw.get(d.name, self.defaults[d.name]))
            except DomainError as exc:
                if d.name in raw:
                    found[d.name] = exc.message
        return values, found

    def _read(self, domain: Domain, raw):
        """``domain.read(raw)``, remembered for a text (a page sends every input as text, and an edit
        changes one); a list is handed out as a copy."""
        if type(raw) is not str:
            return domain.read(raw)

        def attempt():
            try:
                return domain.read(raw), None
            except DomainError as exc:
                return None, exc

        value, error = remembered(self._reads, (domain.name, raw), attempt, STEPS_KEPT)
        if error is not None:
            raise DomainError(error.name, error.message)
        return list(value) if isinstance(value, list) else value

    def errors(self, raw: dict) -> dict:
        return self.read_all(raw)[1]

    def echoes(self, raw: dict) -> dict:
        found = {}
        for d in self.domains:
            echo = self._echo(d, raw[d.name]) if d.name in raw else None
            if echo:
                found[d.name] = echo
        return found

    def _echo(self, domain: Domain, raw):
        if type(raw) is not str:
            return domain.echo(raw)
        echo = remembered(self._echoes, (domain.name, raw), lambda: domain.echo(raw), STEPS_KEPT)
        return dict(echo) if isinstance(echo, dict) else echo

    def steps_run(self, values: dict) -> dict:
        """{step id: {"inputs": the entry's raw inputs as bound, "values": as read, "outputs": values}}."""
        return self._steps_run(values)[0]

    def _steps_run(self, values: dict) -> tuple[dict, dict]:
        """``steps_run``'s, and {step id: the key its results are kept by}."""
        done: dict = {}
        keys: dict = {}
        for step in self.steps:
            calc = self.calculators[step["entry"]]
            raw = {}
            for name, source in step["bind"].items():
                if source[0] == "input":
                    raw[name] = values[source[1]]
                elif source[0] == "step":
                    raw[name] = done[source[1]]["outputs"][source[2]]
                else:
                    raw[name] = source[1]
            # A step given the same inputs as before gives the same outputs: a solve varies one input,
            # and most steps do not read it.  repr tells 1 from 1.0 and True, and 0.0 from -0.0.  The
            # very objects the step read last time (a value read or computed once and passed on) have
            # last time's repr, so its key is taken again without writing them out.
            given = tuple(raw.values())
            last = self._last_given.get(step["id"])
            if last is not None and len(last[0]) == len(given) and all(map(is_, last[0], given)):
                key = last[1]
            else:
                key = (step["id"], repr(sorted(raw.items())))
                self._last_given[step["id"]] = (given, key)
            if key not in self._steps_done:
                try:
                    read = calc.read(raw)
                    outputs = calc.evaluate(read)
                except DomainError as exc:
                    raise DomainError(self._blame(step, exc.name), self._message(step, exc)) from None
                if len(self._steps_done) >= STEPS_KEPT:
                    self._steps_done.clear()
                    self._links.clear()
                    self._written.clear()
                self._steps_done[key] = (read, outputs)
            read, outputs = self._steps_done[key]
            done[step["id"]] = {"inputs": raw, "values": dict(read), "outputs": dict(outputs)}
            keys[step["id"]] = key
        return done, keys

    def _blame(self, step: dict, name: str) -> str:
        """The plan input an entry's complaint is about: the one bound to it, else 'inputs'."""
        source = step["bind"].get(name)
        return source[1] if source and source[0] == "input" else "inputs"

    def _message(self, step: dict, exc: DomainError) -> str:
        where = f"{step['title']} (entry {step['entry']}"
        return f"{where}, input {exc.name}): {exc.message}" if exc.name != "inputs" else f"{where}): {exc.message}"

    def evaluate(self, values: dict) -> dict:
        """The plan's outputs for already-read inputs: each one a step's output."""
        done = self.steps_run(values)
        return {o["name"]: done[o["step"]]["outputs"][o["from"]] for o in self.outputs}

    def run(self, raw: dict, units: dict | None = None, values: dict | None = None) -> dict:
        """``{"inputs", "outputs": {name: {value, text}}, "steps": {id: {href, outputs}}}`` or DomainError.

        Each step's ``href`` opens its entry with the same inputs (the entry's query grammar:
        the inputs whose values differ from the entry's defaults).  ``values``: ``raw`` already
        read (``read_all``'s, for raw inputs the plan all knows)."""
        values = self.read(raw) if values is None else values
        done, keys = self._steps_run(values)
        # A figure's text, a step's link: the same for the same step inputs (and units), so kept with its results.
        shown_in = json.dumps(units, sort_keys=True) if units else ""
        written = {}
        for o in self.outputs:
            value = done[o["step"]]["outputs"][o["from"]]
            key = (o["name"], keys[o["step"]], shown_in)
            if key not in self._written:
                text = self.write(o, value, units)
                self._written[key] = (text, Calculator.flag(o, value, text))
            text, flag = self._written[key]
            written[o["name"]] = {"value": value, "text": text, "step": o["step"]}
            if flag:
                written[o["name"]]["flag"] = flag
        steps = {}
        for step in self.steps:
            item = done[step["id"]]
            key = keys[step["id"]]
            if key not in self._links:
                query = self.calculators[step["entry"]].changed(item["inputs"], item["values"])
                self._links[key] = (query, step["url"] + (f"?{urlencode(query)}" if query else ""))
            query, href = self._links[key]
            steps[step["id"]] = {"entry": step["entry"], "href": href, "query": dict(query), "outputs": item["outputs"]}
        return {"inputs": values, "outputs": written, "steps": steps}

    def remembered(self, raw: dict) -> dict:
        """``run(raw)``, once for the same raw inputs (the check and the build share it)."""
        key = json.dumps(raw, sort_keys=True, default=repr)
        if key not in self._runs:
            self._runs[key] = self.run(raw)
        return self._runs[key]

    def changed(self, raw: dict, values: dict) -> dict:
        """The raw inputs whose values differ from the defaults': what a share link carries."""
        if self._default_values is None:
            self._default_values = self.read({})
        return {n: write_input(raw[n]) for n in self.defaults if n in raw and values[n] != self._default_values[n]}

    @staticmethod
    def write(output: dict, value, units: dict | None = None) -> str:
        return Calculator.write(output, value, units)

    def write_given(self, name: str, value, typed: str, units: dict | None = None) -> str:
        return Calculator.write_given(self, name, value, typed, units)

    def entries_used(self) -> list[str]:
        """The entries the plan composes, in the order it runs them, each once."""
        seen: list[str] = []
        for step in self.steps:
            if step["entry"] not in seen:
                seen.append(step["entry"])
        return seen


# ----------------------------------------------------------------------------- browser API
# Pyodide calls these with JSON text and gets JSON text back, as calculator.py's API.

_loaded: dict[str, PlanCalculator] = {}


def load(spec_json: str) -> str:
    spec = json.loads(spec_json)
    _loaded[str(spec["id"])] = PlanCalculator(spec)
    return json.dumps({"id": str(spec["id"])})


def run_json(plan_id: str, raw_json: str, units_json: str = "") -> str:
    """``{"ok": true, "value": <run>}`` or ``{"ok": false, "errors": {input: message}}``."""
    plan = _loaded[plan_id]
    raw = json.loads(raw_json)
    units = json.loads(units_json) if units_json else None
    if not isinstance(raw, dict):
        return json.dumps({"ok": False, "errors": {"inputs": "expected an object of inputs"}})
    values, errors = plan.read_all(raw)
    if errors:
        return json.dumps({"ok": False, "errors": errors})
    try:
        whole = len(values) == len(plan.domains) and not set(raw) - set(plan.defaults)
        result = plan.run(raw, units, values if whole else None)  # else read again, to say what is wrong
    except DomainError as exc:
        return json.dumps({"ok": False, "errors": {exc.name: exc.message}})
    except FormulaError as exc:
        return json.dumps({"ok": False, "errors": {"inputs": str(exc)}})
    result["query"] = plan.changed(raw, result["inputs"])
    result["echo"] = plan.echoes(raw)
    return json.dumps({"ok": True, "value": json_safe(result)})


def solve_json(plan_id: str, raw_json: str, question_json: str, units_json: str = "") -> str:
    """The plan asked backwards with the entries' solver: ``{"input", "output", "sense", "target"}``."""
    plan = _loaded[plan_id]
    raw = json.loads(raw_json)
    question = json.loads(question_json)
    units = json.loads(units_json) if units_json else None
    if not isinstance(raw, dict) or not isinstance(question, dict):
        return json.dumps(
            {"ok": False, "errors": {"solve": "expected an object of inputs and an object for the question"}}
        )
    free = question.get("input")
    errors = {k: v for k, v in plan.errors(raw).items() if k != free}
    if errors:
        return json.dumps({"ok": False, "errors": errors})
    try:
        result = solve(
            plan,
            raw,
            str(free),
            str(question.get("output")),
            str(question.get("sense", "=")),
            question.get("target"),
            units,
        )
    except DomainError as exc:
        return json.dumps({"ok": False, "errors": {exc.name: exc.message}})
    return json.dumps({"ok": True, "value": json_safe(result)})
