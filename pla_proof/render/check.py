"""A :class:`pla_proof.checks.CheckOutcome` (the pass/fail table of each variant, its
counterexamples and its proof), a :class:`pla_proof.checks.Replay` and the
:class:`pla_proof.checks.Listing` of the built-in variants, as text and as JSON.

>>> from pla_proof.checks import Specs, check_specs
>>> outcome = check_specs(Specs(["classic"]), examples=10, jobs=1)
>>> print(outcome_text(outcome).splitlines()[-1])
all 9 properties of the claim hold; the claim is proved by Z3
>>> outcome_json(outcome)["verdict"]
'pass'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, TypeAlias

from .numbers import show, vector

#: What the symbolic backend follows and what it does not (one line of the report).
FOLLOWS = (
    "CrossHair follows the strategies and the variant's Python code; the engine's numpy "
    "and numba loops run on concrete values"
)

# The objects rendered here are the checking layer's (pla_proof.checks,
# pla_proof.variants.checking), read by their attributes: that layer renders its numbers
# with pla_proof.render.numbers, so importing it here, even for types, would be a circle.
CheckOutcome: TypeAlias = Any
CheckedVariant: TypeAlias = Any
Listing: TypeAlias = Any
Replay: TypeAlias = Any
CheckReport: TypeAlias = Any
Failure: TypeAlias = Any
Case: TypeAlias = Any
Record: TypeAlias = Any
Variant: TypeAlias = Any
ClaimProof: TypeAlias = Any

__all__ = [
    "case_lines",
    "checked_json",
    "checked_text",
    "failure_json",
    "listing_json",
    "listing_text",
    "outcome_json",
    "outcome_text",
    "proof_to_json",
    "replay_json",
    "replay_text",
    "report_text",
    "report_to_json",
    "step_lines",
]

_SHOWN = ("w", "b", "W", "alpha", "averaged", "pocket", "epochs", "n_iter")


def _vec(v: Sequence[Any]) -> str:
    return vector(v, show)


def _val(v: Any) -> str:
    return "" if v is None else show(v) if isinstance(v, int | Fraction) else str(v)


def _short(v: Any) -> str:
    if isinstance(v, tuple | list):
        return "(" + ", ".join(_short(a) for a in v) + ")"
    return show(v)


def _exact(v: Any) -> Any:
    return Fraction(v) if isinstance(v, int | Fraction) and not isinstance(v, bool) else v


# --- text ----------------------------------------------------------------------------------


def outcome_text(outcome: CheckOutcome) -> str:
    """Each variant's report (a blank line after each when there are several)."""
    if outcome.unfinished:
        return f"INCONCLUSIVE (exit 3): {outcome.unfinished} (raise it with --time-limit)"
    several = len(outcome.checked) > 1
    lines: list[str] = []
    for c in outcome.checked:
        lines.append(checked_text(c))
        if several:
            lines.append("")
    return "\n".join(lines)


def checked_text(c: CheckedVariant) -> str:
    """One variant's report and what it did with the database."""
    text = report_text(c.report, c.variant, c.saved, c.proof, c.diagnoses)
    db = c.database
    if db is not None:
        text += (
            f"\ndatabase {db.where}: {db.replayed} stored counterexample(s) "
            f"replayed first, {db.recorded} recorded"
        )
    return text


def case_lines(case: Case) -> list[str]:
    """A case's points and its comparator."""
    lines = [
        f"  {case.n} point(s): "
        + "; ".join(f"{_vec(x)} y={yi}" for x, yi in zip(case.X, case.y, strict=True))
    ]
    if any(case.u):
        lines.append(
            f"  comparator u = {_vec(case.u)}"
            + (f", params {dict(case.params)}" if case.params else "")
        )
    return lines


def step_lines(rec: Record, limit: int = 12) -> list[str]:
    """A run's first ``limit`` measured updates, one row each."""
    steps = rec.measured()
    if not steps:
        return ["  no updates"]
    lines = [f"  {'k':>4} {'j':>4} {'trigger':>12} {'u.w':>12} {'|w|^2':>12}"]
    for s in steps[:limit]:
        lines.append(f"  {s.k:>4} {s.j + 1:>4} {_val(s.t):>12} {_val(s.pu1):>12} {_val(s.n1):>12}")
    if len(steps) > limit:
        lines.append(f"  ... {len(steps) - limit} more updates")
    return lines


def report_text(
    report: CheckReport,
    variant: Variant,
    saved: dict[str, dict[str, Any]],
    proof: ClaimProof | None = None,
    diagnoses: Mapping[str, Any] | None = None,
) -> str:
    """The pass/fail table of a variant's claim, its counterexamples (each with its
    diagnosis, from ``diagnoses`` by property) and the verdict."""
    lines = _header_lines(report, variant)
    covered = proof.properties if proof is not None else ()
    lines.append(
        f"{'property':10s} {'tested':6s} {'runs':>6s} {'proved':6s} {'instance of':32s} statement"
    )
    for p in report.properties:
        lines.append(
            f"{p.id:10s} {'pass' if p.ok else 'FAIL':6s} {p.runs:>6d} "
            f"{'yes' if p.id in covered else '-':6s} {p.lemma:32s} {p.statement}"
        )
    if proof is not None:
        lines.append(f"proof: {proof.describe()}")
    said: dict[str, str] = {}  # a diagnosis said once, then referred to
    for p in report.failed:
        lines += _counterexample_lines(p, saved[p.id])
        diagnosis = (diagnoses or {}).get(p.id)
        if diagnosis is not None:
            text = "\n".join(diagnosis.lines())
            if text in said:
                lines.append(f"  diagnosis: as for {said[text]} above (the same counterexample)")
            else:
                said[text] = p.id
                lines += text.splitlines()
    lines.append("")
    lines.append(_verdict_line(report, proof))
    return "\n".join(lines)


def _header_lines(report: CheckReport, variant: Variant) -> list[str]:
    lines = [
        f"variant {report.variant}: {variant.summary}"
        + (f" [{variant.source}]" if variant.source else "")
    ]
    reading = getattr(variant, "reading", None)
    if reading is not None:
        lines.append(f"read as: {reading.describe()}")
    lines.append(
        f"searched {report.examples} generated examples per round (seed {report.seed}, "
        f"{report.mode} mode): {report.runs} runs ({show(round(report.seconds, 1))} s of search), "
        f"{report.inconclusive} inconclusive (safety cap hit before the bound)"
        + (f", {report.skipped} skipped (outside the domain)" if report.skipped else "")
    )
    for reason, count in report.skip_reasons.items():
        lines.append(f"  skipped {count}: {reason}")
    if report.slow:
        lines.append(
            f"  {report.slow} run(s) without a verdict (slow before their bound, or stuck in "
            "floating point: not wrong):"
        )
        lines += [f"    {count}: {reason}" for reason, count in report.slow_reasons.items()]
    if report.stopped:
        lines.append("  the check's time limit ended the search (--time-limit)")
    if report.symbolic:
        lines.append(symbolic_line(report.symbolic))
    if report.cluster:
        lines.append(cluster_line(report.cluster))
    if report.mode == "float":
        lines.append(
            "float mode: each claim checked on outward-rounded enclosures; a failure is "
            f"certain, and at most {report.max_missed:.3g} could have been missed"
            + (f" ({report.undecided} undecided)" if report.undecided else "")
        )
    return lines


def cluster_line(cluster: dict[str, Any]) -> str:
    """Where the search ran with ``--scheduler``, and what ran again.

    >>> cluster_line({"scheduler": "tcp://h:8786", "workers": 2, "again": []})
    'on the Dask cluster tcp://h:8786: 2 worker(s)'
    >>> cluster_line({"scheduler": "s", "workers": 2,
    ...               "again": [{"part": 3, "workers": ["tcp://a", "tcp://b"]}]})[23:]
    '2 worker(s); part 3 ran again on tcp://b (its worker tcp://a was lost)'
    """
    line = f"on the Dask cluster {cluster['scheduler']}: {cluster['workers']} worker(s)"
    for again in cluster.get("again", []):
        first, *then = again["workers"]
        line += (
            f"; part {again['part']} ran again on {', '.join(then)} (its worker {first} was lost)"
        )
    return line


def symbolic_line(counts: dict[str, int]) -> str:
    """The symbolic backend's round in one line.

    >>> symbolic_line({"runs": 40, "replayed": 1, "dropped": 0})[:58]
    'symbolic backend (CrossHair): 40 runs drawn symbolically, '
    """
    found = counts.get("replayed", 0) + counts.get("dropped", 0)
    stopped = counts.get("stopped", 0)
    return (
        f"symbolic backend (CrossHair): {counts.get('runs', 0)} runs drawn symbolically, "
        f"{found} counterexample(s) found, {counts.get('replayed', 0)} confirmed on plain "
        f"values, {counts.get('dropped', 0)} not (dropped)"
        + (f", stopped early in {stopped} shard(s) (it could not go on)" if stopped else "")
        + f"; {FOLLOWS}"
    )


#: the other causes of a property's failure the text report lists (then how many more)
_OTHERS_SHOWN = 3


def other_cause_lines(others: Sequence[Any]) -> list[str]:
    """The other causes of a property's failure: the first three, then how many more
    (a reading that cannot follow what a function returns can make hundreds).

    >>> from types import SimpleNamespace as N
    >>> cause = N(failure=N(describe=lambda: "RUNS fails"), case=N(n=2))
    >>> for line in other_cause_lines([cause] * 5)[2:]:
    ...     print(line)
      another cause: RUNS fails (2 point(s))
      ... and 2 more cause(s) (all in --json's 'other_causes')
    >>> len(other_cause_lines([cause] * 3))
    3
    """
    lines = [
        f"  another cause: {o.failure.describe()} ({o.case.n} point(s))"
        for o in others[:_OTHERS_SHOWN]
    ]
    if len(others) > _OTHERS_SHOWN:
        lines.append(
            f"  ... and {len(others) - _OTHERS_SHOWN} more cause(s) (all in --json's "
            "'other_causes')"
        )
    return lines


def _counterexample_lines(p: Any, files: dict[str, Any]) -> list[str]:
    ce = p.counterexample
    assert ce is not None
    src = "fixed example" if ce.explicit else "shrunk counterexample"
    if not ce.shrunk:
        src = "counterexample (not shrunk: the run ended its process)"
    lines = [
        "",
        f"{p.id}: {src} with {ce.case.n} point(s), order {ce.order.describe()}, "
        f"{ce.record.updates} update(s)",
    ]
    lines += other_cause_lines(p.others)
    lines.append(f"  {ce.failure.describe()}")
    lines += case_lines(ce.case)
    out = ", ".join(f"{k}={_short(v)}" for k, v in ce.record.output.items() if k in _SHOWN)
    if out:
        refit = ce.record.output.get("refit")
        lines.append(f"  returned{f' (refitted with {refit})' if refit else ''}: {out}")
    lines.append(f"  saved {files['csv']} (+ {files['json']})")
    lines.append(f"  replay: {files['check']}")
    if files.get("trace"):
        lines.append(f"  trace:  {files['trace']}")
    return lines


def _verdict_line(report: CheckReport, proof: ClaimProof | None) -> str:
    if report.failed:
        return f"{len(report.failed)} of {len(report.properties)} properties FAIL: " + ", ".join(
            p.id for p in report.failed
        )
    if report.status == "inconclusive":
        return (
            "INCONCLUSIVE (exit 3): "
            + "; ".join(report.inconclusive_reasons)
            + f"; every property held on the {report.runs} run(s) that finished"
        )
    if report.unchecked:
        return "NOT CHECKED: " + "; ".join(report.unchecked) + " -- no verdict (exit 5)"
    tail = ""
    if proof is not None:
        tail = (
            f"; the claim is proved by {proof.provers()}"
            if proof.proved
            else "; the claim is tested, not proved"
        )
    return f"all {len(report.properties)} properties of the claim hold{tail}"


def replay_text(r: Replay) -> str:
    """A replayed counterexample: its case, its updates and each property's verdict."""
    lines = [
        f"replay of {r.file} with variant {r.spec} (order {r.order.describe()}, {r.mode} mode)"
    ]
    lines += case_lines(r.case)
    lines += step_lines(r.record)
    for p, f in r.results.items():
        lines.append(f"  {p:8s} {'pass' if f is None else 'FAIL: ' + f.describe()}")
    if r.record.inconclusive:  # (the properties it did not decide are not listed)
        lines.append(f"  not decided by this run: {r.record.inconclusive}")
    if r.record.undecided:
        lines.append(
            f"  {r.record.undecided} check(s) left undecided: float rounding may decide "
            "them (a score within rounding error of 0, or an enclosure that is not finite)"
        )
    return "\n".join(lines)


def listing_text(listing: Listing) -> str:
    """The built-in variants (a finding marked) and the seeded bugs, one a line."""
    lines = ["built-in variants:"]
    for n, s, finding in listing.variants:
        note = " [finding: its claim fails]" if finding else ""
        lines.append(f"  {n:20s} {s}{note}")
    lines.append("seeded bugs (each should fail):")
    for b in listing.bugs:
        lines.append(f"  bug:{b.name:28s} {b.mistake} [caught by {b.expected}]")
    return "\n".join(lines)


# --- JSON ----------------------------------------------------------------------------------


def outcome_json(outcome: CheckOutcome) -> dict[str, Any]:
    """One variant's report, or every report and whether all hold."""
    if outcome.unfinished:
        return {
            "reports": [],
            "ok": False,
            "verdict": "inconclusive",
            "inconclusive_reasons": [outcome.unfinished],
        }
    docs = [checked_json(c, outcome.generic) for c in outcome.checked]
    return docs[0] if len(docs) == 1 else {"reports": docs, "ok": all(d["ok"] for d in docs)}


def checked_json(c: CheckedVariant, generic: Mapping[str, str]) -> dict[str, Any]:
    """One variant's report, with what it did with the database (``generic``: the
    statements of the generic properties, by property)."""
    doc = report_to_json(
        c.report, c.variant, c.saved, c.proof, generic=generic, diagnoses=c.diagnoses
    )
    db = c.database
    if db is not None:
        doc["database"] = {"where": db.where, "replayed": db.replayed, "recorded": db.recorded}
    return doc


def failure_json(f: Failure) -> dict[str, Any]:
    """A failure: where it happened and the relation that does not hold."""
    return {
        "description": f.describe(),
        "k": f.k,
        "j": None if f.j is None else f.j + 1,
        "lhs": None if f.lhs is None else _exact(f.lhs),
        "op": f.op,
        "rhs": None if f.rhs is None else _exact(f.rhs),
    }


def proof_to_json(proof: ClaimProof) -> dict[str, Any]:
    """The claim's proof as the ``proof`` member of a report."""
    rule = proof.rule
    return {
        "status": proof.status,
        "rule": None if rule is None else rule.rule_text(),
        "how": None if rule is None else rule.how,
        "C": None if rule is None else str(rule.C),
        "g": None if rule is None else str(rule.g),
        "reason": proof.reason,
        "description": proof.describe(),
        "obligations": [
            {"id": o.id, "statement": o.text, "z3": o.verdict.status, "detail": o.verdict.detail}
            for o in proof.obligations
        ],
        "coq": None
        if proof.coq is None
        else {"status": proof.coq, "seconds": proof.coq_seconds or 0.0},
        "properties": list(proof.properties),
    }


def _property_json(
    p: Any, covered: Sequence[str], saved: dict[str, Any], diagnosis: Any = None
) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "id": p.id,
        "instance_of": p.lemma,
        "statement": p.statement,
        "status": "fail" if not p.ok else "pass" if p.runs else "unchecked",
    }
    entry["runs"] = p.runs
    entry["proved"] = p.id in covered
    ce = p.counterexample
    if ce is not None:
        entry["counterexample"] = {
            "points": ce.case.n,
            "order": ce.order.describe(),
            "updates": ce.record.updates,
            "explicit": ce.explicit,
            "failure": failure_json(ce.failure),
            **saved[p.id],
        }
        if diagnosis is not None:
            entry["counterexample"]["diagnosis"] = diagnosis.to_json()
        entry["other_causes"] = [
            {"points": o.case.n, "failure": failure_json(o.failure)} for o in p.others
        ]
    return entry


def report_to_json(
    report: CheckReport,
    variant: Variant,
    saved: dict[str, dict[str, Any]],
    proof: ClaimProof | None = None,
    *,
    generic: Mapping[str, str],
    diagnoses: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A variant's report as one JSON object (``generic``: the statements of the generic
    properties, by property; ``diagnoses``: each failing property's diagnosis)."""
    covered = proof.properties if proof is not None else ()
    doc: dict[str, Any] = {
        "variant": report.variant,
        "summary": variant.summary,
        "ok": report.ok,
        "verdict": report.status,
        "unchecked": report.unchecked,
        "mode": report.mode,
        "examples": report.examples,
        "seed": report.seed,
        "runs": report.runs,
        "inconclusive": report.inconclusive,
        "skipped": report.skipped,
        "skip_reasons": [{"reason": r, "count": c} for r, c in report.skip_reasons.items()],
        "seconds": report.seconds,
        "properties": [
            _property_json(p, covered, saved, (diagnoses or {}).get(p.id))
            for p in report.properties
        ],
        "generic_properties": dict(generic),
    }
    if diagnoses:
        timed = [d for d in diagnoses.values() if d.seconds]
        doc["diagnosed"] = {
            "counterexamples": len(timed),
            "seconds": sum(d.seconds for d in timed),
        }
    reading = getattr(variant, "reading", None)
    if reading is not None:
        doc["reading"] = reading.describe()
    if proof is not None:
        doc["proof"] = proof_to_json(proof)
    if report.mode == "float":
        doc["max_missed"] = report.max_missed
        doc["undecided"] = report.undecided
    if report.symbolic:
        doc["symbolic"] = {
            "backend": "crosshair",
            **{k: report.symbolic.get(k, 0) for k in ("runs", "replayed", "dropped", "stopped")},
            "follows": FOLLOWS,
        }
    if report.cluster:
        doc["cluster"] = dict(report.cluster)
    if report.status == "inconclusive":  # (only then: the other reports stay as they were)
        doc["slow"] = report.slow
        doc["slow_reasons"] = [{"reason": r, "count": c} for r, c in report.slow_reasons.items()]
        doc["stopped"] = report.stopped
        doc["inconclusive_reasons"] = report.inconclusive_reasons
    return doc


def replay_json(r: Replay) -> dict[str, Any]:
    """A replayed counterexample as one JSON object."""
    return {
        "variant": r.spec,
        "file": r.file,
        "mode": r.mode,
        "order": r.order.describe(),
        "updates": r.record.updates,
        "choices": [j + 1 for j in r.record.choices],
        "ok": r.ok,
        "properties": {p: (None if f is None else f.describe()) for p, f in r.results.items()},
    }


def listing_json(listing: Listing) -> dict[str, Any]:
    """The built-in variants and the seeded bugs as one JSON object."""
    return {
        "variants": [{"name": n, "summary": s} for n, s, _ in listing.variants],
        "bugs": [
            {"name": f"bug:{b.name}", "mistake": b.mistake, "expected": b.expected}
            for b in listing.bugs
        ],
    }
