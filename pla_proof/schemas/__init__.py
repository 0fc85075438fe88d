"""The JSON schemas of every ``--json`` output, shipped with the package.

One schema per command (``trace``, ``explain``, ``bound``, ``certify``, ``audit``,
``verify``, ``check``, ``export``, ``plot``), JSON Schema draft 2020-12.  Every output names its
schema and version (``"schema": "pla-proof/trace", "schema_version": 1``); the number
rule is in
``docs/cli.md`` (exact values as ``{"exact": "p/q", "float": x}``).

>>> schema("trace")["$id"]
'pla-proof/trace'
>>> sorted(COMMANDS)
['audit', 'bound', 'certify', 'check', 'explain', 'export', 'plot', 'trace', 'verify']
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

__all__ = ["COMMANDS", "schema", "validate"]

COMMANDS = (
    "verify",
    "explain",
    "trace",
    "bound",
    "certify",
    "audit",
    "check",
    "export",
    "plot",
)


def schema(command: str) -> dict[str, Any]:
    """The schema of ``pla-proof COMMAND --json``."""
    if command not in COMMANDS:
        raise ValueError(f"no schema for {command!r} (commands: {', '.join(COMMANDS)})")
    text = resources.files(__package__).joinpath(f"{command}.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def validate(obj: dict[str, Any]) -> None:
    """Validate one output against the schema it names (needs ``jsonschema``;
    raises ``jsonschema.ValidationError`` when it does not conform)."""
    import jsonschema

    name = str(obj.get("schema", ""))
    jsonschema.validate(obj, schema(name.removeprefix("pla-proof/")))
