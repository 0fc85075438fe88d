"""pla_proof's version, in one place (``pla_proof.__version__`` reads it; a cluster's
workers are checked against it).

>>> installed_version() != ""
True
"""

from __future__ import annotations

__all__ = ["installed_version"]


def installed_version() -> str:
    """The installed distribution's version; from a source tree that is not installed,
    the ``pyproject.toml`` beside the package; else ``0+unknown``."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pla_proof")
    except PackageNotFoundError:
        pass
    import tomllib
    from pathlib import Path

    try:
        with open(Path(__file__).resolve().parent.parent / "pyproject.toml", "rb") as fh:
            project = tomllib.load(fh).get("project", {})
    except (OSError, tomllib.TOMLDecodeError):
        return "0+unknown"
    if project.get("name") == "pla_proof" and isinstance(project.get("version"), str):
        return str(project["version"])
    return "0+unknown"
