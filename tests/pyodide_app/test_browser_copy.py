"""Copy buttons beside the citations: the clipboard gets the text shown and a live region says
so; where there is no clipboard, the text is selected for the reader to copy, and said so."""

from __future__ import annotations

import pytest

from tests.browsing import open_entry

pytestmark = [pytest.mark.browser, pytest.mark.node]  # the built site is typeset by KaTeX in Node


def clipboard_context(browser, server):
    context = browser.new_context()
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    return context


def test_each_citation_of_an_entry_is_copied_as_shown(browser, server):
    context = clipboard_context(browser, server)
    page = context.new_page()
    open_entry(page, server, "/35/?L=40")
    page.click("#cite summary")
    for source, name in [
        ("cite-entry-text", "Copy citation"),
        ("cite-entry-bibtex", "Copy BibTeX"),
        ("cite-run-text", "Copy citation"),
        ("cite-run-bibtex", "Copy BibTeX"),
    ]:
        button = page.locator(f"button[data-copy='{source}']")
        assert button.is_visible() and button.text_content() == name
        button.click()
        page.wait_for_function("() => document.getElementById('cite-feedback').textContent.startsWith('Copied')")
        assert page.evaluate("navigator.clipboard.readText()") == page.text_content(f"#{source}")
        page.evaluate("document.getElementById('cite-feedback').textContent = ''")
    assert "L=40" in page.evaluate("navigator.clipboard.readText()")  # the computation's, with its inputs
    assert page.get_attribute("#cite-feedback", "role") == "status"
    context.close()


def test_without_a_clipboard_the_citation_is_selected_instead(browser, server):
    context = browser.new_context()
    context.add_init_script("Object.defineProperty(navigator, 'clipboard', { value: undefined })")
    page = context.new_page()
    page.goto(server.url + "/35/")
    page.click("#cite summary")
    page.click("button[data-copy='cite-entry-bibtex']")
    page.wait_for_function("() => document.getElementById('cite-feedback').dataset.state === 'selected'")
    assert "press Ctrl+C" in page.text_content("#cite-feedback")
    assert page.evaluate("getSelection().toString()") == page.text_content("#cite-entry-bibtex")
    context.close()


def test_a_plans_citation_and_bibtex_are_copied(browser, server):
    context = clipboard_context(browser, server)
    page = context.new_page()
    page.goto(server.url + "/plans/serve/")
    for source in ["plan-citation", "plan-bibtex"]:
        page.click(f"button[data-copy='{source}']")
        page.wait_for_function(
            "() => document.getElementById('plan-cite-feedback').dataset.state === 'copied'"
            " && document.getElementById('plan-cite-feedback').textContent.startsWith('Copied')"
        )
        assert page.evaluate("navigator.clipboard.readText()") == page.text_content(f"#{source}")
        page.evaluate("delete document.getElementById('plan-cite-feedback').dataset.state")
    context.close()
