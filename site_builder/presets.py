"""entries/presets/{models,hardware}/*.yaml -> Preset objects, every node's line kept.

A preset is a published model or accelerator: each number with its source, in base units.
Values that follow from others (a head's dimension from the width and the head count) are
derived here and never typed; one typed equal to its derivation is an error, so that no
number is written twice.  Problems are collected in one pass, like the entries'.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

from .entry import Entry, Fill, Where
from .errors import Problems
from .load import _Tree, compose, read_schema, schema_errors
from .runtime import page
from .runtime.numbers import NumberError, read_exact, write_input

SCHEMA_PATH = Path(__file__).with_name("preset.schema.json")
KINDS = {"model": "models", "hardware": "hardware"}
FOLDER = "presets"

# Plausible ranges in base units: a number outside was most likely typed in the wrong unit.
RANGES = {
    "layers": (1, 1000),
    "d_model": (16, 1e6),
    "heads": (1, 1e4),
    "kv_heads": (1, 1e4),
    "head_dim": (1, 1e5),
    "ffn_dim": (1, 1e7),
    "vocab": (2, 1e7),
    "context": (1, 1e9),
    "window": (1, 1e9),
    "local_layers": (0, 1000),
    "kv_latent": (1, 1e6),
    "rope_dim": (1, 1e5),
    "q_latent": (1, 1e6),
    "experts": (1, 1e5),
    "experts_active": (1, 1e5),
    "shared_experts": (0, 1e4),
    "expert_ffn_dim": (1, 1e7),
    "moe_layers": (0, 1000),
    "encoder_layers": (1, 1000),
    "decoder_layers": (1, 1000),
    "params": (1e5, 1e14),
    "params_active": (1e5, 1e14),
    "tokens": (1e6, 1e16),
    "train_flops": (1e15, 1e28),
    "bytes_per_param": (0.1, 8),
    **{f"flops_{p}": (1e11, 1e17) for p in ("fp64", "tf32", "fp16", "bf16", "fp8", "int8", "fp4")},
    "memory": (1e9, 1e13),
    "memory_bandwidth": (1e10, 1e14),
    "interconnect_bandwidth": (1e9, 1e13),
    "network_bandwidth": (1e8, 1e13),
    "tdp": (10, 5000),
}
REAL = {"train_flops", "bytes_per_param", "tdp"} | {
    k for k in RANGES if k.startswith(("flops_", "memory", "interconnect", "network"))
}


def schema() -> dict:
    return read_schema(SCHEMA_PATH)[1]


@lru_cache(maxsize=1)
def fields() -> dict[str, dict[str, str]]:
    """kind -> field -> its description (with its unit), from the schema: the vocabulary of ``fill:``."""
    return {
        kind: {name: node["description"] for name, node in schema()["$defs"][f"{kind}_values"]["properties"].items()}
        for kind in KINDS
    }


def unit(name: str) -> str:
    """A field's unit, as the schema's description ends: 'Unit: bytes/s.'"""
    for described in fields().values():
        text = described.get(name, "")
        if "Unit: " in text:
            return text.rsplit("Unit: ", 1)[1].rstrip(".")
    return ""


@dataclass(frozen=True)
class Source:
    key: str
    title: str
    url: str
    where: str

    def cite(self) -> dict:
        return {"title": self.title, "url": self.url, "where": self.where}


@dataclass(frozen=True)
class Value:
    """One number (or kind) of a preset; a derived one names its formula and cites its inputs' sources."""

    value: object
    source: str = ""
    note: str = ""
    derived: str = ""
    at: Where | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Preset:
    id: str
    name: str
    kind: str
    family: str
    sources: dict
    values: dict
    note: str = ""
    where: Where | None = field(default=None, compare=False)

    def has(self, name: str) -> bool:
        return name in self.values

    def get(self, name: str):
        return self.values[name].value

    def sources_of(self, name: str) -> list[Source]:
        """The sources a value rests on: its own, or for a derived value those of what it is derived from."""
        value = self.values[name]
        return [self.sources[value.source]] if value.source else []


# ---- derived values -------------------------------------------------------------------------


def _derive(raw: dict, tree: _Tree, path: Path, problems: Problems) -> dict[str, Value]:
    """Typed values plus derived ones; problems for typed-derivable values and broken sanity."""
    values: dict[str, Value] = {}
    for name, item in raw["values"].items():
        at = Where(path, tree.line(("values", name)))
        v = item["value"]
        if name in RANGES:
            try:
                exact = read_exact(v) if isinstance(v, str) else Fraction(v)
            except (NumberError, ValueError) as exc:
                problems.add(path, at.line, f"values.{name}: {exc}")
                continue
            if name not in REAL and exact.denominator != 1:
                problems.add(path, at.line, f"values.{name}: {v!r} is not a whole number")
                continue
            v = int(exact) if exact.denominator == 1 and name not in REAL else float(exact)
            if name in REAL and float(v).is_integer() and abs(v) < 2**53:
                v = int(v)
            low, high = RANGES[name]
            if not low <= v <= high:
                problems.add(
                    path,
                    at.line,
                    f"values.{name}: {_plain(v)} {unit(name)} is implausible (expected "
                    f"{_plain(low)} to {_plain(high)} {unit(name)}); values are in base units"
                    + (", e.g. 3.35e12 for 3.35 TB/s" if unit(name) == "bytes/s" else ""),
                )
                continue
        values[name] = Value(v, item["source"], item.get("note", ""), at=at)
    if raw["kind"] == "model":
        _derive_model(values, Where(path, tree.line(("values",))), path, problems)
    return values


def _plain(x) -> str:
    """3350 -> '3350', 1e10 -> '1e10': a number as typed in a preset file."""
    return f"{x:g}".replace("e+", "e")


def _typed_twice(problems, path, values, name, derived, how) -> None:
    problems.add(
        path,
        values[name].at.line,
        f"values.{name}: {write_input(values[name].value)} equals {how} ({write_input(derived)}); "
        f"leave it out: the loader derives it",
    )


def _derived(value, how: str, *origins: str, values: dict, at: Where) -> Value:
    source = next((values[o].source for o in origins if o in values), "")
    return Value(value, source, derived=how, at=at)


def _derive_model(values: dict, at: Where, path: Path, problems: Problems) -> None:
    get = lambda n: values[n].value if n in values else None  # noqa: E731
    heads, d_model, kv = get("heads"), get("d_model"), get("kv_heads")
    attention = get("attention")
    if attention is None and heads is not None:
        attention = "mha" if kv is None or kv == heads else ("mqa" if kv == 1 else "gqa")
        values["attention"] = _derived(attention, "from kv_heads", "kv_heads", "heads", values=values, at=at)
    # Key-value heads: all of them for MHA, one for MQA, typed for GQA and MLA.
    if heads is not None and attention in ("mha", "mqa"):
        expected = heads if attention == "mha" else 1
        how = "heads for MHA" if attention == "mha" else "1 for MQA"
        if kv is None:
            values["kv_heads"] = _derived(expected, how, "heads", values=values, at=at)
        elif kv == expected and (attention == "mha" or not values["attention"].derived):
            _typed_twice(problems, path, values, "kv_heads", expected, how)
        elif kv != expected:
            problems.add(
                path,
                values["kv_heads"].at.line,
                f"values.kv_heads: {kv} contradicts attention {attention}, which has kv_heads = {how}",
            )
    elif attention == "gqa" and kv is None:
        problems.add(path, at.line, "values: grouped-query attention (gqa) needs kv_heads")
    kv = get("kv_heads")
    if kv is not None and heads is not None and heads % kv:
        problems.add(path, values["kv_heads"].at.line, f"values.kv_heads: {kv} does not divide heads {heads}")
    # A head's dimension: the width over the heads, unless the architecture says otherwise (MLA has no rule).
    head_dim = get("head_dim")
    if heads and d_model and attention != "mla":
        if head_dim is None:
            if d_model % heads:
                problems.add(
                    path,
                    values["d_model"].at.line,
                    f"values.d_model: {d_model} is not a multiple of heads {heads}; give head_dim",
                )
            else:
                values["head_dim"] = _derived(d_model // heads, "d_model / heads", "d_model", values=values, at=at)
        elif head_dim * heads == d_model:
            _typed_twice(problems, path, values, "head_dim", head_dim, "d_model / heads")
    # Experts: every one active unless said otherwise.
    experts, active = get("experts"), get("experts_active")
    if experts is not None and active is None:
        values["experts_active"] = _derived(experts, "experts", "experts", values=values, at=at)
    elif active is not None and experts is None:
        problems.add(path, values["experts_active"].at.line, "values.experts_active: given without experts")
    elif active is not None and active == experts:
        _typed_twice(problems, path, values, "experts_active", experts, "experts")
    elif active is not None and active > experts:
        problems.add(
            path, values["experts_active"].at.line, f"values.experts_active: {active} exceeds experts {experts}"
        )
    for part, whole in (("params_active", "params"), ("local_layers", "layers"), ("moe_layers", "layers")):
        if part in values and whole in values and get(part) > get(whole):
            problems.add(
                path,
                values[part].at.line,
                f"values.{part}: {write_input(get(part))} exceeds {whole} {write_input(get(whole))}",
            )
    if "local_layers" in values and "window" not in values:
        problems.add(path, values["local_layers"].at.line, "values.local_layers: given without window")
    for name in ("kv_latent", "rope_dim", "q_latent"):
        if name in values and attention != "mla":
            problems.add(
                path, values[name].at.line, f"values.{name}: only multi-head latent attention (mla) has {name}"
            )


# ---- files ----------------------------------------------------------------------------------


def load_preset(path: Path, problems: Problems) -> Preset | None:
    found = compose(path, problems, "a preset needs the keys listed in docs/presets.md")
    if found is None:
        return None
    text, node = found
    tree = _Tree(path, problems)
    before = len(problems)
    raw = tree.build(node)
    if not isinstance(raw, dict):
        problems.add(path, 1, "a preset is a mapping of keys; see docs/presets.md")
        return None
    for at, message in schema_errors(raw, text, SCHEMA_PATH, "preset"):
        problems.add(path, tree.line(at), message)
    if len(problems) > before:
        return None
    folder = path.parent.name
    if folder != KINDS[raw["kind"]]:
        problems.add(
            path,
            tree.line(("kind",)),
            f"kind: a {raw['kind']} preset lives in presets/{KINDS[raw['kind']]}/, not {folder}/",
        )
    if raw["id"] != path.stem:
        problems.add(path, tree.line(("id",)), f"id: {raw['id']!r} must live in {raw['id']}.yaml, not {path.name}")
    cited = set()
    for name, item in raw["values"].items():
        cited.add(item["source"])
        if item["source"] not in raw["sources"]:
            problems.add(
                path,
                tree.line(("values", name, "source")),
                f"values.{name}.source: no source {item['source']!r}; sources: {', '.join(raw['sources'])}",
            )
    for source in raw["sources"]:
        if source not in cited:
            problems.add(path, tree.line(("sources", source)), f"sources.{source}: cited by no value")
    values = _derive(raw, tree, path, problems)
    if len(problems) > before:
        return None
    sources = {k: Source(k, s["title"], s["url"], s["where"]) for k, s in raw["sources"].items()}
    return Preset(
        id=raw["id"],
        name=raw["name"],
        kind=raw["kind"],
        family=raw["family"],
        sources=sources,
        values=values,
        note=raw.get("note", ""),
        where=Where(path, 1),
    )


def preset_files(entries_dir: Path) -> list[Path]:
    root = Path(entries_dir) / FOLDER
    return sorted(p for folder in KINDS.values() for p in (root / folder).glob("*.yaml"))


def load_presets(entries_dir: Path, problems: Problems) -> dict[str, dict[str, Preset]]:
    """kind -> id -> preset, for every preset file under entries/presets/ (none is fine)."""
    found: dict[str, dict[str, Preset]] = {kind: {} for kind in KINDS}
    seen: dict[str, Path] = {}
    root = Path(entries_dir) / FOLDER
    if root.is_dir():
        for stray in sorted(root.iterdir()):
            if stray.is_dir() and stray.name not in KINDS.values():
                problems.add(
                    stray,
                    1,
                    f"presets/{stray.name}/: not a preset folder; presets live in presets/models/ and presets/hardware/",
                )
    for path in preset_files(entries_dir):
        preset = load_preset(path, problems)
        if preset is None:
            continue
        if preset.id in seen:
            problems.add(path, 2, f"id: {preset.id!r} is also the id of {seen[preset.id].as_posix()}")
            continue
        seen[preset.id] = path
        found[preset.kind][preset.id] = preset
    return found


# ---- filling an entry's inputs ----------------------------------------------------------------


def offers(entry: Entry, preset: Preset) -> bool:
    """A preset is offered on an entry when it has every field the entry's mapping for its kind requires."""
    items = [f for f in entry.fill if f.kind == preset.kind]
    return bool(items) and all(preset.has(f.field) for f in items if not f.optional)


def fill_value(item: Fill, preset: Preset) -> str:
    """The input's value as a reader would type it, converted by the mapping's factor when it has one."""
    value = preset.get(item.field)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if item.factor:
        exact = Fraction(value) if isinstance(value, int) else Fraction(str(value))
        exact = exact * Fraction(item.factor) if item.op == "*" else exact / Fraction(item.factor)
        value = int(exact) if exact.denominator == 1 else float(exact)
    return write_input(value)


def filled(entry: Entry, preset: Preset) -> dict[str, str]:
    """input name -> the text the preset puts in it (optional fields the preset lacks are left alone)."""
    return {f.input: fill_value(f, preset) for f in entry.fill if f.kind == preset.kind and preset.has(f.field)}


def offered(entry: Entry, presets: dict[str, dict[str, Preset]]) -> dict[str, list[Preset]]:
    """kind -> the presets that fill this entry, by family and name."""
    return {
        kind: sorted((p for p in presets.get(kind, {}).values() if offers(entry, p)), key=lambda p: (p.family, p.name))
        for kind in KINDS
        if any(f.kind == kind for f in entry.fill)
    }


def devices(presets: dict[str, dict[str, Preset]]) -> list[page.Device]:
    """The accelerators whose memory as printed (``memory_marketed``) is not their memory as built
    (``memory``): a reader typing a device's "80 GB" is told what it holds, from the preset."""
    out: list[page.Device] = []
    for preset in sorted(presets.get("hardware", {}).values(), key=lambda p: (p.family, p.name)):
        if (
            preset.has("memory")
            and preset.has("memory_marketed")
            and preset.get("memory") != preset.get("memory_marketed")
        ):
            out.append({"name": preset.name, "marketed": preset.get("memory_marketed"), "built": preset.get("memory")})
    return out


def spec(entry: Entry, presets: dict[str, dict[str, Preset]]) -> dict[str, list[page.Preset]]:
    """What the page needs to fill this entry: only the offered presets, only their mapped values.

    Each preset: id, name, family, sources (title, url, where; listed once), and for each input
    its text and the index of its source."""
    out = {}
    for kind, chosen in offered(entry, presets).items():
        if not chosen:
            continue
        items = []
        for preset in chosen:
            sources: list[dict] = []
            values = {}
            for f in entry.fill:
                if f.kind != kind or not preset.has(f.field):
                    continue
                value = preset.values[f.field]
                cite = preset.sources[value.source].cite() if value.source else {}
                if cite not in sources:
                    sources.append(cite)
                values[f.input] = [
                    fill_value(f, preset),
                    sources.index(cite),
                    f.field + (f" = {value.derived}" if value.derived else ""),
                ]
            items.append(
                {"id": preset.id, "name": preset.name, "family": preset.family, "sources": sources, "values": values}
            )
        out[kind] = items
    return out


def check_fill(entries: list[Entry], presets: dict, calculators: dict, problems: Problems) -> None:
    """Mappings name real inputs and fields, and every offered preset computes on the entry."""
    vocabulary = fields()
    for entry in entries:
        names = [i.name for i in entry.inputs]
        bad = False
        seen: dict[str, str] = {}
        for item in entry.fill:
            at = f"fill.{item.kind}.{item.input}"
            if item.input not in names:
                problems.add(
                    item.where.path, item.where.line, f"{at}: no input {item.input!r}; inputs: {', '.join(names)}"
                )
                bad = True
            if item.field not in vocabulary[item.kind]:
                problems.add(
                    item.where.path,
                    item.where.line,
                    f"{at}: {item.field!r} is not a {item.kind} field; fields: {', '.join(vocabulary[item.kind])}",
                )
                bad = True
            if item.input in seen:
                problems.add(
                    item.where.path,
                    item.where.line,
                    f"{at}: {item.input!r} is filled by the {seen[item.input]} mapping too",
                )
                bad = True
            seen[item.input] = item.kind
        calc = calculators.get(entry.key)
        if bad or calc is None:
            continue
        for kind, chosen in offered(entry, presets).items():
            for preset in chosen:
                try:
                    calc.run(filled(entry, preset))
                except Exception as exc:  # a DomainError names the input; anything else is the formula's
                    where = entry.at("fill", kind, getattr(exc, "name", ""))  # that input's fill line
                    problems.add(
                        where.path,
                        where.line,
                        f"fill.{kind}: preset {preset.id!r} gives inputs the entry rejects: {exc}",
                    )


def resolve_case_presets(
    entries: list[Entry], root: Path, problems: Problems, presets: dict | None = None
) -> list[Entry]:
    """A case that names presets takes its inputs from them through the entry's fill mapping;
    the inputs it writes itself override them.  The preset files' own problems are reported
    where the bank loads them (bank.gather), not here; ``presets``, when the caller has them loaded."""
    if presets is None:
        presets = load_presets(root, Problems())
    out = []
    for entry in entries:
        cases = []
        for case in entry.cases:
            if case.preset:
                inputs: dict = {}
                for kind, pid in case.preset.items():
                    preset = presets.get(kind, {}).get(pid)
                    where = case.at("preset", kind) or entry.where
                    if preset is None:
                        known = ", ".join(sorted(presets.get(kind, {}))) or "none"
                        problems.add(
                            where.path,
                            where.line,
                            f"case {case.id}: preset.{kind}: no {kind} preset {pid!r}; presets: {known}",
                        )
                    elif not offers(entry, preset):
                        missing = [
                            f.field for f in entry.fill if f.kind == kind and not f.optional and not preset.has(f.field)
                        ]
                        why = f"it lacks {', '.join(missing)}" if missing else f"the entry has no fill.{kind} mapping"
                        problems.add(
                            where.path,
                            where.line,
                            f"case {case.id}: preset.{kind}: {pid!r} cannot fill this entry: {why}",
                        )
                    else:
                        inputs.update(filled(entry, preset))
                inputs.update(case.inputs)
                case = replace(case, inputs=inputs)
            cases.append(case)
        out.append(replace(entry, cases=tuple(cases)))
    return out
