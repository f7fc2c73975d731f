"""The change log: every release and what it changed, entry by entry and preset by preset, for
``/changes/`` and its Atom feed ``/changes.atom`` (RFC 4287), both made from entries/_versions.yaml."""

from __future__ import annotations

from dataclasses import dataclass

from ..load.entry import Entry
from ..load.versions import Release, Version, Versions

ATOM = "http://www.w3.org/2005/Atom"
FEED_PATH = "changes.atom"


@dataclass(frozen=True)
class Change:
    """One entry's or preset's version, as the change log lists it."""

    title: str  # "Entry 35: KV cache size", "Preset model/llama-3-70b"
    url: str  # the entry's page at that version's history line; empty for a preset
    version: Version


@dataclass(frozen=True)
class Logged:
    release: Release
    entries: tuple[Change, ...]
    presets: tuple[Change, ...]

    @property
    def anchor(self) -> str:
        return f"release-{self.release.number}"


def change_log(versions: Versions, entries: list[Entry]) -> list[Logged]:
    """Every release, newest first, with the versions it published."""
    by_key = {e.key: e for e in entries}
    logged = []
    for release in sorted(versions.releases, key=lambda r: -r.number):
        listed = [
            Change(f"{by_key[key].label}: {by_key[key].title}", f"{by_key[key].url}#version-{v.version}", v)
            for key, history in versions.entries.items()
            if key in by_key
            for v in history
            if v.release == release.number
        ]
        listed += [
            Change(f"Plan {key}", f"/plans/{key.removesuffix('-plan')}/", v)
            for key, history in sorted(versions.plans.items())
            for v in history
            if v.release == release.number
        ]
        presets = [
            Change(f"Preset {key}", "", v)  # a preset has no page of its own
            for key, history in sorted(versions.presets.items())
            for v in history
            if v.release == release.number
        ]
        logged.append(Logged(release, tuple(listed), tuple(presets)))
    return logged


def escape(text: str) -> str:
    """Text as XML character data: ``&``, ``<`` and ``>`` escaped (xml.sax.saxutils' rule, whose
    module imports urllib.request, and with it http.client, ssl and email, into every build)."""
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def quoteattr(text: str) -> str:
    """Text as a quoted XML attribute value, as xml.sax.saxutils.quoteattr writes it."""
    text = escape(text).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' not in text:
        return f'"{text}"'
    return f"'{text}'" if "'" not in text else '"{}"'.format(text.replace('"', "&quot;"))


def _stamp(date: str) -> str:
    """An RFC 3339 date-time for a day: its start, in UTC."""
    return f"{date}T00:00:00Z"


def atom_feed(logged: list[Logged], site_url: str) -> str:
    """The change log as an Atom 1.0 feed: one ``<entry>`` per release, its changes as its content."""
    base = site_url.rstrip("/")
    updated = _stamp(max((item.release.date for item in logged), default="1970-01-01"))
    lines = [
        '<?xml version="1.0" encoding="utf-8"?>',
        f'<feed xmlns="{ATOM}">',
        f"  <id>{escape(base)}/changes/</id>",
        "  <title>Derivation Bank: releases and changes</title>",
        "  <subtitle>Every release of the Derivation Bank and what it changed, entry by entry.</subtitle>",
        f"  <updated>{updated}</updated>",
        "  <author><name>Derivation Bank</name></author>",
        f'  <link rel="self" type="application/atom+xml" href={quoteattr(f"{base}/{FEED_PATH}")}/>',
        f'  <link rel="alternate" type="text/html" href={quoteattr(f"{base}/changes/")}/>',
    ]
    for item in logged:
        r = item.release
        changes = [
            f"{c.title}, version {c.version.version}: {c.version.changed} Why: {c.version.why}"
            for c in item.entries + item.presets
        ]
        lines += [
            "  <entry>",
            f"    <id>{escape(base)}/changes/#{item.anchor}</id>",
            f"    <title>Release {r.number} ({r.date})</title>",
            f"    <updated>{_stamp(r.date)}</updated>",
            f'    <link rel="alternate" type="text/html" href={quoteattr(f"{base}/changes/#{item.anchor}")}/>',
            f"    <summary>{escape(r.summary)}</summary>",
            f'    <content type="text">{escape(chr(10).join([r.summary, "", *changes]))}</content>',
            "  </entry>",
        ]
    lines.append("</feed>")
    return "\n".join(lines) + "\n"
