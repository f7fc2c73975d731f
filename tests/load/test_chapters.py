"""What each chapter covers (entries/_chapters.yaml): complete, consistent with the entries, and shown
wherever a chapter is named."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from markupsafe import escape

from site_builder.check.check import check_chapters
from site_builder.errors import Problems
from site_builder.load.load import CHAPTERS_FILE, load_chapters
from tests.support import ENTRIES

RAW = yaml.safe_load((ENTRIES / CHAPTERS_FILE).read_text())


def chapters():
    problems = Problems()
    found = load_chapters(ENTRIES, problems)
    assert not problems, problems.report()
    return found


def test_every_chapter_is_described_once_in_order_with_its_entries_part(bank):
    entries, _ = bank
    found = chapters()
    assert list(found) == list(range(1, 18))
    for e in entries:
        assert found[e.chapter].part == e.part, e.url
    problems = Problems()
    check_chapters(found, entries, problems)
    assert not problems, problems.report()


def test_the_file_lists_no_entries_they_come_from_each_entrys_chapter():
    for item in RAW["chapters"]:
        assert set(item) == {"chapter", "part", "short", "covers"}
        assert not re.search(r"\bentr(y|ies)\b", item["covers"] + item["short"], re.I), item["chapter"]


def _problems_with(tmp_path: Path, edit) -> list[str]:
    raw = yaml.safe_load((ENTRIES / CHAPTERS_FILE).read_text())
    edit(raw["chapters"])
    (tmp_path / CHAPTERS_FILE).write_text(yaml.safe_dump(raw, allow_unicode=True, sort_keys=False))
    problems = Problems()
    return problems, load_chapters(tmp_path, problems)


def test_a_missing_chapter_an_unknown_key_or_a_long_short_text_is_named(tmp_path):
    problems, _ = _problems_with(tmp_path, lambda items: items.pop(4))
    assert "no description of chapter 5" in problems.report()
    problems, _ = _problems_with(tmp_path, lambda items: items[0].update(title="Invented"))
    assert "chapters[0]: keys are chapter, part, short and covers" in problems.report()
    problems, _ = _problems_with(tmp_path, lambda items: items[2].update(short="x" * 61))
    assert "chapters[2].short: 61 characters" in problems.report()
    problems, _ = _problems_with(tmp_path, lambda items: items[3].update(chapter=3))
    assert "chapter 3 is described twice" in problems.report()


def test_a_part_that_disagrees_with_the_chapters_entries_is_named(tmp_path, bank):
    entries, _ = bank
    _, found = _problems_with(tmp_path, lambda items: items[10].update(part="II"))
    problems = Problems()
    check_chapters(found, entries, problems)
    assert "chapter 11: part II, but entry 35 of that chapter is in Part III" in problems.report()
    # at the chapter's part: line, not its first line
    lines = (tmp_path / CHAPTERS_FILE).read_text().splitlines()
    assert {lines[e.line - 1].strip() for e in problems.items} == {"part: II"}


def test_a_prompts_unknown_entry_is_named_at_its_own_line(tmp_path, bank):
    from site_builder.check.check import check_synthesis
    from site_builder.load.load import load_synthesis

    entries, _ = bank
    text = "intro: x\nprompts:\n  - id: S9\n    text: t\n    groups:\n      - label: a\n        entries: [1]\n"
    text += "      - label: b\n        entries:\n          - 2\n          - 99\n"
    (tmp_path / "_synthesis.yaml").write_text(text)
    problems = Problems()
    prompts, _ = load_synthesis(tmp_path, problems)
    check_synthesis(prompts, entries, problems)
    assert [(e.line, e.message) for e in problems.items] == [(11, "S9: no entry with id 99")]


@pytest.mark.node
def test_chapters_page_describes_every_chapter_and_lists_the_entries_that_name_it(site, bank):
    entries, _ = bank
    html = (site / "chapters" / "index.html").read_text()
    for number, chapter in chapters().items():
        section = html.split(f'id="ch-{number}"', 1)[1].split("</section>", 1)[0]
        assert str(escape(chapter.covers)) in section, number
        assert f"Part {chapter.part}," in section
        listed = re.findall(r'<a href="(/[^"#]*)">', section)
        assert listed == [e.url for e in entries if e.chapter == number], number
    # The marks explained: the number, T and protocol.
    legend = html.split('class="legend"', 1)[1].split("</dl>", 1)[0]
    assert ">T<" in legend and "protocol" in legend and "three separate days" in legend


@pytest.mark.node
def test_entry_pages_the_index_and_case_sources_say_what_a_chapter_covers(site, bank):
    entries, _ = bank
    found = chapters()
    for e in entries:
        kicker = (site / e.url.strip("/") / "index.html").read_text().split('class="kicker"', 1)[1].split("</p>", 1)[0]
        assert str(escape(found[e.chapter].short)) in kicker, e.url
    index = (site / "index.html").read_text()
    for number in {e.chapter for e in entries if e.in_bank}:
        assert (
            f'<a href="/chapters/#ch-{number}">Chapter {number}</a> <span class="chapter-short">{escape(found[number].short)}'
            in index
        )
    softmax = (site / "toolkit" / "softmax" / "index.html").read_text()
    assert (
        f'<a href="/chapters/#ch-2">Chapter 2</a> <span class="chapter-short">({escape(found[2].short)})</span>'
        in softmax
    )


@pytest.mark.node
def test_synthesis_lists_each_prompts_entries_in_order_and_s4_by_its_four_budgets(site):
    from site_builder.load.load import load_synthesis

    prompts, _ = load_synthesis(ENTRIES, Problems())
    html = (site / "synthesis" / "index.html").read_text()
    for prompt in prompts:
        section = html.split(f'id="{prompt.id.lower()}"', 1)[1].split("</section>", 1)[0]
        lists = "".join(re.findall(r'<ol class="entries drawn-on">.*?</ol>', section, re.S))
        linked = re.findall(r'<a href="/(\d+)/">', lists)
        assert linked == [str(k) for k in prompt.entries], prompt.id
        # Every entry the prompt's text or correction names is a link.
        prose = re.sub(
            r"<[^>]+>", "", re.sub(r'<a href="/\d+/">entry \d+</a>', "", section.split('class="meta"', 1)[0])
        )
        assert not re.search(r"entry\s+\d+", prose), prompt.id
    s4 = next(p for p in prompts if p.id == "S4")
    assert [label for label, _ in s4.groups] == [
        "Training operations",
        "Serving operations",
        "Memory bytes and bandwidth",
        "Human preference information",
    ]
    section = html.split('id="s4"', 1)[1].split("</section>", 1)[0]
    assert re.findall(r'<h3 class="synthesis-group"[^>]*>\d\. ([^<]*)</h3>', section) == [
        label for label, _ in s4.groups
    ]


def test_a_prompt_with_both_entries_and_groups_is_refused(tmp_path):
    from site_builder.load.load import load_synthesis

    (tmp_path / "_synthesis.yaml").write_text(
        "intro: x\nprompts:\n  - id: S9\n    text: t\n    entries: [1]\n    groups: [{label: a, entries: [1]}]\n"
    )
    problems = Problems()
    assert load_synthesis(tmp_path, problems)[0] == ()
    assert "prompts[0]: keys are id, text, entries (or groups)" in problems.report()
