"""The Derivation Bank from Python: ``import derivation_bank as bank``; ``bank.entry(35).run(L=80).total``.

The API lives in ``site_builder.api`` (docs/python.md has the examples)."""

from site_builder.api import *  # noqa: F403
from site_builder.api import __all__  # noqa: F401
