"""Everything the schema cannot say about entries, checked in one pass.

Names and references agree, defaults lie in their domains, formulas compile and import
only the allow-list, TeX typesets, and every case reproduces the book's printed value.
"""

from __future__ import annotations

import inspect
import signal
import threading
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from . import markdown, math, tolerance
from .entry import Entry
from .errors import Problems, shown
from .load import load_all, load_chapters, load_synthesis
from .presets import check_fill, load_presets
from .runtime import units as unit_table
from .runtime.calculator import Calculator, FormulaError, formula_problems
from .runtime.domain import Domain, DomainError, Interval
from .runtime.numbers import NUMERIC, NumberError, split_format
from .runtime.page import RESERVED, feed_query
from .runtime.solve import solve

LIST_ONLY = ("length", "integer_elements", "sum")
FORMULA_SECONDS = 2.0


class Unsolved(Exception):
    """An inverse case whose question has no solution (or fewer than its checks ask for)."""


class FormulaTimeout(BaseException):
    """A formula that did not return in time: an endless loop, or a computation out of proportion.

    A BaseException, so that no handler of a formula's own errors mistakes it for one."""


@contextmanager
def time_limit(seconds: float = FORMULA_SECONDS):
    """Interrupt the formulas run inside after ``seconds`` (main thread only; elsewhere, no limit)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def expire(signum, frame):
        raise FormulaTimeout(f"did not return within {seconds:g} s (an endless loop?)")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass(frozen=True)
class Checked:
    """The bank after checking: what the build renders, and what the check command counts."""

    entries: list
    calculators: dict
    typeset: dict
    css: str
    prompts: tuple
    intro: str
    presets: dict = field(default_factory=dict)  # kind -> id -> Preset (entries/presets/)
    chapters: dict = field(default_factory=dict)  # chapter number -> Chapter, from entries/_chapters.yaml


def check_bank(entries_dir: Path, problems: Problems) -> Checked:
    """Load every entry and the synthesis prompts, check them and typeset their TeX, recording problems."""
    entries = load_all(entries_dir, problems)
    prompts, intro = load_synthesis(entries_dir, problems)
    chapters = load_chapters(entries_dir, problems)
    calculators = check_entries(entries, problems)
    presets = load_presets(entries_dir, problems)
    check_fill(entries, presets, calculators, problems)
    check_synthesis(prompts, entries, problems)
    check_chapters(chapters, entries, problems)
    typeset, css = check_tex(entries, problems, prompts) if entries else ({}, "")
    return Checked(entries, calculators, typeset, css, prompts, intro, presets, chapters)


def check_entries(entries: list[Entry], problems: Problems) -> dict[str, Calculator]:
    """Record every problem; return the calculators of entries whose formula compiled."""
    _check_ids(entries, problems)
    calculators = {}
    for entry in entries:
        if not _check_fields(entry, problems):
            continue  # the formula cannot run on inputs that are themselves wrong
        try:
            with time_limit():
                calc = _calculator(entry, problems)
                if calc is not None:
                    _check_question(entry, calc, problems)
                    _check_cases(entry, calc, problems)
                    _check_plots(entry, calc, problems)
        except FormulaTimeout as exc:
            problems.add(entry.where.path, entry.block_lines["formula"], f"entry {entry.key}: the formula {exc}")
            continue
        if calc is not None:
            calculators[entry.key] = calc
    _check_feeds(entries, calculators, problems)
    return calculators


def _add(problems: Problems, where, message: str) -> None:
    problems.add(where.path, where.line, message)


def _check_ids(entries: list[Entry], problems: Problems) -> None:
    seen: dict[str, Entry] = {}
    for entry in entries:
        if entry.key in seen:
            _add(problems, entry.at("id"), f"id: {entry.id!r} is also the id of {shown(seen[entry.key].where.path)}")
        seen.setdefault(entry.key, entry)
    cases: dict[str, Entry] = {}
    for entry in entries:
        for case in entry.cases:
            if case.id in cases:
                _add(problems, case.where, f"case id {case.id!r} is also used in {shown(cases[case.id].where.path)}")
            cases.setdefault(case.id, entry)
    for entry in entries:
        for ref in entry.related:
            if str(ref) not in seen:
                _add(problems, entry.at("related"), f"related: no entry with id {ref!r}")
            elif str(ref) == entry.key:
                _add(problems, entry.at("related"), "related: an entry cannot relate to itself")


def _check_fields(entry: Entry, problems: Problems) -> bool:
    """Record problems with names and domains; True when there were none."""
    before = len(problems)
    for name in entry.may_be_infinite:
        if name not in {o.name for o in entry.outputs}:
            _add(problems, entry.at("may_be_infinite"), f"may_be_infinite: {name!r} is not an output of this entry")
    for kind, items in (("inputs", entry.inputs), ("outputs", entry.outputs)):
        for name, count in Counter(i.name for i in items).items():
            if count > 1:
                item = next(i for i in items if i.name == name)
                _add(problems, item.where, f"{kind}: name {name!r} is used {count} times")
        for item in items:
            if item.name in RESERVED:
                _add(
                    problems,
                    item.where,
                    f"{kind}: name {item.name!r} is kept for the page's links ({', '.join(RESERVED)}); choose another",
                )
    for k, item in enumerate(entry.inputs):
        at = f"inputs[{k}]"
        if item.type in ("real", "integer", "list") and item.domain is None:
            _add(problems, item.where, f"{at}.domain: required for a {item.type} input, e.g. '[0, 1]' or '(0, inf)'")
        if item.type == "choice" and not item.choices:
            _add(problems, item.where, f"{at}.choices: required for a choice input")
        if item.type != "choice" and item.choices:
            _add(problems, item.where, f"{at}.choices: only a choice input has choices")
        for key in LIST_ONLY:
            if item.type != "list" and getattr(item, key) not in (None, False):
                _add(problems, item.where, f"{at}.{key}: only a list input has {key}")
        for key in ("domain", "length"):
            if getattr(item, key) is not None:
                try:
                    Interval.parse(getattr(item, key))
                except ValueError as exc:
                    _add(problems, item.where, f"{at}.{key}: {exc}")
                    continue
        if len(problems) > before:
            continue  # the domain itself is wrong, reported above
        try:
            Domain.from_spec(item.spec()).read(item.default)
        except DomainError as exc:
            _add(problems, item.where, f"{at}.default: {exc.message}")
    return len(problems) == before


def _formula_line(entry: Entry, line: int) -> int:
    return entry.block_lines["formula"] + line - 1


def _calculator(entry: Entry, problems: Problems) -> Calculator | None:
    found = formula_problems(entry.formula)
    for line, message in found:
        problems.add(entry.where.path, _formula_line(entry, line), message)
    if found:
        return None
    try:
        calc = Calculator(entry.spec())
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
        calc.run({})
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
        value = calc.run({})["outputs"][output]["value"]
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
    for name in entry.headline:
        if name not in names:
            _add(
                problems,
                entry.at("headline"),
                f"headline: {name!r} is not an output of this entry (outputs: {', '.join(names)})",
            )


def _check_question(entry: Entry, calc: Calculator, problems: Problems) -> None:
    _check_headline(entry, problems)
    if entry.solve is None:
        return
    reason = _question_problem(entry, calc, entry.solve)
    if reason:
        _add(problems, entry.at("solve"), f"solve.{reason}")


def reproduce(calc: Calculator, case) -> list:
    """(check, computed value) for each check of a case: a forward case runs its inputs; an
    inverse case solves for its freed input, and each check reads the solution its ``index``
    picks (0 by default): the freed input's value, or an output there (the check is returned
    without its index, which is spent).  DomainError when the inputs are rejected, Unsolved
    when the question has no solution."""
    question = case.inverse
    if question is None:
        outputs = calc.run(case.inputs)["outputs"]
        return [(check, outputs[check.output]["value"]) for check in case.checks]
    result = solve(
        calc, case.inputs, question["input"], question["output"], question["sense"], question["target"], clock=False
    )
    found = result["solutions"]
    result["message"] = result["message"].replace("\u00a0", " ")  # for a terminal
    if not found:
        raise Unsolved(f"no solution for {question['input']}: {result['message']}")
    pairs = []
    for check in case.checks:
        k = check.index or 0
        if k >= len(found):
            raise Unsolved(f"a check asks for solution {k} (0-based), but there are {len(found)}: {result['message']}")
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
            _add(problems, case.where, f"case {case.id}: a book case needs source (seed file and place)")
        if case.origin == "derived" and not case.note:
            _add(problems, case.where, f"case {case.id}: a derived case needs note (the hand-checked arithmetic)")
        if case.origin == "published" and not case.citation:
            _add(problems, case.where, f"case {case.id}: a published case needs citation (title, url, where)")
        broken = False
        for name in case.inputs:
            if name not in calc.defaults:
                _add(
                    problems, case.where, f"case {case.id}: unknown input {name!r}; inputs: {', '.join(calc.defaults)}"
                )
                broken = True
        question = case.inverse
        checked = dict(outputs)
        if question is not None:
            reason = _question_problem(entry, calc, question)
            if reason:
                _add(problems, case.where, f"case {case.id}: solve.{reason}")
                broken = True
            elif question["input"] in case.inputs:
                _add(
                    problems,
                    case.where,
                    f"case {case.id}: {question['input']} is solved for, so inputs must not give it",
                )
                broken = True
            checked[question["input"]] = "sig"
        for check in case.checks:
            if check.output not in checked:
                also = f"; or the freed input {question['input']!r}" if question else ""
                _add(
                    problems,
                    check.where,
                    f"case {case.id}: unknown output {check.output!r}; outputs: {', '.join(sorted(outputs))}{also}",
                )
                broken = True
            reason = tolerance.problem(check, checked.get(check.output, "sig"))
            if reason:
                _add(problems, check.where, f"case {case.id}: {reason}")
                broken = True
        if broken:
            continue
        try:
            pairs = reproduce(calc, case)
        except Unsolved as exc:
            _add(problems, case.where, f"case {case.id}: {exc}")
            continue
        except DomainError as exc:
            _add(problems, case.where, f"case {case.id}: inputs rejected: {exc}")
            continue
        except Exception as exc:
            _add(problems, case.where, f"case {case.id}: formula raises {exc!r}")
            continue
        for check, actual in pairs:
            miss = tolerance.verify(check, actual)
            if miss and case.origin == "published":
                miss = miss.replace("book prints", "the source prints")
            if miss:
                _add(problems, check.where, f"case {case.id}: {miss}")
            elif check.erratum is not None and not tolerance.book_disagrees(check, actual):
                _add(
                    problems, check.where, f"case {case.id}: erratum on {check.output}, but the printed value is right"
                )


def _numeric(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check_plots(entry: Entry, calc: Calculator, problems: Problems) -> None:
    if not entry.plots:
        return
    try:
        defaults = calc.run({})["outputs"]
    except Exception:
        return  # the defaults' failure is reported already
    domains = {d.name: d for d in calc.domains}
    for k, plot in enumerate(entry.plots):
        at = f"plots[{k}]"
        before = len(problems)
        x, lo, hi = plot["x"], plot["from"], plot["to"]
        d = domains.get(x)
        if d is None or d.kind not in ("real", "integer"):
            _add(problems, plot.where, f"{at}.x: {x!r} is not a real or integer input")
            continue
        if not lo < hi:
            _add(problems, plot.where, f"{at}: from ({lo:g}) must be below to ({hi:g})")
        for end in (lo, hi):
            if end not in d.interval:
                _add(problems, plot.where, f"{at}: {end:g} is outside {x}'s domain {d.interval}")
        if plot["log_x"] and lo <= 0:
            _add(problems, plot.where, f"{at}.log_x: a logarithmic axis needs from > 0")
        for name in plot["y"]:
            if name not in defaults:
                _add(problems, plot.where, f"{at}.y: unknown output {name!r}")
            elif not _numeric(defaults[name]["value"]):
                _add(problems, plot.where, f"{at}.y: {name!r} is not a single number, so it cannot be drawn")
        if len(problems) == before:
            points = calc.sweep({}, plot.spec())
            drawn = [y for name in plot["y"] for y in points["y"].get(name, []) if y is not None]
            if len(drawn) < 2:
                _add(
                    problems,
                    plot.where,
                    f"{at}: the formula gives fewer than two drawable points over [{lo:g}, {hi:g}]",
                )
            elif plot["log_y"] and min(drawn) <= 0:
                _add(
                    problems,
                    plot.where,
                    f"{at}.log_y: the outputs reach {min(drawn):g}; a logarithmic axis needs them positive",
                )


def _check_feeds(entries: list[Entry], calculators: dict, problems: Problems) -> None:
    for entry in entries:
        source = calculators.get(entry.key)
        for k, feed in enumerate(entry.feeds):
            at = f"feeds[{k}]"
            target = calculators.get(str(feed.entry))
            if target is None:
                _add(problems, feed.where, f"{at}.entry: no entry with id {feed.entry!r} (or its formula is broken)")
                continue
            if source is None:
                continue
            bad = False
            for name, origin in feed.inputs.items():
                if name not in target.defaults:
                    _add(
                        problems,
                        feed.where,
                        f"{at}.inputs: entry {feed.entry} has no input {name!r}; it has {', '.join(target.defaults)}",
                    )
                    bad = True
                if origin not in source.defaults and origin not in {o["name"] for o in source.outputs}:
                    _add(
                        problems,
                        feed.where,
                        f"{at}.inputs.{name}: {origin!r} is neither an input nor an output of this entry",
                    )
                    bad = True
            if bad:
                continue
            try:
                fed = feed_query({"url": "", "inputs": feed.inputs}, source.run({}))
            except Exception:
                continue  # the source's defaults fail: reported already
            try:
                target.run(fed)
            except DomainError as exc:
                _add(problems, feed.where, f"{at}: at the defaults, entry {feed.entry} rejects the fed value: {exc}")


def tex_sources(entry: Entry) -> list[tuple[str, int, str]]:
    """(markdown text, line of its first line, what it is) for everything in an entry that holds TeX."""
    items = [(entry.statement, entry.block_lines["statement"], "statement")]
    if entry.notes:
        items.append((entry.notes, entry.block_lines["notes"], "notes"))
    for k, i in enumerate(entry.inputs):
        items.append((f"${i.symbol}$" if i.symbol else "", i.where.line, f"inputs[{k}].symbol"))
    for k, o in enumerate(entry.outputs):
        items.append((f"${o.symbol}$" if o.symbol else "", o.where.line, f"outputs[{k}].symbol"))
    for case in entry.cases:
        if case.quote:
            items.append((case.quote, case.where.line, f"case {case.id}: quote"))
        for c in case.checks:
            tex = markdown.printed_math(c.printed)
            if tex:
                items.append((f"${tex}$", c.where.line, f"case {case.id}: printed"))
    return items


def check_synthesis(prompts, entries: list[Entry], problems: Problems) -> None:
    keys = {e.key for e in entries}
    for prompt in prompts:
        for ref in prompt.entries:
            if str(ref) not in keys:
                _add(problems, prompt.where, f"{prompt.id}: no entry with id {ref!r}")


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
                chapter.where,
                f"chapter {chapter.number}: part {chapter.part}, but entry {entry.key} "
                f"of that chapter is in Part {entry.part}",
            )


def check_tex(entries: list[Entry], problems: Problems, prompts=()) -> tuple[dict, str]:
    """Typeset every fragment in one KaTeX run; record the ones KaTeX rejects at their line.

    Returns the typeset HTML of each fragment and the stylesheet its classes need."""
    sources = [(entry.where.path, *source) for entry in entries for source in tex_sources(entry)]
    for prompt in prompts:
        sources += [
            (prompt.where.path, text, prompt.where.line, prompt.id) for text in (prompt.text, prompt.correction)
        ]
    located = []
    for path, text, first_line, what in sources:
        for stray in markdown.stray_dollars(text):
            problems.add(
                Path(path),
                _line_of(text, stray, first_line),
                f"{what}: '$' opens no math in {stray[:60]!r}; close the formula, or write \\$ for a dollar sign",
            )
        for fragment in markdown.fragments(text):
            located.append((path, _line_of(text, fragment[0], first_line), what, fragment))
    results, css = math.typeset_for_pages([f for *_, f in located])
    typeset = {}
    for (path, line, what, fragment), result in zip(located, results):
        if result.error:
            problems.add(Path(path), line, f"{what}: KaTeX cannot typeset {fragment[0]!r}: {result.error}")
        typeset[fragment] = result.html
    return typeset, css


def _line_of(text: str, tex: str, first_line: int) -> int:
    head = tex.splitlines()[0] if tex else ""
    for offset, line in enumerate(text.splitlines()):
        if head and head in line:
            return first_line + offset
    return first_line
