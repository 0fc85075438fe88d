"""What ``pla-proof audit`` prints: the verdict on a certificate, in text and JSON.

>>> from pla_proof.proof.audit import Audit
>>> print(audit_text(Audit("T.v", False, "it contains `Admitted`, which no certificate needs")))
certificate T.v: REJECTED: it contains `Admitted`, which no certificate needs
"""

from __future__ import annotations

from typing import Any

from ..proof.audit import ALLOWED, Audit

__all__ = ["audit_json", "audit_text"]


def audit_text(a: Audit) -> str:
    if not a.ok:
        return f"certificate {a.path}: REJECTED: {a.reason}"
    n = a.numbers
    axioms = ", ".join(a.axioms)
    if a.kind == "non-separable data":
        head = (
            f"certificate {a.path}: non-separable data (n = {n['n']}, d = {n['d']}): no "
            "separator exists, and the cyclic Perceptron never returns"
        )
    else:
        run = f"k = {n['k']} update(s); " if a.kind != "separator" else ""
        head = (
            f"certificate {a.path}: a {a.kind} ({run}the data's bound {n['bound']}, "
            f"gamma {n['gamma']}, R2 {n['R2']})"
        )
    lines = [
        head,
        "  compiled against pla_proof's own library (not a copy beside the file)",
        f"  theorems: {', '.join(a.theorems)} -- each states what a {a.kind} certificate "
        "states, on these data and numbers",
        "  assumptions: "
        + (
            f"{axioms} (the reals' classical axioms, documented in docs/proof.md); nothing else"
            if a.axioms
            else "none (closed under the global context)"
        ),
        f"accepted ({a.seconds:.1f} s)",
    ]
    return "\n".join(lines)


def audit_json(a: Audit) -> dict[str, Any]:
    return {
        "certificate": a.path,
        "ok": a.ok,
        "reason": a.reason,
        "kind": a.kind,
        "theorems": list(a.theorems),
        "axioms": list(a.axioms),
        "allowed_axioms": sorted(ALLOWED),
        "numbers": dict(a.numbers),
        "seconds": round(a.seconds, 3),
    }
