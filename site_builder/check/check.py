"""Everything the schema cannot say about entries, checked in one pass.

Names and references agree, defaults lie in their domains, formulas compile and import
only the allow-list, and every case reproduces the book's printed value.  Loading the bank
is bank.py's, typesetting its TeX typeset.py's, the formulas' time limit timelimit.py's.
"""

from __future__ import annotations

import inspect
import json
import weakref
from collections import Counter
from dataclasses import replace

from ..errors import Problems, shown
from ..load.entry import Entry
from ..runtime import units as unit_table
from ..runtime.calculator import Calculator, FormulaError, formula_problems, index_names
from ..runtime.domain import Domain, DomainError, Interval
from ..runtime.memo import remembered
from ..runtime.numbers import NUMERIC, NumberError, split_format
from ..runtime.page import RESERVED, feed_query
from ..runtime.solve import solve
from . import tolerance
from .timelimit import FormulaTimeout, time_limit

LIST_ONLY = ("length", "integer_elements", "sum")


class Unsolved(Exception):
    """An inverse case whose question has no solution (or fewer than its checks ask for)."""


def check_entry(entry: Entry, problems: Problems) -> Calculator | None:
    """One entry on its own (fields, formula, question, cases, plots): its calculator, or None
    when its formula cannot run.  ``serve`` checks an edited entry this way."""
    if not _check_fields(entry, problems):
        return None  # the formula cannot run on inputs that are themselves wrong
    try:
        with time_limit():
            calc = _calculator(entry, problems)
            if calc is not None:
                _check_index_lists(entry, calc, problems)
                _check_question(entry, calc, problems)
                _check_cases(entry, calc, problems)
                _check_plots(entry, calc, problems)
    except FormulaTimeout as exc:
        problems.add(entry.where.path, entry.block_lines["formula"], f"entry {entry.key}: the formula {exc}")
        return None
    return calc


def check_feeds(
    entries: list[Entry], calculators: dict, problems: Problems, sources: list[Entry] | None = None
) -> None:
    """The links between entries: each feed of ``sources`` (all ``entries`` by default) names a
    target that takes its inputs, in their dimension, and accepts the values fed at the defaults."""
    sources = entries if sources is None else sources
    _check_feeds(sources, calculators, problems)
    check_feed_units(sources, problems, entries)


def _add(problems: Problems, where, message: str) -> None:
    problems.add(where.path, where.line, message)


def _named(item, reason: str, *inside: str):
    """Where the field a reason is about is written: of the item's fields, the one it names first
    ('output: ...' -> the output's line; 'an erratum needs value' -> the erratum's)."""
    named = [(reason.find(key), key) for key in ("input", "output", "target", "range", "erratum", "printed")]
    found = [(at, key) for at, key in named if at >= 0]
    return item.at(*inside, min(found)[1]) if found else item.at(*inside)


def _compared(check):
    """Where the number a check compares is written: its range, its value, or the printed text."""
    return check.at("range" if check.range is not None else "value" if check.value is not None else "printed")


def check_ids(entries: list[Entry], problems: Problems) -> None:
    seen: dict[str, Entry] = {}
    for entry in entries:
        if entry.key in seen:
            _add(problems, entry.at("id"), f"id: {entry.id!r} is also the id of {shown(seen[entry.key].where.path)}")
        seen.setdefault(entry.key, entry)
    cases: dict[str, Entry] = {}
    for entry in entries:
        for case in entry.cases:
            if case.id in cases:
                _add(problems, case.at("id"), f"case id {case.id!r} is also used in {shown(cases[case.id].where.path)}")
            cases.setdefault(case.id, entry)
    for entry in entries:
        for k, ref in enumerate(entry.related):
            if str(ref) not in seen:
                _add(problems, entry.at("related", k), f"related: no entry with id {ref!r}")
            elif str(ref) == entry.key:
                _add(problems, entry.at("related", k), "related: an entry cannot relate to itself")


def _check_fields(entry: Entry, problems: Problems) -> bool:
    """Record problems with names and domains; True when there were none."""
    before = len(problems)
    for k, name in enumerate(entry.may_be_infinite):
        if name not in {o.name for o in entry.outputs}:
            _add(problems, entry.at("may_be_infinite", k), f"may_be_infinite: {name!r} is not an output of this entry")
    for kind, items in (("inputs", entry.inputs), ("outputs", entry.outputs)):
        for name, count in Counter(i.name for i in items).items():
            if count > 1:
                item = next(i for i in items if i.name == name)
                _add(problems, item.at("name"), f"{kind}: name {name!r} is used {count} times")
        for item in items:
            if item.name in RESERVED:
                _add(
                    problems,
                    item.at("name"),
                    f"{kind}: name {item.name!r} is kept for the page's links ({', '.join(RESERVED)}); choose another",
                )
    _check_indices(entry, problems)
    for k, item in enumerate(entry.inputs):
        at = f"inputs[{k}]"
        if item.type in ("real", "integer", "list") and item.domain is None:
            _add(
                problems,
                item.at("domain"),
                f"{at}.domain: required for a {item.type} input, e.g. '[0, 1]' or '(0, inf)'",
            )
        if item.type == "choice" and not item.choices:
            _add(problems, item.at("type"), f"{at}.choices: required for a choice input")
        if item.type != "choice" and item.choices:
            _add(problems, item.at("choices"), f"{at}.choices: only a choice input has choices")
        for key in LIST_ONLY:
            if item.type != "list" and getattr(item, key) not in (None, False):
                _add(problems, item.at(key), f"{at}.{key}: only a list input has {key}")
        for key in ("domain", "length"):
            if getattr(item, key) is not None:
                try:
                    Interval.parse(getattr(item, key))
                except ValueError as exc:
                    _add(problems, item.at(key), f"{at}.{key}: {exc}")
                    continue
        if len(problems) > before:
            continue  # the domain itself is wrong, reported above
        try:
            Domain.from_spec(item.spec()).read(item.default)
        except DomainError as exc:
            _add(problems, item.at("default"), f"{at}.default: {exc.message}")
    return len(problems) == before


def _check_indices(entry: Entry, problems: Problems) -> None:
    """Each list output's ``index.first`` is whole-number arithmetic on inputs that exist and are
    integers: the rows it names are counted from something the reader sets."""
    inputs = {i.name: i for i in entry.inputs}
    integers = [i.name for i in entry.inputs if i.type == "integer"]
    for o in entry.outputs:
        if o.index is None:
            continue
        at = f"outputs.{o.name}.index.first"
        try:
            names = index_names(o.index.first)
        except ValueError as exc:
            _add(problems, o.at("index", "first"), f"{at}: {exc}; write a whole number or arithmetic on integer inputs")
            continue
        for name in names:
            if name not in inputs:
                said = f"integer inputs: {', '.join(integers)}" if integers else "the entry has no integer input"
                _add(problems, o.at("index", "first"), f"{at}: {name!r} is not an input of this entry ({said})")
            elif inputs[name].type != "integer":
                _add(
                    problems,
                    o.at("index", "first"),
                    f"{at}: {name} is a {inputs[name].type} input; an index counts from whole numbers and integer inputs",
                )


def _check_index_lists(entry: Entry, calc: Calculator, problems: Problems) -> None:
    """Only a list output has an ``index``: its elements are what it names."""
    if all(o.index is None for o in entry.outputs):
        return
    try:
        outputs = calc.remembered({})["outputs"]
    except Exception:
        return  # the defaults' failure is reported already
    for o in entry.outputs:
        if o.index is not None and not isinstance(outputs[o.name]["value"], list):
            _add(
                problems,
                o.at("index"),
                f"outputs.{o.name}.index: only a list output has an index; {o.name} is "
                f"{outputs[o.name]['text']} at the defaults",
            )


def _formula_line(entry: Entry, line: int) -> int:
    return entry.block_lines["formula"] + line - 1


# A calculator is made of its spec alone (the browser makes it of the same): spec, as JSON ->
# the one made of it, with the runs it has remembered.  serve checks an edited entry again at
# every save, and an edit to its words leaves the spec as it was: the check's runs (its cases,
# every preset's fill, its plots) are then the ones the last check made.
_MADE: dict[str, Calculator] = {}
_MADE_KEPT = 2048


def _made(spec: dict) -> Calculator:
    return remembered(_MADE, json.dumps(spec, ensure_ascii=False, default=repr), lambda: Calculator(spec), _MADE_KEPT)


def _calculator(entry: Entry, problems: Problems) -> Calculator | None:
    found = formula_problems(entry.formula)
    for line, message in found:
        problems.add(entry.where.path, _formula_line(entry, line), message)
    if found:
        return None
    try:
        calc = _made(entry.spec())
    except FormulaError as exc:
        problems.add(entry.where.path, _formula_line(entry, exc.line or 1), str(exc))
        return None
    except Exception as exc:  # the formula's own top-level code raised
        problems.add(entry.where.path, entry.block_lines["formula"], f"formula fails when loaded: {exc!r}")
        return None
    params = list(inspect.signature(calc.compute).parameters)
    names = [i.name for i in entry.inputs]
    if params != names:
        problems.add(
            entry.where.path,
            entry.block_lines["formula"],
            f"compute({', '.join(params)}) must take the inputs in order: compute({', '.join(names)})",
        )
        return None
    try:
        calc.remembered({})  # the defaults, run once: every check and the page read them
    except DomainError as exc:
        said = exc.message if exc.name == "inputs" else str(exc)
        problems.add(entry.where.path, entry.block_lines["formula"], f"the formula rejects the defaults: {said}")
    except FormulaError as exc:
        problems.add(entry.where.path, entry.block_lines["formula"], str(exc))
        return None
    except Exception as exc:
        problems.add(entry.where.path, entry.block_lines["formula"], f"formula raises on the defaults: {exc!r}")
        return None
    return calc


def _question_problem(entry: Entry, calc: Calculator, question: dict) -> str | None:
    """Why an inverse question (an entry's ``solve`` or a case's) cannot be asked, or None."""
    inputs = {i.name: i for i in entry.inputs}
    outputs = {o.name: o for o in entry.outputs}
    free, output = question["input"], question["output"]
    if free not in inputs:
        return f"input: {free!r} is not an input; inputs: {', '.join(inputs)}"
    if inputs[free].type not in ("real", "integer"):
        return f"input: {free} is a {inputs[free].type} input; only real and integer inputs can be freed"
    if output not in outputs:
        return f"output: {output!r} is not an output; outputs: {', '.join(outputs)}"
    if split_format(outputs[output].format)[0] not in NUMERIC:
        return f"output: {output} is written as {outputs[output].format}, not as a number"
    try:
        value = calc.remembered({})["outputs"][output]["value"]
    except Exception:
        return None  # the defaults' failure is reported already
    if not _numeric(value):
        return f"output: {output} is not a single number at the defaults ({value!r})"
    if "target" in question and isinstance(question["target"], str):
        unit = outputs[output].unit
        try:
            unit_table.read(question["target"], unit if unit in unit_table.UNITS else "")
        except NumberError as exc:
            return f"target: {exc}"
    return None


def _check_headline(entry: Entry, problems: Problems) -> None:
    names = [o.name for o in entry.outputs]
    for k, name in enumerate(entry.headline):
        if name not in names:
            _add(
                problems,
                entry.at("headline", k),
                f"headline: {name!r} is not an output of this entry (outputs: {', '.join(names)})",
            )


def _check_question(entry: Entry, calc: Calculator, problems: Problems) -> None:
    _check_headline(entry, problems)
    if entry.solve is None:
        return
    reason = _question_problem(entry, calc, entry.solve)
    if reason:
        _add(problems, _named(entry, reason, "solve"), f"solve.{reason}")


_answers: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # calculator -> question -> answer


def answer(calc: Calculator, case) -> dict:
    """An inverse case's answer (``solve.solve``, with no clock), solved once per build for the
    same calculator and question: the check reproduces it, the page prints it.  The answer is
    shared: read it, never change it."""
    q = case.inverse
    asked = json.dumps([case.inputs, q["input"], q["output"], q["sense"], q["target"]], sort_keys=True, default=repr)
    known = _answers.setdefault(calc, {})
    if asked not in known:
        known[asked] = solve(calc, case.inputs, q["input"], q["output"], q["sense"], q["target"], clock=False)
    return known[asked]


def reproduce(calc: Calculator, case) -> list:
    """(check, computed value) for each check of a case: a forward case runs its inputs; an
    inverse case solves for its freed input, and each check reads the solution its ``index``
    picks (0 by default): the freed input's value, or an output there (the check is returned
    without its index, which is spent).  DomainError when the inputs are rejected, Unsolved
    when the question has no solution."""
    question = case.inverse
    if question is None:
        outputs = calc.remembered(case.inputs)["outputs"]
        return [(check, outputs[check.output]["value"]) for check in case.checks]
    result = answer(calc, case)
    found = result["solutions"]
    message = result["message"].replace("\u00a0", " ")  # for a terminal
    if not found:
        raise Unsolved(f"no solution for {question['input']}: {message}")
    pairs = []
    for check in case.checks:
        k = check.index or 0
        if k >= len(found):
            raise Unsolved(f"a check asks for solution {k} (0-based), but there are {len(found)}: {message}")
        run = found[k]["run"]
        # the freed input: its crossing as refined (the value shown is shortened to the
        # fewest digits that still reproduce the target, which a printed value may exceed)
        value = found[k]["root"] if check.output == question["input"] else run["outputs"][check.output]["value"]
        pairs.append((replace(check, index=None), value))  # index picked the solution: one number is checked
    return pairs


def _check_cases(entry: Entry, calc: Calculator, problems: Problems) -> None:
    outputs = {o.name: o.format for o in entry.outputs}
    for case in entry.cases:
        if case.origin == "book" and not case.source:
            _add(problems, case.at("origin"), f"case {case.id}: a book case needs source (seed file and place)")
        if case.origin == "derived" and not case.note:
            _add(
                problems, case.at("origin"), f"case {case.id}: a derived case needs note (the hand-checked arithmetic)"
            )
        if case.origin == "published" and not case.citation:
            _add(problems, case.at("origin"), f"case {case.id}: a published case needs citation (title, url, where)")
        broken = False
        for name in case.inputs:
            if name not in calc.defaults:
                _add(
                    problems,
                    case.at("inputs", name),
                    f"case {case.id}: unknown input {name!r}; inputs: {', '.join(calc.defaults)}",
                )
                broken = True
        question = case.inverse
        checked = dict(outputs)
        if question is not None:
            reason = _question_problem(entry, calc, question)
            if reason:
                _add(problems, _named(case, reason, "solve"), f"case {case.id}: solve.{reason}")
                broken = True
            elif question["input"] in case.inputs:
                _add(
                    problems,
                    case.at("inputs", question["input"]),
                    f"case {case.id}: {question['input']} is solved for, so inputs must not give it",
                )
                broken = True
            checked[question["input"]] = "sig"
        for check in case.checks:
            if check.output not in checked:
                also = f"; or the freed input {question['input']!r}" if question else ""
                _add(
                    problems,
                    check.at("output"),
                    f"case {case.id}: unknown output {check.output!r}; outputs: {', '.join(sorted(outputs))}{also}",
                )
                broken = True
            reason = tolerance.problem(check, checked.get(check.output, "sig"))
            if reason:
                _add(problems, _named(check, reason), f"case {case.id}: {reason}")
                broken = True
        if broken:
            continue
        try:
            pairs = reproduce(calc, case)
        except Unsolved as exc:
            _add(problems, case.at("solve"), f"case {case.id}: {exc}")
            continue
        except DomainError as exc:
            written = ("inputs", exc.name) in case.lines or not case.preset  # else a preset filled it
            _add(
                problems,
                case.at("inputs", exc.name) if written else case.at("preset"),
                f"case {case.id}: inputs rejected: {exc}",
            )
            continue
        except Exception as exc:
            _add(problems, case.at("inputs"), f"case {case.id}: formula raises {exc!r}")
            continue
        for check, actual in pairs:
            miss = tolerance.verify(check, actual)
            if miss and case.origin == "published":
                miss = miss.replace("book prints", "the source prints")
            if miss:
                _add(problems, _compared(check), f"case {case.id}: {miss}")
            elif check.erratum is not None and not tolerance.book_disagrees(check, actual):
                _add(
                    problems,
                    check.at("erratum"),
                    f"case {case.id}: erratum on {check.output}, but the printed value is right",
                )


def _numeric(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check_plots(entry: Entry, calc: Calculator, problems: Problems) -> None:
    if not entry.plots:
        return
    try:
        defaults = calc.remembered({})["outputs"]
    except Exception:
        return  # the defaults' failure is reported already
    domains = {d.name: d for d in calc.domains}
    for k, plot in enumerate(entry.plots):
        at = f"plots[{k}]"
        before = len(problems)
        x, lo, hi = plot["x"], plot["from"], plot["to"]
        d = domains.get(x)
        if d is None or d.kind not in ("real", "integer"):
            _add(problems, plot.at("x"), f"{at}.x: {x!r} is not a real or integer input")
            continue
        if not lo < hi:
            _add(problems, plot.at("from"), f"{at}: from ({lo:g}) must be below to ({hi:g})")
        for key, end in (("from", lo), ("to", hi)):
            if end not in d.interval:
                _add(problems, plot.at(key), f"{at}: {end:g} is outside {x}'s domain {d.interval}")
        if plot["log_x"] and lo <= 0:
            _add(problems, plot.at("log_x"), f"{at}.log_x: a logarithmic axis needs from > 0")
        for j, name in enumerate(plot["y"]):
            if name not in defaults:
                _add(problems, plot.at("y", j), f"{at}.y: unknown output {name!r}")
            elif not _numeric(defaults[name]["value"]):
                _add(problems, plot.at("y", j), f"{at}.y: {name!r} is not a single number, so it cannot be drawn")
        if len(problems) == before:
            points = calc.sweep({}, plot.spec())
            drawn = [y for name in plot["y"] for y in points["y"].get(name, []) if y is not None]
            if len(drawn) < 2:
                _add(
                    problems,
                    plot.at("y"),
                    f"{at}: the formula gives fewer than two drawable points over [{lo:g}, {hi:g}]",
                )
            elif plot["log_y"] and min(drawn) <= 0:
                _add(
                    problems,
                    plot.at("log_y"),
                    f"{at}.log_y: the outputs reach {min(drawn):g}; a logarithmic axis needs them positive",
                )


def _check_feeds(entries: list[Entry], calculators: dict, problems: Problems) -> None:
    for entry in entries:
        source = calculators.get(entry.key)
        for k, feed in enumerate(entry.feeds):
            at = f"feeds[{k}]"
            target = calculators.get(str(feed.entry))
            if target is None:
                _add(
                    problems,
                    feed.at("entry"),
                    f"{at}.entry: no entry with id {feed.entry!r} (or its formula is broken)",
                )
                continue
            if source is None:
                continue
            bad = False
            for name, origin in feed.inputs.items():
                if name not in target.defaults:
                    _add(
                        problems,
                        feed.at("inputs", name),
                        f"{at}.inputs: entry {feed.entry} has no input {name!r}; it has {', '.join(target.defaults)}",
                    )
                    bad = True
                if origin not in source.defaults and origin not in {o["name"] for o in source.outputs}:
                    _add(
                        problems,
                        feed.at("inputs", name),
                        f"{at}.inputs.{name}: {origin!r} is neither an input nor an output of this entry",
                    )
                    bad = True
            if bad:
                continue
            try:
                fed = feed_query({"url": "", "inputs": feed.inputs}, source.remembered({}))
            except Exception:
                continue  # the source's defaults fail: reported already
            try:
                target.run(fed)
            except DomainError as exc:
                _add(
                    problems,
                    feed.at("inputs", exc.name),
                    f"{at}: at the defaults, entry {feed.entry} rejects the fed value: {exc}",
                )


def check_synthesis(prompts, entries: list[Entry], problems: Problems) -> None:
    keys = {e.key for e in entries}
    for prompt in prompts:
        written = [("groups", g, "entries", j) for g, (_, refs) in enumerate(prompt.groups) for j in range(len(refs))]
        for k, ref in enumerate(prompt.entries):
            if str(ref) not in keys:
                at = written[k] if prompt.groups else ("entries", k)
                _add(problems, prompt.at(*at), f"{prompt.id}: no entry with id {ref!r}")


def check_chapters(chapters: dict, entries: list[Entry], problems: Problems) -> None:
    """A chapter's description agrees with its entries: same Part, and no entry in an undescribed chapter."""
    if not chapters:
        return
    for entry in entries:
        chapter = chapters.get(entry.chapter)
        if chapter is None:
            _add(problems, entry.at("chapter"), f"chapter: {entry.chapter} is not described in entries/_chapters.yaml")
        elif chapter.part != entry.part:
            _add(
                problems,
                chapter.at("part"),
                f"chapter {chapter.number}: part {chapter.part}, but entry {entry.key} "
                f"of that chapter is in Part {entry.part}",
            )


_BASE_WORDS = {"bytes": "bytes", "flop": "FLOPs", "time": "seconds", "money": "dollars"}


def _dimension_words(unit: str) -> str:
    """A unit's dimension as a reader says it: 'bytes per second', 'a count or pure number'."""
    dimension = unit_table.dimension(unit)
    over = [_BASE_WORDS[b] for b, e in dimension.items() if e > 0]
    under = [_BASE_WORDS[b].rstrip("s") for b, e in dimension.items() if e < 0]
    return (
        " ".join(over or ["a count"]) + "".join(f" per {u}" for u in under) if dimension else "a count or pure number"
    )


def check_feed_units(entries: list[Entry], problems: Problems, bank: list[Entry] | None = None) -> None:
    """A feed carries a value as it is, in base units, so its origin and the input it fills must
    share a dimension (runtime/units.py): bytes never land in a FLOP or a bytes-per-second input.
    Counts and pure numbers share one dimension, so ``parameters`` may fill an input in ``''``.
    ``bank``: the entries a feed may point to (``entries`` by default)."""
    by_key = {e.key: e for e in (entries if bank is None else bank)}
    for entry in entries:
        named = {**{i.name: i.unit for i in entry.inputs}, **{o.name: o.unit for o in entry.outputs}}
        for k, feed in enumerate(entry.feeds):
            target = by_key.get(str(feed.entry))
            if target is None:
                continue  # reported by _check_feeds
            inputs = {i.name: i.unit for i in target.inputs}
            for name, origin in feed.inputs.items():
                unit, origin_unit = inputs.get(name), named.get(origin)
                if unit not in unit_table.UNITS or origin_unit not in unit_table.UNITS:
                    continue  # an unknown name or unit is reported where it is defined
                if unit_table.dimension(unit) != unit_table.dimension(origin_unit):
                    _add(
                        problems,
                        feed.at("inputs", name),
                        f"feeds[{k}].inputs.{name}: {origin!r} is in {origin_unit!r} ({_dimension_words(origin_unit)})"
                        f" but entry {feed.entry}'s input {name!r} is in {unit!r} ({_dimension_words(unit)});"
                        " a feed carries values unconverted, so both must have the same dimension",
                    )
