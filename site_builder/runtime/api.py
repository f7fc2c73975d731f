"""The worker's API: each request the page sends, JSON text in, one reply as JSON text out.

``load`` compiles an entry's spec into a ``Calculator`` kept by its id; ``run_json``,
``solve_json``, ``sweep_json`` and ``elasticity_json`` answer for a loaded entry with
``{"ok": true, "value": ...}`` or ``{"ok": false, "errors": {input: message}}``.  Standard
library only: pyodide_app/worker.js imports this module in Pyodide, and pytest and the build
call the same functions.
"""

from __future__ import annotations

import json
import math

from . import hfconfig, model_fill, page
from .calculator import Calculator
from .domain import DomainError
from .solve import solve

# ----------------------------------------------------------------------------- browser API
# Pyodide calls these with JSON text and gets JSON text back, so no Python object crosses.
_loaded: dict[str, Calculator] = {}


def load(spec_json: str) -> str:
    spec = json.loads(spec_json)
    _loaded[str(spec["id"])] = Calculator(spec)
    return json.dumps({"id": str(spec["id"])})


def sweep_json(entry_id: str, raw_json: str, index: int) -> str:
    calc = _loaded[entry_id]
    try:
        return json.dumps({"ok": True, "value": calc.sweep(json.loads(raw_json), calc.plots[index])})
    except DomainError as exc:
        return json.dumps({"ok": False, "errors": {exc.name: exc.message}})


def elasticity_json(entry_id: str, raw_json: str) -> str:
    calc = _loaded[entry_id]
    try:
        table = calc.elasticities(json.loads(raw_json))
        return json.dumps({"ok": True, "value": json_safe(table), "text": page.elasticity_texts(table)})
    except DomainError as exc:
        return json.dumps({"ok": False, "errors": {exc.name: exc.message}})


def write_json(entry_id: str, values_json: str, units_json: str) -> str:
    """Results as the page writes them in the reader's units: ``{output: [value or null]}`` ->
    ``{"ok": true, "value": {output: [text or null]}}`` (the "Every model" table's cells)."""
    calc = _loaded[entry_id]
    units = json.loads(units_json) or None
    by_name = {o["name"]: o for o in calc.outputs}
    written = {}
    for name, values in json.loads(values_json).items():
        output = by_name.get(name)
        if output is None:
            return json.dumps({"ok": False, "errors": {name: "is not an output of this entry"}})
        written[name] = [None if v is None else calc.write(output, v, units) for v in values]
    return json.dumps({"ok": True, "value": written})


def run_json(entry_id: str, raw_json: str, accessed: str = "", units_json: str = "", link: str | None = None) -> str:
    """``{"ok": true, "value": {...}}`` or ``{"ok": false, "errors": {input: message}}``.

    The value is all one edit needs: the outputs, what the inputs were read as (``echo``), each
    feed link's href (``feeds``), and with the page's meta the shareable link and the
    computation's citation (``share``, accessed on ``accessed``, a date, cited at ``link``: the
    page's query as its link module wrote it)."""
    calc = _loaded[entry_id]
    raw = json.loads(raw_json)
    units = json.loads(units_json) if units_json else None
    unknown = sorted(set(raw) - set(calc.defaults))
    values, errors = calc.read_all({k: v for k, v in raw.items() if k not in unknown})
    if errors:
        return json.dumps({"ok": False, "errors": errors})
    try:
        result = calc.run(raw, units, None if unknown else values)
    except DomainError as exc:
        return json.dumps({"ok": False, "errors": {exc.name: exc.message}})
    _complete(calc, raw, result, accessed, link)
    return json.dumps({"ok": True, "value": json_safe(result)})


def config_json(entry_id: str, text: str, mapping_json: str, raw_json: str = "{}") -> str:
    """A pasted config.json for a loaded entry: the inputs it fills (``hfconfig.fill_reply``) and,
    where the entry's own count of the model is not its architecture's, ``departs`` saying so
    (runtime/model_fill.py), computed at the page's other inputs ``raw``.  Nothing in the paste runs."""
    calc = _loaded[entry_id]
    reply, reading = hfconfig.fill_reply(text, json.loads(mapping_json))
    counted = [o for o in calc.outputs if o.get("counted")]
    if reading is None or reading.architecture is None or not counted or not reply["values"]:
        return json.dumps(reply)
    raw = {**json.loads(raw_json), **{name: value[0] for name, value in reply["values"].items()}}
    try:
        run = calc.run(raw)
    except DomainError:
        return json.dumps(reply)  # the page's own run says what is wrong
    values = {name: got.value for name, got in reading.values.items()}
    departs = model_fill.departures(counted, run["outputs"], values, reading.name, reading.architecture)
    return json.dumps({**reply, **({"departs": departs} if departs else {})})


def _complete(
    calc: Calculator, raw: dict, result: dict, accessed: str, link: str | None = None, question: dict | None = None
) -> None:
    """A run as the page shows it: with its echoes, feed links and (with meta) link and citation."""
    if calc.meta:
        result["share"] = calc.share(raw, result, accessed, None if link is None else str(link), question)
    result["echo"] = calc.echoes(raw)
    result["feeds"] = page.feed_hrefs(calc.feeds, result)
    result["shown"] = calc.shown_inputs(raw)


def solve_json(
    entry_id: str, raw_json: str, question_json: str, accessed: str = "", units_json: str = "", link: str | None = None
) -> str:
    """The inverse question: ``{"input", "output", "sense", "target"}`` -> ``{"ok": true, "value":
    <the result of solve.solve>}`` or ``{"ok": false, "errors": {name: message}}``.

    Each solution's run is complete as ``run_json``'s (the freed input at its value), cited as the
    answer to the question at ``link`` (the page's query, which asks it)."""
    calc = _loaded[entry_id]
    raw = json.loads(raw_json)
    question = json.loads(question_json)
    units = json.loads(units_json) if units_json else None
    if not isinstance(raw, dict) or not isinstance(question, dict):
        return json.dumps(
            {"ok": False, "errors": {"solve": "expected an object of inputs and an object for the question"}}
        )
    free = question.get("input")
    errors = {k: v for k, v in calc.errors(raw).items() if k != free}
    if errors:
        return json.dumps({"ok": False, "errors": errors})
    try:
        result = solve(
            calc,
            raw,
            str(free),
            str(question.get("output")),
            str(question.get("sense", "=")),
            question.get("target"),
            units,
        )
    except DomainError as exc:
        return json.dumps({"ok": False, "errors": {exc.name: exc.message}})
    output = next(o for o in calc.outputs if o["name"] == result["output"])
    if output.get("unit") == "B" and calc.devices:
        note = page.device_note(calc.devices, result["target"], lambda b: calc.write(output, b, units))
        if note:
            result["target_note"] = note
    fixed = {n: v for n, v in raw.items() if n != free}
    for item in result["solutions"]:
        asked = {"input": free, "output": result["output"], "sense": result["sense"], "target": question.get("target")}
        _complete(calc, {**fixed, free: item["value"]}, item["run"], accessed, link, asked)
        item["run"]["echo"] = calc.echoes({**fixed, free: item["text"]})  # as the field, filled with it, reads
    return json.dumps({"ok": True, "value": json_safe(result)})


_WALKED = (dict, list, float)  # what json_safe may change, or look inside


def json_safe(value):
    """JSON has no infinity or NaN: those values travel as null (their text says what they are)."""
    if isinstance(value, dict):  # a text or a whole number is kept without a call: most of a reply is
        return {k: json_safe(v) if isinstance(v, _WALKED) else v for k, v in value.items()}
    if isinstance(value, list):
        return [json_safe(v) if isinstance(v, _WALKED) else v for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


PRESET_KINDS = ("model", "hardware")


def python_call(calc: Calculator, pairs: list) -> str:
    """The Python that reproduces a page's computation, from its address bar's query as
    ``[name, value]`` pairs (the presets chosen, the inputs as typed, a solve question):
    ``bank.entry(35).run(model='llama-3-70b', s='32k')``.  Every value is a Python literal
    (``repr``), so a hostile query stays a string; names the entry does not know are left out."""
    outputs = {o["name"] for o in calc.outputs}
    presets, raw, targets, free = {}, {}, [], None
    for key, value in pairs:
        if key in PRESET_KINDS:
            presets[key] = value
        elif key == "solve":
            free = value
        elif key in calc.defaults:
            raw[key] = value
        elif key[-1:] in "<>" and key[:-1] in outputs:
            targets.append(f"{key[:-1]}{key[-1]}={value}")
        elif key in outputs:
            targets.append(f"{key}={value}")
    named = [f"{k}={v!r}" for k, v in presets.items()]
    head = f"bank.entry({int(calc.id) if calc.id.isdigit() else calc.id!r})"
    if free in calc.defaults and len(targets) == 1:
        named += [f"{k}={v!r}" for k, v in raw.items() if k != free]
        call = f"{head}.solve({', '.join([repr(targets[0]), f'free={free!r}', *named])})"
    else:
        named += [f"{k}={v!r}" for k, v in raw.items()]
        call = f"{head}.run({', '.join(named)})"
    return f"import derivation_bank as bank\n\n{call}\n"


def python_json(entry_id: str, pairs_json: str) -> str:
    """``python_call`` for the page's "Copy as Python": ``{"ok": true, "value": code}``."""
    return json.dumps({"ok": True, "value": python_call(_loaded[entry_id], json.loads(pairs_json))})
