"""The typed shape of a plan: inputs, the entries it composes (steps) and its answers.

Built only by ``plan_check``; nothing past it sees a raw dict.  A plan computes nothing
itself: each output is a step's output, each step an entry of the bank.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..runtime import page
from .entry import Case, Fill, Input, Located, Output, Where


@dataclass(frozen=True)
class Step(Located):
    """One entry run inside a plan.  ``inputs`` maps the entry's input to a plan input's name or
    to ``step.output``; ``set`` maps an entry input to a constant; the rest keep the entry's defaults."""

    id: str
    entry: int | str
    inputs: dict
    set: dict = field(default_factory=dict, hash=False)
    why: str = ""
    where: Where | None = field(default=None, compare=False)
    lines: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def entry_key(self) -> str:
        return str(self.entry)

    def source(self, name: str) -> tuple:
        """Where the entry input ``name`` bound in ``inputs`` comes from: ("input", plan input) or
        ("step", step id, output)."""
        head, dot, tail = str(self.inputs[name]).partition(".")
        return ("step", head, tail) if dot else ("input", head)

    def sources(self) -> dict[str, tuple]:
        """entry input -> ("input", name) | ("step", step id, output) | ("set", value)."""
        found: dict[str, tuple] = {name: ("set", value) for name, value in self.set.items()}
        found.update({name: self.source(name) for name in self.inputs})
        return found


@dataclass(frozen=True)
class PlanOutput(Located):
    """A plan's answer: ``source`` is ``step.output``; the label defaults to the entry output's."""

    name: str
    source: str
    label: str = ""
    help: str = ""
    where: Where | None = field(default=None, compare=False)
    lines: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def step(self) -> str:
        return self.source.partition(".")[0]

    @property
    def output(self) -> str:
        return self.source.partition(".")[2]


@dataclass(frozen=True)
class Plan(Located):
    id: str
    title: str
    summary: str
    inputs: tuple[Input, ...]
    steps: tuple[Step, ...]
    answers: tuple[PlanOutput, ...]
    cases: tuple[Case, ...] = ()
    aliases: tuple[str, ...] = ()
    headline: tuple[str, ...] = ()
    fill: tuple[Fill, ...] = ()
    # Filled in by the check: each answer typed as the entry output it reads (unit, format), and
    # the steps in an order where every step follows the steps it reads.
    outputs: tuple[Output, ...] = ()
    order: tuple[str, ...] = ()
    where: Where | None = field(default=None, compare=False)
    lines: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def key(self) -> str:
        return self.id

    @property
    def name(self) -> str:
        """'train-plan' -> 'train' (the page is /plans/train/)."""
        return self.id.removesuffix("-plan")

    @property
    def url(self) -> str:
        return f"/plans/{self.name}/"

    @property
    def label(self) -> str:
        return f"plan {self.id}"

    @property
    def test_id(self) -> str:
        return f"p-{self.name}"

    def step(self, step_id: str) -> Step:
        return next(s for s in self.steps if s.id == step_id)

    def spec(self, entries: dict) -> dict:
        """The runtime's plan spec (``runtime/plan.py``): ``entries`` maps an entry key to its Entry."""
        by_answer = {a.name: a for a in self.answers}
        steps = []
        for step_id in self.order:
            step = self.step(step_id)
            entry = entries[step.entry_key]
            steps.append(
                {
                    "id": step.id,
                    "entry": step.entry_key,
                    "url": entry.url,
                    "title": entry.title,
                    "bind": {name: list(source) for name, source in step.sources().items()},
                }
            )
        outputs = []
        for o in self.outputs:
            spec: dict = dict(o.spec())
            spec["step"] = by_answer[o.name].step
            spec["from"] = by_answer[o.name].output
            outputs.append(spec)
        used = []
        for step_id in self.order:
            key = self.step(step_id).entry_key
            if key not in used:
                used.append(key)
        return {
            "id": self.id,
            "title": self.title,
            "inputs": [i.spec() for i in self.inputs],
            "steps": steps,
            "outputs": outputs,
            "headline": list(self.headline),
            "input_units": {i.name: i.unit for i in self.inputs if i.unit},
            "entries": {key: entries[key].spec() for key in used},
        }

    def input_spec(self) -> list[page.Input]:
        return [i.spec() for i in self.inputs]
