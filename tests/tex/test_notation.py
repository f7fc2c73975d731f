"""The notation index: every symbol of every entry, from its statement's and fields' TeX, with its
meaning, unit and entries; several meanings flagged; an entry's statement marked for the highlight."""

from __future__ import annotations

import html
import json
import re

import pytest

from site_builder.pages.search import index_documents
from site_builder.tex import markdown, notation
from tests.support import load_bank


def entries():
    return load_bank()[0]


def by_key(key):
    return next(e for e in entries() if e.key == key)


def test_symbols_are_read_as_a_reader_names_them():
    found = [
        (f.canonical, notation.name(f.canonical))
        for f in notation.symbols(r"2\,L\,H_{kv}\,d_{\text{head}}\,s\,B\,\beta")
    ]
    assert found == [
        ("L", "L"),
        ("H_{kv}", "H_kv"),
        (r"d_{\text{head}}", "d_head"),
        ("s", "s"),
        ("B", "B"),
        (r"\beta", "beta"),
    ]
    # A lettered superscript names; a power does not; words and operators are not symbols.
    assert [f.canonical for f in notation.symbols(r"(d_c + d^R_h)\,L^2 \text{ or } \min(s, w) \sqrt\kappa")] == [
        "d_{c}",
        "d_{h}^{R}",
        "L",
        "s",
        "w",
        r"\kappa",
    ]
    assert [f.canonical for f in notation.symbols(r"\bar\alpha_t = \prod_{s\le t}\alpha_s")][:1] == [
        r"\bar{\alpha}_{t}"
    ]


def test_every_symbol_of_every_entry_is_in_the_index():
    groups = notation.notation(entries())
    listed = {(u.entry.key, u.canonical) for g in groups for u in g.uses}
    for entry in entries():
        texts = [t for t, _ in markdown.fragments(entry.statement)] + [i.symbol for i in entry.inputs]
        texts += [o.symbol for o in entry.outputs]
        for tex in texts:
            for found in notation.symbols(tex):
                assert (entry.key, found.canonical) in listed, (entry.key, found.canonical)
        # A field that names one symbol gives it its meaning and unit there.
        for kind, item in [("input", i) for i in entry.inputs] + [("output", o) for o in entry.outputs]:
            if item.symbol.strip() and re.fullmatch(
                r"(\\[A-Za-z]+|[A-Za-z])(_\{[^{}]*\}|_[A-Za-z0-9])?", item.symbol.strip()
            ):
                (use,) = [
                    u for g in groups for u in g.uses if u.entry is entry and (u.kind, u.field) == (kind, item.name)
                ]
                assert use.meaning == item.label and use.unit == item.unit


def test_beta_is_grouped_and_flagged_with_its_meanings():
    beta = next(g for g in notation.notation(entries()) if g.base == r"\beta")
    assert beta.overloaded and beta.anchor == "sym-beta"
    meanings = {m.labels[0]: {u.entry.key for u in m.uses} for m in beta.meanings}
    bytes_ = next(k for k in meanings if "Bytes" in k or "bytes" in k)
    assert "35" in meanings[bytes_]
    noise = next(k for k in meanings if "noise variance" in k)
    assert meanings[noise] == {"48"} and bytes_ != noise
    assert {r"\beta", r"\beta_{1}", r"\beta_{T}"} <= set(beta.symbols)


def test_the_statement_marks_each_symbol_that_names_a_field():
    marked = notation.marked_statement(by_key("35"))
    for name, tex in [("L", "L"), ("H_kv", "H_{kv}"), ("d_head", r"d_{\text{head}}"), ("beta", r"\beta")]:
        assert f"{{\\htmlData{{sym={name}}}{{{tex}}}}}" in marked
    for entry in entries():  # marking never changes how many formulas a statement has
        assert len(markdown.fragments(notation.marked_statement(entry))) == len(markdown.fragments(entry.statement))


def test_search_finds_symbols_by_their_names():
    docs = {d["id"]: d for d in index_documents(entries())}
    assert "beta" in docs["notation:beta"]["symbols"].split() and docs["notation:beta"]["url"] == "/notation/#sym-beta"
    assert "h_kv" in docs["notation:H"]["symbols"].split()
    assert docs["notation:beta"]["covers"] == "several meanings"


@pytest.mark.node  # reads the built site
def test_the_built_notation_page_lists_every_symbol_and_links_its_entries(site):
    page = html.unescape((site / "notation" / "index.html").read_text())
    for group in notation.notation(entries()):
        assert f'id="{group.anchor}"' in page, group.base
        for use in group.uses:
            assert f'href="{use.entry.url}#' in page
        assert ("several meanings" in page.split(f'id="{group.anchor}"', 1)[1].split("</h2>", 1)[0]) == group.overloaded
    assert 'style="' not in page  # the site's CSP allows no inline style
    entry = (site / "35" / "index.html").read_text()
    assert 'data-sym="H_kv"' in entry and 'data-sym="beta"' in entry
    index = json.loads((site / "search-index.json").read_text())
    assert any(d["url"] == "/notation/#sym-beta" for d in index)


_GREEK_LETTERS = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "eta": "η", "theta": "θ",
    "kappa": "κ", "lambda": "λ", "mu": "μ", "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ", "phi": "φ",
    "psi": "ψ", "Psi": "Ψ", "Phi": "Φ", "Delta": "Δ", "ell": "ℓ",
}  # fmt: skip


def _plain_tex(tex: str) -> str:
    """A symbol's TeX as its letters read in a label: ``\\mathrm{KL}(p\\|q)`` -> ``KL(p‖q)``."""
    text = re.sub(r"\\(?:text|mathrm|operatorname|mathit|mathbf|textstyle)\b", "", tex)
    text = text.replace(r"\|", "‖").replace(r"\mid", "|").replace(r"\,", "").replace(r"\!", "")
    text = re.sub(r"\\([A-Za-z]+)", lambda m: _GREEK_LETTERS.get(m[1], m[0]), text)
    return re.sub(r"[{}\s]", "", text)


def test_no_label_repeats_its_symbol():
    """A field reads "Distribution $p$", not "Distribution p $p$": its label names it in words, and
    the symbol beside it (typeset) says the letter once.  An expression the symbol already writes
    (KL(p ‖ q), P(clean | correct)) is not written again in the label."""
    repeated = []
    for entry in entries():
        for item in (*entry.inputs, *entry.outputs):
            plain = _plain_tex(item.symbol or "")
            if not plain:
                continue
            label = item.label
            if len(plain) == 1:
                found = re.search(rf"(?<![\w'.\-*]){re.escape(plain)}(?![\w'.\-*])", label)
            else:
                found = plain in re.sub(r"\s", "", label)
            if found:
                repeated.append(f"{entry.key} {item.name}: {label!r} beside ${item.symbol}$")
    assert not repeated, "\n".join(repeated)
