"""A plan's page (templates/plan.html): the defaults' run printed, each figure linked to its
entry with the inputs the plan gave it, the presets that fill it, its citation naming the
entries used, and the spec the browser computes from (pyodide_app/plan.js)."""

from __future__ import annotations

import json

from markupsafe import Markup

from ..load import fill as preset_fill
from ..runtime.numbers import write_input
from ..runtime.page import KIND_LABELS, RESERVED
from . import dataflow
from .spec import PRESET_FILE


def plan_citation(plan, entries: dict, site_url: str, date: str, used: list[str], version: int = 1) -> dict:
    """Plain-text and BibTeX citations of the plan's version, naming the entries it composes."""
    named = ", ".join(f"{entries[k].label} ({entries[k].title})" for k in used)
    url = site_url + plan.url
    text = f"Derivation Bank, {plan.title}, version {version}, composing {named}. {url} (accessed {date})."
    bibtex = (
        f"@misc{{derivation-bank-{plan.id}-v{version},\n"
        f"  title = {{Derivation Bank: {plan.title}}},\n"
        f"  version = {{{version}}},\n"
        f"  note = {{Composes {named}}},\n"
        f"  howpublished = {{\\url{{{url}}}}},\n"
        f"  urldate = {{{date}}}\n}}"
    )
    return {"text": text, "bibtex": bibtex, "url": url}


def plan_files(renderer, plans: dict, entries: list) -> dict[str, bytes]:
    """``{path: bytes}`` of every plan's page."""
    by_key = {e.key: e for e in entries}
    drawn = dataflow.diagrams(plans)
    files = {}
    for plan, calc in plans.values():
        run = calc.remembered({})
        used = calc.entries_used()
        version = renderer.versions.plan_current(plan.id)
        spec = dict(calc.spec)
        spec["presets"] = preset_fill.spec(plan, renderer.presets)
        for item in spec["presets"].get("model", []):  # where entry 16's block is not the model's count
            departs = preset_fill.plan_departures(plan, calc, renderer.presets["model"][item["id"]])
            if departs:
                item["departs"] = departs
        spec["labels"] = {i.name: i.label for i in plan.inputs} | {o.name: o.label for o in plan.outputs}
        spec["reserved"] = [r for r in RESERVED if r not in ("model", "hardware")] + ["model", "hardware"]
        spec["version"] = version
        spec["headline"] = list(plan.headline)  # what the card image shows
        spec["noun"] = "plan"  # how link.js's notices name the page
        spec["kinds"] = {kind: KIND_LABELS[kind] for kind in spec["presets"]}
        fill = spec["presets"]
        if fill:  # named by id; their values and sources are fetched when first used (as on an entry page)
            base = plan.url.strip("/")
            files[f"{base}/{PRESET_FILE}"] = json.dumps(fill, ensure_ascii=False, separators=(",", ":")).encode()
            spec["presets"] = {kind: [{"id": p["id"]} for p in items] for kind, items in fill.items()}
            spec["presets_src"] = f"/{base}/{PRESET_FILE}"
        steps = {s["id"]: s for s in calc.steps}
        html = renderer._page(
            "plan.html",
            plan=plan,
            spec=spec,
            run=run,
            steps=steps,
            step_items={s.id: s for s in plan.steps},
            used=[by_key[k] for k in used],
            citation=plan_citation(plan, by_key, renderer.site_url, renderer.date, used, version),
            version=version,
            canonical=renderer.site_url + plan.url,
            default_text={i.name: write_input(i.default) for i in plan.inputs},
            summary=Markup(renderer.md(plan.summary)),
            fill=fill,
            dataflow=Markup(drawn[plan.id]),
        )
        files[plan.url.strip("/") + "/index.html"] = html.encode()
    return files
