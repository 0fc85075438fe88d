"""The variant protocol's published surface, versioned: what a variant class may define,
what was removed and what replaced it.

Version 2 is this release's (0.1.0 was version 1).  A variant may state the version it
was written for (``protocol = 2``); the checker refuses a variant that

* states a version newer than this pla_proof speaks;
* defines a hook the protocol no longer calls (``end_margin``, ``visit``), a name the
  protocol never calls but people reach for (``predict``, ``update``, ...), or a near miss
  of a hook (``trigger`` for ``triggers``) -- each would be silently ignored;

with one line naming the class, the name and what to write instead
(:func:`check_hooks`; exit 2 on the command line).  Helpers of a variant's own start
with ``_``.  Importing a removed name (``from pla_proof.variants import check_step``)
fails the same way, naming its replacement (:class:`RemovedName`).

>>> from pla_proof.variants import LinearVariant
>>> class Typo(LinearVariant):
...     def trigger(self, w, x, y):
...         return True
>>> try:
...     check_hooks(Typo())
... except InputError as e:
...     for part in str(e).split(", "):
...         print(part)
Typo.trigger is not a hook of the variant protocol (version 2)
so it would never be called: did you mean triggers? (a helper of your own: start its name with _)
"""

from __future__ import annotations

import ast
import difflib
import inspect
import textwrap
from typing import Any

from ...errors import InputError

__all__ = [
    "LINEAR_HOOKS",
    "NOT_HOOKS",
    "PROTOCOL_VERSION",
    "REMOVED_HOOKS",
    "REMOVED_NAMES",
    "VARIANT_HOOKS",
    "RemovedName",
    "check_hooks",
    "own_calls",
    "removed",
]

#: The version of the variant protocol this pla_proof speaks (0.1.0 spoke version 1).
PROTOCOL_VERSION = 2

#: What any variant may define: ``name -> what it is`` (docs/variants.md lists the same).
VARIANT_HOOKS: dict[str, str] = {
    "name": "the variant's name in reports",
    "summary": "one line: the rule and its claim",
    "source": "where the rule and its claim come from",
    "protocol": "the protocol version the variant was written for (default: this one)",
    "order_rules": "the orders it accepts (default cyclic, first, maxviol, random, choose)",
    "classic_dynamics": "True when a run is the classic algorithm on case.X (trace can replay it)",
    "preconditions": "its own properties that are assumptions of the claim",
    "extra_properties": "id -> statement of its own properties (reported from Record.checks)",
    "default_mode": "'exact' (default) or 'float': the arithmetic it is checked in",
    "cases": "a Hypothesis strategy of Case: its domain",
    "accepts": "accepts(case) -> bool: a domain predicate; fixed and replayed cases obey it",
    "examples": "fixed cases checked before the search",
    "orders": "a Hypothesis strategy of Order (default: from order_rules)",
    "run": "run(case, order) -> Record",
    "claim": "claim(case) -> Claim (raise OutsideDomain for a case it does not apply to)",
    "decision": "decision(case, output) -> the predictor's values f(x_i), judged by SEP/SEP0",
    "trace_args": "pla-proof trace options that replay a run, or None",
}
#: What a :class:`~pla_proof.variants.LinearVariant` (and ``PassVariant``) may define too.
LINEAR_HOOKS: dict[str, str] = {
    "domain": "domain(base) -> its cases from a strategy of plain separable cases",
    "parameters": "name -> range ('> 0', '>= 0', 'real') of each case.params entry the rule "
    "or the claim reads: what the proof of the claim may assume",
    "after_run": "after_run(case, order, record): its own checks (record.checks) after the "
    "run, instead of overriding run()",
    "assumes": "'NAME OP NUMBER' facts of every case (R2, gamma, uu or a parameter): the proof "
    "of the claim assumes them, the search skips a case without them",
    "eta": "eta(case): the learning rate (default 1)",
    "tau": "tau(case): update while y w.x <= tau (default 0)",
    "start": "start(case): the starting weights (default 0)",
    "factors": "factors(case): per-point factors a_i > 0 of the update eta a_i y x",
    "strict_trigger": "strict_trigger(case): update while y w.x < tau instead",
    "score": "score(w, x, y): the trigger value, y w.x by default",
    "triggers": "triggers(w, x, y) -> bool, default score - tau <= 0",
    "step": "step(w, x, y): the increment z of w <- w + z, default eta a_i y x",
    "rule": "rule(case): the declared rule as the compiled loop runs it",
    "budget": "budget(case) -> (updates allowed, conclusive)",
    "written_in_python": "True when triggers, step or score are overridden",
    "cap": "updates past which (and past the bound) a run is inconclusive",
    "max_epochs": "at most this many passes over the data (None: no limit)",
}
#: Hooks the protocol no longer calls, with what replaced them.
REMOVED_HOOKS: dict[str, str] = {
    "end_margin": "decision(case, output), which returns the predictor's values f(x_i) "
    "(SEP and SEP0 judge them)",
    "visit": "the record's visits (Record.visits, filled by the engine) and "
    "survival_counts(record, n)",
}
#: Module-level names removed since 0.1.0, with what replaced them.
REMOVED_NAMES: dict[str, str] = {
    "check_step": "pla_proof.variants.evaluate(claim, record), which evaluates every "
    "claimed property on a finished run",
}
#: Names people reach for that the protocol never calls, with the hook that does it.
NOT_HOOKS: dict[str, str] = {
    "predict": "decision(case, output)",
    "predictor": "decision(case, output)",
    "decision_function": "decision(case, output)",
    "update": "step(w, x, y) (the increment) or eta/factors",
    "margin": "tau(case) (update while y w.x <= tau)",
    "threshold": "tau(case) (update while y w.x <= tau)",
    "learning_rate": "eta(case)",
    "init": "start(case)",
    "initial_weights": "start(case)",
}
_BASES = ("pla_proof.variants.protocol.variant", "pla_proof.variants.estimators.estimator")


class RemovedName(ImportError):
    """A name the protocol removed: the message names its replacement (an ``ImportError``,
    so ``from pla_proof.variants import NAME`` fails with it)."""


def removed(module: str, name: str) -> RemovedName | None:
    """The error for importing a removed ``name`` from ``module`` (None: not removed)."""
    if name in REMOVED_NAMES:
        return RemovedName(
            f"{module}.{name} was removed in version 2 of the variant protocol (after "
            f"pla_proof 0.1.0): use "
            f"{REMOVED_NAMES[name]}"
        )
    return None


def check_hooks(variant: Any) -> None:
    """Refuse a variant whose class defines a name the protocol would silently ignore, or
    that states a protocol version this pla_proof does not speak (``InputError``, one
    line naming the class, the name and what to write instead)."""
    from .variant import LinearVariant

    cls = type(variant)
    stated = getattr(cls, "protocol", PROTOCOL_VERSION)
    if not isinstance(stated, int) or isinstance(stated, bool) or stated < 1:
        raise InputError(f"{cls.__name__}.protocol must be a protocol version (1 or 2)")
    if stated > PROTOCOL_VERSION:
        raise InputError(
            f"{cls.__name__} is written for variant protocol version {stated}; this "
            f"pla_proof speaks version {PROTOCOL_VERSION}: upgrade pla_proof"
        )
    hooks = dict(VARIANT_HOOKS)
    if isinstance(variant, LinearVariant):
        hooks.update(LINEAR_HOOKS)
    helpers = own_calls(cls)
    for k in cls.__mro__:
        if k is object or k.__module__ in _BASES:
            continue
        for name in vars(k):
            if name.startswith("_") or name in hooks:
                continue
            if name in helpers and name not in REMOVED_HOOKS:
                continue  # the class's own code calls it: a helper, nothing is ignored
            where = f"{k.__name__}.{name}"
            if name in REMOVED_HOOKS:
                raise InputError(
                    f"{where}: the variant protocol no longer calls {name} (removed in "
                    f"version 2, after pla_proof 0.1.0); use {REMOVED_HOOKS[name]}"
                )
            if name in NOT_HOOKS:
                raise InputError(
                    f"{where} is not a hook of the variant protocol, so it would never be "
                    f"called: use {NOT_HOOKS[name]} (a helper of your own: start its name "
                    "with _)"
                )
            near = difflib.get_close_matches(name, [*hooks, *REMOVED_HOOKS], n=1, cutoff=0.8)
            if near:
                raise InputError(
                    f"{where} is not a hook of the variant protocol (version "
                    f"{PROTOCOL_VERSION}), so it would never be called: did you mean "
                    f"{near[0]}? (a helper of your own: start its name with _)"
                )


def own_calls(cls: type) -> set[str]:
    """The attributes the class's own code reaches through ``self``, ``cls`` or
    ``type(self)`` (``self.margin(...)``, ``getattr(self, "update")``): a method so named
    is the class's helper, which its own code calls.

    >>> from pla_proof.variants.catalog.pocket import Pocket
    >>> "_correct_picks" in own_calls(Pocket)  # its run() calls self._correct_picks(...)
    True
    >>> class Loop:
    ...     def run(self, case, order):
    ...         return self.update(0)
    >>> own_calls(Loop)  # written where its source cannot be read: nothing is exempt
    set()
    """
    names: set[str] = set()
    for k in cls.__mro__:
        if k is object or k.__module__ in _BASES or k.__module__ == "builtins":
            continue
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(k)))
        except (OSError, TypeError, SyntaxError):
            continue  # no source to read (built in a notebook, say): nothing is exempt
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.ctx, ast.Load)
                and _is_self(node.value)
            ):
                names.add(node.attr)
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "getattr"
                and len(node.args) >= 2
                and _is_self(node.args[0])
                and isinstance(node.args[1], ast.Constant)
                and isinstance(node.args[1].value, str)
            ):
                names.add(node.args[1].value)
    return names


def _is_self(node: ast.AST) -> bool:
    if isinstance(node, ast.Name):
        return node.id in ("self", "cls")
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "type"
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Name)
        and node.args[0].id == "self"
    )
