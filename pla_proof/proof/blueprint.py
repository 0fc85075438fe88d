"""The blueprint: check every obligation, record checker, status and time, render it.

A *blueprint* (after Lean's blueprints) is the proof as a graph of nodes, each
with its checked status.  :func:`check_all` runs every obligation of
:mod:`.obligations`; :func:`coverage` compares them with what the run-time
monitor evaluates, so a run-time check without a proof, or a proved lemma
without a run-time check, is visible.

>>> bp = check_all()
>>> bp.all_proved, bp.coverage.ok
(True, True)
>>> bp.verdict().startswith("verdict: all")
True
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import notation
from .chain import Chain, check_chain
from .identities import Verdict
from .implications import DEFAULT_TIMEOUT_MS
from .obligations import TRUSTED_AXIOMS, Obligation, TrustedAxiom, all_obligations
from .small_runs import SmallRuns, check_small_runs
from .statements import END_LEMMAS, NODES, RUNTIME_LEMMAS, Lemma

__all__ = ["Blueprint", "Coverage", "Result", "check_all", "check_one", "coverage"]

#: Kinds of run-time lemma that are taken, not proved (they are other obligations' hypotheses).
TAKEN = ("assumption", "definition")


@dataclass(frozen=True)
class Result:
    """One obligation's outcome."""

    obligation: Obligation
    status: str
    seconds: float
    detail: str

    @property
    def proved(self) -> bool:
        return self.status == "proved"

    def to_json(self) -> dict[str, Any]:
        ob = self.obligation
        return {
            "id": ob.id,
            "node": ob.node,
            "statement": ob.statement,
            "latex": obligation_latex(ob),
            "depends_on": list(ob.depends_on),
            "checker": ob.checker,
            "scope": ob.scope,
            "status": self.status,
            "seconds": round(self.seconds, 6),
            "detail": self.detail,
        }


def check_one(ob: Obligation, *, timeout_ms: int = DEFAULT_TIMEOUT_MS) -> Result:
    """Run one obligation; an exception in a checker is ``error`` (never ``proved``)."""
    start = time.perf_counter()
    try:
        verdict = ob.check(timeout_ms=timeout_ms)
    except Exception as exc:  # a checker crash must not look like a proof
        verdict = Verdict("error", f"{type(exc).__name__}: {exc}")
    return Result(ob, verdict.status, time.perf_counter() - start, verdict.detail)


@dataclass(frozen=True)
class Coverage:
    """How the proved obligations and the run-time checks line up.

    * ``runtime_unproved``: run-time lemmas (other than assumptions/definitions)
      with no proved obligation;
    * ``runtime_unused``: run-time assumptions/definitions that no obligation relies
      on and none proves;
    * ``nodes_unproved``: other nodes with no proved obligation;
    * ``orphans``: obligations naming no node of the blueprint;
    * ``not_monitored``: proved nodes with no run-time check, and why (not a gap).
    """

    runtime_unproved: tuple[str, ...]
    runtime_unused: tuple[str, ...]
    nodes_unproved: tuple[str, ...]
    orphans: tuple[str, ...]
    not_monitored: tuple[tuple[str, str], ...]
    by_node: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not (
            self.runtime_unproved or self.runtime_unused or self.nodes_unproved or self.orphans
        )

    def gaps(self) -> list[str]:
        """One line per gap (empty when everything lines up)."""
        out = [f"run-time check {i} has no proved obligation" for i in self.runtime_unproved]
        out += [f"run-time check {i} is used by no obligation" for i in self.runtime_unused]
        out += [f"node {i} has no proved obligation" for i in self.nodes_unproved]
        out += [f"obligation {i} belongs to no node" for i in self.orphans]
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "gaps": self.gaps(),
            "runtime_checks": [lem.id for lem in (*RUNTIME_LEMMAS, *END_LEMMAS)],
            "not_monitored": {node: why for node, why in self.not_monitored},
            "by_node": {node: list(ids) for node, ids in self.by_node.items()},
        }


def coverage(
    results: Sequence[Result],
    *,
    runtime: Sequence[Lemma] | None = None,
    nodes: Sequence[Lemma] = NODES,
    axioms: Sequence[TrustedAxiom] = TRUSTED_AXIOMS,
) -> Coverage:
    """Compare the proved obligations with the run-time checks (default: the monitor's)."""
    if runtime is None:
        runtime = (*RUNTIME_LEMMAS, *END_LEMMAS)
    node_ids = {n.id for n in nodes} | {lem.id for lem in runtime}
    proved_by: dict[str, list[str]] = {}
    for r in results:
        if r.proved:
            proved_by.setdefault(r.obligation.node, []).append(r.obligation.id)
    used: set[str] = set()
    for r in results:
        used.update(r.obligation.depends_on)
    axiom_backing = {ax.id: ax.backed_by for ax in axioms}
    proved_ids = {r.obligation.id for r in results if r.proved}

    def is_proved(node: str) -> bool:
        if node in axiom_backing:  # a trusted axiom counts when its backing is proved
            return bool(axiom_backing[node]) and set(axiom_backing[node]) <= proved_ids
        return bool(proved_by.get(node))

    runtime_ids = {lem.id for lem in runtime}
    runtime_unproved = tuple(
        lem.id for lem in runtime if lem.kind not in TAKEN and not is_proved(lem.id)
    )
    runtime_unused = tuple(
        lem.id
        for lem in runtime
        if lem.kind in TAKEN and lem.id not in used and not is_proved(lem.id)
    )
    nodes_unproved = tuple(
        n.id
        for n in nodes
        if n.kind not in TAKEN and n.id not in runtime_ids and not is_proved(n.id)
    )
    orphans = tuple(r.obligation.id for r in results if r.obligation.node not in node_ids)
    not_monitored = tuple(
        (n.id, str(n.extra.get("monitored", "no run-time check")))
        for n in nodes
        if n.id not in runtime_ids
    )
    return Coverage(
        runtime_unproved,
        runtime_unused,
        nodes_unproved,
        orphans,
        not_monitored,
        {node: tuple(ids) for node, ids in proved_by.items()},
    )


@dataclass
class Blueprint:
    """Every obligation's result, the coverage against the monitor, total time."""

    results: list[Result]
    seconds: float
    coverage: Coverage
    axioms: tuple[TrustedAxiom, ...] = TRUSTED_AXIOMS
    nodes: tuple[Lemma, ...] = NODES
    #: only some obligations were checked (``verify --only``): no coverage verdict
    partial: bool = False
    #: where every hypothesis comes from (None when partial)
    chain: Chain | None = None
    #: per obligation: checker -> status (``sympy``/``z3`` and, when run, ``coq``)
    agreement: dict[str, dict[str, str]] = field(default_factory=dict)
    #: the theorem on small runs from the algorithm alone, beside the composition
    small_runs: SmallRuns | None = None
    #: the hand-written Coq development, per theorem: ``proved`` / ``failed`` / ``not
    #: reached`` / ``not run`` (empty: not exported, as with ``--only``)
    kernel: dict[str, str] = field(default_factory=dict)
    #: its theorems (name, kind, nodes, claim, summary, step lemmas used)
    kernel_theorems: list[Any] = field(default_factory=list)

    def kernel_nodes(self) -> dict[str, list[str]]:
        """Blueprint node -> the development's theorems, proved by ``coqc``, that prove it
        end to end about the defined algorithm."""
        out: dict[str, list[str]] = {}
        for t in self.kernel_theorems:
            if self.kernel.get(t.name) == "proved":
                for node in t.nodes:
                    out.setdefault(node, []).append(t.name)
        return out

    def _kernel_lines(self) -> list[str]:
        """The development's theorems, each with its status and the nodes it proves."""
        if not self.kernel_theorems:
            return []
        lines = ["kernel (Coq, about the defined algorithm; verify --coq compiles it):"]
        for t in self.kernel_theorems:
            status = self.kernel.get(t.name, "not run")
            claim = f"; claim {t.claim}" if t.claim else ""
            lines.append(f"  {status:<8} {t.kind} {t.name} [{', '.join(t.nodes)}{claim}]")
            lines.append(f"           {t.summary}")
        return lines

    def _kernel_ok(self) -> bool:
        return all(v in ("proved", "not run") for v in self.kernel.values())

    @property
    def ok(self) -> bool:
        """Every obligation proved (and exported to Coq; compiled there when Coq ran), the
        chain closed, the coverage complete and the small runs in agreement."""
        if self.partial:
            return self.all_proved and self._agree()
        chain_ok = self.chain is not None and self.chain.ok
        runs_ok = self.small_runs is not None and self.small_runs.ok
        return (
            self.all_proved
            and chain_ok
            and self.coverage.ok
            and self._agree()
            and runs_ok
            and self._kernel_ok()
        )

    def _agree(self) -> bool:
        """Every checker that ran proved it; Coq not run is reported, not a failure, but an
        obligation that cannot be exported to Coq is (``not_exported`` lists those)."""
        return all(
            status == "proved" or status.startswith("not run")
            for per in self.agreement.values()
            for status in per.values()
        )

    @property
    def not_exported(self) -> list[str]:
        return [
            oid
            for oid, per in self.agreement.items()
            if per.get("coq", "").startswith("not exported")
        ]

    @property
    def all_proved(self) -> bool:
        return bool(self.results) and all(r.proved for r in self.results)

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for r in self.results:
            out[r.obligation.checker] = out.get(r.obligation.checker, 0) + int(r.proved)
        return out

    def verdict(self) -> str:
        """The one-line verdict."""
        n = len(self.results)
        axioms = ", ".join(
            f"{ax.id} ({ax.statement.split(':')[0]}, {ax.scope})" for ax in self.axioms
        )
        if self.all_proved:
            by = ", ".join(f"{name} {count}" for name, count in sorted(self.counts().items()))
            if self.partial:
                return (
                    f"verdict: all {n} selected obligations proved ({by}) in {self.seconds:.2f} s"
                )
            gaps = "" if self.coverage.ok else f"; {len(self.coverage.gaps())} coverage gap(s)"
            trusted = f"trusted axiom: {axioms}" if self.axioms else "no trusted axiom"
            chain = self.chain
            closed = (
                "chain closed"
                if chain is not None and chain.ok
                else "CHAIN OPEN: "
                + "; ".join((chain.undischarged + chain.problems)[:4] if chain else ["not run"])
            )
            coq = self._coq_summary()
            runs = self.small_runs
            small = (
                ""
                if runs is None
                else "; small runs agree"
                if runs.ok
                else f"; SMALL RUNS: {len(runs.problems)} problem(s)"
            )
            return (
                f"verdict: all {n} obligations proved ({by}) in {self.seconds:.2f} s; "
                f"{closed}; {trusted}{coq}{small}{gaps}"
            )
        bad = [r for r in self.results if not r.proved]
        shown = ", ".join(f"{r.obligation.id} ({r.status})" for r in bad[:8])
        more = f" and {len(bad) - 8} more" if len(bad) > 8 else ""
        return f"verdict: {len(bad)} of {n} obligations NOT proved: {shown}{more}"

    def _coq_summary(self) -> str:
        coq = [per["coq"] for per in self.agreement.values() if "coq" in per]
        if not coq:
            return ""
        missing = sum(c.startswith("not exported") for c in coq)
        skipped = f" ({missing} NOT EXPORTED)" if missing else ""
        if all(c.startswith(("not run", "not exported")) for c in coq):
            return f"; Coq not run{skipped}"
        agree = sum(c == "proved" for c in coq)
        return f"; Coq agrees on {agree} of {len(coq)}{skipped}{self._kernel_summary()}"

    def _kernel_summary(self) -> str:
        """The development's line: the theorem about the algorithm, kernel-checked."""
        if not self.kernel or all(v == "not run" for v in self.kernel.values()):
            return ""
        bad = [name for name, v in self.kernel.items() if v != "proved"]
        if bad:
            return f"; KERNEL: {len(bad)} theorem(s) not proved ({', '.join(bad[:4])})"
        claims = sum(1 for t in self.kernel_theorems if t.claim)
        algorithm = (
            ", the cyclic algorithm over Q (its bound, separable <-> it converges)"
            if "cyclic_iff" in self.kernel
            else ""
        )
        closed = sum(1 for t in self.kernel_theorems if t.closed and t.name in self.kernel)
        free = f"; {closed} over Q axiom-free" if closed else ""
        return (
            f"; kernel-checked end to end: the Perceptron's convergence, the generic lemma"
            f"{algorithm} and {claims} catalog claims ({len(self.kernel)} Coq theorems{free})"
        )

    def to_json(self) -> dict[str, Any]:
        sources = self.chain.sources if self.chain is not None else {}
        kernel_nodes = self.kernel_nodes()
        obligations = []
        for r in self.results:
            entry = r.to_json()
            entry["hypotheses"] = [s.to_json() for s in sources.get(r.obligation.id, [])]
            entry["checkers"] = self.agreement.get(
                r.obligation.id, {r.obligation.checker: r.status}
            )
            obligations.append(entry)
        return {
            "ok": self.ok,
            "all_proved": self.all_proved,
            "obligations": obligations,
            "chain": self.chain.to_json() if self.chain is not None else None,
            "trusted": TRUSTED_BASE,
            "nodes": [
                {
                    "id": n.id,
                    "title": n.title,
                    "kind": n.kind,
                    "text": n.text,
                    "depends_on": list(n.depends_on),
                    "source": n.source,
                    "runtime": n.runtime is not None,
                    "kernel": kernel_nodes.get(n.id, []),
                }
                for n in self.nodes
            ],
            "trusted_axioms": [
                {
                    "id": ax.id,
                    "statement": ax.statement,
                    "scope": ax.scope,
                    "backed_by": list(ax.backed_by),
                    "reason": ax.reason,
                }
                for ax in self.axioms
            ],
            "coverage": None if self.partial else self.coverage.to_json(),
            "small_runs": self.small_runs.to_json() if self.small_runs is not None else None,
            "kernel": [
                {
                    "name": t.name,
                    "kind": t.kind,
                    "status": self.kernel.get(t.name, "not run"),
                    "nodes": list(t.nodes),
                    "claim": t.claim,
                    "statement": t.summary,
                    "uses": list(t.uses),
                }
                for t in self.kernel_theorems
            ],
            "partial": self.partial,
            "seconds": round(self.seconds, 6),
            "verdict": self.verdict(),
        }

    def render(self, *, details: bool = True) -> str:
        """The blueprint as text: nodes in proof order, each with its obligations."""
        lines = [
            "Blueprint: the Perceptron convergence theorem (Kalyanakrishnan's note, Theorem 3), "
            f"{len(self.results)} obligations",
            "",
        ]
        by_node: dict[str, list[Result]] = {}
        for r in self.results:
            by_node.setdefault(r.obligation.node, []).append(r)
        runtime_ids = {lem.id for lem in (*RUNTIME_LEMMAS, *END_LEMMAS)}
        axiom_ids = {ax.id for ax in self.axioms}
        for node in self.nodes:
            if self.partial and node.id not in by_node:
                continue
            deps = f"  <- {', '.join(node.depends_on)}" if node.depends_on else ""
            if node.id in runtime_ids:
                check = "run-time: every update" if node.at == "update" else "run-time: at the end"
            else:
                check = "run-time: -"
            lines.append(f"{node.id} [{node.kind}] {node.title}  ({check}){deps}")
            lines.append(f"    {node.text}")
            if node.id in axiom_ids:
                ax = next(a for a in self.axioms if a.id == node.id)
                lines.append(f"    TRUSTED AXIOM ({ax.scope}); backed by {', '.join(ax.backed_by)}")
            if node.runtime is not None:
                lines.append(f"    {notation.text(node)}")
            if node.kind in TAKEN and node.id not in by_node:
                lines.append("    taken as given (a hypothesis of the obligations that use it)")
            for r in by_node.get(node.id, []):
                ob = r.obligation
                lines.append(
                    f"    {r.status:<8} {ob.id:<16} {ob.checker_label:<24} {r.seconds:7.3f} s"
                    + (f"  <- {', '.join(ob.depends_on)}" if ob.depends_on else "")
                )
                if details:
                    lines.append(f"             {ob.statement}")
                    srcs = self.chain.sources.get(ob.id, []) if self.chain else []
                    if srcs:
                        lines.append(f"             from: {_sources_line(srcs)}")
                others = {
                    c: v
                    for c, v in self.agreement.get(ob.id, {}).items()
                    if c != ob.checker and not v.startswith("not run")
                }
                if others:
                    lines.append(
                        "             also: " + ", ".join(f"{c} {v}" for c, v in others.items())
                    )
                if not r.proved:
                    lines.append(f"             !! {r.detail}")
            lines.append("")
        orphans = [r for r in self.results if r.obligation.node not in {n.id for n in self.nodes}]
        for r in orphans:
            lines.append(f"    {r.status:<8} {r.obligation.id} (no node)")
        if self.partial:
            lines.append(self.verdict())
            return "\n".join(lines)
        cov = self.coverage
        monitored = ", ".join(sorted(runtime_ids, key=_order))
        lines.append(
            f"run-time checks ({monitored}): "
            + ("each backed by the blueprint" if cov.ok else "GAPS")
        )
        for gap in cov.gaps():
            lines.append(f"  gap: {gap}")
        if self.chain is not None:
            lines.append(self.chain.summary())
            for item in self.chain.undischarged:
                lines.append(f"  undischarged: {item}")
            for item in self.chain.problems:
                lines.append(f"  problem: {item}")
        if self.small_runs is not None:
            lines += self.small_runs.lines()
        lines += self._kernel_lines()
        lines.append("trusted: " + "; ".join(TRUSTED_BASE.values()))
        lines.append(self.verdict())
        return "\n".join(lines)


def _sources_line(sources: Sequence[Any]) -> str:
    out = []
    for s in sources:
        if s.kind == "undischarged":
            out.append("UNDISCHARGED")
        elif s.renaming and s.renaming != "same":
            out.append(f"{s.source} [{s.renaming}]")
        else:
            out.append(s.source)
    return ", ".join(out)


def _order(node_id: str) -> int:
    ids = [n.id for n in NODES]
    return ids.index(node_id) if node_id in ids else len(ids)


def check_all(
    obligations: Iterable[Obligation] | None = None,
    *,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
    runtime: Sequence[Lemma] | None = None,
    partial: bool = False,
) -> Blueprint:
    """Check every obligation (default: the whole proof), the chain and the coverage."""
    obs = tuple(all_obligations() if obligations is None else obligations)
    start = time.perf_counter()
    results = [check_one(ob, timeout_ms=timeout_ms) for ob in obs]
    chain = None if partial else check_chain(obs, [r.obligation.id for r in results if r.proved])
    seconds = time.perf_counter() - start
    agreement = {r.obligation.id: {r.obligation.checker: r.status} for r in results}
    return Blueprint(
        results,
        seconds,
        coverage(results, runtime=runtime),
        partial=partial,
        chain=chain,
        agreement=agreement,
        small_runs=None if partial else check_small_runs(),
    )


#: What a proved verdict rests on (docs/proof.md says the same).
TRUSTED_BASE: dict[str, str] = {
    "sympy": "SymPy's expansion of polynomials (the rewriting rules of identities.py, no "
    "simplify) for the identities",
    "z3": "Z3's decision procedure for real arithmetic (unsat of the negation) for the "
    "implications",
    "induction": "the induction principle over the updates k, the dimension d and the "
    "length n of a sum (base case at 1, step from the previous index)",
    "coq": "Coq's kernel, as an independent second opinion on every obligation "
    "(pla-proof verify --coq)",
}


def obligation_latex(ob: Obligation) -> str:
    """An obligation's claim in LaTeX: its hypotheses, then its conclusion."""
    if ob.conclusion is None:
        return ""
    concl = notation.latex(ob.conclusion, inline=False)
    if not ob.hypotheses:
        return f"${concl}$"
    hyps = r",\; ".join(notation.latex(h, inline=False) for h in ob.hypotheses)
    return f"${hyps} \\;\\Longrightarrow\\; {concl}$"
