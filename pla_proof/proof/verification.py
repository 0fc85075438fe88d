"""What ``pla-proof verify`` computes: the obligations chosen by pattern, each checked
(SymPy, Z3), the chain and the coverage (:func:`pla_proof.proof.blueprint.check_all`),
and Coq's opinion on each (compiled, or whether it exports).

>>> from pla_proof.proof.obligations import all_obligations
>>> bp = verify_proof(all_obligations(), only=["L2*"])
>>> sorted(bp.agreement), bp.all_proved
(['L2', 'L2.strict'], True)
>>> bp.agreement["L2"]["coq"]
'not run (verify --coq)'
"""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import InputError

if TYPE_CHECKING:
    from .blueprint import Blueprint
    from .coq import CoqRun
    from .coqc import EarlyCoqc
    from .obligations import Obligation

__all__ = ["add_coq_opinion", "select", "verify_proof"]


def select(obligations: Sequence[Obligation], patterns: Sequence[str]) -> tuple[Obligation, ...]:
    """The obligations whose id or node matches one of the shell-style ``patterns``."""
    return tuple(
        ob
        for ob in obligations
        if any(fnmatch.fnmatchcase(ob.id, p) or fnmatch.fnmatchcase(ob.node, p) for p in patterns)
    )


def verify_proof(
    obligations: Sequence[Obligation],
    *,
    only: Sequence[str] | None = None,
    timeout: float = 10.0,
    coq: bool = False,
    started: EarlyCoqc | None = None,
) -> Blueprint:
    """Check the ``obligations`` (those matching ``only``, when given; Z3 with
    ``timeout`` seconds each), the chain (all of them only) and Coq's opinion
    (compiled with ``coq``, with the development when every obligation is checked;
    ``started``: a ``coqc`` :func:`start_coqc` started, used when it compiles the very
    text this check exports, else stopped)."""
    from .blueprint import check_all

    if only:
        obligations = select(obligations, only)
        if not obligations:
            raise InputError(f"--only {' '.join(only)}: no obligation matches")

    def checked() -> Blueprint:
        return check_all(obligations, timeout_ms=max(1, int(timeout * 1000)), partial=bool(only))

    if not coq:
        blueprint = checked()
        add_coq_opinion(blueprint, obligations, run=False, development=not only)
        return blueprint
    from .coq import run_coqc

    made: list[Blueprint] = []  # SymPy and Z3 check while coqc compiles
    outcome = run_coqc(
        obligations,
        development=not only,
        meanwhile=lambda: made.append(checked()),
        started=None if only else started,
    )
    add_coq_opinion(made[0], obligations, run=True, development=not only, outcome=outcome)
    return made[0]


def add_coq_opinion(
    blueprint: Blueprint,
    obligations: Sequence[Obligation],
    *,
    run: bool,
    development: bool = True,
    outcome: CoqRun | None = None,
) -> None:
    """Record Coq's opinion per obligation: compiled (``run``; its ``outcome`` when it
    has run already), else whether it exports; with ``development`` (every obligation
    selected), the hand-written theorems too."""
    from .coq import export, kernel_theorems, run_coqc

    if development:
        blueprint.kernel_theorems = kernel_theorems(ob.id for ob in obligations)
        blueprint.kernel = {t.name: "not run" for t in blueprint.kernel_theorems}
    if run:
        if outcome is None:
            outcome = run_coqc(obligations, development=development)
        for oid, status in outcome.status.items():
            blueprint.agreement.setdefault(oid, {})["coq"] = status
        blueprint.kernel.update(outcome.theorems)
        return
    exported = export(obligations)
    for oid in exported.exported:
        blueprint.agreement.setdefault(oid, {})["coq"] = "not run (verify --coq)"
    for oid, why in exported.skipped.items():
        blueprint.agreement.setdefault(oid, {})["coq"] = f"not exported: {why}"
