"""Our JavaScript and CSS as shipped (site_builder/ship/shrink.py): comments and indentation go,
every token stays as written."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from site_builder.ship.shrink import css, javascript

APP = Path(__file__).resolve().parents[2] / "pyodide_app"


def test_comments_and_indentation_go_tokens_stay():
    source = """// the module
const a = "http://x/*y*/";   // a link
  /* a note */ let b = 'it\\'s // here';
function f(x) {
    return /\\/\\/[/]*$/.test(x) ? x / 2 : `${x}`;  /* inline */
}
"""
    assert javascript(source) == (
        """const a = "http://x/*y*/";\nlet b = 'it\\'s // here';\nfunction f(x) {\n"""
        """return /\\/\\/[/]*$/.test(x) ? x / 2 : `${x}`;\n}\n"""
    )


def test_template_literals_keep_their_text():
    source = "const t = `line\n    // kept\n\n  ${a ? `inner ${b}` : { c: 1 }.c}  // kept too\n`;  // gone\n"
    assert javascript(source) == "const t = `line\n    // kept\n\n  ${a ? `inner ${b}` : { c: 1 }.c}  // kept too\n`;\n"


def test_css_keeps_its_strings():
    source = '/* theme */\n.a::before {\n  content: "/* not a comment */";  /* gone */\n}\n\n'
    assert css(source) == '.a::before {\ncontent: "/* not a comment */";\n}\n'


def squeezed(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@pytest.mark.parametrize("path", sorted(APP.glob("*.js")), ids=lambda p: p.name)
def test_every_line_of_code_is_shipped_as_written(path):
    """Line by line, the shipped file is the source's code: each line as written (indentation and
    a trailing comment aside), in order; only blank and comment lines are gone."""
    source, shipped = path.read_text(encoding="utf-8"), javascript(path.read_text(encoding="utf-8"))
    kept = iter(shipped.splitlines())
    line_of = next(kept, None)
    for line in source.splitlines():
        code = re.sub(r"/\*.*?\*/", " ", line).strip()
        if line_of is not None and (line_of in (line, line.strip()) or squeezed(line_of) == squeezed(code)):
            line_of = next(kept, None)
        elif line_of is not None and code.startswith(line_of) and re.match(r"\s*//", code[len(line_of) :]):
            line_of = next(kept, None)
        else:
            assert not code or code.startswith(("//", "/*", "*")), (path.name, line, line_of)
    assert line_of is None, (path.name, line_of)


@pytest.mark.node
def test_every_shipped_module_parses(tmp_path):
    for path in sorted(APP.glob("*.js")):
        shipped = tmp_path / (path.stem + ".mjs")
        shipped.write_text(javascript(path.read_text(encoding="utf-8")), encoding="utf-8")
        proc = subprocess.run(["node", "--check", str(shipped)], capture_output=True, text=True)
        assert proc.returncode == 0, (path.name, proc.stderr)
