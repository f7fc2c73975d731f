"""Our JavaScript and CSS as shipped (site_builder/ship/minify.py): minified by esbuild, every
module still a module with its imports and exports, a file it cannot read named with its line."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from site_builder.ship.minify import MinifyError, minified

pytestmark = pytest.mark.node  # esbuild runs in Node

APP = Path(__file__).resolve().parents[2] / "pyodide_app"
OURS = sorted(p for p in APP.iterdir() if p.suffix in (".js", ".css") and p.name != "sw.js")


@pytest.fixture(scope="module")
def shipped():
    return minified({p.name: p.read_text(encoding="utf-8") for p in OURS})


def test_every_shipped_module_parses_and_keeps_its_imports_and_exports(shipped, tmp_path):
    for path in OURS:
        if path.suffix != ".js":
            continue
        source, code = path.read_text(encoding="utf-8"), shipped[path.name].decode()
        module = tmp_path / (path.stem + ".mjs")
        module.write_text(code, encoding="utf-8")
        proc = subprocess.run(["node", "--check", str(module)], capture_output=True, text=True)
        assert proc.returncode == 0, (path.name, proc.stderr)
        imported = set(re.findall(r"""from\s*["'](\.[^"']+)["']""", source))
        assert imported == set(re.findall(r"""from\s*["'](\.[^"']+)["']""", code)), path.name
        for name in re.findall(r"export (?:async )?(?:function|const|let|class) (\w+)", source):
            assert re.search(rf"\b{name}\b", code), (path.name, name)  # an export keeps its name


def test_minified_is_smaller_and_strings_stay_as_written():
    source = 'export const link = "http://x/*y*/ // kept";   // a comment\nexport const pattern = /\\/\\//;\n'
    code = minified({"t.js": source})["t.js"].decode()
    assert '"http://x/*y*/ // kept"' in code and "/\\/\\//" in code and "a comment" not in code
    assert len(code) < len(source)


def test_a_file_esbuild_cannot_read_is_named_with_its_line():
    with pytest.raises(MinifyError, match=r"^pyodide_app/broken\.js:2:\d+: "):
        minified({"broken.js": "const a = 1;\nconst = ;\n"})


def test_css_is_minified_too(shipped):
    style = (APP / "style.css").read_text(encoding="utf-8")
    assert len(shipped["style.css"]) < len(style) and b"/*" not in shipped["style.css"]
