"""``pla-proof check VARIANT``: property-check a Perceptron variant against its claim.

Runs the variant over fixed examples and Hypothesis-generated data and orders,
checks every property of its claim (G1, G2, P_k, Q_k, L4, T, SEP/SEP0 and the
variant's own), prints a pass/fail table, and saves each failing property's shrunk
counterexample (CSV + JSON) with the command that replays it.  Exit 0 when every
claim holds, 1 when one fails, 2 on bad input, 5 when the search checked too little to
pass (no run, more than a tenth of the cases skipped, or a claimed property that no run
evaluated): a check that ran nothing never passes.

The check is :func:`pla_proof.checks.check_specs`'s (a saved counterexample run again,
:func:`pla_proof.checks.replay_counterexample`'s; the list,
:func:`pla_proof.checks.variant_listing`'s); their text and JSON are
:mod:`pla_proof.render.check`'s.
"""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from ..render.check import (
    listing_json,
    listing_text,
    outcome_json,
    outcome_text,
    proof_to_json,
    replay_json,
    replay_text,
    report_text,
)
from ..render.check import report_to_json as _report_json
from ..userprints import user_output
from .common import emit_json, end_progress, terminal_progress

if TYPE_CHECKING:  # imported when the command runs: building the parser stays fast
    from ..checks import Specs
    from ..variants.checking import CheckReport
    from ..variants.protocol.variant import Variant
    from ..variants.proving.instances import ClaimProof

__all__ = [
    "DEFAULT_EXAMPLES",
    "add_arguments",
    "default_time_limit",
    "exit_code",
    "print_report",
    "proof_to_json",
    "report_to_json",
    "run",
]

#: ``--time-limit``'s default: seconds per variant named (``--all``: :data:`ALL_SECONDS`)
SECONDS_PER_VARIANT = 120.0
ALL_SECONDS = 600.0
#: of the time limit, what the report is left (the search stops this much earlier)
REPORT_SHARE = 0.2
REPORT_SECONDS_MAX = 5.0

#: the search's default, variants.checking.shard.DEFAULT_EXAMPLES, written here too so
#: that building the parser imports no Hypothesis (tests/test_cli_check.py holds them equal)
DEFAULT_EXAMPLES = 200


def add_arguments(p: argparse.ArgumentParser) -> None:
    _add_variant_arguments(p)
    _add_search_arguments(p)
    _add_output_arguments(p)


def _add_variant_arguments(p: argparse.ArgumentParser) -> None:
    """What is checked: built-in or named variants, or a fit(X, y) class and how to read it."""
    p.add_argument(
        "variant",
        metavar="VARIANT",
        nargs="*",
        default=[],
        help="built-in name (see --list), bug:NAME, module:attribute or path/file.py:attribute",
    )
    p.add_argument("--all", action="store_true", help="check every built-in variant")
    p.add_argument(
        "--fit",
        metavar="MODULE:FACTORY",
        action="append",
        default=[],
        help="check a fit(X, y) class or factory, or a training function f(X, y, ...) returning "
        "w, (w, b) or (b, w), read as it is written (its weights, bias, label coding, sign(0) "
        "and epoch budget, verified against its predict() or its training points)",
    )
    p.add_argument(
        "--weights",
        metavar="ATTR",
        default=None,
        help="--fit: the attribute holding the fitted weights (default: found on probe fits "
        "and verified against predict(): coef_, w_, weights, w, theta, ...)",
    )
    p.add_argument(
        "--bias",
        metavar="WHERE",
        default=None,
        help="--fit: where the bias is: first or last (a coordinate of the weights, or of what "
        "a training function returns), none, or an attribute (default: found and verified "
        "like the weights)",
    )
    p.add_argument(
        "--epochs",
        type=int,
        default=None,
        metavar="N",
        help="--fit: set the implementation's epoch budget to N (its n_iter, max_iter, "
        "epochs, ... by name, or the integer knob found to bound its training)",
    )
    p.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="--fit: give the class or training function a parameter it has no default for "
        "(a course's perceptron(X, y, T): --param T=100); VALUE is a Python literal, else a "
        "string; repeat for more",
    )
    p.add_argument(
        "--output",
        choices=("last", "averaged", "voted"),
        default=None,
        help="--fit: what the fit returns: the last weights (default), or an averaged or "
        "voted perceptron's output (then no claim that it separates or predicts its "
        "training data, which it need not)",
    )


def _add_search_arguments(p: argparse.ArgumentParser) -> None:
    """How the search runs: its size, seed, number mode, workers and time limits."""
    p.add_argument(
        "--examples",
        type=int,
        default=DEFAULT_EXAMPLES,
        help=f"generated examples per search round (default {DEFAULT_EXAMPLES})",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the search (default 0)")
    p.add_argument(
        "--mode",
        choices=("exact", "float"),
        default=None,
        help="exact (the default; float for --fit) or float: claims checked on "
        "outward-rounded enclosures",
    )
    p.add_argument(
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help="worker processes (default: the machine's cores); the report does not depend on it",
    )
    p.add_argument(
        "--scheduler",
        metavar="tcp://HOST:PORT",
        default=None,
        help="run every part of the search as a task on a Dask cluster's workers (default: "
        "$PLA_PROOF_SCHEDULER, else this machine's --jobs); pip install 'pla_proof[cluster]'",
    )
    p.add_argument(
        "--minutes",
        type=float,
        default=None,
        metavar="M",
        help="search until this much time is spent (a campaign) instead of one search",
    )
    p.add_argument(
        "--run-seconds",
        type=float,
        default=5.0,
        metavar="S",
        help="per-run time limit: a run that makes no update for S seconds (or runs 10 S in "
        "all) fails ENDS (default 5; numba's compiling and loading do not count)",
    )
    p.add_argument(
        "--shrink-runs",
        type=int,
        default=None,
        metavar="N",
        help="runs of the variant a search round may spend shrinking a failure (default 1000)",
    )
    p.add_argument(
        "--backend",
        default="hypothesis",
        metavar="NAME",
        help="hypothesis (default), or crosshair: a first round of each search drawn "
        "symbolically by CrossHair, its counterexamples replayed on plain values "
        "(pip install 'pla_proof[symbolic]')",
    )


def _add_output_arguments(p: argparse.ArgumentParser) -> None:
    """Where counterexamples go and come from, and the other actions (list, Coq)."""
    p.add_argument(
        "--database",
        metavar="URL",
        default=None,
        help="counterexample database shared between runs: a directory or redis://HOST:PORT/DB "
        "(default: $PLA_PROOF_DATABASE, else none); stored counterexamples run first",
    )
    p.add_argument(
        "--read-only",
        action="store_true",
        help="replay what the database holds but write nothing to it",
    )
    p.add_argument(
        "--out",
        default="counterexamples",
        help="directory for counterexample files (default ./counterexamples)",
    )
    p.add_argument(
        "--replay",
        metavar="FILE.json",
        help="run a saved counterexample again instead of searching",
    )
    p.add_argument(
        "--html",
        metavar="FILE",
        help="also write the diagnosis page: for each failing property, where the "
        "implementation leaves the algorithm, its points and both separators drawn, both "
        "trajectories as a stepper (one self-contained HTML file)",
    )
    p.add_argument("--list", action="store_true", help="list the built-in variants and seeded bugs")
    p.add_argument(
        "--coq",
        action="store_true",
        help="also have Coq's kernel prove the claim: the template's, or a corollary "
        "generated from the variant's own rule and claim for the catalog's other shapes "
        "(compiled with coqc: a few seconds); Z3 proves its obligations on every check",
    )


def run(args: argparse.Namespace) -> int:
    if args.list:
        from ..checks import variant_listing

        listing = variant_listing()
        if args.json:
            emit_json(listing_json(listing))
        else:
            print(listing_text(listing))
        return 0
    _check_options(args)
    specs = _specs(args)
    if args.replay:
        return _replay(args, specs)
    from ..checks import check_specs

    with user_output():  # users' prints: "[user] ..." lines on stderr, never in our output
        outcome = check_specs(
            specs,
            examples=args.examples,
            seed=args.seed,
            mode=args.mode,
            jobs=args.jobs,
            minutes=args.minutes,
            limit=args.run_seconds,
            shrink_runs=args.shrink_runs,
            database=args.database,
            read_only=args.read_only,
            out=args.out,
            coq=args.coq,
            progress=terminal_progress(),
            time_limit=_search_seconds(args.time_limit),
            backend=args.backend,
            scheduler=args.scheduler,
        )
    end_progress()
    if args.html:
        _write_page(args.html, outcome)
    if args.json:
        emit_json(outcome_json(outcome))
    else:
        print(outcome_text(outcome))
    if outcome.unfinished:
        from . import EXIT

        return EXIT["no_conclusion"]
    return exit_code(outcome.reports)


def _write_page(path: str, outcome: Any) -> None:
    """The diagnosis page of every checked variant (each distinct diagnosis once)."""
    import sys

    from ..render.diagnosis import render_diagnosis_page

    shown: list[dict[str, Any]] = []
    seen: set[str] = set()
    for c in outcome.checked:
        for d in c.diagnoses.values():
            doc = d.to_json()
            if doc["words"] + doc["why"] in seen:
                continue
            seen.add(doc["words"] + doc["why"])
            shown.append(doc)
    names = ", ".join(c.spec for c in outcome.checked) or "the check"
    page = render_diagnosis_page(names, shown, "pla-proof " + " ".join(sys.argv[1:]))
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(page)
    except OSError as exc:
        raise InputError(f"--html {path}: cannot write ({exc.strerror})") from None


def default_time_limit(args: argparse.Namespace) -> float:
    """``--time-limit``'s default: ``$PLA_PROOF_TIME_LIMIT`` when set, else
    :data:`SECONDS_PER_VARIANT` per variant named (``--all``: :data:`ALL_SECONDS` more),
    and never less than a campaign's ``--minutes`` and a minute."""
    import os

    from .budget import CommandBudget

    if os.environ.get("PLA_PROOF_TIME_LIMIT"):
        return CommandBudget.defaults()[0]
    named = len(getattr(args, "variant", None) or []) + len(getattr(args, "fit", None) or [])
    seconds = SECONDS_PER_VARIANT * max(named, 1) + (ALL_SECONDS if args.all else 0.0)
    minutes = getattr(args, "minutes", None)
    if minutes:
        seconds = max(seconds, 60.0 * minutes + SECONDS_PER_VARIANT)
    return seconds


def _search_seconds(time_limit: float) -> float | None:
    """The searches' share of ``--time-limit`` (what is left of it, less the report's
    share); ``None`` when there is no limit."""
    from .common import elapsed

    if not time_limit:
        return None
    spare = min(REPORT_SHARE * time_limit, REPORT_SECONDS_MAX)
    return max(time_limit - spare - elapsed(), 0.0)


def _specs(args: argparse.Namespace) -> Specs:
    from ..checks import Specs

    return Specs(
        names=list(args.variant or []),
        all=args.all,
        fit=list(args.fit),
        weights=args.weights,
        bias=args.bias,
        epochs=args.epochs,
        output=args.output,
        params=_params(args.param),
    )


def _params(given: list[str]) -> dict[str, Any]:
    """``--param NAME=VALUE`` ..., by name (a name given twice is refused)."""
    from ..variants.estimators.given import parse_param

    out: dict[str, Any] = {}
    for text in given:
        name, value = parse_param(text)
        if name in out:
            raise InputError(f"--param {name} is given twice")
        out[name] = value
    return out


def _replay(args: argparse.Namespace, specs: Specs) -> int:
    from ..checks import replay_counterexample

    with user_output():
        r = replay_counterexample(specs, args.replay, mode=args.mode, limit=args.run_seconds)
    if args.json:
        emit_json(replay_json(r))
    else:
        print(replay_text(r))
    return 0 if r.ok else 1


def _check_options(args: argparse.Namespace) -> None:
    """Refuse what cannot run, before anything is imported or searched."""
    if not args.variant and not args.all and not args.fit:
        raise InputError("give a VARIANT (or --all, --fit MODULE:FACTORY, --list)")
    if args.examples < 1:
        raise InputError(f"--examples must be a positive integer, got {args.examples}")
    if args.jobs is not None and args.jobs < 1:
        raise InputError(f"--jobs must be a positive integer, got {args.jobs}")
    if args.minutes is not None and not args.minutes > 0:
        raise InputError(f"--minutes must be positive, got {args.minutes}")
    if args.shrink_runs is not None and args.shrink_runs < 0:
        raise InputError(f"--shrink-runs must be >= 0, got {args.shrink_runs}")
    if not args.run_seconds > 0:
        raise InputError(f"--run-seconds must be positive, got {args.run_seconds}")
    if args.html and args.replay:
        raise InputError("--html draws a search's diagnoses: it does not apply to --replay")
    if args.scheduler is not None and not args.scheduler.strip():
        raise InputError("--scheduler needs an address, e.g. tcp://HOST:8786")
    if args.scheduler is not None and args.replay:
        raise InputError("--scheduler runs a search: it does not apply to --replay")
    if args.html and os.path.isdir(args.html):
        raise InputError(f"--html {args.html}: is a directory (give the page's file name)")
    from ..variants.checking.symbolic import missing

    why = missing(args.backend)
    if why is not None:
        raise InputError(why)
    if args.coq and not args.replay:
        import shutil

        if shutil.which("coqc") is None:
            raise InputError("coqc not found: install Coq (Debian package 'coq') for --coq")


def exit_code(reports: list[CheckReport]) -> int:
    """1 when a property fails, else 3 when time ran out (runs slower than the per-run
    limit before their bound, or the check's --time-limit: inconclusive), else 5 when a
    search checked too little to pass (no run, too many cases skipped, a property no run
    evaluated), else 0."""
    from . import EXIT

    if any(r.failed for r in reports):
        return EXIT["failed"]
    if any(r.status == "inconclusive" for r in reports):
        return EXIT["no_conclusion"]
    if any(r.unchecked for r in reports):
        return EXIT["unchecked"]
    return EXIT["ok"]


def print_report(
    report: CheckReport,
    variant: Variant,
    saved: dict[str, dict[str, Any]],
    proof: ClaimProof | None = None,
) -> None:
    """Print a variant's report (:func:`pla_proof.render.check.report_text`)."""
    print(report_text(report, variant, saved, proof))


def report_to_json(
    report: CheckReport,
    variant: Variant,
    saved: dict[str, dict[str, Any]],
    proof: ClaimProof | None = None,
) -> dict[str, Any]:
    """A variant's report as one JSON object (:func:`pla_proof.render.check.report_to_json`
    with the generic properties' statements)."""
    from ..variants.checking import GENERIC_PROPERTIES

    generic = {k: v[1] for k, v in GENERIC_PROPERTIES.items()}
    return _report_json(report, variant, saved, proof, generic=generic)
