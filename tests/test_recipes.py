"""docs/architecture.md's change recipes touch exactly the files they name.

Each recipe is done for real in a copy of the repository: a new runtime module, an output format
(``eng``), an entry field (``section``), a link parameter (``focus``) and a model preset, each
editing only the files its numbered list names (read from the docs, so the docs cannot change
without this test).  The copy differs from the repository in exactly those files; the project's own
tests pass in it (and, marked ``node``, its check); and a copy that leaves named files out (one or
two of each recipe's) fails one of them per file, with a message that names what is missing: no
step that list names fails silently.  About 15 s on two cores (the checks and the copies' test runs
go in parallel); a first run builds the toy page's start-up snapshot once, as a build would.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from site_builder import cache
from site_builder.errors import Problems
from site_builder.load.presets import load_presets
from site_builder.load.versions import flow, preset_fingerprint
from site_builder.pages.model_table import table
from site_builder.runtime import page
from tests.support import ROOT

DOC = ROOT / "docs" / "architecture.md"
# What a copy holds: the sources, the entries (presets and plans inside), the templates, the browser's
# files, the tests and their fixtures, the docs.  Not .git, .venv, _site, .cache or node_modules
# (linked: KaTeX and the build's vendored packages).
COPIED = (
    "site_builder",
    "derivation_bank",
    "entries",
    "templates",
    "pyodide_app",
    "tests",
    "docs",
    "pyproject.toml",
    "netlify.toml",
    "package.json",
    "package-lock.json",
    "README.md",
)
SKIPPED = shutil.ignore_patterns("__pycache__", ".pytest_cache", ".hypothesis", "*.pyc")


def recipes() -> dict[str, list[str]]:
    """Each "## Adding ..." section of docs/architecture.md: the files of its numbered list, in order
    (an item starts with the file's backticked path)."""
    found = {}
    for section in re.split(r"^## ", DOC.read_text(), flags=re.M)[1:]:
        heading, _, body = section.partition("\n")
        if heading.startswith("Adding "):
            found[heading.strip()] = re.findall(r"^\d+\. `([^`]+)`", body, re.M)
    return found


# ----------------------------------------------------------------------------- the edits


def replace(root: Path, path: str, old: str, new: str) -> None:
    """``old`` (once in ``path``) becomes ``new``: an edit that fails loudly when the file moved on."""
    target = root / path
    text = target.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{path}: expected {old!r} once (the test's edit no longer fits the file)"
    target.write_text(text.replace(old, new), encoding="utf-8")


def after(root: Path, path: str, anchor: str, added: str) -> None:
    replace(root, path, anchor, anchor + added)


def new_module(root: Path) -> None:
    (root / "site_builder/runtime/ordinal.py").write_text(
        '"""Ordinals as a sentence writes them: 1st, 2nd, 3rd, 11th, 22nd."""\n\n'
        "from __future__ import annotations\n\n\n"
        "def ordinal(n: int) -> str:\n"
        '    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")\n'
        '    return f"{n}{suffix}"\n'
    )


def module_row(root: Path) -> None:
    after(
        root,
        "docs/architecture.md",
        "| `site_builder/runtime/citation.py` | citations of an entry and of one computation |\n",
        "| `site_builder/runtime/ordinal.py` | ordinals as a sentence writes them (`22nd`) |\n",
    )


def format_row_and_branch(root: Path) -> None:
    path = "site_builder/runtime/numbers.py"
    after(
        root,
        path,
        '    Format("sci", True, True, "always scientific", "significant", 0, 3, "scientific"),\n',
        '    Format("eng", True, True, "an exponent a multiple of 3: `12.3 × 10³`", "significant", 0, 3, "scientific"),\n',
    )
    after(
        root,
        path,
        '    if kind == "sci":\n        return _scientific(x, n)\n',
        '    if kind == "eng":\n'
        "        if x == 0:\n"
        '            return "0"\n'
        '        mantissa, exp = f"{x:.{max(n - 1, 0)}e}".split("e")\n'
        "        shift = int(exp) % 3\n"
        '        scaled = _strip_zeros(f"{float(mantissa) * 10**shift:.{max(n - 1 - shift, 0)}f}")\n'
        '        return f"{scaled}{NBSP}×{NBSP}10{_superscript(int(exp) - shift)}"\n',
    )


def format_schema(root: Path) -> None:
    path = "site_builder/load/entry.schema.json"
    replace(root, path, '"^((sig|fixed|percent|sci|si)(:', '"^((sig|fixed|percent|sci|eng|si)(:')
    after(root, path, "sci:N (always scientific), ", "eng:N (an exponent a multiple of 3: 12.3 × 10³), ")


def format_docs(root: Path) -> None:
    after(
        root,
        "docs/entry-format.md",
        "`sci:N` (always scientific), ",
        "`eng:N` (an exponent a multiple of 3: `12.3 × 10³`), ",
    )


def field_schema(root: Path) -> None:
    after(
        root,
        "site_builder/load/entry.schema.json",
        '      "description": "Chapter of the book that derives it."\n    },\n',
        '    "section": {\n'
        '      "type": "string",\n'
        '      "pattern": "^[0-9]+(\\\\.[0-9]+)*$",\n'
        '      "description": "The section of its chapter that derives it (4.2), printed beside the chapter."\n'
        "    },\n",
    )


def field_entry(root: Path) -> None:
    after(
        root,
        "site_builder/load/entry.py",
        "    aliases: tuple[str, ...] = ()  # other names readers search for it by\n",
        '    section: str = ""  # the section of its chapter that derives it\n',
    )


def field_docs(root: Path) -> None:
    after(
        root,
        "docs/entry-format.md",
        "| `chapter` | yes | integer 1-17 | Chapter of the book that derives it. |\n",
        "| `section` | no | text | The section of its chapter that derives it (`4.2`), printed beside the chapter. |\n",
    )


def field_template(root: Path) -> None:
    """The use the recipe says comes after it: a line of the entry's page."""
    after(
        root,
        "templates/entry.html",
        '<a href="/chapters/#ch-{{ entry.chapter }}">Chapter {{ entry.chapter }}</a>',
        '{% if entry.section %}, <span class="entry-section">§{{ entry.section }}</span>{% endif %}',
    )


def link_row(root: Path) -> None:
    after(
        root,
        "pyodide_app/link.js",
        '  { key: "compare", read: readCompare, write: (s) => (s.compare && s.compare.length ? '
        '[["compare", s.compare.map((c) => c.id).join(",")]] : []) },\n',
        '  { key: "focus", read: (params, link, spec) => { const f = params.filter(([k]) => k === "focus").map(([, v]) => v).pop();'
        " if (f === undefined) return; if (spec.inputs.some((i) => i.name === f)) link.focus = f;"
        " else link.notices.push(`Ignored the link's focus ${short(f)}: this entry has no such input.`); },"
        ' write: (s) => (s.focus ? [["focus", s.focus]] : []) },\n',
    )


def link_reserved(root: Path) -> None:
    replace(root, "site_builder/runtime/page.py", '"version", "compare")\n', '"version", "compare", "focus")\n')


def link_docs(root: Path) -> None:
    replace(root, "docs/entry-format.md", "`version` or `compare`, which", "`version`, `compare` or `focus`, which")


PRESET = "llama-3-70b-copy"  # Llama 3 70B's file under another id: every value keeps its source


def preset_file(root: Path) -> None:
    text = (root / "entries/presets/models/llama-3-70b.yaml").read_text()
    text = text.replace("\nid: llama-3-70b\n", f"\nid: {PRESET}\n").replace(
        "\nname: Llama 3 70B\n", "\nname: Llama 3 70B (a copy)\n"
    )
    assert f"id: {PRESET}" in text and "(a copy)" in text
    (root / f"entries/presets/models/{PRESET}.yaml").write_text(text)


def preset_version(root: Path) -> None:
    """Version 1 under presets:, in the newest release, with the fingerprint of the file as read."""
    problems = Problems()
    preset = load_presets(root / "entries", problems)["model"][PRESET]
    assert not problems, problems.report()
    releases = re.findall(r"^  - release: (\d+)\n    date: (\S+)$", (root / "entries/_versions.yaml").read_text(), re.M)
    release, date = releases[-1]
    after(
        root,
        "entries/_versions.yaml",
        "\npresets:\n",
        f"  model/{PRESET}:\n    - {{version: 1, date: {date}, release: {release}, changed: First numbered version.,"
        f" why: The bank numbers its versions., fingerprint: {flow(preset_fingerprint(preset))}}}\n",
    )


def preset_table(root: Path) -> None:
    """What ``python -m site_builder presets table --write`` writes (the copy's table code is the
    repository's; run here, it saves a start of Python per copy)."""
    problems = Problems()
    (root / "docs/models.md").write_text(table(load_presets(root / "entries", problems)["model"]))
    assert not problems, problems.report()


@dataclass
class Recipe:
    heading: str
    edits: dict  # each file the recipe names (its placeholders filled in) -> the edit of it, in the docs' order
    placeholders: dict = field(default_factory=dict)
    use: dict = field(default_factory=dict)  # what the recipe says to do next, in other files
    # Named files a copy leaves out -> the project's test that then fails, and what its message says.
    left_out: dict = field(default_factory=dict)
    check_needs: tuple[str, ...] = ()  # named files the check refuses the bank without (left out too)

    def named(self) -> list[str]:
        listed = recipes()[self.heading]
        for placeholder, value in self.placeholders.items():
            listed = [path.replace(placeholder, value) for path in listed]
        return listed

    def apply(self, root: Path, leave_out: tuple[str, ...] = ()) -> None:
        for path, edit in self.edits.items():
            if path not in leave_out:
                edit(root)


ARCHITECTURE, PAGE_SPEC = "tests/test_architecture.py", "tests/pages/test_page_spec.py"
RECIPES = [
    Recipe(
        "Adding a module",
        {"site_builder/runtime/ordinal.py": new_module, "docs/architecture.md": module_row},
        {"<stage>": "runtime", "<name>": "ordinal"},
        left_out={"docs/architecture.md": (f"{ARCHITECTURE}::test_every_module_is_in_the_architecture", "ordinal.py")},
    ),
    Recipe(
        "Adding an output format",
        {
            "site_builder/runtime/numbers.py": format_row_and_branch,
            "site_builder/load/entry.schema.json": format_schema,
            "docs/entry-format.md": format_docs,
        },
        left_out={
            "site_builder/load/entry.schema.json": (
                f"{PAGE_SPEC}::test_the_schema_admits_exactly_the_formats_of_the_table",
                "eng",
            ),
            "docs/entry-format.md": (f"{PAGE_SPEC}::test_the_docs_list_the_formats_of_the_table", "eng:N"),
        },
    ),
    Recipe(
        "Adding an entry field",
        {
            "site_builder/load/entry.schema.json": field_schema,
            "site_builder/load/entry.py": field_entry,
            "docs/entry-format.md": field_docs,
        },
        use={"templates/entry.html": field_template},
        left_out={
            "site_builder/load/entry.py": (
                f"{ARCHITECTURE}::test_a_plain_entry_key_needs_only_the_schema_the_entry_and_the_docs",
                "section",
            ),
            "docs/entry-format.md": (
                "tests/test_docs.py::test_docs_list_every_key_the_schema_accepts_and_no_other",
                "section",
            ),
        },
    ),
    Recipe(
        "Adding a link parameter",
        {
            "pyodide_app/link.js": link_row,
            "site_builder/runtime/page.py": link_reserved,
            "docs/entry-format.md": link_docs,
        },
        # (page.py's RESERVED is held to link.js's PARAMS by the same test as link.js to it.)
        left_out={
            "pyodide_app/link.js": (f"{PAGE_SPEC}::test_the_links_grammar_reserves_what_the_runtime_reserves", "focus"),
            "docs/entry-format.md": (f"{PAGE_SPEC}::test_the_docs_name_every_reserved_name", "['focus']"),
        },
    ),
    Recipe(
        "Adding a preset",
        {
            f"entries/presets/models/{PRESET}.yaml": preset_file,
            "entries/_versions.yaml": preset_version,
            "docs/models.md": preset_table,
        },
        {"<id>": PRESET},
        left_out={
            "docs/models.md": (
                "tests/pages/test_model_table.py::test_the_docs_table_is_the_one_the_presets_generate",
                "presets table --write",
            )
        },
        check_needs=("entries/_versions.yaml",),
    ),
]
BY_HEADING = {r.heading: r for r in RECIPES}
IDS = [r.heading.removeprefix("Adding ").removeprefix("a ").removeprefix("an ").replace(" ", "-") for r in RECIPES]
# (the test that fails, the file left out, what the failure says), for every recipe
LEFT_OUT = [(test, path, naming) for r in RECIPES for path, (test, naming) in r.left_out.items()]
LEFT_OUT_IDS = [(i, path) for r, i in zip(RECIPES, IDS) for path in r.left_out]

# The project's tests that hold the recipes' files to each other.
HOLDING = [
    "tests/test_docs.py",
    "tests/test_architecture.py",
    "tests/pages/test_page_spec.py",
    "tests/pages/test_model_table.py",
]
UNRELATED = "tests/pages/test_page_spec.py::test_a_plot_keeps_the_yaml_names_and_its_defaults"  # loads the whole bank


# ----------------------------------------------------------------------------- copies and runs


def copy_repository(target: Path) -> Path:
    target.mkdir(parents=True)
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=SKIPPED)
        elif source.exists():
            shutil.copy2(source, target / name)
    if (ROOT / "node_modules").exists():
        (target / "node_modules").symlink_to((ROOT / "node_modules").resolve())
    return target


def seeded_cache(target: Path) -> Path:
    """A cache of the copy's own, starting from the repository's derived files (linked, not copied:
    a cache replaces a file whole when it saves)."""
    target.mkdir(parents=True)
    if cache.FOLDER.is_dir():
        for path in cache.FOLDER.iterdir():
            if path.is_file() and path.suffix == ".json":
                try:
                    os.link(path, target / path.name)
                except OSError:
                    shutil.copy2(path, target / path.name)
    return target


def contents(root: Path) -> dict[str, bytes]:
    found = {}
    for name in COPIED:
        path = root / name
        if path.is_file():
            found[name] = path.read_bytes()
        elif path.is_dir():
            for f in path.rglob("*"):
                if f.is_file() and not {"__pycache__", ".pytest_cache", ".hypothesis"} & set(f.parts):
                    found[f.relative_to(root).as_posix()] = f.read_bytes()
    return found


def environment(root: Path, cache_folder: Path | None = None) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    env.pop("PYTEST_ADDOPTS", None)
    if cache_folder is not None:
        env["DERIVATION_BANK_CACHE"] = str(cache_folder)
    return env


def start(args: list[str], root: Path, cache_folder: Path | None = None) -> subprocess.Popen:
    return subprocess.Popen(
        args, cwd=root, env=environment(root, cache_folder), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def finish(process: subprocess.Popen) -> subprocess.CompletedProcess:
    out, err = process.communicate(timeout=600)
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def run(args: list[str], root: Path, cache_folder: Path | None = None) -> subprocess.CompletedProcess:
    return finish(start(args, root, cache_folder))


def pytest_in(root: Path, folder: Path, *selected: str, marks: str = "not node and not browser") -> subprocess.Popen:
    """The copy's own tests, ``selected``, run by pytest in the copy; the report goes to ``folder``."""
    folder.mkdir(parents=True)
    args = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-m", marks]
    return start([*args, f"--junitxml={folder / 'report.xml'}", *selected], root, seeded_cache(folder / "cache"))


def outcomes(folder: Path, finished: subprocess.CompletedProcess) -> dict[str, str]:
    """test id (file::name[param]) -> "" when it passed, else its failure's or error's text."""
    report = folder / "report.xml"
    assert report.exists(), f"pytest wrote no report:\n{finished.stdout}\n{finished.stderr}"
    found = {}
    for case in ElementTree.parse(report).getroot().iter("testcase"):
        test = case.get("classname", "").replace(".", "/") + ".py::" + case.get("name", "")
        bad = [c for c in case if c.tag in ("failure", "error")]
        if not [c for c in case if c.tag == "skipped"]:
            found[test] = "\n".join((c.get("message") or "") + "\n" + (c.text or "") for c in bad)
    return found


def check_in(root: Path, cache_folder: Path, *args: str) -> subprocess.Popen:
    return start([sys.executable, "-m", "site_builder", *args, "check"], root, cache_folder)


@pytest.fixture(scope="module")
def original() -> dict[str, bytes]:
    return contents(ROOT)


def differ(before: dict[str, bytes], after: dict[str, bytes]) -> set[str]:
    return {path for path in before.keys() | after.keys() if before.get(path) != after.get(path)}


@pytest.fixture(scope="module")
def together(tmp_path_factory, original) -> tuple[Path, dict[str, tuple[set[str], set[str]]]]:
    """One copy with every recipe done, one after the other, and what each changed: heading -> (the
    files the recipe changed, the files its use changed then).  The project's tests and its check
    run in it."""
    root = copy_repository(tmp_path_factory.mktemp("together") / "repo")
    before = contents(root)
    assert differ(original, before) == set(), "the copy is not the repository"
    touched = {}
    for recipe in RECIPES:
        recipe.apply(root)
        done = contents(root)
        for edit in recipe.use.values():
            edit(root)
        used = contents(root)
        touched[recipe.heading] = (differ(before, done), differ(done, used))
        before = used
    return root, touched


@pytest.fixture(scope="module")
def partial(tmp_path_factory) -> Path:
    """One copy with every recipe done but for one named file each; the preset's leaves out two, its
    table (which a test holds) and its version (which the check holds)."""
    root = copy_repository(tmp_path_factory.mktemp("partial") / "repo")
    for recipe in RECIPES:
        recipe.apply(root, leave_out=(*recipe.left_out, *recipe.check_needs))
    return root


@pytest.fixture(scope="module")
def tests_run(tmp_path_factory, together, partial) -> tuple[dict, dict]:
    """The project's tests that hold each recipe's files together, run in both copies at once:
    every one in the copy with the recipes done, the ones a left-out file breaks in the other."""
    folder = tmp_path_factory.mktemp("reports")
    done = pytest_in(together[0], folder / "done", *HOLDING, "--deselect", UNRELATED)
    broken = pytest_in(partial, folder / "partial", *sorted({test for test, _, _ in LEFT_OUT}))
    return outcomes(folder / "done", finish(done)), outcomes(folder / "partial", finish(broken))


# ----------------------------------------------------------------------------- the recipes' files


def test_the_architecture_has_exactly_the_five_recipes_each_with_its_files():
    found = recipes()
    assert list(found) == [r.heading for r in RECIPES], "docs/architecture.md's '## Adding ...' recipes changed"
    for heading, files in found.items():
        assert files, f"docs/architecture.md, {heading!r}: a numbered list, each item a backticked path"


@pytest.mark.parametrize("recipe", RECIPES, ids=IDS)
def test_the_instance_edits_the_files_the_recipe_names(recipe):
    assert recipe.named() == list(recipe.edits), (
        f"docs/architecture.md, {recipe.heading!r}, names {recipe.named()}; this test's instance of it "
        f"edits {list(recipe.edits)}: say the same files"
    )


@pytest.mark.parametrize("recipe", RECIPES, ids=IDS)
def test_a_recipe_touches_exactly_the_files_it_names(recipe, together):
    done, used = together[1][recipe.heading]
    assert done == set(recipe.named()), f"the recipe changed {sorted(done)}"
    assert used == set(recipe.use), f"its use changed {sorted(used)}"


@pytest.mark.slow  # the project's tests run in two copies: about 10 s
def test_the_projects_tests_pass_with_every_recipe_done(tests_run):
    done, _ = tests_run
    ran = {test.split("::")[0] for test in done}
    assert ran == set(HOLDING), f"pytest in the copy ran {sorted(ran)}"
    failed = {test: text for test, text in done.items() if text}
    assert not failed, "\n\n".join(f"{test}:\n{text}" for test, text in failed.items())


@pytest.mark.slow  # the same runs in the copies
@pytest.mark.parametrize("test, path, naming", LEFT_OUT, ids=[f"{i}-{path}" for i, path in LEFT_OUT_IDS])
def test_leaving_out_a_named_file_fails_a_test_that_says_what_is_missing(test, path, naming, tests_run):
    _, broken = tests_run
    assert test in broken, f"{test} did not run: {sorted(broken)}"
    assert broken[test], f"without its edit of {path}, {test} still passes"
    assert naming in broken[test], broken[test]


# ----------------------------------------------------------------------------- the check and the uses (Node)

TOY = (ROOT / "tests" / "bad_entries" / "unknown-output-format" / "01-toy.yaml").read_text()


def toy_bank(folder: Path, output_format: str, extra: str = "") -> Path:
    """A bank of one toy entry (unversioned, as the error fixtures are) whose output is written in
    ``output_format``; ``extra``: top-level keys after its chapter."""
    folder.mkdir(parents=True)
    text = TOY.replace("format: money", f"format: {output_format}").replace("chapter: 2\n", f"chapter: 2\n{extra}")
    text = text.replace("inputs: {N: 2, D: 3}", "inputs: {N: 2050, D: 1}").replace('printed: "36"', 'printed: "12,300"')
    (folder / "01-toy.yaml").write_text(text.replace("note: 6 x 2 x 3 = 36.", "note: 6 x 2050 x 1 = 12,300."))
    return folder


# The error fixtures the new format and the new link parameter could break: they write the formats
# as {formats} and the link's names as {reserved}, so they pass unchanged, and an input named after
# the new parameter is refused in the same words as the others.
FIXTURES = [
    "tests/pages/test_page_spec.py::test_an_input_named_like_a_page_parameter_is_rejected",
    "tests/test_errors.py::test_bad_entry_reports_exactly[input-name-reserved]",
    "tests/test_errors.py::test_bad_entry_reports_exactly[unknown-output-format]",
]


@pytest.fixture(scope="module")
def checked(tmp_path_factory, together, partial):
    """``python -m site_builder check`` over the bank in both copies and over a toy bank that writes
    an output in the new format, the toy computed, and the error fixtures' tests: all at once."""
    folder = tmp_path_factory.mktemp("checks")
    toy = toy_bank(folder / "toy", "eng:3")
    fixtures = pytest_in(together[0], folder / "fixtures", *FIXTURES, marks="not browser")
    running = {
        "done": check_in(together[0], seeded_cache(folder / "done")),
        "partial": check_in(partial, seeded_cache(folder / "partial")),
        "toy": check_in(together[0], seeded_cache(folder / "toy-cache"), "--entries", str(toy)),
        "compute": start(
            [sys.executable, "-m", "site_builder", "--entries", str(toy), "compute", "1", "N=2050", "D=1"],
            together[0],
            folder / "toy-cache",
        ),
    }
    finished = {name: finish(process) for name, process in running.items()}
    return finished, outcomes(folder / "fixtures", finish(fixtures))


@pytest.mark.node  # the check typesets the bank's TeX with KaTeX
def test_the_check_accepts_the_bank_with_every_recipe_done(checked):
    done = checked[0]["done"]
    assert done.returncode == 0 and done.stdout.startswith("0 errors"), done.stderr


@pytest.mark.node
def test_the_check_refuses_a_preset_without_its_version(checked):
    """The partial copy's preset has no version: the one error of its bank (the other files left out
    there are the tests' to notice)."""
    partial = checked[0]["partial"]
    assert partial.returncode == 1
    assert f"preset model/{PRESET} has no version; add it under presets with fingerprint {{values: " in partial.stderr
    assert partial.stderr.rstrip().endswith("1 error in entries; nothing was written."), partial.stderr


@pytest.mark.node
def test_a_new_format_checks_and_writes_an_entrys_output(checked):
    toy = checked[0]["toy"]
    assert toy.returncode == 0 and toy.stdout.startswith("0 errors: 1 entries"), toy.stderr
    computed = checked[0]["compute"]
    assert computed.returncode == 0, computed.stderr
    assert "Training cost  12.3 × 10³ FLOP" in computed.stdout.replace("\u00a0", " ")


@pytest.mark.node  # the build typesets the toy's TeX with KaTeX
def test_a_new_field_shows_on_the_entrys_page(tmp_path):
    """The field's recipe and its template line, built, in a copy of its own: its runtime is the
    repository's, so the repository's cache holds the start-up snapshot the build ships (or gets it
    once, as a build of the repository would)."""
    root = copy_repository(tmp_path / "repo")
    recipe = BY_HEADING["Adding an entry field"]
    recipe.apply(root)
    for edit in recipe.use.values():
        edit(root)
    toy = toy_bank(tmp_path / "toy", "sig:3", 'section: "2.1"\n')
    built = run(
        [sys.executable, "-m", "site_builder", "--entries", str(toy), "build", "--out", str(tmp_path / "site")],
        root,
        cache.FOLDER,
    )
    assert built.returncode == 0, built.stderr
    html = (tmp_path / "site" / "1" / "index.html").read_text()
    assert '<span class="entry-section">§2.1</span>' in html


LINK_SCRIPT = """
const { readLink, writeLink } = await import(process.argv[1]);
const spec = { inputs: [{ name: "N" }, { name: "D" }] };
const link = readLink("?N=3&focus=D", spec);
const wrong = readLink("?focus=Q", spec);
const state = { inputs: link.inputs, presets: {}, focus: link.focus };
console.log(JSON.stringify({ focus: link.focus ?? null, notices: link.notices, wrong: wrong.notices, query: writeLink(state) }));
"""


def read_and_write_a_link(root: Path) -> dict:
    done = subprocess.run(
        ["node", "--input-type=module", "-e", LINK_SCRIPT, (root / "pyodide_app" / "link.js").as_uri()],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


@pytest.mark.node  # link.js runs in Node
def test_a_new_link_parameter_is_read_and_written(together):
    root = together[0]
    assert read_and_write_a_link(root) == {
        "focus": "D",
        "notices": [],
        "wrong": ["Ignored the link's focus “Q”: this entry has no such input."],
        "query": "N=3&focus=D",
    }
    # Without its row the link ignores it, and says so.
    assert read_and_write_a_link(ROOT)["notices"] == [
        "Ignored the link's parameter “focus”: this entry has no such input."
    ]


@pytest.mark.node  # the fixtures' checks typeset their TeX with KaTeX
def test_the_error_fixtures_follow_a_new_format_and_a_new_link_parameter(checked):
    _, found = checked
    names = (*page.RESERVED, "focus")  # the repository's reserved names and the new one
    assert set(found) == {f"{FIXTURES[0]}[{name}]" for name in names} | set(FIXTURES[1:])
    failed = {test: text for test, text in found.items() if text}
    assert not failed, "\n\n".join(f"{test}:\n{text}" for test, text in failed.items())
