"""The suite's duration section of BENCHMARKS.md: written between its markers, rewritten in place,
and kept by ``make bench`` when it rewrites the rest of the file."""

from __future__ import annotations

import pytest

from benchmarks import suite


def test_the_suite_section_is_written_once_and_kept(tmp_path):
    out = tmp_path / "BENCHMARKS.md"
    out.write_text("# Benchmarks\n\nThe rest.\n")
    found = {"wall": 1199.6, "summary": "3102 passed in 1197.00s", "slowest": [("160.6", "call", "t.py::a")], "code": 0}
    found["load"] = 1.0
    suite.write(out, found)
    suite.write(out, {**found, "wall": 590.2})
    text = out.read_text()
    assert text.count(suite.BEGIN) == 1 and text.startswith("# Benchmarks\n\nThe rest.\n")
    assert (
        "**9 min 50 s**" in text and "| The suite in at most 10 minutes on a 2-core machine | ✓ | 9 min 50 s |" in text
    )
    assert "| 160.6 s | call | `t.py::a` |" in text
    assert suite.kept(text).startswith(suite.BEGIN) and suite.kept("# no section\n") == ""
    assert "Failed in this run" not in text
    suite.write(out, {**found, "code": 1, "failed": ["FAILED t.py::b - AssertionError"]})
    assert "- `FAILED t.py::b - AssertionError`" in out.read_text() and "| ✗ |" in out.read_text()


def test_the_suite_runs_what_ci_runs_and_refuses_a_line_it_cannot_read(tmp_path):
    assert "test" in suite.ci_commands() and "lint" not in suite.ci_commands()  # .ci/run as it is
    script = tmp_path / "run"
    script.write_text("#!/usr/bin/env bash\n# make lint first\nmake lint\nLINK_SEQUENCES=270 make test\n")
    assert suite.ci_commands(script) == {"test": {"LINK_SEQUENCES": "270"}}
    for line in ("time make test", "make -s test", "make test test-links", "LINK_SEQUENCES=270 make test && make x"):
        script.write_text(f"make lint\n{line}\n")
        with pytest.raises(ValueError, match=f"run:2: '{line}' is not of the form"):
            suite.ci_commands(script)
