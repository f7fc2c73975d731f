"""entries/presets/{models,hardware}/*.yaml -> Preset objects, every node's line kept.

A preset is a published model or accelerator: each number with its source, in base units.
Values that follow from others (a head's dimension from the width and the head count) are
derived here and never typed; one typed equal to its derivation is an error, so that no
number is written twice.  Problems are collected in one pass, like the entries'.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

from ..errors import Problems
from ..runtime import page
from ..runtime.architecture import DERIVED, from_values
from ..runtime.model_fill import CHOICES, choices
from ..runtime.numbers import NumberError, grouped, read_exact, write_input
from .entry import Where
from .model_architecture import (
    UNTOLD_TYING,
    ArchitectureError,
    card_problem,
    counts,
    missing,
)
from .yamlfile import Tree, read, read_schema, schema_errors

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
    "value_dim": (1, 1e5),
    "positions": (1, 1e7),
    "segments": (1, 1e4),
    "relative_buckets": (1, 1e5),
    "norms_per_layer": (0, 16),
    "mtp_modules": (1, 100),
    "params_counted": (1e5, 1e14),
    "params_active_counted": (1e5, 1e14),
    "kv_per_token": (1, 1e9),
    "flops_per_token": (1e5, 1e15),
    **{f"flops_{p}": (1e11, 1e17) for p in ("fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int8", "fp4")},
    "memory": (1e9, 1e13),
    "memory_marketed": (1e9, 1e13),
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


_PATTERN_HINTS = {"id": "must be letters, digits and hyphens", "url": "is not an https:// address"}


def _hint(at: tuple) -> str | None:
    """What a value of a preset that misses its pattern should look like, by the key it is under."""
    return _PATTERN_HINTS.get(at[-1] if at else "")


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
    printed: str = ""  # the text as the file wrote it (46.7B), when it wrote text
    differs: str = ""  # why a published count does not round to the architecture's
    digits: int | None = None  # significant digits a published count is printed to, when its zeros leave it open
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


def _derive(raw: dict, tree: Tree, path: Path, problems: Problems) -> dict[str, Value]:
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
        printed = item["value"] if isinstance(item["value"], str) else ""
        values[name] = Value(
            v,
            item["source"],
            item.get("note", ""),
            printed=printed,
            differs=item.get("differs", ""),
            digits=item.get("digits"),
            at=at,
        )
    if raw["kind"] == "model":
        _derive_model(values, Where(path, tree.line(("values",))), path, problems)
        _derive_counts(raw["values"], values, Where(path, tree.line(("values",))), path, problems)
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


def _derive_counts(raw: dict, values: dict, at: Where, path: Path, problems: Problems) -> None:
    """The counts of a complete architecture (runtime/architecture.py), and the card's figures against them."""
    for name in (*DERIVED, *CHOICES):
        if name in values:
            problems.add(path, values[name].at.line, f"values.{name}: leave it out: the loader counts it")
            return
    for name, needs, what in (
        ("mtp", "mtp_modules", "mtp_modules"),
        ("relative_buckets", "relative_positions", "relative_positions: buckets"),
    ):
        if name in values and needs not in values:
            problems.add(path, values[name].at.line, f"values.{name}: given without {what}")
            return
    if values.get("relative_positions") and values["relative_positions"].value == "buckets":
        if "relative_buckets" not in values:
            line = values["relative_positions"].at.line
            problems.add(path, line, "values.relative_positions: buckets needs relative_buckets, the bucket count")
            return
    plain = {k: v.value for k, v in values.items()}
    if missing(plain):
        return
    try:
        found = counts(plain)
    except ArchitectureError as exc:
        problems.add(path, at.line, f"values: the architecture cannot be counted: {exc}")
        return
    for name, how in DERIVED.items():
        if name not in found:
            continue
        how = how if "tied_embeddings" in values else f"{how}; {UNTOLD_TYING}"
        values[name] = _derived(found[name], how, "layers", values=values, at=at)
    for name, value, why in choices(plain):
        values[name] = _derived(value, why, "experts", "norm", "layers", values=values, at=at)
    for name, counted in (("params", found["params_counted"]), ("params_active", found.get("params_active_counted"))):
        item = raw.get(name)
        if item is None or name not in values or counted is None:
            continue
        problem = card_problem(name, item["value"], item.get("digits"), counted)
        if problem and not item.get("differs"):
            problems.add(path, values[name].at.line, problem)
        elif not problem and item.get("differs"):
            problems.add(
                path,
                values[name].at.line,
                f"values.{name}.differs: the card's {item['value']} rounds to the count {grouped(counted)}; leave differs out",
            )


def preset_architecture(preset: Preset):
    """The Architecture of a model preset whose architecture is complete, else None."""
    plain = {k: v.value for k, v in preset.values.items()}
    return None if preset.kind != "model" or missing(plain) else from_values(plain)


# ---- files ----------------------------------------------------------------------------------


def load_preset(path: Path, problems: Problems) -> Preset | None:
    before = len(problems)
    found = read(path, problems, "a preset needs the keys listed in docs/presets.md")
    if found is None:
        return None
    text, raw, tree = found
    if not isinstance(raw, dict):
        problems.add(path, 1, "a preset is a mapping of keys; see docs/presets.md")
        return None
    for at, message in schema_errors(raw, text, SCHEMA_PATH, "preset", _hint):
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
