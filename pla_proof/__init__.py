"""pla_proof: a formally checked proof companion for the Perceptron convergence theorem.

>>> from pla_proof import load, train
>>> run = train(load("orthonormal:5"))
>>> run.status, run.updates, run.bound
('converged', 5, Fraction(5, 1))

The proof walked through on a run (:func:`explain`) and the run update by update
(:func:`trace`), as data that the commands ``explain`` and ``trace`` render:

>>> from pla_proof import explain, trace
>>> ex = explain(load("orthonormal:3"))
>>> ex.facts["bound_slack"], [s.held for s in ex.summary()][:2]
(Fraction(0, 1), [True, True])
>>> t = trace(load("orthonormal:3"), replay=[2, 1, 0])
>>> [s.j for s in t.steps], t.run.rule
([2, 1, 0], 'replay')

The tight bound of a data set and what each selection rule does against it
(:func:`tight_bound`, the command ``bound``):

>>> from pla_proof import tight_bound
>>> tight_bound(load("orthonormal:4"), runs=False).margin.bound
Fraction(4, 1)

Every name is imported on first use, so that ``import pla_proof`` (and the
``pla-proof`` command's start) stays light: no numpy, SymPy, SciPy, Z3 or
Hypothesis until a name that needs them is used.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from . import views as _views
from .errors import InputError, SolverError
from .moved import install as _install_moved

_install_moved()  # modules that moved stay importable from their old places

if TYPE_CHECKING:
    from .bounds import TightBound, tight_bound
    from .data import Bias, Dataset, from_arrays, load, read_csv, read_npz
    from .explanation import Explanation, explain, explain_run
    from .geometry import (
        OptimalMargin,
        affine_margin,
        certify,
        freund_schapire,
        gordan_certificate,
        optimal_comparator,
        optimal_margin,
        running_sandwich,
        separability,
    )
    from .monitor import Comparator, Step, Violation, make_comparator
    from .proof import check_all
    from .proof.statements import LEMMAS, RUNTIME_LEMMAS, Lemma, lemma
    from .strategies import (
        edge_case_datasets,
        non_separable_datasets,
        separable_datasets,
        update_orders,
    )
    from .testing import check_variant
    from .tracing import Instance, Trace, instantiate, trace
    from .trainer import RULES, Certificate, Run, train
    from .variants import Case, Claim, LinearVariant, Variant
    from .variants import resolve as resolve_variant
    from .variants.proving.instances import prove_claim

_LAZY: dict[str, tuple[str, str]] = {
    **{n: ("pla_proof.data", n) for n in ("Bias", "Dataset", "from_arrays", "load")},
    **{n: ("pla_proof.data", n) for n in ("read_csv", "read_npz")},
    **{n: ("pla_proof.monitor", n) for n in ("Comparator", "Step", "Violation")},
    "make_comparator": ("pla_proof.monitor", "make_comparator"),
    **{n: ("pla_proof.proof.statements", n) for n in ("LEMMAS", "RUNTIME_LEMMAS", "Lemma")},
    "lemma": ("pla_proof.proof.statements", "lemma"),
    **{n: ("pla_proof.trainer", n) for n in ("RULES", "Certificate", "Run", "train")},
    "OptimalMargin": ("pla_proof.geometry", "OptimalMargin"),
    "affine_margin": ("pla_proof.geometry", "affine_margin"),
    "certify": ("pla_proof.geometry", "certify"),
    "freund_schapire": ("pla_proof.geometry", "freund_schapire"),
    "gordan_certificate": ("pla_proof.geometry", "gordan_certificate"),
    "optimal_comparator": ("pla_proof.geometry", "optimal_comparator"),
    "optimal_margin": ("pla_proof.geometry", "optimal_margin"),
    "running_sandwich": ("pla_proof.geometry", "running_sandwich"),
    "separability": ("pla_proof.geometry", "separability"),
    "check_all": ("pla_proof.proof", "check_all"),
    "prove_claim": ("pla_proof.variants.proving.instances", "prove_claim"),
    "check_variant": ("pla_proof.testing", "check_variant"),
    **{n: ("pla_proof.explanation", n) for n in ("Explanation", "explain", "explain_run")},
    **{n: ("pla_proof.tracing", n) for n in ("Instance", "Trace", "instantiate", "trace")},
    **{n: ("pla_proof.bounds", n) for n in ("TightBound", "tight_bound")},
    "edge_case_datasets": ("pla_proof.strategies", "edge_case_datasets"),
    "non_separable_datasets": ("pla_proof.strategies", "non_separable_datasets"),
    "separable_datasets": ("pla_proof.strategies", "separable_datasets"),
    "update_orders": ("pla_proof.strategies", "update_orders"),
    "Case": ("pla_proof.variants", "Case"),
    "Claim": ("pla_proof.variants", "Claim"),
    "LinearVariant": ("pla_proof.variants", "LinearVariant"),
    "Variant": ("pla_proof.variants", "Variant"),
    "resolve_variant": ("pla_proof.variants", "resolve"),
}


def _run_page(run: Run) -> str:
    """A run in a notebook: the lecture page's stepper, in an iframe (the rendering
    layer's :func:`pla_proof.render.page.notebook_html`, imported when first shown)."""
    from .render.page import notebook_html

    return notebook_html(run)


_views.set_notebook_view(_run_page)


def __getattr__(name: str) -> Any:
    if name == "__version__":  # one source of the version: the installed metadata
        from .version import installed_version

        return installed_version()
    try:
        module, attr = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'pla_proof' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module), attr)
    globals()[name] = value
    return value


__all__ = [
    "LEMMAS",
    "RULES",
    "RUNTIME_LEMMAS",
    "Bias",
    "Case",
    "Certificate",
    "Claim",
    "Comparator",
    "Dataset",
    "Explanation",
    "InputError",
    "Instance",
    "Lemma",
    "LinearVariant",
    "OptimalMargin",
    "Run",
    "SolverError",
    "Step",
    "TightBound",
    "Trace",
    "Variant",
    "Violation",
    "affine_margin",
    "certify",
    "check_all",
    "check_variant",
    "edge_case_datasets",
    "explain",
    "explain_run",
    "freund_schapire",
    "from_arrays",
    "gordan_certificate",
    "instantiate",
    "lemma",
    "load",
    "make_comparator",
    "non_separable_datasets",
    "optimal_comparator",
    "optimal_margin",
    "prove_claim",
    "read_csv",
    "read_npz",
    "resolve_variant",
    "running_sandwich",
    "separability",
    "separable_datasets",
    "tight_bound",
    "trace",
    "train",
    "update_orders",
]
