"""The reader's own records, in Chromium: marked on an entry's page and undone there, shown across
entries on the chapters page, exported to a file and imported back (merged or replacing), a bad
file refused whole with a message naming what is wrong, and a browser that keeps nothing saying so."""

from __future__ import annotations

import datetime
import json

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.node]  # the built site is typeset by KaTeX in Node

RECORDS = "() => Object.fromEntries(Object.keys(localStorage).filter((k) => k.startsWith('derivation-bank:') && !k.endsWith(':probe')).map((k) => [k, localStorage.getItem(k)]))"


def today(page) -> str:  # the browser's local day, as records.js writes it
    return page.evaluate(
        "(() => { const d = new Date(); return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`; })()"
    )


def open_record(page, server, path):
    page.goto(server.url + path)
    page.locator("#record").scroll_into_view_if_needed()  # its code loads as it comes near the screen
    page.wait_for_selector("#record[data-record]", state="attached")


def open_chapters(page, server):
    page.goto(server.url + "/chapters/")
    page.wait_for_selector("#records[data-records]", state="attached")


def import_file(page, name, content: bytes, mode="merge"):
    tries = int(page.get_attribute("#records", "data-tries") or 0)
    page.check(f"input[name=records-mode][value={mode}]")
    with page.expect_file_chooser() as chooser:
        page.click("#records-import")
    chooser.value.set_files({"name": name, "mimeType": "application/json", "buffer": content})
    page.wait_for_function(f"() => Number(document.getElementById('records').dataset.tries) === {tries + 1}")
    return page.text_content("#records-message")


def test_a_record_is_marked_undone_shown_by_chapter_exported_and_imported_back(page, server, tmp_path):
    open_record(page, server, "/3/")
    day = today(page)
    assert page.text_content("#practice-progress") == "Not practised yet."
    assert page.is_disabled("#record-reset") and page.is_hidden("#record-undo")
    page.click("#practice-done")
    assert page.text_content("#record-message") == f"Recorded: practised on {day}."
    assert page.text_content("#practice-progress") == f"Practised on 1 day, last on {day}."
    assert page.is_disabled("#practice-done")
    page.click("#protocol-record")
    assert page.text_content("#protocol-progress") == "Reproduced on 1 of 3 days."
    page.click("#record-undo")  # a mis-click: the protocol day goes, the practice day stays
    assert page.text_content("#record-message") == "Undone: the record is as it was."
    assert page.text_content("#protocol-progress") == "Reproduced on 0 of 3 days."
    assert page.text_content("#practice-progress") == f"Practised on 1 day, last on {day}."
    assert page.is_hidden("#record-undo") and page.is_enabled("#protocol-record")
    page.click("#record-reset")  # and a reset is undone too
    assert page.text_content("#practice-progress") == "Not practised yet."
    page.click("#record-undo")
    assert page.text_content("#practice-progress") == f"Practised on 1 day, last on {day}."
    page.click("#protocol-record")
    open_record(page, server, "/35/")
    page.click("#practice-done")

    open_chapters(page, server)
    assert page.text_content('li[data-entry="3"] .entry-record') == f"practised 1 day, last {day}; protocol 1 of 3"
    assert page.text_content('li[data-entry="35"] .entry-record') == f"practised 1 day, last {day}"
    assert page.locator(".entry-record").count() == 2
    assert page.text_content("#ch-11 .chapter-record").startswith("You have practised 1 of ")
    entries = page.locator(".chapter li[data-entry]").count()
    assert page.text_content("#records-summary") == (
        f"You have practised 2 of {entries} entries, and completed 0 of 3 protocol entries (three separate days)."
    )

    with page.expect_download() as download:
        page.click("#records-export")
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    exported = json.loads(saved.read_text())
    assert saved.name == f"derivation-bank-records-{exported['exported'][:10]}.json"
    assert exported["format"] == "derivation-bank-records" and exported["version"] == 1
    assert (
        abs(
            datetime.datetime.fromisoformat(exported["exported"].replace("Z", "+00:00")).timestamp()
            - datetime.datetime.now(datetime.UTC).timestamp()
        )
        < 600
    )
    assert exported["entries"] == {"3": {"practised": [day], "protocol": [day]}, "35": {"practised": [day]}}
    assert page.text_content("#records-message") == (
        f"Exported 2 entries: 2 days of practice and 1 protocol day to {saved.name}."
    )
    kept = page.evaluate(RECORDS)

    # In a browser with a record of its own: merged, the file's days join it; replacing, it goes.
    page.evaluate("localStorage.clear(); localStorage.setItem('derivation-bank:practice:5', '[\"2026-01-02\"]')")
    open_chapters(page, server)
    assert import_file(page, saved.name, saved.read_bytes()) == (
        f"Imported 2 entries: 2 days of practice and 1 protocol day from {saved.name}, merged with this browser's records."
    )
    assert page.evaluate(RECORDS) == {**kept, "derivation-bank:practice:5": '["2026-01-02"]'}
    assert page.text_content('li[data-entry="5"] .entry-record') == "practised 1 day, last 2026-01-02"
    page.click("#records-undo")
    assert page.text_content("#records-message") == "Undone: your records are as they were before the import."
    assert page.evaluate(RECORDS) == {"derivation-bank:practice:5": '["2026-01-02"]'}
    assert page.locator(".entry-record").count() == 1
    assert import_file(page, saved.name, saved.read_bytes(), mode="replace").endswith(
        ", replacing this browser's records."
    )
    assert page.evaluate(RECORDS) == kept
    assert page.locator('li[data-entry="5"] .entry-record').count() == 0
    open_record(page, server, "/3/")  # the entry's page reads what was imported
    assert page.text_content("#protocol-progress") == "Reproduced on 1 of 3 days."
    assert page.problems == []


def _file(**changes):
    data = {
        "format": "derivation-bank-records",
        "version": 1,
        "exported": "2026-01-31T12:00:00.000Z",
        "entries": {"3": {"practised": ["2026-01-30"]}},
    }
    data.update(changes)
    return json.dumps(data).encode()


BAD_FILES = [
    (b"<html>not json", "The file is not JSON, so it is not a records file exported by this site."),
    (b"[1, 2]", 'The file holds a list, not a records file (an object whose "format" is "derivation-bank-records").'),
    (
        _file(format="other-app"),
        'The file is not a Derivation Bank records file: its "format" is "other-app", not "derivation-bank-records".',
    ),
    (_file(version=2), 'The file\'s "version" is 2; this site reads version 1 records files.'),
    (_file(version="1"), 'The file\'s "version" is "1"; this site reads version 1 records files.'),
    (_file(extra=1), 'The file has a key a records file does not: "extra".'),
    (
        _file(exported="yesterday"),
        'The file\'s "exported" is "yesterday", not a date and time such as "2026-01-31T12:00:00.000Z".',
    ),
    (_file(entries=[]), "The file's \"entries\" is a list, not an object of entries' records."),
    (
        _file(entries={"3": {"practised": ["2026-01-30"]}, "999": {}, "__proto__": {}}),
        'The file has records for entries this bank does not have: "999" and "__proto__". Nothing was imported.',
    ),
    (
        _file(entries={"3": {"practised": ["2026-02-30"]}}),
        'entries["3"].practised has "2026-02-30", not a day written YYYY-MM-DD.',
    ),
    (_file(entries={"3": {"practised": ["2026-01-30", "2026-01-30"]}}), 'entries["3"].practised lists a day twice.'),
    (
        _file(entries={"3": {"practised": "2026-01-30"}}),
        'entries["3"].practised is the string "2026-01-30", not a list of days.',
    ),
    (
        _file(entries={"3": {"done": True}}),
        'entries["3"] has "done"; an entry\'s record has only "practised" and "protocol".',
    ),
    (
        _file(entries={"1": {"protocol": ["2026-01-30"]}}),
        'entries["1"] has "protocol" days, but entry 1 is not a protocol entry.',
    ),
    (
        _file(entries={"3": {"practised": ["2026-01-29"]}, "35": {"practised": ["<img src=x onerror=alert(1)>"]}}),
        'entries["35"].practised has "<img src=x onerror=alert(1)>", not a day written YYYY-MM-DD.',
    ),
    (b" " * 1_000_001 + _file(), "The file is 1.0 MB; a records file is at most 1 MB, so it was not read."),
]


def test_a_bad_file_is_refused_whole_with_a_message_naming_what_is_wrong(page, server):
    page.on("dialog", lambda d: (page.problems.append("dialog opened"), d.dismiss()))
    open_chapters(page, server)
    page.evaluate("localStorage.setItem('derivation-bank:protocol:17', '[\"2026-01-01\"]')")
    before = page.evaluate(RECORDS)
    for content, message in BAD_FILES:
        for mode in ("merge", "replace"):
            assert import_file(page, "bad.json", content, mode) == f"Not imported: {message}"
            assert page.get_attribute("#records", "data-imported") == "refused"
            assert page.evaluate(RECORDS) == before, message  # nothing half-written
            assert page.is_hidden("#records-undo")
    assert page.locator("#records-message *").count() == 0  # said as text, never markup
    assert page.problems == []


@pytest.mark.parametrize("path", ["/3/", "/chapters/"])
def test_a_browser_that_keeps_nothing_says_so_beside_the_controls(browser, server, path):
    context = browser.new_context()
    # As in a sandboxed frame or with site data blocked: reading localStorage throws.
    context.add_init_script(
        "Object.defineProperty(window, 'localStorage', { configurable: true,"
        " get() { throw new DOMException('The operation is insecure.', 'SecurityError'); } });"
    )
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + path)
    said = "This browser is not letting the site keep anything (its storage is off or blocked here), so a record marked now would be lost: nothing can be recorded, exported or imported."
    if path == "/3/":
        page.locator("#record").scroll_into_view_if_needed()
        page.wait_for_selector("#record[data-record=unavailable]")
        assert page.text_content("#record-storage") == said and page.is_visible("#record-storage")
        for button in ("#practice-done", "#protocol-record", "#record-reset"):
            assert page.is_disabled(button), button
    else:
        page.wait_for_selector("#records[data-records=unavailable]")
        assert page.text_content("#records-storage") == said and page.is_visible("#records-storage")
        assert page.is_hidden("#records-actions")
    assert errors == []
    context.close()


def test_the_records_pass_axe_and_fit_a_phone_with_records_shown(browser, server):
    from tests.support import ROOT

    # axe is injected as a script, which the production policy rightly refuses: this context alone bypasses it.
    context = browser.new_context(bypass_csp=True, service_workers="block", viewport={"width": 390, "height": 844})
    page = context.new_page()
    open_record(page, server, "/3/")
    page.click("#practice-done")
    page.click("#protocol-record")  # Undo and the message are shown
    for path in ("/3/", "/chapters/"):
        if path == "/chapters/":
            open_chapters(page, server)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, path
        page.add_script_tag(path=str(ROOT / "node_modules" / "axe-core" / "axe.min.js"))
        result = page.evaluate("() => axe.run('#record, #records, .chapter', { resultTypes: ['violations'] })")
        bad = [
            f"{v['id']}: {[n['target'] for n in v['nodes']][:3]}"
            for v in result["violations"]
            if v["impact"] in ("serious", "critical")
        ]
        assert bad == [], path
    context.close()
