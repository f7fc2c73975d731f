"""A ``config.json`` written as a model preset file: ``python -m site_builder presets import``.

Every value the config gives becomes ``{value, source: config, note: <the key>}``, the
architecture's own fields (norm, biases) included; values the loader derives (a head's width
d / h, the key-value heads of MHA, the counts) are left out, as in any preset.
The file is checked by the presets' own loader before it is written, and an existing file is
never overwritten silently.  The author then adds the model card's citation (the published
parameter count, the training tokens) by hand.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from ..errors import Problems
from ..runtime.architecture import DERIVED
from ..runtime.hfconfig import Reading
from ..runtime.model_fill import CHOICES
from .presets import Preset, fields, load_preset

HEADER = "# yaml-language-server: $schema=../../../site_builder/load/preset.schema.json\n"


def slug(text: str) -> str:
    """'meta-llama/Llama-3.2-1B' -> 'llama-3-2-1b'."""
    return re.sub(r"[^a-z0-9]+", "-", text.rsplit("/", 1)[-1].lower()).strip("-")


def kept(reading: Reading) -> dict:
    """The fields a preset file types: the schema's, less what the loader derives."""
    known = fields()["model"]
    values = {k: v for k, v in reading.values.items() if k in known and k not in DERIVED and k not in CHOICES}
    get = lambda n: values[n].value if n in values else None  # noqa: E731
    attention = get("attention")
    if attention != "mla":
        values.pop("attention", None)
        if get("kv_heads") == get("heads"):  # MQA keeps its one key-value head: the loader reads mqa from it
            values.pop("kv_heads", None)
        if get("head_dim") is not None and get("head_dim") * get("heads") == get("d_model"):
            values.pop("head_dim", None)
    if get("experts_active") is not None and get("experts_active") == get("experts"):
        values.pop("experts_active", None)
    return values


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _scalar(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value) if isinstance(value, int) else _quote(str(value))


def preset_text(reading: Reading, *, id: str, name: str, family: str, url: str) -> str:
    """The preset file's text, every value citing the config key it came from."""
    values = kept(reading)
    keys = sorted({v.key for v in values.values() if v.key})
    left = {k: v for k, v in reading.values.items() if k not in fields()["model"]}
    repo = url.split("huggingface.co/", 1)[1].split("/blob/", 1)[0] if "huggingface.co/" in url else ""
    repo = repo or reading.name
    lines = [
        HEADER.rstrip("\n"),
        f"id: {id}",
        f"name: {_quote(name)}",
        "kind: model",
        f"family: {_quote(family)}",
        "sources:",
        "  config:",
        f"    title: {_quote(f'{repo} config.json')}",
        f"    url: {url}",
        f"    where: {_quote(', '.join(keys))}",
    ]
    family = {"kimi_k2": "deepseek_v3"}.get(reading.model_type, reading.model_type)  # the code it runs
    implied = [name for name, got in values.items() if not got.key]
    if implied:  # what the config leaves to its family's code: its defaults, its fixed shapes
        lines += [
            "  code:",
            f"    title: {_quote(f'Hugging Face Transformers, the {family} model (configuration and modelling code)')}",
            f"    url: https://github.com/huggingface/transformers/tree/main/src/transformers/models/{family}",
            f"    where: {_quote(f'configuration_{family}.py, modeling_{family}.py: ' + ', '.join(implied))}",
        ]
    lines.append("values:")
    for field_name, got in values.items():
        note = got.key + (f" ({got.note})" if got.note and got.key else got.note)
        source = "config" if got.key else "code"
        lines.append(f"  {field_name}: {{value: {_scalar(got.value)}, source: {source}, note: {_quote(note)}}}")
    note = [f"Imported from the config.json (model_type {reading.model_type})."]
    if left:
        note.append(
            "The config also gives "
            + ", ".join(f"{k} = {v.value} ({v.key or v.note})" for k, v in left.items())
            + ", which no preset field holds."
        )
    if "params_counted" in reading.values:
        note.append("The loader counts its parameters from these values (params_counted).")
    else:
        note.append(f"Its parameters are not counted: {reading.uncounted}.")
    note.append("Add the model card's citation for the published parameter count (params).")
    lines.append(f"note: {_quote(' '.join(note))}")
    return "\n".join(lines) + "\n"


def config_preset(reading: Reading, *, id: str = "config", url: str = "https://huggingface.co/") -> Preset:
    """The config as a preset, loaded (derived values and counts included) without writing it:
    what ``compute --config`` fills from.  Raises ValueError with the loader's report."""
    text = preset_text(reading, id=id, name=reading.name, family=reading.model_type, url=url)
    with tempfile.TemporaryDirectory() as tmp:
        trial = Path(tmp) / "models" / f"{id}.yaml"
        trial.parent.mkdir()
        trial.write_text(text)
        problems = Problems()
        preset = load_preset(trial, problems)
        if problems or preset is None:
            raise ValueError(problems.report())
    return preset


def write_preset(reading: Reading, folder: Path, *, id: str, name: str, family: str, url: str, force: bool) -> Path:
    """Check the file with the presets' loader, then write ``folder/<id>.yaml``.  Raises
    FileExistsError for an existing file (unless ``force``), ValueError with the loader's report."""
    target = folder / f"{id}.yaml"
    if target.exists() and not force:
        raise FileExistsError(f"{target}: exists; pass --force to replace it, or --id to name another")
    text = preset_text(reading, id=id, name=name, family=family, url=url)
    with tempfile.TemporaryDirectory() as tmp:
        trial = Path(tmp) / "models" / f"{id}.yaml"
        trial.parent.mkdir()
        trial.write_text(text)
        problems = Problems()
        load_preset(trial, problems)
        if problems:
            raise ValueError(problems.report().replace(str(trial), str(target)))
    folder.mkdir(parents=True, exist_ok=True)
    target.write_text(text)
    return target
