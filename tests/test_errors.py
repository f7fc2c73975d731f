"""Every kind of author mistake, with its exact message: errors are interface."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from site_builder import bank
from site_builder.cli import main
from site_builder.errors import Problems, shown
from site_builder.load.load import _PATTERN_HINTS
from site_builder.runtime import page
from site_builder.tex.typeset import typeset_bank

# The formats the loader's hint lists, as numbers.FORMATS has them, and the query names the page's
# links keep, as page.RESERVED has them: a fixture writes {formats} and {reserved}, so adding a
# format or a link parameter touches only the files docs/architecture.md names.
FORMATS = _PATTERN_HINTS["format"].removeprefix("is not a format: ")
RESERVED = ", ".join(page.RESERVED)
FIXTURES = sorted(p for p in (Path(__file__).parent / "bad_entries").iterdir() if p.is_dir())
# The mistakes in TeX, which only a KaTeX run finds (in Node); every other fixture is reported by
# the checks before typesetting, so `make test-quick` runs it with no KaTeX.
TEX = [p for p in FIXTURES if p.name.startswith("tex-")]
PLAIN = [p for p in FIXTURES if p not in TEX]


def expected_report(folder: Path) -> str:
    """A fixture's expected.txt, its placeholders filled: {here}, {formats}, {reserved}."""
    text = (folder / "expected.txt").read_text()
    return text.replace("{here}", shown(folder)).replace("{formats}", FORMATS).replace("{reserved}", RESERVED)


def _reports_exactly(folder, capsys):
    code = main(["--entries", str(folder), "check"])
    captured = capsys.readouterr()
    expected = expected_report(folder)
    assert code == 1
    assert captured.err == expected
    assert "Traceback" not in captured.err


@pytest.mark.parametrize("folder", PLAIN, ids=[p.name for p in PLAIN])
def test_bad_entry_reports_exactly(folder, capsys, without_typesetting):
    _reports_exactly(folder, capsys)


@pytest.mark.node  # KaTeX, in Node, finds these
@pytest.mark.parametrize("folder", TEX, ids=[p.name for p in TEX])
def test_bad_tex_reports_exactly(folder, capsys):
    _reports_exactly(folder, capsys)


@pytest.mark.node
def test_typesetting_adds_nothing_to_a_mistake_outside_the_tex():
    """What test_bad_entry_reports_exactly leaves out: the TeX of every other fixture typesets
    cleanly, in one KaTeX run, so `check` with typesetting reports exactly what it expects."""
    entries, prompts = [], []
    for folder in PLAIN:
        draft = bank.run(bank.Draft(folder), Problems(), steps=bank.CHECKS)
        entries += draft.entries
        prompts += draft.prompts
    problems = Problems()
    typeset_bank(entries, problems, prompts)
    assert len(entries) >= len(PLAIN) // 2 and not problems, problems.report()


# What the line of each error a fixture reports holds (in the order reported): the field the
# message names, so that an error pointing back at its item's first line fails here.  A field
# the author left out is pointed at by what asks for it (a book case's origin asks for source),
# or by its item.
AT_FAULT = {
    "bad-interval": ['domain: "[1, inf]"'],
    "book-case-without-source": ["origin: book"],
    "case-gives-the-solved-input": ["D: 3"],
    "case-input-outside-domain": ["D: -3"],
    "case-not-reproduced": ['printed: "37"'],
    "case-printed-words-without-value": ['printed: "three dozen"'],
    "case-unknown-input": ["T: 3"],
    "case-unknown-output": ["output: cost"],
    "choices-missing": ["type: choice"],
    "counted-without-a-model-fill": ["counted: params_counted"],
    "choices-on-a-real-input": ["choices:"],
    "default-not-a-number": ["default: two"],
    "default-outside-domain": ["default: 0"],
    "derived-case-without-note": ["origin: derived"],
    "domain-missing": ["- name: D"],
    "duplicate-case-id": ["id: toy-case"],
    "duplicate-id": ["id: 1"],
    "duplicate-input-name": ["name: N"],
    "duplicate-key": ["chapter:"],
    "empty-file": [""],
    "erratum-where-the-book-is-right": ["erratum:"],
    "erratum-without-value": ["erratum:"],
    "feed-carries-an-unknown-value": ["D: cost"],
    "feed-unknown-input": ["T: D"],
    "formula-does-not-compile": ["def compute(N, D)"],
    "formula-imports-outside-allow-list": ["import os"],
    "formula-never-returns": ["def compute("],
    "formula-parameters-differ-from-inputs": ["def compute(D, N)"],
    "formula-raises-on-defaults": ["def compute(", 'printed: "36"'],
    "formula-returns-wrong-outputs": ["def compute("],
    "formula-changed-without-a-new-version": ["formula: |"],
    "formula-without-compute": ["def cost("],
    "id-does-not-match-file-name": ["id: 2"],
    "index-names-no-input": ["first: m"],
    "input-name-reserved": ["name: solve"],
    "interval-not-an-interval": ['domain: "1 to 10"'],
    "invalid-yaml": ["label: oops"],
    "inverse-case-bad-target": ['target: "36 GB"'],
    "inverse-case-without-solution": ["solve: {"],
    "list-key-on-a-scalar-input": ["sum: 1"],
    "missing-key": ["id: 1"],
    "part-not-allowed": ["part: IV"],
    "plot-end-outside-domain": ["to: 20"],
    "plot-log-axis-from-zero": ["log_x: true"],
    "plot-unknown-output": ["- cost"],
    "published-case-preset-cannot-fill": ["preset: {model: toy}", 'printed: "72"'],
    "published-case-unknown-preset": ["preset: {model: nonesuch}", 'printed: "72"'],
    "published-case-preset-outside-domain": ["model: {N: layers", "preset: {model: toy}"],
    "published-case-without-citation": ["origin: published"],
    "several-mistakes-at-once": ["part: IV", "author:"],
    "solve-frees-a-list-input": ["input: w"],
    "solve-unknown-output": ["output: cost"],
    "tex-bad-symbol": ["symbol: D_{"],
    "tex-dollar-opens-no-math": ["$6ND FLOPs"],
    "tex-katex-cannot-parse": ["$\\frac{6ND$"],
    "tex-katex-error-inside-a-display": ["\\tokens"],
    "synthesis-not-yaml": ["entries: [1]"],
    "synthesis-prompts-not-a-list": ["prompts:"],
    "unknown-key": ["author:"],
    "unknown-output-format": ["format: money"],
    "unknown-related-entry": ["related: [7]"],
    "wrong-type": ["chapter: two"],
}


@pytest.mark.parametrize("folder", FIXTURES, ids=[p.name for p in FIXTURES])
def test_each_error_points_at_the_line_at_fault(folder):
    reported = re.findall(r"^\{here\}/([^:]+):(\d+): ", (folder / "expected.txt").read_text(), re.M)
    assert folder.name in AT_FAULT, "add to AT_FAULT what the line of each error this fixture reports holds"
    assert len(reported) == len(AT_FAULT[folder.name])
    for (name, line), held in zip(reported, AT_FAULT[folder.name]):
        text = (folder / name).read_text(encoding="utf-8").splitlines()
        assert held in (text[int(line) - 1] if text else ""), f"{name}:{line} does not hold {held!r}"


def test_there_is_a_fixture_per_kind_of_mistake():
    assert len(FIXTURES) >= 25


@pytest.mark.node  # a build typesets
def test_a_failed_build_leaves_the_last_good_site(tmp_path, capsys):
    good = Path(__file__).parent / "bad_entries" / "case-not-reproduced"
    out = tmp_path / "site"
    out.mkdir()
    (out / "index.html").write_text("last good site")
    assert main(["--entries", str(good), "build", "--out", str(out)]) == 1
    assert (out / "index.html").read_text() == "last good site"
    assert [p.name for p in tmp_path.iterdir()] == ["site"]
