"""The plans section of BENCHMARKS.md: written between its markers, rewritten in place with the
rest of the file as it is, and kept by ``make bench`` when it rewrites the rest."""

from __future__ import annotations

from benchmarks import plans


def _found(p95: float) -> dict:
    times = lambda p: {"p50": p / 2, "p95": p, "max": p + 1, "n": 200}
    page = {
        "edited": "D",
        "input": times(p95),
        "change": times(p95 / 3),
        "solve": {**times(40.0), "n": 100, "question": ("memory_device", "<=", "b"), "values": ["2", "1"]},
        "html": 30_000,
        "css": 15_000,
        "js": 10_000,
        "loaded": 55_000,
        "whole": 130_000,
        "files": ["static/plan.js"],
    }
    return {"pages": {"/plans/train/": page}, "load": (3.1, 2.0, 1.0), "load_after": (2.5, 2.0, 1.0), "cores": 2}


def test_the_plans_section_is_written_in_place_and_kept(tmp_path):
    out = tmp_path / "BENCHMARKS.md"
    out.write_text("# Benchmarks\n\nThe rest.\n\n<!-- suite -->\n")
    plans.write(out, _found(130.0))
    out.write_text(out.read_text() + "After.\n")
    plans.write(out, _found(12.0))
    text = out.read_text()
    assert text.count(plans.BEGIN) == 1 and text.count("## Plans") == 1
    assert text.startswith("# Benchmarks\n\nThe rest.\n\n<!-- suite -->\n") and text.endswith(
        "<!-- /plans -->\nAfter.\n"
    )
    assert (
        "| Plan recompute p95 ≤ 16 ms once ready (input event to answers updated) | ✓ | /plans/train/ 12.0 ms |" in text
    )
    assert "| Plan solve p95 ≤ 50 ms once ready | ✓ | /plans/train/ 40.0 ms |" in text
    assert "loaded before the reader acts) | ✓ | /plans/train/ 55.0 KB |" in text
    assert "load average 3.1 (1 min)" in text and "more than the cores" in text and "`b` from 1 to 2" in text
    assert plans.kept(text).startswith(plans.BEGIN) and plans.kept("# no section\n") == ""
