"""docs/architecture.md stays true: every file it names exists, and every module of the build
and the runtime is named, with the noun it owns."""

from __future__ import annotations

import ast
import dataclasses
import json
import re

from site_builder.load.entry import Entry
from site_builder.load.load import STRUCTURED
from tests.support import ROOT

DOC = ROOT / "docs" / "architecture.md"
NAMED = re.compile(r"`((?:site_builder|pyodide_app|docs|tests|templates|entries)/[A-Za-z0-9_./-]*)`")


def test_every_file_the_architecture_names_exists():
    named = set(NAMED.findall(DOC.read_text()))
    assert len(named) > 30
    missing = sorted(path for path in named if not (ROOT / path).exists())
    assert not missing, f"docs/architecture.md names files that are gone: {missing}"


def test_every_module_is_in_the_architecture():
    named = set(NAMED.findall(DOC.read_text()))
    modules = sorted((ROOT / "site_builder").rglob("*.py"))
    unnamed = [
        str(p.relative_to(ROOT))
        for p in modules
        if p.name not in ("__init__.py", "__main__.py") and str(p.relative_to(ROOT)) not in named
    ]
    assert not unnamed, f"say in docs/architecture.md which noun these modules own: {unnamed}"


def test_a_plain_entry_key_needs_only_the_schema_the_entry_and_the_docs():
    """The architecture's promise for a new entry field: the loader passes every plain key of the
    schema to Entry, so each schema key is a field of Entry, and the docs' table lists it."""
    schema = json.loads((ROOT / "site_builder" / "load" / "entry.schema.json").read_text())
    fields = {f.name for f in dataclasses.fields(Entry)}
    assert set(schema["properties"]) <= fields
    assert STRUCTURED <= set(schema["properties"])
    table = (ROOT / "docs" / "entry-format.md").read_text().split("## Top-level keys", 1)[1].split("\n## ", 1)[0]
    assert {m for m in re.findall(r"^\| `([a-z_]+)` \|", table, re.M)} == set(schema["properties"])


# The pipeline's stages, lowest first. A module may import from its own stage and the ones
# before it, never from a later one: the runtime knows nothing of the build, loading nothing
# of checking, and the command line and the Python API sit on top of everything.
STAGES = (
    ("runtime", ("site_builder.runtime",)),
    ("ground", ("site_builder.errors", "site_builder.cache")),
    ("load", ("site_builder.load",)),
    ("check", ("site_builder.check",)),
    ("tex", ("site_builder.tex",)),
    ("bank", ("site_builder.bank",)),
    ("ship", ("site_builder.ship",)),
    ("pages", ("site_builder.pages",)),
    ("build", ("site_builder.build",)),
    ("serve", ("site_builder.serve",)),
    ("commands", ("site_builder.api", "site_builder.plan_cli", "site_builder.config_file")),
    ("cli", ("site_builder.cli", "site_builder.__main__", "site_builder")),
)


def _module(path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _stage(module: str) -> int:
    """The stage of a module: the longest prefix that names one."""
    best = None
    for i, (_, prefixes) in enumerate(STAGES):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and (best is None or len(prefix) > best[1]):
                best = (i, len(prefix))
    assert best is not None, f"{module}: say in STAGES (tests/test_architecture.py) which stage it belongs to"
    return best[0]


def _imports() -> dict[str, set[str]]:
    """Every module of site_builder/ and the modules of site_builder/ it imports (at the top or
    inside a function: a late import is still a dependency)."""
    paths = sorted((ROOT / "site_builder").rglob("*.py"))
    modules = {_module(p) for p in paths}
    graph = {}
    for path in paths:
        name = _module(path)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    source = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    source = node.module or ""
                if source.split(".")[0] != "site_builder":
                    continue
                for alias in node.names:  # `from . import markdown` imports the module markdown
                    found.add(f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules else source)
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names if a.name.split(".")[0] == "site_builder")
        graph[name] = found - {name}
    return graph


def _back(graph) -> list[str]:
    names = [stage for stage, _ in STAGES]
    return sorted(
        f"{module} ({names[_stage(module)]}) imports {dep} ({names[_stage(dep)]})"
        for module, deps in graph.items()
        for dep in deps
        if _stage(dep) > _stage(module)
    )


def _circles(graph) -> list[str]:
    circles, done = [], set()

    def visit(module, path):
        if module in path:
            circles.append(" -> ".join([*path[path.index(module) :], module]))
            return
        if module in done:
            return
        for dep in sorted(graph.get(module, ())):
            visit(dep, [*path, module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])
    return circles


def test_no_import_runs_back_up_a_stage():
    graph = _imports()
    assert len(graph) > 50
    back = _back(graph)
    assert not back, "imports that run back up the pipeline:\n" + "\n".join(back)


def test_no_import_circle():
    circles = _circles(_imports())
    assert not circles, "import circles:\n" + "\n".join(circles)


def test_the_stage_tests_see_a_back_import_and_a_circle():
    """The two tests above can fail: a runtime module importing the loader runs back up, and two
    modules importing each other (as the command line and the plan command once did) are a circle."""
    graph = _imports()
    assert _back({**graph, "site_builder.runtime.solve": {"site_builder.load.load"}}) == [
        "site_builder.runtime.solve (runtime) imports site_builder.load.load (load)"
    ]
    assert _circles({**graph, "site_builder.plan_cli": graph["site_builder.plan_cli"] | {"site_builder.cli"}}) == [
        "site_builder.cli -> site_builder.plan_cli -> site_builder.cli"
    ]
