"""A plan's dataflow, drawn at build time as an accessible SVG: its inputs, each step (an entry)
and its answers, every arrow labelled with the entry that prices what it carries.  The layout is
ELK's (elkjs from npm, run in Node by ``elk.mjs``, as KaTeX is by math.py); this module only
draws what ELK placed.  No request leaves the page: the SVG is inline.

Each step's box shows the first answer it prices, its value written by the build's run and, in the
browser, by each run after it (the page's ``data-mirror`` of that answer): the diagram follows the
reader's edits with the text the answers table shows."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from html import escape
from pathlib import Path

from ..cache import Cache, key

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).with_name("elk.mjs")
CHAR_PX, LINE_PX, PAD = 7.0, 16, 10  # the label box ELK makes room for: 12 px text
VALUE_CHARS = 16  # room kept for a step's value as the reader's edits change it ("70,552,387,584 …")


class LayoutMissing(RuntimeError):
    """Node or the elkjs npm package is not installed."""


def _box(lines: list[str]) -> dict:
    return {"width": max(len(t) for t in lines) * CHAR_PX + 2 * PAD, "height": len(lines) * LINE_PX + 2 * PAD}


def graph(plan, steps: list[dict], run: dict) -> dict:
    """The ELK graph of a plan: nodes ``inputs``, one per step, ``answers``; one edge per pair
    that passes values, labelled with the entry that prices them.  A step that prices an answer
    shows the first one, with its value in ``run`` (the plan's run at its defaults)."""
    nodes = [{"id": "inputs", "lines": ["Your inputs"]}]
    labels = {o.name: o.label for o in plan.outputs}
    for s in steps:
        node = {
            "id": f"step-{s['id']}",
            "lines": [f"Entry {s['entry']}", s["title"][:48]],
            "href": s["url"],
            "step": s["id"],
        }
        answer = next((o.name for o in plan.answers if o.step == s["id"]), None)
        if answer is not None:
            node["value"] = {
                "name": answer,
                "label": f"{labels.get(answer) or answer}: ",
                "text": run["outputs"][answer]["text"],
            }
            shown = node["value"]["label"] + node["value"]["text"].ljust(VALUE_CHARS)
            node["lines"].append(shown)
        nodes.append(node)
    nodes.append({"id": "answers", "lines": ["Answers"]})
    edges, seen = [], set()

    def edge(source: str, target: str, label: str) -> None:
        if (source, target) in seen:
            return
        seen.add((source, target))
        edges.append({"id": f"e{len(edges)}", "sources": [source], "targets": [target], "label": label})

    for s in steps:
        for source in s["bind"].values():
            if source[0] == "input":
                edge("inputs", f"step-{s['id']}", "inputs")
            elif source[0] == "step":
                other = next(t for t in steps if t["id"] == source[1])
                edge(f"step-{other['id']}", f"step-{s['id']}", f"entry {other['entry']}")
    for o in plan.answers:
        other = next(t for t in steps if t["id"] == o.step)
        edge(f"step-{other['id']}", "answers", f"entry {other['entry']}")
    return {
        "id": plan.id,
        "layoutOptions": {
            "elk.algorithm": "layered",
            "elk.direction": "DOWN",
            "elk.edgeRouting": "ORTHOGONAL",
            "elk.spacing.nodeNode": "24",
            "elk.layered.spacing.nodeNodeBetweenLayers": "40",
            "elk.edgeLabels.inline": "false",
        },
        "children": [{"id": n["id"], **_box(n["lines"]), "labels": [{"text": "\n".join(n["lines"])}]} for n in nodes],
        "edges": [
            {
                "id": e["id"],
                "sources": e["sources"],
                "targets": e["targets"],
                "labels": [{"text": e["label"], "width": len(e["label"]) * 6.2 + 4, "height": 14}],
            }
            for e in edges
        ],
        "_nodes": nodes,
    }


def elk_version() -> str:
    return json.loads((ROOT / "node_modules" / "elkjs" / "package.json").read_text())["version"]


def layout(graphs: list[dict]) -> list[dict]:
    """Each graph laid out by ELK, cached by the graph and ELK's version."""
    node = shutil.which("node")
    if node is None or not (ROOT / "node_modules" / "elkjs").is_dir():
        raise LayoutMissing("the dataflow diagrams need Node.js and the elkjs npm package: run npm ci")
    plain = [{k: v for k, v in g.items() if k != "_nodes"} for g in graphs]
    cache = Cache("elk")
    k = key(elk_version(), json.dumps(plain, sort_keys=True))
    if cache.get(k) is None:
        env = {**os.environ, "NODE_PATH": str(ROOT / "node_modules")}
        proc = subprocess.run(
            [node, str(SCRIPT)], input=json.dumps(plain), capture_output=True, text=True, cwd=ROOT, env=env, timeout=120
        )
        if proc.returncode != 0:
            raise LayoutMissing(f"elkjs failed: {proc.stderr.strip()[-500:]}")
        cache.put(k, proc.stdout)
        cache.save()
    return json.loads(cache.get(k))


def svg(laid: dict, source: dict, title: str) -> str:
    """The laid-out graph as inline SVG: a title and a description a screen reader reads, each
    step a link to its entry, each arrow with its label."""
    nodes = {n["id"]: n for n in source["_nodes"]}
    labels = {e["id"]: e["labels"][0]["text"] for e in source["edges"]}
    width, height = laid["width"] + 2, laid["height"] + 2
    named = lambda n: " ".join(n["lines"][:2])  # a value line is left out: the desc is not rewritten by edits
    flows = "; ".join(
        f"{named(nodes[e['sources'][0]])} to {named(nodes[e['targets'][0]])} ({labels[e['id']]})"
        for e in source["edges"]
    )
    tid = f"dataflow-{source['id']}"
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="-1 -1 {width:.0f} {height:.0f}" width="{width:.0f}" '
        f'height="{height:.0f}" aria-labelledby="{tid}-title {tid}-desc">',
        f'<title id="{tid}-title">{escape(title)}: how the answers flow from your inputs through the entries</title>',
        f'<desc id="{tid}-desc">{escape(flows)}.</desc>',
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="currentColor"/></marker></defs>',
    ]
    for e in laid.get("edges", []):
        for section in e.get("sections", []):
            points = [section["startPoint"], *section.get("bendPoints", []), section["endPoint"]]
            d = " ".join(f"{'M' if i == 0 else 'L'} {p['x']:.1f} {p['y']:.1f}" for i, p in enumerate(points))
            out.append(
                f'<g class="edge" data-label="{escape(labels[e["id"]])}"><path d="{d}" marker-end="url(#arrow)"/>'
            )
            for label in e.get("labels", []):
                out.append(f'<text x="{label["x"]:.1f}" y="{label["y"] + 11:.1f}">{escape(label["text"])}</text>')
            out.append("</g>")
    for child in laid.get("children", []):
        n = nodes[child["id"]]
        x, y, w, h = child["x"], child["y"], child["width"], child["height"]
        texts = "".join(
            f'<text x="{x + PAD:.1f}" y="{y + PAD + 12 + i * LINE_PX:.1f}">{_line(n, i)}</text>'
            for i in range(len(n["lines"]))
        )
        box = f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="4"/>{texts}'
        if n.get("href"):
            out.append(
                f'<a class="node" href="{escape(n["href"])}" data-step="{escape(n["step"])}" '
                f'data-node="{escape(child["id"])}">{box}</a>'
            )
        else:
            out.append(f'<g class="node" data-node="{escape(child["id"])}">{box}</g>')
    out.append("</svg>")
    return "".join(out)


def _line(node: dict, i: int) -> str:
    """A box's line ``i`` as SVG text: its value line a label and the answer's mirrored value."""
    value = node.get("value")
    if value is None or i != len(node["lines"]) - 1:
        return escape(node["lines"][i])
    return (
        f'<tspan class="value-label">{escape(value["label"])}</tspan>'
        f'<tspan class="value" data-mirror="{escape(value["name"])}">{escape(value["text"])}</tspan>'
    )


def diagrams(plans: dict) -> dict[str, str]:
    """plan id -> its dataflow SVG, every plan laid out in one Node run."""
    items = [(plan, graph(plan, calc.steps, calc.run({}))) for plan, calc in plans.values()]
    if not items:
        return {}
    laid = layout([g for _, g in items])
    return {plan.id: svg(out, g, plan.title) for (plan, g), out in zip(items, laid)}
