"""The bank assembled: every entry file, the presets, chapters and synthesis prompts loaded,
checked and typeset, as the build renders them and the check command counts them."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .check import check_chapters, check_entries, check_synthesis
from .errors import BuildFailed, Problems
from .load import load_all, load_chapters, load_synthesis
from .math import Typeset
from .plan_check import load_plans
from .presets import check_fill, load_presets
from .typeset import typeset_bank


@dataclass(frozen=True)
class Bank:
    """The bank after checking: what the build renders, and what the check command counts."""

    entries: list
    calculators: dict
    typeset: Typeset  # every TeX fragment of the bank, typeset
    css: str
    prompts: tuple
    intro: str
    presets: dict = field(default_factory=dict)  # kind -> id -> Preset (entries/presets/)
    chapters: dict = field(default_factory=dict)  # chapter number -> Chapter, from entries/_chapters.yaml
    plans: dict = field(default_factory=dict)  # plan id -> (Plan, PlanCalculator), from entries/plans/


def gather(entries_dir: Path, problems: Problems) -> Bank:
    """Load every entry and the synthesis prompts, check them and typeset their TeX, recording problems."""
    presets = load_presets(entries_dir, problems)  # loaded once: cases that name presets read them too
    entries = load_all(entries_dir, problems, presets)
    prompts, intro = load_synthesis(entries_dir, problems)
    chapters = load_chapters(entries_dir, problems)
    calculators = check_entries(entries, problems)
    check_fill(entries, presets, calculators, problems)
    check_synthesis(prompts, entries, problems)
    check_chapters(chapters, entries, problems)
    plans = load_plans(entries_dir, entries, calculators, presets, problems)
    typeset, css = typeset_bank(entries, problems, prompts) if entries else (Typeset(), "")
    return Bank(entries, calculators, typeset, css, prompts, intro, presets, chapters, plans)


def assemble(entries_dir: Path) -> Bank:
    """Load, check and typeset, or BuildFailed with every problem found."""
    problems = Problems()
    bank = gather(entries_dir, problems)
    if problems:
        raise BuildFailed(problems)
    return bank
