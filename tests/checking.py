"""Search budgets of the checker's tests (``pla-proof check`` and the variant harness).

Under the ``ci`` and ``dev`` profiles a test searches with a small budget -- a few
generated examples per shard and a bounded shrink -- which still finds and shrinks
every seeded bug (``tests/test_bugs.py``); under ``thorough``
(``HYPOTHESIS_PROFILE=thorough``) every search runs with the command's defaults
(200 examples, 1000 shrink runs).
"""

from __future__ import annotations

from typing import Any

from hypothesis import settings

from pla_proof.variants.checking.shard import DEFAULT_EXAMPLES, DEFAULT_SHRINK_RUNS

#: True under the thorough profile (2000 examples per property)
THOROUGH = settings.default is not None and settings.default.max_examples >= 1000


def budget(examples: int = 10, shrink_runs: int = 100) -> dict[str, Any]:
    """Keyword arguments of ``search``/``check_variant``: small, or the defaults under
    thorough."""
    if THOROUGH:
        return {"examples": max(examples, DEFAULT_EXAMPLES), "shrink_runs": DEFAULT_SHRINK_RUNS}
    return {"examples": examples, "shrink_runs": shrink_runs}


def cli_budget(examples: int = 10, shrink_runs: int = 100) -> list[str]:
    """The same budget as ``pla-proof check`` options."""
    b = budget(examples, shrink_runs)
    return ["--examples", str(b["examples"]), "--shrink-runs", str(b["shrink_runs"])]
