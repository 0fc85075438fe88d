"""The symbolic backend: the same search, its cases drawn by CrossHair.

``pla-proof check --backend crosshair`` runs, before each shard's ordinary rounds, one
round whose draws come from `hypothesis-crosshair <https://pypi.org/project/hypothesis-crosshair/>`_
(the ``symbolic`` extra): CrossHair solves, with Z3, for draws that take the branches of
the Python code the case runs through -- the strategies, a variant's Python hooks, its
claim.  It cannot follow the engine's compiled loops (numpy, numba): there the values are
made concrete and the run goes on with them.  Every counterexample it finds is run again
on plain values (:func:`replayed`) and reported only when the same property fails there:
no false alarm can come from it.  The ordinary search still runs after it.

>>> missing("hypothesis") is None
True
>>> BACKENDS
('hypothesis', 'crosshair')
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from ..protocol.variant import Case, Order

__all__ = ["BACKENDS", "concrete", "missing", "quiet", "realized"]

#: The search's backends: Hypothesis's own, and CrossHair's symbolic one.
BACKENDS = ("hypothesis", "crosshair")


def missing(backend: str) -> str | None:
    """Why ``backend`` cannot run here (one line), or ``None``."""
    if backend not in BACKENDS:
        return f"--backend must be one of {', '.join(BACKENDS)}, got {backend!r}"
    if backend == "crosshair" and importlib.util.find_spec("hypothesis_crosshair_provider") is None:
        return "--backend crosshair needs hypothesis-crosshair: pip install 'pla_proof[symbolic]'"
    return None


@contextlib.contextmanager
def quiet() -> Iterator[io.StringIO]:
    """CrossHair's own diagnostics (printed when a path cannot be replayed) kept out of
    the check's output; the text is returned for counting."""
    buf = io.StringIO()
    with contextlib.redirect_stderr(buf), contextlib.redirect_stdout(buf):
        yield buf


def realized(value: Any) -> Any:
    """``value`` with every symbolic number made concrete (plain ints, Fractions,
    tuples, lists and dicts of them); the identity when CrossHair is not tracing."""
    try:
        from crosshair import deep_realize
    except ImportError:  # (no extra: nothing is symbolic)
        return value
    value = deep_realize(value)
    return _plain(value)


def _plain(v: Any) -> Any:
    if isinstance(v, bool):
        return bool(v)
    if isinstance(v, int):
        return int(v)
    if isinstance(v, Fraction):
        return Fraction(int(v.numerator), int(v.denominator))
    if isinstance(v, tuple):
        return tuple(_plain(x) for x in v)
    if isinstance(v, list):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {_plain(k): _plain(x) for k, x in v.items()}
    return v


def concrete(case: Case, order: Order) -> tuple[Case, Order]:
    """The case and order with every value made concrete (see :func:`realized`)."""
    c = Case(
        realized(case.X),
        realized(case.y),
        realized(case.u),
        realized(case.gamma),
        realized(dict(case.params)),
        case.name,
    )
    return c, Order(realized(order.rule), realized(order.seed), realized(order.picks))
