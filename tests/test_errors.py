"""Every kind of author mistake, with its exact message: errors are interface."""

from __future__ import annotations

from pathlib import Path

import pytest

from site_builder.cli import main
from site_builder.errors import shown

pytestmark = pytest.mark.node  # the check typesets TeX with KaTeX in Node

pytestmark = pytest.mark.node  # the check typesets TeX with KaTeX in Node

FIXTURES = sorted(p for p in (Path(__file__).parent / "bad_entries").iterdir() if p.is_dir())


@pytest.mark.parametrize("folder", FIXTURES, ids=[p.name for p in FIXTURES])
def test_bad_entry_reports_exactly(folder, capsys):
    code = main(["--entries", str(folder), "check"])
    captured = capsys.readouterr()
    expected = (folder / "expected.txt").read_text().replace("{here}", shown(folder))
    assert code == 1
    assert captured.err == expected
    assert "Traceback" not in captured.err


def test_there_is_a_fixture_per_kind_of_mistake():
    assert len(FIXTURES) >= 25


def test_a_failed_build_leaves_the_last_good_site(tmp_path, capsys):
    good = Path(__file__).parent / "bad_entries" / "case-not-reproduced"
    out = tmp_path / "site"
    out.mkdir()
    (out / "index.html").write_text("last good site")
    assert main(["--entries", str(good), "build", "--out", str(out)]) == 1
    assert (out / "index.html").read_text() == "last good site"
    assert [p.name for p in tmp_path.iterdir()] == ["site"]
