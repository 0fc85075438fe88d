"""The property suite's settings, database, time budget and report come from pla_proof's
pytest plugin (``pla_proof.testing.plugin``, installed with the package); this project's
default profile is set in ``pyproject.toml`` (``pla_proof_profile = "dev"``)."""

pytest_plugins = ["pytester"]
