"""A reader's ``--config config.json`` on the command line: read, with ``path:line: message`` for
what is wrong (``read_config_file``), and the inputs it fills in an entry or a plan, refused whole
when it lacks what the entry needs from a model (``config_inputs``).  ``compute`` (cli.py) and
``compute <plan>`` (plan_cli.py) both use it; ``presets import`` reads with it too."""

from __future__ import annotations

import sys
from pathlib import Path


def read_config_file(path: Path):
    """A config.json read, or None after printing what is wrong as path:line: key: message."""
    from .runtime.hfconfig import ConfigError, read_config

    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"{path}: cannot read it: {exc}", file=sys.stderr)
        return None
    try:
        return read_config(text)
    except ConfigError as bad:
        print(f"{path}:{line_of(text, bad.key)}: {bad}", file=sys.stderr)
        return None


def line_of(text: str, key: str) -> int:
    """The line where a key is written (its last part), or 1 for a key the config lacks."""
    if key:
        where = text.find(f'"{key.rsplit(".", 1)[-1]}"')
        if where >= 0:
            return text.count("\n", 0, where) + 1
    return 1


def config_inputs(args, entry):
    """(path, reading, preset, inputs) a --config file fills, or an exit code after saying why."""
    from .load.fill import filled as fill_from
    from .load.preset_import import config_preset

    reading = read_config_file(args.config)
    if reading is None:
        return 2
    try:
        preset = config_preset(reading)
    except ValueError as exc:
        print(f"{args.config}: {exc}", file=sys.stderr)
        return 1
    mapped = [f for f in entry.fill if f.kind == "model"]
    lacks = sorted({f.field for f in mapped if not f.optional and not preset.has(f.field)})
    got = fill_from(entry, preset) if mapped and not lacks else {}
    if not got:
        if not mapped:
            why = ": it has no model fill mapping"
        elif lacks:  # as a preset that lacks them is not offered: a partial model is not filled
            why = f": it gives no {', '.join(lacks)}, which the entry needs from a model"
        else:
            why = f" ({', '.join(sorted({f.field for f in mapped}))})"
        print(f"--config: {args.config} does not fill {entry.label}{why}", file=sys.stderr)
        if reading.uncounted and mapped:
            print(f"--config: {reading.uncounted}", file=sys.stderr)
        return 2
    return args.config, reading, preset, got
